#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Placement on a shared host: by default the children get the least busy
# PU that is not CPU 0 and not held by another perfab run (an advisory
# per-PU lock, held for the run's life); the choice is recorded, and
# `perfab env` shows the PUs other runs hold. Two runs at once measure on
# different PUs.
. "${top_srcdir}/tests/lib/test-lib.sh"

require jq
require flock
[ "$(nproc)" -ge 2 ] || skip "one usable PU: nothing to choose between"
PERFAB_PU_LOCK_DIR=$T/locks
export PERFAB_PU_LOCK_DIR
mkdir "$PERFAB_PU_LOCK_DIR"

# Run A: long enough to overlap run B (each child sleeps 0.2 s).
"$PERFAB" run -q --reps 6 --max-reps 6 --out a.json "sleep 0.2" "sleep 0.2" >a.out 2>a.err &
apid=$!
# Wait for A to hold its PU's lock.
i=0
held=
while [ $i -lt 300 ] && [ -z "$held" ]; do
	for f in "$PERFAB_PU_LOCK_DIR"/perfab-pu-*.lock; do
		[ -e "$f" ] || continue
		flock -n "$f" true || held=$f
	done
	[ -n "$held" ] || sleep 0.05
	i=$((i + 1))
done
[ -n "$held" ] || { kill "$apid"; fail "run A holds no PU lock"; }
pu_a=${held##*perfab-pu-}
pu_a=${pu_a%.lock}
[ "$pu_a" != 0 ] || fail "run A took CPU 0 with another PU free"
expect_rc 0 "$PERFAB" env --format json
jq -e --argjson pu "$pu_a" '.placement.held | index($pu)' out >/dev/null ||
	fail "perfab env does not show PU $pu_a held by run A"
jq -e --arg pu "$pu_a" '.placement.children_cpus != $pu' out >/dev/null ||
	fail "perfab env would place a new run on the PU run A holds"
# Run B while A runs: another PU.
"$PERFAB" run -q --reps 3 --max-reps 3 --out b.json "true" "true" >b.out 2>b.err
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ] || { cat b.out b.err >&2; fail "run B exited $rc"; }
kill -0 "$apid" 2>/dev/null || echo "note: run A ended before run B did" >&2
wait "$apid"
jq -e --arg pu "$pu_a" '.run.binding.children_cpus == $pu and (.run.binding.choice | test("not held by another perfab run"))' \
	a.json >/dev/null || fail "run A's artifact does not record PU $pu_a and why"
jq -e --arg pu "$pu_a" '.run.binding.children_cpus != $pu' b.json >/dev/null ||
	{ jq .run.binding a.json b.json >&2; fail "runs A and B shared PU $pu_a"; }
# With A gone its lock is free again.
flock -n "$held" true || fail "run A's PU lock outlived it"
exit 0
