#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Names reach the terminal through one printer: a row name with a newline,
# ESC, BEL and an OSC sequence, from a config and then from the artifact,
# prints escaped (\n, \x1b, \x07) in progress lines, warnings, the medians,
# the text ledger and the gate — never a raw control character, never a
# line of its own (a fake "overall: PASS").
. "${top_srcdir}/tests/lib/test-lib.sh"

# The name, as JSON: "evil" NL "overall: PASS" ESC ]0;title BEL ESC [31m.
cat >cfg.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["/bin/sh", "-c", "exit 0"] },
            { "name": "head", "argv": ["/bin/sh", "-c", "exit 0"] } ],
  "rows": [ { "name": "evil\noverall: PASS\u001b]0;title\u0007\u001b[31m" } ],
  "reps": 2, "max_reps": 2 }
CFG
esc=$(printf '\033')
bel=$(printf '\007')
check() { # WHAT FILE...: no raw control character, no injected line
	what=$1
	shift
	for f in "$@"; do
		if grep -q "[$esc$bel]" "$f"; then cat -A "$f" >&2; fail "$what: a raw ESC or BEL in $f"; fi
		# The ledger's own "overall:" line is fine; the name's carries "title".
		if grep -q '^overall: PASS.*title' "$f"; then cat "$f" >&2; fail "$what: the name printed a line of its own"; fi
	done
}
# Two reps a row: no interval yet, so INCONCLUSIVE (exit 3).
expect_rc 3 "$PERFAB" run --config cfg.json --out a.json
check run "$T/out" "$T/err"
grep_err 'row 1/1 evil\\noverall: PASS\\x1b\]0;title\\x07\\x1b\[31m'
grep_out 'evil\\noverall: PASS\\x1b'
expect_rc 3 "$PERFAB" ledger a.json
check ledger "$T/out" "$T/err"
grep_out 'evil\\noverall: PASS\\x1b\]0;title\\x07\\x1b\[31m · head vs base'
expect_rc 3 "$PERFAB" gate a.json
check gate "$T/out" "$T/err"
"$PERFAB" ledger a.json --format markdown >"$T/out" 2>"$T/err"
check markdown "$T/out"
# A failing child: the warning names the row escaped.
sed '/"name": "head"/s/exit 0/exit 3/' cfg.json >fail.json
grep -q 'exit 3' fail.json || exit 99
expect_rc 1 "$PERFAB" run -q --config fail.json --out f.json
check "failed row" "$T/out" "$T/err"
grep_err "row 'evil\\\\noverall: PASS"
# A right-to-left override (U+202E) in a name would reorder what follows
# it on the terminal: escaped byte by byte in the text ledger.
sed 's/"evil/"rtl\\u202eSSAP/' cfg.json >rtl.json
grep -q 'u202e' rtl.json || exit 99
expect_rc 3 "$PERFAB" run -q --config rtl.json --out rtl-a.json
expect_rc 3 "$PERFAB" ledger rtl-a.json
rlo=$(printf '\342\200\256')
if grep -q "$rlo" "$T/out"; then fail "a raw U+202E reached the text ledger"; fi
grep_out 'rtl\\xe2\\x80\\xaeSSAP'
exit 0
