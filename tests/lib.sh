# SPDX-License-Identifier: GPL-3.0-or-later
# tests/lib.sh — shared helpers for perfab's end-to-end shell tests.
# Sourced by every tests/cli_*.sh. The harness (AM_TESTS_ENVIRONMENT)
# exports PERFAB (the built binary), PERFAB_WORKLOAD_DIR, top_srcdir and
# top_builddir. Exit 0 = pass, 1 = fail, 77 = skip, 99 = hard error.
set -u

: "${PERFAB:?PERFAB must point at the perfab binary}"
WL=${PERFAB_WORKLOAD_DIR:?}
T=$(mktemp -d "${TMPDIR:-/tmp}/perfab-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 99

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT. Output kept in
# $T/out and $T/err for later greps.
expect_rc() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "--- stdout" >&2; cat "$T/out" >&2
		echo "--- stderr" >&2; cat "$T/err" >&2
		fail "'$*' exited $rc, expected $want"
	fi
}

# grep_err PATTERN: the last command's stderr must match PATTERN.
grep_err() {
	grep -q -- "$1" "$T/err" || { cat "$T/err" >&2; fail "stderr lacks '$1'"; }
}

grep_out() {
	grep -q -- "$1" "$T/out" || { cat "$T/out" >&2; fail "stdout lacks '$1'"; }
}

command -v jq >/dev/null 2>&1 || { echo "jq is required" >&2; exit 99; }

# expect_verdict CMD...: a run or ledger that reached a verdict (exit 0 PASS,
# 1 FAIL or 3 INCONCLUSIVE), whichever: for tests about mechanics, not
# about which verdict noise produces.
expect_verdict() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	case $rc in
	0|1|3) ;;
	*)
		echo "--- stdout" >&2; cat "$T/out" >&2
		echo "--- stderr" >&2; cat "$T/err" >&2
		fail "'$*' exited $rc, expected a verdict (0, 1 or 3)" ;;
	esac
}
