#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/mutate-hand.sh — the hand-made mistakes of ci/mutate-hand.txt, each
# applied alone to a scratch copy of the tree, rebuilt and run against the
# tests of `make check-fast` (`make mutate-hand`; doc/hacking.md "Mutation
# run"). ci/mutate.sh makes mechanical mistakes in the verdict code and
# runs its chosen tests; these are the mistakes a person makes in the
# verdict, store and report code (the wrong end of an interval, a key
# misspelt, an escape forgotten), and the question is whether the loop a
# developer runs before a commit catches them.
#
# A mutant is killed when a test fails (the first failure ends it: unit
# tests first, then the ledger corpus, the static checks and the seeded
# simulations), survived when every test passes, stillborn when it does not
# build, a timeout when a test runs past TIMEOUT (a loaded machine makes
# those too: never counted as killed). Stillborn and timeouts are left out
# of the score.
#
# Environment:
#   LIST     the list (default ci/mutate-hand.txt; its header gives the format)
#   JOBS     mutants run at once, each in its own scratch tree (1 or 2)
#   TIMEOUT  seconds one test may take (default 600)
#   MIN_SCORE  percent killed below which the run exits 1 (default 95)
#   MUTATE_DIR  the scratch directory (default a new one under $TMPDIR,
#            removed at the end unless KEEP=1)
# Output: a line per mutant, then killed / scored and each survivor with its
# mistake. Exit 0 at MIN_SCORE or above, 1 below, 2 when the list names
# text that is not in its file (the list is stale: mend it) or the tests
# fail without a mutant.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=ci/scratch-tree.sh
. "$top/ci/scratch-tree.sh"
LIST=${LIST:-$top/ci/mutate-hand.txt}
JOBS=${JOBS:-1}
TIMEOUT=${TIMEOUT:-600}
MIN_SCORE=${MIN_SCORE:-95}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
[ "$JOBS" -le 2 ] || JOBS=2

# apply FILE NTH ORIGINAL REPLACEMENT: the NTH occurrence of ORIGINAL in
# FILE replaced; status 3 when FILE has fewer than NTH.
apply() {
	python3 - "$@" <<'EOF'
import sys
path, nth, old, new = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
text = open(path, encoding="utf-8").read()
at = -1
for _ in range(nth):
    at = text.find(old, at + 1)
    if at < 0:
        sys.exit(3)
open(path, "w", encoding="utf-8").write(text[:at] + new + text[at + len(old):])
EOF
}

# Check the whole list before building anything: a stale line is an error.
stale=$(grep -v '^#' "$LIST" | grep -v '^$' | while IFS='	' read -r file nth old new why; do
	tmp=$(mktemp)
	cp "$top/$file" "$tmp" 2>/dev/null && apply "$tmp" "$nth" "$old" "$new" ||
		printf '%s: "%s" (occurrence %s) not found\n' "$file" "$old" "$nth"
	rm -f "$tmp"
done)
[ -z "$stale" ] || { printf 'mutate-hand: the list is stale:\n%s\n' "$stale" >&2; exit 2; }

work=${MUTATE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/perfab-mutate-hand.XXXXXX")}
mkdir -p "$work"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# run_fast J: the fast tests in tree J, in order, until one fails; prints
# the failing test (status 1) or the one past TIMEOUT (status 124).
run_fast() {
	bld=$work/build$1
	for t in $(cat "$work/fast$1"); do
		rc=0
		timeout "$TIMEOUT" make -C "$bld" -s check TESTS="$t" >/dev/null 2>&1 || rc=$?
		[ "$rc" = 0 ] || { echo "$t"; [ "$rc" = 124 ] && return 124; return 1; }
	done
	return 0
}

# setup_tree J: scratch tree J (ci/scratch-tree.sh), built, and the fast
# tests passing unmutated.
setup_tree() {
	src=$work/src$1 bld=$work/build$1
	scratch_tree "$top" "$src" "$bld"
	make -C "$bld" -s -j2 all >/dev/null 2>&1
	make -C "$bld" -s -j2 check TESTS= >/dev/null 2>&1
	# make check-fast's list, the cheapest and most telling first.
	fast=$(make -C "$bld" -s list-fast)
	for kind in 'tests/unit/*' tests/e2e/ledger_corpus.sh 'tests/static/*' 'tests/sim/*'; do
		for t in $fast; do
			# shellcheck disable=SC2254
			case $t in $kind) echo "$t" ;; esac
		done
	done >"$work/fast$1"
	if by=$(run_fast "$1"); then :; else
		echo "mutate-hand: $by fails on the unmutated tree; fix that first" >&2
		exit 2
	fi
}

# mutant J LINE: one line of the list in tree J; prints its outcome line.
mutant() {
	printf '%s\n' "$2" | {
		IFS='	' read -r file nth old new why
		src=$work/src$1 bld=$work/build$1
		cp "$top/$file" "$src/$file"
		apply "$src/$file" "$nth" "$old" "$new"
		by= rc=0
		if ! make -C "$bld" -s -j1 check TESTS= >/dev/null 2>&1; then
			outcome=stillborn
		else
			by=$(run_fast "$1") || rc=$?
			case $rc in
			0) outcome=survived ;;
			124) outcome=timeout by="$by past ${TIMEOUT} s" ;;
			*) outcome=killed ;;
			esac
		fi
		cp "$top/$file" "$src/$file"
		printf '%s\t%s\t%s -> %s\t%s\t%s\n' "$outcome" "$file" "$old" "$new" "$why" "$by"
	}
}

grep -v '^#' "$LIST" | grep -v '^$' >"$work/list"
echo "mutate-hand: $(wc -l <"$work/list") mutants, $JOBS job(s), scratch $work" >&2
j=0
while [ "$j" -lt "$JOBS" ]; do
	setup_tree "$j"
	j=$((j + 1))
done
j=0
while [ "$j" -lt "$JOBS" ]; do
	awk -v j="$j" -v n="$JOBS" 'NR % n == j' "$work/list" | while IFS= read -r m; do
		mutant "$j" "$m" | tee -a "$work/results$j.tsv"
	done &
	j=$((j + 1))
done
wait
cat "$work"/results*.tsv >"$work/results.tsv"

awk -F '\t' -v min="$MIN_SCORE" '
	{ n[$1]++ }
	$1 == "survived" { surv = surv sprintf("  %s: %s (%s)\n", $2, $4, $3) }
	END {
		scored = n["killed"] + n["survived"]
		score = scored ? 100 * n["killed"] / scored : 0
		printf "\nkilled %d of %d (%.1f%%); stillborn %d, timeout %d\n", n["killed"], scored, score, n["stillborn"], n["timeout"]
		if (surv != "") printf "survivors:\n%s", surv
		exit score < min
	}' "$work/results.tsv"
