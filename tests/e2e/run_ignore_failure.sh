#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run_ignore_failure.sh — -i/--ignore-failure (hyperfine's option, doc/perfab.1
# --ignore-failure): a measured child's non-zero exit status is a measured
# run. Commands that exit 1 in every arm get reps and a verdict (a head
# doing twice the work FAILs, an A/A does not), each rep's status keeps
# the exit code, the ledger says once per row what it ignored, and the
# artifact records run.ignore_failure, which --resume keeps. Without the
# flag the same run is a failed row; with it a child killed by a signal,
# a timeout and a failing --setup still fail the row. Under --counts sim
# the counted child (valgrind) exiting 1 is counted too.
. "${top_srcdir}/tests/lib/test-lib.sh"
PERFAB_COUNTS=off # the counted case below asks for --counts sim
export PERFAB_COUNTS

# A shell loop of N steps that then exits 1: twice the steps is twice the
# CPU time, whatever the machine's load (cpu, not wall, is judged).
loop() { # N: the command line
	echo "sh -c 'i=0; while [ \$i -lt $1 ]; do i=\$((i+1)); done; exit 1'"
}
N=30000

# With the flag, commands that exit 1 are measured: twice the work in the
# head is a FAIL (exit 1) by cpu.
expect_rc 1 "$PERFAB" run -q --ignore-failure --reps 6 --max-reps 24 --out slow.json \
	"$(loop $N)" "$(loop $((2 * N)))"
grep_out "exit status 1 ignored (--ignore-failure): base in [0-9]* of [0-9]* reps, head in"
[ "$(grep -c "exit status 1 ignored" "$T/out")" = 1 ] || fail "the ledger's note is not once per row"
jq -e '.run.ignore_failure == true and .complete and (.rows[0].failed | not)' slow.json \
	>/dev/null || fail "the artifact does not record ignore_failure, or the row failed"
jq -e '[.rows[0].reps[].status[]] | length > 0 and
	all(.exit_code == 1 and (.failed | not))' slow.json >/dev/null ||
	fail "a rep's status does not keep exit_code 1 with failed false"
[ "$(jq -r '.rows[0].reps | length' slow.json)" -ge 6 ] || fail "fewer than 6 reps"
expect_rc 1 "$PERFAB" ledger --format json slow.json
jq -e '.rows[0].verdict == "FAIL" and (.rows[0].cells[] | select(.metric == "cpu") |
	.verdict == "FAIL") and (.rows[0].exit_ignored | test("exit status 1 ignored"))' "$T/out" \
	>/dev/null || fail "the ledger JSON lacks the cpu FAIL or exit_ignored: $(cat "$T/out")"
pass "--ignore-failure: a head exiting 1 with twice the work FAILs by cpu; the ledger notes the exits"

# Without it the same run is a failed row with no verdict (every child
# exits 1, the base arm's too: exit 8).
expect_rc 8 "$PERFAB" run -q --reps 6 --max-reps 6 --out plain.json "$(loop $N)" "$(loop $((2 * N)))"
jq -e '.rows[0].failed and (.rows[0].fail_reason | test("exited with status 1"))' plain.json \
	>/dev/null || fail "without --ignore-failure, exit 1 did not fail the row"
jq -e '.run.ignore_failure == false' plain.json >/dev/null ||
	fail "a run without --ignore-failure does not record ignore_failure false"
pass "without --ignore-failure a child's exit 1 fails its row (no verdict, exit 8)"

# An A/A of the same command exiting 1, -i (hyperfine's short form) and a
# config's ignore_failure: a verdict, never FAIL.
printf '{"ignore_failure": true}\n' >ign.conf
expect_rc 3 "$PERFAB" run -q -i --reps 3 --max-reps 3 --out aa3.json "$(loop 1000)" "$(loop 1000)"
"$PERFAB" run -q --config ign.conf --reps 6 --max-reps 6 --out aa.json "$(loop $N)" "$(loop $N)" \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || fail "an A/A of a command exiting 1 exited $rc: $(cat "$T/out" "$T/err")"
jq -e '.run.ignore_failure and (.rows[0].failed | not) and (.rows[0].reps | length) == 6' aa.json \
	>/dev/null || fail "the config's ignore_failure was not taken"
pass "an A/A of a command exiting 1 gets its reps and no FAIL (-i, config ignore_failure)"

# A signal, a timeout and a failing --setup still fail the row.
expect_rc 1 "$PERFAB" run -q -i --reps 2 --max-reps 2 --out sig.json "sh -c 'exit 1'" \
	"sh -c 'kill -9 \$\$'"
jq -e '.rows[0].failed and .rows[0].failed_arm == "head" and
	(.rows[0].fail_reason | test("signal 9"))' sig.json >/dev/null ||
	fail "a head killed by a signal did not fail its row under --ignore-failure"
expect_rc 1 "$PERFAB" run -q -i --reps 2 --max-reps 2 --timeout 1 --out to.json \
	"sh -c 'exit 1'" "sh -c 'sleep 30; exit 1'"
jq -e '.rows[0].failed and (.rows[0].fail_reason | test("timed out"))' to.json >/dev/null ||
	fail "a timeout did not fail its row under --ignore-failure"
expect_rc 8 "$PERFAB" run -q -i --reps 2 --max-reps 2 --setup "sh -c 'exit 1'" --out setup.json \
	"sh -c 'exit 1'" "sh -c 'exit 1'"
jq -e '.rows[0].failed and (.rows[0].fail_reason | test("setup"))' setup.json >/dev/null ||
	fail "a failing --setup did not fail its row under --ignore-failure"
pass "a signal, a timeout and a failing --setup still fail the row with --ignore-failure"

# --resume keeps the setting: the rest of a cut A/A exits 1 and is measured.
jq '.complete = false | .rows[0].reps |= .[0:3]' aa.json >part.json
jq 'del(.run.ignore_failure)' part.json >part-old.json
expect_rc 2 "$PERFAB" run --resume part.json --trust-artifact --ignore-failure
grep_err "its own settings"
"$PERFAB" run -q --resume part.json --trust-artifact >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || fail "the resumed A/A exited $rc: $(cat "$T/out" "$T/err")"
jq -e '.complete and .run.ignore_failure and (.rows[0].failed | not) and
	(.rows[0].reps | length) == 6' part.json >/dev/null || fail "--resume did not keep ignore_failure"
# An artifact that records none did not ignore failures: the row fails.
expect_rc 8 "$PERFAB" run -q --resume part-old.json --trust-artifact
jq -e '.rows[0].failed' part-old.json >/dev/null || fail "an artifact without ignore_failure ignored"
pass "--resume keeps run.ignore_failure; an artifact without it fails the row as before"

# Pooled runs must agree on it.
expect_rc 8 "$PERFAB" run -q --reps 3 --max-reps 3 --out plain3.json "$(loop 1000)" "$(loop 1000)"
expect_rc 4 "$PERFAB" pool aa3.json plain3.json -o pooled.json
grep_err "ignore_failure differs"
pass "perfab pool refuses runs that differ in ignore_failure"

# The counting pass: valgrind exits with the program's status; the counted
# child's exit 1 is counted, and exact counts of twice the work FAIL.
if command -v valgrind >/dev/null 2>&1; then
	expect_rc 1 "$PERFAB" run -q -i --counts sim --reps 3 --max-reps 3 --out counted.json \
		"$(loop 2000)" "$(loop 4000)"
	jq -e '.run.counts.source == "sim" and ([.rows[0].reps[].results.head.instructions |
		select(. != null)] | length) > 0' counted.json >/dev/null ||
		fail "the counted child's exit 1 was not counted: $(jq -c \
			'[.rows[0].reps[].null_reasons.head.instructions]' counted.json)"
	expect_rc 1 "$PERFAB" ledger --format json counted.json
	jq -e '.rows[0].cells[] | select(.metric == "instructions") | .verdict == "FAIL"' \
		"$T/out" >/dev/null || fail "exact counts of twice the work did not FAIL"
	pass "--counts sim: a counted child exiting 1 is counted (instructions FAIL at 2x)"
else
	echo "note: valgrind is not installed: the counting pass is not checked"
fi
exit 0
