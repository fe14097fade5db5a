#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# counts_spare.sh — the counting pass's children side by side on PUs no
# timed child uses (run/count_batch.h, doc/method.md §13), seen through a
# PERFAB_VALGRIND wrapper that logs each counting child's start: its PID,
# the CPUs it may run on, and how many earlier counting children are
# still running then.
#   - an A/A run starts at most 3 counting children (one program, counted
#     until two reps agree), each on a spare PU, never on the timed
#     children's, the spare PU's lock held meanwhile (another perfab run
#     does not time there), and the artifact records where each ran
#     (run.binding.counting_cpus);
#   - a 2x slower head still FAILs, and its two programs are counted side
#     by side, each on its own PU; its row stops once its counting reps
#     FAIL it on exact counts (run/looks_fixed.h), an A/A row never
#     before its first look;
#   - a SIGINT while they count stops both: the run dies of it and
#     --resume finishes it.
# The PU locks are the test's own (PERFAB_PU_LOCK_DIR), so the spare PU is
# free whatever else runs on the machine.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads
require valgrind jq flock
unset PERFAB_COUNTS
PERFAB_PU_LOCK_DIR=$T/locks
export PERFAB_PU_LOCK_DIR
mkdir "$PERFAB_PU_LOCK_DIR"
vg=$(command -v valgrind)
cat >vgwrap <<EOF
#!/bin/sh
case "\$*" in *--version*) exec "$vg" "\$@" ;; esac
cpus=\$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
# Is the PU's lock held (by perfab) while the child counts there?
lock=free
flock -n "$T/locks/perfab-pu-\$cpus.lock" true 2>/dev/null || lock=held
# One wrapper at a time counts the earlier ones still running and logs.
(
	flock 9
	running=0
	for p in \$(cut -d' ' -f1 "$T/vg.log" 2>/dev/null); do
		[ -d "/proc/\$p" ] && running=\$((running + 1))
	done
	echo "\$\$ \$cpus \$running \$lock" >>"$T/vg.log"
) 9>>"$T/vg.lock"
if [ -n "\${INTERRUPT_AT:-}" ] && [ "\$(wc -l <"$T/vg.log")" -eq "\$INTERRUPT_AT" ]; then
	kill -INT "\$PPID"
fi
exec "$vg" "\$@"
EOF
chmod +x vgwrap
PERFAB_VALGRIND=$T/vgwrap
export PERFAB_VALGRIND
cmd="$SPIN work=3000000 drain_ms=0 release_bound_ms=0"

# --- A/A: one program, at most 3 counting children, none on the timing PU.
: >vg.log
expect_not_fail "an A/A run does not FAIL" "$PERFAB" run -q --arm "base=$cmd" \
	--arm "head=$cmd" --out aa.json
n=$(wc -l <vg.log)
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "A/A started $n counting children (want 1 to 3): $(cat vg.log)"
pass "A/A: $n counting children"
pus=$(jq -r '.run.binding.allowed_pus' aa.json)
timing=$(jq -r '.run.binding.children_cpus' aa.json)
jq -e --argjson n "$n" '.run.binding.counting_cpus | length == $n' aa.json >/dev/null ||
	fail "run.binding.counting_cpus does not list each counting child: $(jq -c .run.binding aa.json)"
if [ "$pus" -ge 2 ] && [ "$timing" != null ]; then
	while read -r pid cpus running lock; do
		[ "$cpus" != "$timing" ] || fail "counting child $pid ran on the timing PU $timing though a spare PU was free"
		# Another perfab run must not choose it to time its children.
		[ "$lock" = held ] || fail "counting child $pid ran on PU $cpus with its lock free"
	done <vg.log
	jq -e --arg t "$timing" '.run.binding.counting_cpus | all(. != $t)' aa.json >/dev/null ||
		fail "the artifact records a counting child on the timing PU: $(jq -c .run.binding aa.json)"
	pass "A/A: every counting child ran on a spare PU, not the timing PU $timing"
fi
# A PASS is never taken before the first look: its time guards need it.
[ "$(jq '.rows[0].reps | length' aa.json)" -ge 12 ] ||
	fail "the A/A row stopped before its first look: $(jq '.rows[0].reps | length' aa.json) reps"

# --- A/B, 2x slower head: FAILs; its two programs counted side by side.
: >vg.log
expect_rc 1 "$PERFAB" run --arm "base=$cmd" --arm "head=$cmd slowdown_pct=100" --out ab.json
# Its FAIL is fixed once the counting reps are done (looks_fixed.h): the
# row stops at the end of that block, not at the first look (12).
reps=$(jq '.rows[0].reps | length' ab.json)
cr=$(jq '.run.counts.reps' ab.json)
[ "$reps" = "$cr" ] && [ "$(jq -r .run.stop_reason ab.json)" = decided ] ||
	fail "the 2x head's row ran $reps reps (counting reps $cr), stop $(jq -r .run.stop_reason ab.json)"
grep_err "FAILs on its exact counts after $cr reps"
expect_rc 1 "$PERFAB" ledger ab.json
pass "A/B: the exact FAIL stopped the row after its $cr counting reps, and its ledger FAILs"
jq -e '[.rows[0].reps[0].results[].instructions] | all(. != null)' ab.json >/dev/null ||
	fail "rep 1 has no counts: $(jq -c '.rows[0].reps[0].results' ab.json | cut -c1-300)"
if [ "$pus" -ge 2 ] && [ "$timing" != null ]; then
	awk '$3 >= 1 { side = 1 } END { exit !side }' vg.log ||
		fail "no counting child started while another ran: $(cat vg.log)"
	[ "$(head -2 vg.log | cut -d' ' -f2 | sort -u | wc -l)" = 2 ] ||
		fail "the first two counting children shared a PU: $(cat vg.log)"
	pass "A/B: base and head counted side by side on PUs of their own"
fi

# --- A SIGINT while both count: the run dies of it; --resume finishes it.
: >vg.log
INTERRUPT_AT=2 "$PERFAB" run -q --arm "base=$cmd" --arm "head=$cmd slowdown_pct=100" \
	--out int.json >out 2>err
rc=$?
[ "$rc" = 130 ] || { cat err >&2; fail "SIGINT while counting: exit $rc, expected 130"; }
jq -e '.complete != true' int.json >/dev/null || fail "an interrupted run's artifact says complete"
expect_rc 1 "$PERFAB" run -q --resume int.json --arm "base=$cmd" --arm "head=$cmd slowdown_pct=100"
jq -e '.complete == true and ([.rows[0].reps[0].results[].instructions] | all(. != null))' \
	int.json >/dev/null || fail "the resumed run is not complete with counts"
pass "SIGINT during side-by-side counting: resumable, and the resumed run FAILs the 2x head"
