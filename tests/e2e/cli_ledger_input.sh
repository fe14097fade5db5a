#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Bad input to the ledger and gate: a clear message and exit 2; refused
# data (unbalanced) exit 4; usage.
. "${top_srcdir}/tests/lib/test-lib.sh"

expect_rc 2 "$PERFAB" ledger
grep_err "no artifact"
expect_rc 2 "$PERFAB" ledger /no/such/file.json
grep_err "cannot read"
echo 'not json' >g.json
expect_rc 2 "$PERFAB" ledger g.json
grep_err "not valid JSON"
echo '{"schema": "perfab-artifact/99"}' >v.json
expect_rc 2 "$PERFAB" ledger v.json
grep_err "unknown schema"
# An artifact to corrupt: one block of 3 reps (base, head, null), fewer
# than 6 pairs, INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 3 --max-reps 3 --out ok.json
jq '.rows[0].reps[0].results.base.wall = "fast"' ok.json >wt.json
expect_rc 2 "$PERFAB" ledger wt.json
grep_err "wall"
jq 'del(.rows[0].reps[0].order)' ok.json >mf.json
expect_rc 2 "$PERFAB" ledger mf.json
grep_err "order"
# The block cut short: unbalanced.
jq '.rows[0].reps |= .[0:2]' ok.json >ub.json
expect_rc 4 "$PERFAB" ledger ub.json
grep_err "unbalanced"
jq '.rows[0].reps[1].order = .rows[0].reps[0].order' ok.json >ub2.json
expect_rc 4 "$PERFAB" gate ub2.json
grep_err "not the rotate-reverse/1 order"
expect_rc 2 "$PERFAB" ledger --format yaml ok.json
grep_err "unknown --format"
expect_rc 2 "$PERFAB" gate --inconclusive maybe ok.json
expect_rc 0 "$PERFAB" ledger --help
grep_out "usage: perfab ledger"
expect_rc 0 "$PERFAB" --version
grep_out "Features:"
exit 0
