#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bisect_counts.sh — perfab bisect on a scratch repository of 16 commits of
# a small C program whose work grows by 10% at one commit (the 11th), with
# exact counts (valgrind): a comparison is decided in a couple of reps, so
# the answer does not depend on the machine's load.
#   - the 8th commit does not build: it is skipped (and the search still
#     names the 11th, from a line of 16 in at most ceil(log2 16) + 2 = 6
#     comparisons);
#   - the build script interrupts perfab (SIGINT) after its 4th build: the
#     bisection stops with the command that goes on, dying of the signal;
#   - the same command again resumes from the journal: it names the 11th
#     commit with its subject, author date and its change against its
#     parent (+10% instructions, FAIL), and no commit is built twice;
#   - a third time, as JSON, everything is taken from the journal (no
#     build, no run), and the perfab run line it prints measures the pair
#     again and FAILs;
#   - the user's work tree and HEAD are as they were.
. "${top_srcdir}/tests/lib/test-lib.sh"
require git cc
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed (exact counts)"

# The program of commit $1: 1,000,000 iterations, 1,100,000 from commit 11;
# commit 8 does not compile (commit 9 repairs it).
program() {
	loops=1000000
	[ "$1" -ge 11 ] && loops=1100000
	echo "/* commit $1 */"
	[ "$1" -eq 8 ] && echo "#error broken at commit 8"
	cat <<EOF
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
	case $1 in
	11) echo "loop: ten per cent more work" ;;
	8) echo "loop: a typo" ;;
	*) echo "step $1" ;;
	esac
}

. "${top_srcdir}/tests/lib/scratch-repo.sh"
make_repo repo 16
cd repo || hard_error "no repo"
head_before=$(git rev-parse HEAD)
slow=$(git rev-parse HEAD~5)
broken=$(git rev-parse HEAD~8)

# The build: counts its builds (one line per commit, its worktree's name),
# and interrupts perfab after the build number in $T/stop-at.
cat >"$T/build.sh" <<'EOF'
basename "$PWD" >>"$T/builds"
cc -O1 -o prog prog.c || exit 1
if [ -e "$T/stop-at" ] && [ "$(wc -l <"$T/builds")" -eq "$(cat "$T/stop-at")" ]; then
	kill -INT "$PPID"
fi
EOF
export T
: >"$T/builds"
echo 4 >"$T/stop-at"

bisect() {
	"$PERFAB" bisect --good HEAD~15 --bad HEAD --build "sh $T/build.sh" --bench ./prog \
		--counts sim --metric instructions --reps 2 --count-reps 2 "$@"
}

# --- interrupted after the 4th build (GOOD, BAD, the broken 8th, the 9th)
expect_rc 130 bisect
grep_err "stopped by signal 2"
grep_err "the same command goes on"
[ "$(wc -l <"$T/builds")" = 4 ] || fail "the interrupted bisection built $(wc -l <"$T/builds") commits, not 4"
pass "interrupted after the 4th build (exit 130)"

# --- resumed: the same command
rm -f "$T/stop-at"
expect_rc 0 bisect
grep_out "first bad commit: $(git rev-parse --short HEAD~5) loop: ten per cent more work"
grep_out "author date 2026-01-11T12:00:00"
grep_out "against its parent $(git rev-parse --short HEAD~6): instructions .* (+9\.[0-9]% \[+9\.[0-9], +9\.[0-9]\]) FAIL"
grep_out "(kept)"
grep_out "skipped: $(git rev-parse --short "$broken") does not build"
grep_err "$(git rev-parse --short "$broken") does not build"
dups=$(sort "$T/builds" | uniq -d)
[ -z "$dups" ] || fail "built twice: $dups"
grep -q "$broken" "$T/builds" || fail "the broken commit was never tried"
pass "resumed: the 11th commit named, nothing built twice ($(wc -l <"$T/builds") builds)"

# --- again, as JSON: all of it from the journal
n_builds=$(wc -l <"$T/builds")
expect_rc 0 bisect --format json
cp "$T/out" "$T/answer.json"
[ "$(wc -l <"$T/builds")" = "$n_builds" ] || fail "the third bisection built again"
if grep -q "rep 1/" "$T/err"; then fail "the third bisection measured again"; fi
jq -e --arg c "$slow" --arg b "$broken" '
	.schema == "perfab-bisect/1" and .outcome == "found" and .commits == 15 and
	.metric == "instructions" and
	(.changes | length) == 1 and .changes[0].kind == "first-bad-commit" and
	.changes[0].bad.commit == $c and
	.changes[0].bad.subject == "loop: ten per cent more work" and
	.changes[0].change.verdict == "FAIL" and .changes[0].change.exact and
	.changes[0].change.change.lo > 9 and .changes[0].change.change.hi < 11 and
	(.comparisons | length) <= 6 and all(.comparisons[]; .kept) and
	.comparisons[0].mid == null and .comparisons[0].bad_vs_good.verdict == "FAIL" and
	.skipped[0].commit == $b and .cost.builds_made == 0' "$T/answer.json" >/dev/null ||
	{ cat "$T/answer.json" >&2; fail "the JSON answer is not the expected one"; }
pass "JSON from the journal: $(jq '.comparisons | length' "$T/answer.json") comparisons (at most 6)"

# --- the printed perfab run measures the pair again: FAIL
line=$(jq -r '.changes[0].reproduce' "$T/answer.json")
case $line in "perfab run "*) ;; *) fail "no perfab run line: $line" ;; esac
eval "set -- ${line#perfab run }"
expect_rc 1 "$PERFAB" run -q -o "$T/again.json" "$@"
pass "the reproducing perfab run FAILs the pair"

# --- the user's work tree was never touched
[ "$(git rev-parse HEAD)" = "$head_before" ] || fail "HEAD moved"
[ -z "$(git status --porcelain --untracked-files=all)" ] || fail "the work tree changed: $(git status --porcelain)"
[ ! -e prog ] || fail "a build landed in the user's work tree"
pass "the work tree and HEAD are untouched"
