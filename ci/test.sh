#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/test.sh — the README's test command: install packages, build, run the
# test suite, each test once, perfab counting instructions as a user's
# default run does (valgrind where there is no PMU): the sanitizer pass
# (ci/sanitize.sh: the unit, simulation, fuzz smoke and the end-to-end
# tests of untrusted input and of runs cut short, under ASan+UBSan, then
# valgrind memcheck) and, beside it, make check of every other test in the
# plain build: the two passes share no build tree, and together they keep
# both CPUs busy while one pass's tests wait on their children. Prints each
# failed test's log, the 10 slowest tests with their wall times (every
# test's log ends in "test-time: S s", tests/lib/timed.sh), the time each
# stage took, and last "N passed, N failed" over both passes (a memcheck
# run is one check). Exit 0 only when nothing failed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
jobs=$(nproc)
t0=$(date +%s)
"$top/ci/setup-debian.sh"
t_setup=$(date +%s)
"$top/ci/build.sh" "$build"
cd "$build"
# The test programs too, before the sanitizer pass starts: its memcheck
# runs take them from this tree, and two makes must not build in one tree.
make -j"$jobs" check TESTS= >build-check.log 2>&1 || { cat build-check.log; echo "building the tests failed"; echo "0 passed, 1 failed"; exit 1; }
t_build=$(date +%s)
# The sanitizer pass (ci/sanitize.sh, doc/hacking.md "The sanitizer
# pass"), in the background: its own build tree, its output kept for
# after the plain pass's; one more passed or failed check.
mkdir -p "$top/_sanitize"
"$top/ci/sanitize.sh" "$top/_sanitize" >"$top/_sanitize/sanitize.out" 2>&1 &
san_pid=$!
# Each test runs once: those of the sanitizer pass's selection there (the
# Check programs, the fuzz smoke, the end-to-end tests of untrusted input
# and of runs cut short), the others here.
sanitized=$("$top/ci/sanitize.sh" --print-selection) || { echo "ci/sanitize.sh --print-selection failed"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=ci/test-lists.sh
. "$top/ci/test-lists.sh"
tests=
for t in $(all_tests); do
	case " $sanitized " in *" $t "*) ;; *) tests="$tests $t" ;; esac
done
# The longest tests start first (ci/test-lists.sh): those of the 10
# slowest that ci/test.sh printed at recent runs.
long="tests/e2e/release.sh tests/e2e/action_emulated.sh tests/e2e/workloads_through_run.sh
	tests/e2e/man_examples.sh tests/e2e/reliability_crash_matrix.sh tests/e2e/action_trust.sh
	tests/e2e/counts_child.sh tests/e2e/memgate_leak.sh tests/e2e/memgate_filtered.sh"
tests=$(long_first "$long" "$tests")
find . -name '*.trs' -exec rm -f {} +
set +e
# Two jobs more than CPUs: a test spends most of its time waiting on its
# children (drains, sleeps, timeouts, builds' I/O; with one busy loop
# beside it a test used 37% of a CPU at 3 jobs), and the suite is meant
# to pass on a loaded machine.
make -j"$((jobs + 2))" -k check TESTS="$tests" >check.out 2>&1
rc=$?
set -e
t_check=$(date +%s)
cat check.out
trs=$(find . -name '*.trs')
count() { # FILES PATTERN: how many results in the .trs FILES match
	[ -n "$1" ] || { echo 0; return; }
	# shellcheck disable=SC2086 # paths without blanks
	cat $1 | grep -c -E "^:test-result: ($2)" || true
}
pass=$(count "$trs" PASS)
fail=$(count "$trs" 'FAIL|ERROR|XPASS')
skip=$(count "$trs" SKIP)
if [ "$rc" != 0 ] && [ "$fail" = 0 ]; then
	fail=1 # the build or harness itself failed
fi
# shellcheck disable=SC2086,SC2013 # paths without blanks
for f in $(grep -l -E '^:test-result: (FAIL|ERROR|XPASS)' $trs 2>/dev/null); do
	echo "=== ${f%.trs}.log"
	# The test's own FAIL lines first: the log may end with later, passing steps.
	grep -A14 -E '^(FAIL|not ok)' "${f%.trs}.log" | head -60
	echo "--- end of log"
	tail -40 "${f%.trs}.log"
done
set +e
wait "$san_pid"
san=$?
set -e
t_san=$(date +%s)
cat "$top/_sanitize/sanitize.out"
# The sanitizer pass's results, test by test: its tests' results, and
# each memcheck run as one check.
strs=$(find "$top/_sanitize/asan" -name '*.trs' 2>/dev/null)
s_fail=$(count "$strs" 'FAIL|ERROR|XPASS')
v=$(sed -n 's/^sanitize: valgrind memcheck: \([0-9]*\) clean, \([0-9]*\) with errors.*/\1 \2/p' "$top/_sanitize/sanitize.out")
v_clean=${v% *}
v_bad=${v#* }
pass=$((pass + $(count "$strs" PASS) + ${v_clean:-0}))
fail=$((fail + s_fail + ${v_bad:-0}))
skip=$((skip + $(count "$strs" SKIP)))
if [ "$san" != 0 ]; then
	echo "ci/sanitize.sh failed ($san)"
	# The build or the harness failed, or memcheck did not run.
	[ "$s_fail" != 0 ] || [ "${v_bad:-0}" != 0 ] || fail=$((fail + 1))
fi
# Each skipped test by name, with the reasons its log gives (its SKIP: lines).
# shellcheck disable=SC2086,SC2013 # paths without blanks
for f in $(grep -l '^:test-result: SKIP' $trs $strs 2>/dev/null); do
	why=$(grep '^SKIP: ' "${f%.trs}.log" 2>/dev/null | sed 's/^SKIP: //' | paste -sd ';' -)
	echo "SKIP: ${f%.trs}: ${why:-no reason given}"
done
[ "$skip" = 0 ] || echo "$skip skipped"
# The 10 slowest tests of both passes, from the last line of their logs
# ("test-time: WALL s (cpu CPU s)").
echo "slowest tests (wall time, cpu time):"
for d in "$build" "$top/_sanitize/asan"; do
	[ -d "$d/tests" ] || continue
	find "$d/tests" -name '*.log' -exec grep -H '^test-time: ' {} + 2>/dev/null |
		awk -v d="$d/" -v tag="$([ "$d" = "$build" ] || echo 'asan:')" '{
			name = $1; sub(/\.log:test-time:$/, "", name); sub(d, "", name)
			print $2, ($4 == "(cpu" ? $5 : "?"), tag name }'
done | sort -n -r | head -10 | awk '{ printf "  %7.1f s  (cpu %s s)  %s\n", $1, $2, $3 }'
mins() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
echo "time: setup $((t_setup - t0)) s, build $((t_build - t_setup)) s," \
	"make check $((t_check - t_build)) s, sanitizers beside it $((t_san - t_build)) s;" \
	"total $(mins $((t_san - t0)))"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
