#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Results read at a glance: the text ledger of the README demo's artifact
# and of a five-variant artifact fits 100 columns (-v/--wide adds a line
# of each cell's noise, tolerance, allowance and coverage, and fits too); changes read as ratios worded by direction, memory as an
# amount and a percentage, values with SI prefixes; every non-PASS cell
# states its reason; the ledger JSON carries the same reading in new
# fields; verdict words are coloured on a terminal only when NO_COLOR is
# unset or empty and TERM is not dumb.
. "${top_srcdir}/tests/lib/test-lib.sh"
data="${top_srcdir}/tests/data"
require python3

# widest FILE: the widest line, in characters (UTF-8 decoded).
widest() {
	python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"
}

# The verdicts of the two recorded artifacts: the demo FAILs, the five
# variants are INCONCLUSIVE.
for a in demo-run.json variants5.json; do
	case $a in demo-run.json) want=1 ;; *) want=3 ;; esac
	expect_rc "$want" "$PERFAB" ledger "$data/$a"
	cp "$T/out" "$a.txt"
	w=$(widest "$a.txt")
	[ "$w" -le 100 ] || { awk 'length > 100' "$a.txt" >&2; fail "$a: a ledger line is $w columns wide (limit 100)"; }
	grep -q 'change \[95% interval\]' "$a.txt" || fail "$a: no change column"
	if grep -q '^  *noise [0-9.]*% · tol ' "$a.txt"; then fail "$a: noise figures in the default ledger"; fi
	if grep -Eq '[0-9]e[+-][0-9]|count' "$a.txt"; then fail "$a: exponent or unit word 'count': $(grep -E '[0-9]e[+-][0-9]|count' "$a.txt" | head -1)"; fi
	expect_rc "$want" "$PERFAB" ledger --wide "$data/$a"
	grep -Eq '^ {15}noise [0-9.]+% · tol [0-9.]+% · allow [0-9.]+% · coverage [0-9.]+%' "$T/out" ||
		fail "$a: --wide lacks the noise, tolerance, allowance and coverage of a cell"
	w=$(widest "$T/out")
	[ "$w" -le 100 ] || { awk 'length > 100' "$T/out" >&2; fail "$a: a --wide line is $w columns wide (limit 100)"; }
done
[ "$(grep -c ' vs base ' variants5.json.txt)" = 5 ] || fail "variants5: not five head arms"

# The demo: jemalloc's 16-fold throughput gain reads as a ratio, faster.
grep -Eq '^  throughput +32\.3 k -> 479 k ops/s +16\.3x faster \[5\.85, 25\.3\] +PASS$' demo-run.json.txt ||
	fail "throughput does not read as '16.3x faster [5.85, 25.3]': $(grep throughput demo-run.json.txt | head -1)"
grep -Eq '^  peak_rss +27\.0 MiB -> 37\.6 MiB +\+9\.06 MiB \(\+33\.6% \[\+28\.8, \+59\.7\]\) +FAIL$' demo-run.json.txt ||
	fail "memory does not read as an amount and a percentage"
# Every non-PASS metric line is followed by its reason, with numbers.
python3 - demo-run.json.txt variants5.json.txt <<'PY' || fail "a non-PASS cell without its reason"
import re, sys
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, l in enumerate(lines):
        if re.match(r"^  [a-z_0-9]+ ", l) and re.search(r" (FAIL|INCONCLUSIVE)$", l):
            nxt = lines[i + 1]
            # a bound reads on the cell's own scale: a percentage, or a ratio
            assert nxt.startswith("      ") and re.search(r"[+-][0-9.]+%|[0-9.]+x (slower|faster)", nxt), (path, l, nxt)
            if l.endswith("INCONCLUSIVE"):
                block = re.sub(r"\s+", " ", " ".join(lines[i + 1:i + 4]))
                assert re.search(r"about [0-9]+ more reps|not decidable at|will not decide it|no 95% interval|accepted uncertainty", block), block
PY
tr -s ' \n' '  ' <demo-run.json.txt |
	grep -q 'PASS needs the upper end within +2.0% (tolerance), it is +25.5%; FAIL needs the lower end beyond +16.4%' ||
	fail "an INCONCLUSIVE reason does not name its bounds"

# The same reading in the ledger JSON, additively.
expect_rc 1 "$PERFAB" ledger --format json "$data/demo-run.json"
jq -e '.schema == "perfab-ledger/1" and .format == "perfab-ledger/1"' "$T/out" >/dev/null || fail "ledger JSON version keys"
jq -e '[.rows[].cells[] | select(.verdict == "FAIL" or .verdict == "INCONCLUSIVE") | select((.reason // "") == "")] | length == 0' "$T/out" >/dev/null ||
	fail "a non-PASS cell without a reason in JSON"
jq -e '.rows[0].cells[] | select(.metric == "throughput")
	| .direction == "faster" and (.factor * 10 | round) == 163
	  and (.ratio - (1 - .change.median / 100) | fabs) < 1e-9
	  and .factor_low <= .factor and .factor <= .factor_high
	  and .ratio_low <= .ratio and .ratio <= .ratio_high
	  and (.reads | startswith("16.3\u00d7 faster"))' "$T/out" >/dev/null ||
	fail "throughput ratio fields: $(jq -c '.rows[0].cells[0]' "$T/out")"
jq -e '.rows[1].cells[] | select(.metric == "cpu") | .direction == "faster" and
	(.ratio - (1 + .change.median / 100) | fabs) < 1e-9' "$T/out" >/dev/null || fail "cpu ratio fields"

# Colour: verdict words on a terminal; NO_COLOR set and non-empty, or
# TERM=dumb, turn it off; an empty NO_COLOR does not (no-color.org).
if command -v script >/dev/null 2>&1; then
	tty_ledger() { script -qec "$1 '$PERFAB' ledger '$data/variants5.json'" /dev/null >"$2" 2>&1 || true; }
	esc=$(printf '\033')
	tty_ledger "env TERM=xterm" col.txt
	grep -q "${esc}\[33mINCONCLUSIVE" col.txt || fail "no colour on a terminal"
	tty_ledger "env NO_COLOR=1 TERM=xterm" nocol.txt
	if grep -q "$esc" nocol.txt; then fail "NO_COLOR=1 still colours"; fi
	tty_ledger "env TERM=dumb" dumb.txt
	if grep -q "$esc" dumb.txt; then fail "TERM=dumb still colours"; fi
	tty_ledger "env NO_COLOR= TERM=xterm" empty.txt
	grep -q "${esc}\[33mINCONCLUSIVE" empty.txt || fail "an empty NO_COLOR disabled colour"
fi
# Never colour into a pipe.
"$PERFAB" ledger "$data/variants5.json" | grep -q "$(printf '\033')" && fail "colour into a pipe"
exit 0
