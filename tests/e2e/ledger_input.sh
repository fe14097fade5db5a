#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Bad input to the ledger and gate: a clear message and exit 2; refused
# data (unbalanced) exit 4; usage. A JSON file that is recognisably not an
# artifact is said to be what it is (hyperfine's export, perfab's ledger or
# calibration, an artifact of a newer schema), with what to give instead.
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
grep_err "'v.json': written by a newer perfab (schema perfab-artifact/99); this perfab reads perfab-artifact/1: upgrade perfab$"
echo '{"schema": "perfab-artifact/x"}' >vx.json
expect_rc 2 "$PERFAB" ledger vx.json
grep_err "unknown schema 'perfab-artifact/x'"
cat >hf.json <<'JSON'
{ "results": [ { "command": "sleep 0.1", "mean": 0.1032, "stddev": 0.0011, "median": 0.1031,
                 "user": 0.0008, "system": 0.0012, "min": 0.1019, "max": 0.1051,
                 "times": [0.1019, 0.1031, 0.1051] } ] }
JSON
for cmd in ledger gate; do
	expect_rc 2 "$PERFAB" $cmd hf.json
	grep_err "'hf.json': hyperfine's --export-json output, not a perfab artifact: perfab judges the artifacts of its own runs (perfab run --out FILE CMD_BASE CMD_HEAD"
done
# pool as well: not "protocol differs" (it has no protocol), and bad input.
expect_rc 2 "$PERFAB" pool --out p.json "$top_srcdir/tests/data/demo-run.json" hf.json
grep_err "'hf.json': hyperfine's --export-json output"
expect_rc 1 "$PERFAB" ledger --format json "$top_srcdir/tests/data/demo-run.json"
cp "$T/out" lj.json
expect_rc 2 "$PERFAB" ledger lj.json
grep_err "'lj.json': a ledger (perfab ledger --format json), not an artifact: give perfab ledger the artifact it was made from"
expect_rc 0 "$PERFAB" calibrate --from "$top_srcdir/tests/data/demo-run.json" --out cal.json
expect_rc 2 "$PERFAB" ledger cal.json
grep_err "'cal.json': a calibration file (perfab calibrate), not an artifact: give it to perfab run --calibration FILE"
pass "foreign JSON said to be what it is"
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
