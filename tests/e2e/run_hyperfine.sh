#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run_hyperfine.sh — a hyperfine user's flags (doc/perfab.1, HYPERFINE'S
# OPTIONS): the ones that mean the same here are accepted under
# hyperfine's names (-r/--runs, -m/--min-runs, -M/--max-runs, -S/--shell
# none, -N; -i/--ignore-failure is run_ignore_failure.sh's); the ones
# perfab does otherwise are answered with what to do instead, never
# "unknown option" or a wrong "did you mean"; '<' in a
# command says to use --input. The hooks' and parameters' short forms are
# run_hyperfine_short.sh's, the spellings perfab keeps for its own
# meaning run_hyperfine_clash.sh's.
. "${top_srcdir}/tests/lib/test-lib.sh"
PERFAB_COUNTS=off # the flags, not the counts, are under test
export PERFAB_COUNTS

# Same meaning: --runs N is exactly N reps (fewer than 6: INCONCLUSIVE).
expect_rc 3 "$PERFAB" run -q -r 3 -S none -N /bin/true /bin/true --out runs.json
[ "$(jq '.rows[0].reps | length' runs.json)" = 3 ] || fail "--runs 3 did not run 3 reps"
[ "$(jq '.max_reps' runs.json)" = 3 ] || fail "--runs 3 did not cap at 3 reps"
expect_rc 3 "$PERFAB" run -q --min-runs 3 --max-runs 3 /bin/true /bin/true --out mm.json
[ "$(jq '.reps, .max_reps' mm.json | tr '\n' ' ')" = "3 3 " ] ||
	fail "--min-runs/--max-runs are not --reps/--max-reps: $(jq -c '[.reps, .max_reps]' mm.json)"
expect_rc 2 "$PERFAB" run -r 3 --reps 6 /bin/true /bin/true
grep_err "give one or the other"
expect_rc 2 "$PERFAB" run --shell=bash /bin/true /bin/true
grep_err "without a shell"
pass "-r/--runs, -m/-M, -S none and -N mean what they mean in hyperfine"

# Done otherwise: advice, for both spellings, with or without a value.
for f in "--reference x" "--sort command" "--export-asciidoc f" "--export-orgmode=f" \
	"-C x" "--conclude x" "-E" "--show-elapsed" \
	"--style full" "-u ms" "--time-unit=second" "--command-name x"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$PERFAB" run $f /bin/true /bin/true
	grep_err "is hyperfine's: "
	if grep -q "did you mean\|unknown option" "$T/err"; then
		fail "'$f' got a guess, not advice: $(cat "$T/err")"
	fi
done
pass "hyperfine's options perfab does otherwise are answered with what to do"

# hyperfine's --conclude runs after every run; --cleanup is not that.
expect_rc 2 "$PERFAB" run --conclude "pkill server" /bin/true /bin/true
grep_err "perfab runs no command after each run"
expect_rc 2 "$PERFAB" run "cat < in.txt" /bin/true
grep_err "give --input FILE"
pass "--conclude says perfab has no per-run hook; '<' in a command suggests --input"
