#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The crash matrix: kill -9 perfab at many points of a run — before
# children (p99 is not judged, so no rep has latency replays: a kill before
# one is a kill inside a rep, as before a child), inside journal appends (record half
# written, written not synced, synced) and inside folds of the journal
# into the artifact (before the temp file, half written, synced but not
# renamed, renamed but the directory not synced), and at the end (the last
# fold, the journal not yet removed). Every time the artifact with its
# journal is judgeable (complete) or resumable: it parses, --resume
# completes it, and the result is balanced and judged like an
# uninterrupted run (a 2x slowdown FAILs). 12 reps, not 6: at n = 6 the
# sign-test interval is [min, max] and one preempted rep on a busy runner
# moved the noise floor past the slowdown.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin work=5000000 drain_ms=5 release_bound_ms=10"
# --resume is given the arms again: it checks the artifact against them.
arms() { "$@" --arm "base=$spin slowdown_pct=0" --arm "head=$spin slowdown_pct=100" --null-arm; }
# (Counts off: exact counts would FAIL the 2x head in its first block and
# end the run there; the crash points of a whole 12-rep run, its folds of
# the journal among them, are what is under test.)
run() { arms "$PERFAB" run --counts off --reps 12 --max-reps 12 -q --seed 5 "$@"; }

expect_rc 1 run --out whole.json
[ "$(jq -r .complete whole.json)" = true ] || fail "uninterrupted run incomplete"
# Every crash point of the run, in order (PERFAB_TEST_CRASH_AT=list).
PERFAB_TEST_CRASH_AT=list run --out list.json >/dev/null 2>"$T/list.err"
total=$(grep -c '^perfab: crash point [0-9]*: .* (listed)$' "$T/list.err")
for name in "journal: record half written" "journal: record written, not synced" \
	"journal: record synced" "checkpoint: temp file half written" \
	"journal: artifact final, journal not removed"; do
	grep -q ": $name (listed)" "$T/list.err" || fail "no crash point '$name' in the run"
done
[ "$total" -ge 40 ] || fail "only $total crash points listed"
points=0
# The first reps (their journal records), every fold of the journal into
# the artifact (the first, at 8 reps, has records beside it not yet
# folded), then the end: the last fold and the journal's removal.
folds=$(sed -n 's/^perfab: crash point \([0-9]*\): checkpoint: .*/\1/p' "$T/list.err" |
	awk '$1 > 28 && $1 < '"$((total - 5))")
[ -n "$folds" ] || fail "no fold of the journal in the middle of the run"
for at in $(seq 5 28) $folds $(seq $((total - 5)) "$total"); do
	rm -f c.json c.json.tmp.* c.json.journal
	PERFAB_TEST_CRASH_AT=$at run --out c.json >/dev/null 2>"$T/crash.err"
	rc=$?
	[ "$rc" = 137 ] || fail "crash point $at: perfab exited $rc, not killed (-9)"
	where=$(sed -n 's/^perfab: crash point [0-9]*: //p' "$T/crash.err")
	jq -e . c.json >/dev/null 2>&1 || fail "crash point $at ($where): artifact does not parse"
	if [ "$(jq -r .complete c.json)" = true ]; then
		# Killed after the last fold: judgeable as it is, journal or not.
		case $where in "checkpoint: renamed"*|"journal: artifact final"*) ;;
		*) fail "crash point $at ($where): complete before the end" ;; esac
		expect_rc 1 "$PERFAB" ledger c.json
	else
		expect_rc 1 arms "$PERFAB" run --resume c.json -q
		[ ! -e c.json.journal ] || fail "crash point $at: the journal survived a finished resume"
	fi
	grep_out "overall: FAIL"
	[ "$(jq -r .complete c.json)" = true ] || fail "crash point $at: resume did not complete"
	[ "$(jq '.rows[0].reps | length' c.json)" = 12 ] || fail "crash point $at: not 12 reps after resume"
	ls c.json.tmp.* >/dev/null 2>&1 && fail "crash point $at: a stale temp file survived the resume"
	expect_rc 1 "$PERFAB" gate c.json
	# Same protocol, seed, arms and orders as the uninterrupted run.
	[ "$(jq -c '[.seed, .protocol, [.arms[].sha256], [.rows[0].reps[].order]]' c.json)" = \
	  "$(jq -c '[.seed, .protocol, [.arms[].sha256], [.rows[0].reps[].order]]' whole.json)" ] ||
		fail "crash point $at: resumed run differs in seed, arms or rotation"
	echo "crash point $at ($where): parsed, judged or resumed, FAIL as uninterrupted"
	points=$((points + 1))
done
# The first points come before the first checkpoint exists: either no
# artifact at all or a valid one, never a torn one.
for at in 1 2 3 4; do
	rm -f e.json e.json.tmp.* e.json.journal
	PERFAB_TEST_CRASH_AT=$at run --out e.json >/dev/null 2>&1
	[ ! -e e.json ] || jq -e '.complete == false' e.json >/dev/null || fail "crash point $at: torn first checkpoint"
	points=$((points + 1))
done
echo "$points crash points survived"
[ "$points" -ge 34 ] || fail "fewer than 34 crash points"
exit 0
