#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --parameter-scan and --parameter-list: {NAME} in the arms' commands
# gives one row per value (per combination), named NAME=V, in order, each
# judged on its own; the child sees the value; the rows survive --resume;
# mistakes are refused before anything runs.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
# The checks count the children that saw each value; the counting pass
# would add its own runs (counts_child.sh checks what a counted child
# gets), so it is off here.
PERFAB_COUNTS=off
export PERFAB_COUNTS

# A scan of 3 values: 3 rows named by value, the children given each.
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --parameter-scan n 1 3 \
	"sh -c 'echo base {n} >>seen'" "sh -c 'echo head {n} >>seen'" --out scan.json
[ "$(jq -c '[.rows[].name]' scan.json)" = '["n=1","n=2","n=3"]' ] ||
	fail "a scan of 1..3 gave rows $(jq -c '[.rows[].name]' scan.json)"
jq -e '[.rows[].params.n] == ["1","2","3"]' scan.json >/dev/null || fail "rows' params: $(jq -c '[.rows[].params]' scan.json)"
for v in 1 2 3; do
	[ "$(grep -cx "base $v" seen)" = 2 ] && [ "$(grep -cx "head $v" seen)" = 2 ] ||
		fail "value $v did not reach the children twice per arm: $(sort seen | uniq -c | tr '\n' ' ')"
done
expect_rc 3 "$PERFAB" ledger --format json scan.json
[ "$(jq -c '[.rows[].row]' "$T/out")" = '["n=1","n=2","n=3"]' ] || fail "the ledger's rows: $(jq -c '[.rows[].row]' "$T/out")"
expect_rc 3 "$PERFAB" ledger --format markdown scan.json
python3 - "$T/out" <<'PY' || fail "the Markdown ledger does not show the series in order"
import sys
t = open(sys.argv[1]).read()
i = [t.find("n=%d" % v) for v in (1, 2, 3)]
assert all(x >= 0 for x in i) and i == sorted(i), i
PY
expect_rc 3 "$PERFAB" ledger --format html scan.json
python3 - "$T/out" <<'PY' || fail "the HTML report has no plot of the change against the parameter"
import re, sys
t = open(sys.argv[1]).read()
plots = re.findall(r'<svg class="series".*?</svg>', t, re.S)
assert len(plots) == 1, len(plots)  # one head arm
labels = re.findall(r'text-anchor="(?:start|middle|end)">(n=\d)</text>', plots[0])
assert labels == ["n=1", "n=2", "n=3"], labels
# a point per row for each judged metric that was measured
assert plots[0].count("<circle") >= 3 * 2, plots[0].count("<circle")
PY
expect_rc 1 "$PERFAB" ledger --format html "${top_srcdir}/tests/data/demo-run.json"
if grep -q '<svg class="series"' "$T/out"; then fail "a series plot for rows that are no series"; fi

# The step size, and the cross product with a list (the scan varies slowest).
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --parameter-scan x 0 1 \
	--parameter-step-size 0.5 --parameter-list mode fast,slow \
	"sh -c 'echo {x}-{mode} >>seen2'" "sh -c 'echo {x}-{mode} >>seen2'" --out cross.json
[ "$(jq -c '[.rows[].name]' cross.json)" = '["x=0,mode=fast","x=0,mode=slow","x=0.5,mode=fast","x=0.5,mode=slow","x=1,mode=fast","x=1,mode=slow"]' ] ||
	fail "the cross product: $(jq -c '[.rows[].name]' cross.json)"
[ "$(grep -cx '0.5-slow' seen2)" = 4 ] || fail "x=0.5,mode=slow did not run 4 times: $(sort seen2 | uniq -c | tr '\n' ' ')"

# The rows are part of the definition --resume checks.
jq '.complete = false | .rows[2].reps = .rows[2].reps[:0] | .run.stop_reason = null' scan.json >part.json
expect_rc 4 "$PERFAB" run -q --resume part.json --no-null-arm --parameter-scan n 1 4 \
	--arm "base=sh -c 'echo base {n} >>seen'" --arm "head=sh -c 'echo head {n} >>seen'"
grep_err "rows"
# Two reps a row, as the scan it resumes: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --resume part.json --no-null-arm --parameter-scan n 1 3 \
	--arm "base=sh -c 'echo base {n} >>seen'" --arm "head=sh -c 'echo head {n} >>seen'"
jq -e '.complete and (.rows[2].reps | length) == 2' part.json >/dev/null || fail "the resumed scan did not finish row n=3"

# Refused up front.
expect_rc 2 "$PERFAB" run -q --parameter-scan n 1 3 /bin/true /bin/true --out x.json
grep_err "no arm's command mentions {n}"
expect_rc 2 "$PERFAB" run -q --parameter-list n a,,b "echo {n}" "echo {n}" --out x.json
grep_err "empty value"
expect_rc 2 "$PERFAB" run -q --parameter-scan n 3 1 "echo {n}" "echo {n}" --out x.json
grep_err "MIN <= MAX"
expect_rc 2 "$PERFAB" run -q --parameter-list 1n a,b "echo {1n}" "echo {1n}" --out x.json
grep_err "parameter name"
expect_rc 2 "$PERFAB" run -q --parameter-list n a,b "/bin/{n}" "echo {n}" --out x.json
grep_err "program name"
expect_rc 2 "$PERFAB" run -q "echo {n}" "echo {n}" --parameter-scan n 1
grep_err "needs 3 values"
[ ! -e x.json ] || fail "a refused run wrote an artifact"
exit 0
