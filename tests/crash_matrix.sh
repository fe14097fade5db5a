#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue #6 crash matrix: kill -9 perfab at 24 different points of a run —
# before children, before latency replays and inside checkpoint writes
# (before the temp file, half written, synced but not renamed, renamed but
# the directory not synced). Every time: the artifact parses, complete is
# false, --resume completes it, and the result is balanced and judged like
# an uninterrupted run (a 2x slowdown FAILs). 12 reps, not 6: at n = 6 the
# sign-test interval is [min, max] and one preempted rep on a busy runner
# moved the noise floor past the slowdown.
. "${top_srcdir}/tests/lib.sh"

spin="$WL/perfab-spin work=5000000 drain_ms=5 release_bound_ms=10"
# --resume is given the arms again: it checks the artifact against them.
arms() { "$@" --arm "base=$spin slowdown_pct=0" --arm "head=$spin slowdown_pct=100" --null-arm; }
run() { arms "$PERFAB" run --reps 12 -q --seed 5 "$@"; }

expect_rc 1 run --out whole.json
[ "$(jq -r .complete whole.json)" = true ] || fail "uninterrupted run incomplete"
points=0
for at in $(seq 5 28); do
	rm -f c.json c.json.tmp.*
	PERFAB_TEST_CRASH_AT=$at run --out c.json >/dev/null 2>"$T/crash.err"
	rc=$?
	[ "$rc" = 137 ] || fail "crash point $at: perfab exited $rc, not killed (-9)"
	where=$(sed -n 's/^perfab: crash point [0-9]*: //p' "$T/crash.err")
	jq -e . c.json >/dev/null 2>&1 || fail "crash point $at ($where): artifact does not parse"
	[ "$(jq -r .complete c.json)" = false ] || fail "crash point $at: complete is not false"
	expect_rc 1 arms "$PERFAB" run --resume c.json -q
	grep_out "overall: FAIL"
	[ "$(jq -r .complete c.json)" = true ] || fail "crash point $at: resume did not complete"
	[ "$(jq '.rows[0].reps | length' c.json)" = 12 ] || fail "crash point $at: not 12 reps after resume"
	ls c.json.tmp.* >/dev/null 2>&1 && fail "crash point $at: a stale temp file survived the resume"
	expect_rc 1 "$PERFAB" gate c.json
	# Same protocol, seed, arms and orders as the uninterrupted run.
	[ "$(jq -c '[.seed, .protocol, [.arms[].sha256], [.rows[0].reps[].order]]' c.json)" = \
	  "$(jq -c '[.seed, .protocol, [.arms[].sha256], [.rows[0].reps[].order]]' whole.json)" ] ||
		fail "crash point $at: resumed run differs in seed, arms or rotation"
	echo "crash point $at ($where): parsed, resumed, FAIL as uninterrupted"
	points=$((points + 1))
done
# The first points come before the first checkpoint exists: either no
# artifact at all or a valid one, never a torn one.
for at in 1 2 3 4; do
	rm -f e.json e.json.tmp.*
	PERFAB_TEST_CRASH_AT=$at run --out e.json >/dev/null 2>&1
	[ ! -e e.json ] || jq -e '.complete == false' e.json >/dev/null || fail "crash point $at: torn first checkpoint"
	points=$((points + 1))
done
echo "$points crash points survived"
[ "$points" -ge 20 ] || fail "fewer than 20 crash points"
exit 0
