#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/test.sh — the README's test command: install packages, build, run the
# whole test suite (make check), and print "N passed, N failed".
# Exit 0 only when nothing failed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
"$top/ci/setup-debian.sh"
"$top/ci/build.sh" "$build"
cd "$build"
set +e
make -j"$(nproc)" -k check >check.out 2>&1
rc=$?
set -e
cat check.out
# Per-test results from the .trs files automake writes.
pass=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c '^:test-result: PASS' || true)
fail=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c -E '^:test-result: (FAIL|ERROR|XPASS)' || true)
skip=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c '^:test-result: SKIP' || true)
if [ "$rc" != 0 ] && [ "$fail" = 0 ]; then
	fail=1 # the build or harness itself failed
fi
for f in $(grep -l -E '^:test-result: (FAIL|ERROR|XPASS)' $(find . -name '*.trs') 2>/dev/null); do
	echo "=== ${f%.trs}.log"
	# The test's own FAIL lines first: the log may end with later, passing steps.
	grep -A14 -E '^(FAIL|not ok)' "${f%.trs}.log" | head -60
	echo "--- end of log"
	tail -40 "${f%.trs}.log"
done
# The same suite under ASan+UBSan+LSan, and valgrind memcheck of the core
# (ci/sanitize.sh, doc/fuzzing.md): one more passed or failed check.
set +e
"$top/ci/sanitize.sh" "$top/_sanitize"
san=$?
set -e
if [ "$san" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "ci/sanitize.sh failed ($san)"; fi
# Each skipped test by name, with the reasons its log gives (its SKIP: lines).
for f in $(grep -l '^:test-result: SKIP' $(find . -name '*.trs') 2>/dev/null); do
	why=$(grep '^SKIP: ' "${f%.trs}.log" 2>/dev/null | sed 's/^SKIP: //' | paste -sd ';' -)
	echo "SKIP: ${f%.trs}: ${why:-no reason given}"
done
[ "$skip" = 0 ] || echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
