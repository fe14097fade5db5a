#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bisect_memory.sh — perfab bisect on peak RSS (--metric peak_rss, exact
# counts off): a scratch repository of 16 commits of a small C program
# that touches 4 MiB, 8 MiB from the 5th commit and 12 MiB from the 12th.
# A step of 4 MiB against an allowance of 5% (at least 128 KiB) is far
# beyond the kernel's RSS slack, so every comparison decides at its first
# look:
#   - GOOD 1st .. BAD 16th: two changes in one range, both named, in line
#     order (a midpoint is unlike both ends);
#   - GOOD 1st .. BAD 4th: no regression between GOOD and BAD, its own exit
#     status (9), after one comparison.
. "${top_srcdir}/tests/lib/test-lib.sh"
require git cc

# The program of commit $1: touches MIB MiB, page by page, then exits.
program() {
	mib=4
	[ "$1" -ge 5 ] && mib=8
	[ "$1" -ge 12 ] && mib=12
	cat <<EOF
/* commit $1 */
#include <stdlib.h>

int main(void)
{
	size_t n = (size_t)$mib << 20, i;
	volatile char *p = malloc(n);

	if (!p)
		return 1;
	for (i = 0; i < n; i += 4096)
		p[i] = 1;
	return 0;
}
EOF
}
subject() {
	case $1 in
	5) echo "buffers: twice as large" ;;
	12) echo "buffers: three times as large" ;;
	*) echo "step $1" ;;
	esac
}

. "${top_srcdir}/tests/lib/scratch-repo.sh"
make_repo repo 16
cd repo || hard_error "no repo"

bisect() {
	"$PERFAB" bisect --build 'cc -O1 -o prog prog.c' --bench ./prog --counts off \
		--metric peak_rss --tolerance peak_rss=5 --reps 6 --max-reps 12 "$@"
}

# --- two changes in one range
expect_rc 0 bisect --good HEAD~15 --bad HEAD --format json
cp "$T/out" "$T/two.json"
jq -e --arg a "$(git rev-parse HEAD~11)" --arg b "$(git rev-parse HEAD~4)" '
	.outcome == "found" and .metric == "peak_rss" and (.changes | length) == 2 and
	all(.changes[]; .kind == "first-bad-commit" and .change.verdict == "FAIL") and
	.changes[0].bad.commit == $a and .changes[0].bad.subject == "buffers: twice as large" and
	.changes[1].bad.commit == $b and .changes[1].bad.subject == "buffers: three times as large" and
	.changes[0].change.change.lo > 50 and
	any(.comparisons[]; .mid_is == "unlike both")' "$T/two.json" >/dev/null ||
	{ cat "$T/two.json" >&2; fail "the two changes are not both named"; }
pass "two changes in one range: the 5th and the 12th commit"

# The text answer of the same bisection (from the journal: nothing runs).
expect_rc 0 bisect --good HEAD~15 --bad HEAD
grep_out "^2 changes between GOOD and BAD"
grep_out "first bad commit: $(git rev-parse --short HEAD~11) buffers: twice as large"
grep_out "first bad commit: $(git rev-parse --short HEAD~4) buffers: three times as large"
grep_out "unlike both"

# --- no change between GOOD and BAD
expect_rc 9 bisect --good HEAD~15 --bad HEAD~12
grep_out "^no regression between GOOD and BAD: bad vs good .* PASS"
[ "$(grep -c '^  1 ' "$T/out")" = 1 ] || fail "not one comparison"
grep -q '^  2 ' "$T/out" && fail "more than one comparison for a range with no change"
pass "no regression between GOOD and BAD: exit 9 after one comparison"
