#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# An arm's cgroup is reused from child to child, reset in between (where
# the children are pinned, by a thread on another PU while the other arms'
# children run): each child's cgroup_peak is still its own. Rows share their
# arms' cgroups, so the children of a row that touches nothing extra follow
# children that touched 63 or 64 MiB in the same cgroups: a reset missed,
# late or half done shows as a peak of 32 MiB or more where there should be a
# few.
# (Counts off: only the timed children are placed in cgroups; valgrind's
# would make the run ~20 times slower and check nothing more here.)
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin"
[ -x "$spin" ] || fail "no $spin"
expect_rc 3 "$PERFAB" run -q --counts off --reps 4 --max-reps 4 --no-sanity-gate \
	--parameter-list m 64,0,63,1 \
	"$spin work=200 extra_mib={m}" "$spin work=200 extra_mib={m}" --out p.json
jq -e '[.rows[].reps[].results[].cgroup_peak > 0] | all' p.json >/dev/null ||
	skip "no usable cgroup here: $(jq -c '.rows[0].reps[0].null_reasons.base.cgroup_peak' p.json)"
jq -r '.rows[] | .params.m as $m | .reps[] | .results | to_entries[] |
	"\($m) \(.key) \(.value.cgroup_peak)"' p.json >peaks
awk '{ n[$1]++; if (!($1 in lo) || $3 < lo[$1]) lo[$1] = $3; if ($3 > hi[$1]) hi[$1] = $3 }
	END { for (m in n) printf "extra_mib=%s: %d children, cgroup_peak %.1f to %.1f MiB\n",
		m, n[m], lo[m] / 1048576, hi[m] / 1048576 }' peaks
# m MiB touched: at least that much charged.
awk '$1 >= 32 && $3 < $1 * 1048576 { print "extra_mib=" $1 ", arm " $2 ": cgroup_peak " $3; bad = 1 }
	END { exit bad }' peaks || fail "a child that touched m MiB shows less"
# Nothing extra: the spin program alone, far below what the other rows left.
awk '$1 < 32 && $3 >= 32 * 1048576 { print "extra_mib=" $1 ", arm " $2 ": cgroup_peak " $3; bad = 1 }
	END { exit bad }' peaks || fail "a child's cgroup_peak carries what an earlier child charged"
[ "$(awk '{ n[$1]++ } END { for (m in n) if (n[m] >= 12) k++; print k }' peaks)" = 4 ] ||
	fail "expected 4 rows of at least 4 reps x 3 arms: $(awk '{ print $1 }' peaks | sort | uniq -c | tr '\n' ' ')"
exit 0
