#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bisect_refuse.sh — what perfab bisect refuses, each with its exit status
# and a message that names the fix: options missing or malformed, a
# directory that is not a git checkout, a revision that does not exist,
# GOOD not an ancestor of BAD, a dirty work tree, a build that fails at
# both ends or at one, a benchmark that fails, shell syntax in --bench,
# another bisection holding the directory. The user's work tree is never
# touched.
. "${top_srcdir}/tests/lib/test-lib.sh"
require git cc flock

# make_repo DIR: four commits of prog.c; commit 3 returns 3, the others 0.
make_repo() {
	mkdir "$1" && (
		cd "$1" && git init -q -b main . && git config user.email test@example.com &&
		git config user.name 'perfab test' &&
		for i in 1 2 3 4; do
			rc=0
			[ "$i" = 3 ] && rc=3
			printf 'int main(void) { return %d; } /* %d */\n' "$rc" "$i" >prog.c &&
			git add prog.c && git commit -q -m "step $i" || exit 1
		done
	) || hard_error "cannot make the scratch repository"
}
make_repo repo

bisect() {
	"$PERFAB" bisect --build 'cc -o prog prog.c' --bench ./prog --counts off --reps 1 "$@"
}

# --- usage
expect_rc 2 "$PERFAB" bisect --good HEAD~1 --bad HEAD --bench ./prog
grep_err "give --good, --bad, --build and --bench (missing: --build)"
expect_rc 2 "$PERFAB" bisect --good a --bad b --build x --bench y --format yaml
grep_err "format 'yaml': give text or json"
expect_rc 2 "$PERFAB" bisect --good a --bad b --build x --bench y --metric nope
grep_err "metric 'nope': no such metric"
expect_rc 2 "$PERFAB" bisect --good a --bad b --build x --bench y --metric cpu --metrics cpu
grep_err "give one or the others"
expect_rc 0 "$PERFAB" bisect --help
grep_out "^usage: perfab bisect --good REV --bad REV"

# --- not a git checkout
mkdir plain
(cd plain && expect_rc 2 bisect --good HEAD~1 --bad HEAD) || exit 1
grep_err "not in a git work tree"
pass "outside a checkout: exit 2"

cd repo || hard_error "no repo"
head_before=$(git rev-parse HEAD)

# --- revisions
expect_rc 2 bisect --good no-such-rev --bad HEAD
grep_err "\-\-good 'no-such-rev': no such commit"
expect_rc 2 bisect --good HEAD~3 --bad v9
grep_err "\-\-bad 'v9': no such commit"
expect_rc 2 bisect --good HEAD --bad HEAD~3
grep_err "is not an ancestor of --bad"
grep_err "swap them"
expect_rc 2 bisect --good HEAD --bad HEAD
grep_err "name the same commit"
pass "revisions that do not exist or are in the wrong order: exit 2"

# --- GOOD on a side branch, not on BAD's first-parent line
git checkout -q -b side HEAD~2 && echo side >side.txt && git add side.txt &&
	git commit -q -m side && side=$(git rev-parse HEAD) && git checkout -q main &&
	git merge -q --no-ff -m merge side && merged=$(git rev-parse HEAD) ||
	hard_error "cannot make the merge"
expect_rc 2 bisect --good "$side" --bad "$merged"
grep_err "is not on the first-parent line"
git reset -q --hard "$head_before" || hard_error "cannot reset the scratch repository"

# --- shell syntax in the benchmark
expect_rc 2 bisect --good HEAD~3 --bad HEAD --bench './prog | cat'
grep_err "is shell syntax"

# --- a dirty work tree
echo '/* edit */' >>prog.c
expect_rc 2 bisect --good HEAD~3 --bad HEAD
grep_err "has uncommitted changes"
grep_err "git stash"
git checkout -q prog.c
pass "a dirty work tree: exit 2"

# --- the build fails at both ends, then at one
expect_rc 2 "$PERFAB" bisect --good HEAD~3 --bad HEAD --build 'cc -o prog missing.c' \
	--bench ./prog --counts off --reps 1
grep_err "fails at both GOOD"
grep_err "fix --build"
# ... and at BAD alone: a branch whose last commit does not compile.
git checkout -q -b broken && echo 'int main(void) { return } ' >prog.c && git commit -qam broken &&
	git checkout -q main || hard_error "cannot make the broken branch"
expect_rc 2 bisect --good main~3 --bad broken
grep_err "fails at BAD"
grep_err "give as --bad a commit that builds"
pass "a build that fails at an end: exit 2"

# --- the benchmark fails (step 3 exits 3): at BAD
expect_rc 2 bisect --good HEAD~3 --bad HEAD~1
grep_err "the benchmark fails at BAD"
grep_err "make --bench './prog' run at both ends"
pass "a benchmark that fails at an end: exit 2"

# --- another bisection holds the directory
mkdir -p "$T/held"
exec 9>"$T/held/journal.json.lock"
flock -n 9 || hard_error "cannot take the lock"
expect_rc 4 bisect --good HEAD~3 --bad HEAD --dir "$T/held"
grep_err "another perfab bisect works in this directory"
exec 9>&-
pass "a directory held by another bisection: exit 4"

# --- never the user's tree
[ "$(git rev-parse HEAD)" = "$head_before" ] || fail "HEAD moved"
[ -z "$(git status --porcelain)" ] || fail "the work tree changed: $(git status --porcelain)"
[ ! -e prog ] || fail "a build landed in the user's work tree"
pass "the work tree and HEAD are untouched"
