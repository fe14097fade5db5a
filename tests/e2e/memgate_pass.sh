#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# memgate: runs of the unchanged battery pass against a baseline recorded
# from earlier runs; the baseline is the minimum over runs; fewer than 8
# runs warn; the high-water table lists every run's peak per scenario.
. "${top_srcdir}/tests/lib/test-lib.sh"

make_baseline
# The recorded figure is the minimum over the runs of each run's median.
for s in small medium large; do
	want=$(jq -s --arg s "$s" 'map(.rows[] | select(.name == $s) | [.reps[].results.head.peak_rss] | sort
		| if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end)
		| min | round' base1.json base2.json base3.json)
	got=$(jq --arg s "$s" '.scenarios[$s]' baseline.json)
	[ "$want" = "$got" ] || fail "baseline for $s is $got, want the minimum of medians $want"
done

runs plain.json run 2
expect_rc 0 "$PERFAB" memgate check run1.json run2.json --baseline baseline.json
grep_out "memgate: PASS"
grep_err "only 2 runs: the memory gate expects 8"
grep_out "scenario .*run 1 .*run 2 .*min .*baseline .*limit"
for s in small medium large; do
	grep -q "^$s .* ok$" "$T/out" || { cat "$T/out" >&2; fail "no passing line for $s"; }
done
grep -q '\*' "$T/out" && grep -q '^[a-z].*[0-9]\*' "$T/out" && fail "a passing run marked above the limit"
# Eight runs (the same files again) do not warn.
expect_rc 0 "$PERFAB" memgate check run1.json run2.json run1.json run2.json run1.json run2.json \
	run1.json run2.json --baseline baseline.json
grep -q "expects 8" "$T/err" && fail "warned with 8 runs"
# --arm base gates the base arm (recorded as head here: same program).
expect_rc 0 "$PERFAB" memgate check run1.json --arm base --baseline baseline.json
grep_out "of arm 'base'"
exit 0
