#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bisect_time.sh — perfab bisect on cpu time alone (--counts off): a
# scratch repository of 16 commits of a small C program whose work grows
# threefold at the 11th commit, judged at a 10% tolerance. Time on a busy
# machine may leave a comparison undecided; the bisection then runs it
# again, pooled, and tries the other half, so the answer is either the
# 11th commit or, when the machine let nothing decide, a list of
# candidates that holds it: never another commit.
. "${top_srcdir}/tests/lib/test-lib.sh"
require git cc

# The program of commit $1: 20 M iterations, 60 M from commit 11.
program() {
	loops=20000000
	[ "$1" -ge 11 ] && loops=60000000
	cat <<EOF
/* commit $1 */
int main(void)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < ${loops}UL; i++)
		x += i;
	return 0;
}
EOF
}
subject() {
	if [ "$1" = 11 ]; then echo "loop: three times the work"; else echo "step $1"; fi
}

. "${top_srcdir}/tests/lib/scratch-repo.sh"
make_repo repo 16
cd repo || hard_error "no repo"
slow=$(git rev-parse HEAD~5)

"$PERFAB" bisect --good HEAD~15 --bad HEAD --build 'cc -O1 -o prog prog.c' --bench ./prog \
	--counts off --metric cpu --tolerance cpu=10 --max-reps 24 --retries 2 --format json \
	>"$T/answer.json" 2>"$T/err"
rc=$?
case $rc in
0)
	jq -e --arg c "$slow" '.outcome == "found" and (.changes | length) == 1 and
		.changes[0].bad.commit == $c and .changes[0].change.verdict == "FAIL" and
		.changes[0].change.change.lo > 10' "$T/answer.json" >/dev/null ||
		{ cat "$T/answer.json" >&2; fail "exit 0 without the 11th commit as the answer"; }
	pass "the 11th commit named by cpu time"
	;;
3)
	# Undecided: BAD against GOOD, or a range of candidates that holds it.
	jq -e --arg c "$slow" '.outcome == "undecided" and
		((.changes | length) == 0 or
		 all(.changes[]; .kind != "first-bad-commit" and (.candidates | index($c)) != null))' \
		"$T/answer.json" >/dev/null ||
		{ cat "$T/answer.json" >&2; fail "undecided, but the candidates leave out the 11th"; }
	pass "undecided on this machine, never a wrong commit"
	;;
*)
	cat "$T/err" >&2
	fail "perfab bisect exited $rc"
	;;
esac
# Every FAIL it based a step on is real: each comparison's FAIL is of a
# pair that spans the 11th commit.
jq -e --arg c "$slow" --argjson line "$(git rev-list --reverse HEAD~15..HEAD | jq -R . | jq -s .)" '
	def idx(x): first(range(0; $line | length) as $i | select($line[$i] == x) | $i) // -1;
	(idx($c)) as $k |
	all(.comparisons[];
		(if .mid_vs_good.verdict == "FAIL" then idx(.mid) >= $k and idx(.good) < $k else true end) and
		(if .bad_vs_mid.verdict == "FAIL" then idx(.bad) >= $k and idx(.mid) < $k else true end))' \
	"$T/answer.json" >/dev/null || { cat "$T/answer.json" >&2; fail "a FAIL of a pair without the change"; }
pass "every FAIL spans the change"
