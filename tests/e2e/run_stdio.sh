#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What a run's results and its children's stdio look like outside perfab:
# `perfab ledger --format csv` parses with Python's csv module and equals
# the JSON ledger cell for cell; `perfab export` writes every rep and arm
# with the artifact's own values (CSV and JSON); `run --export-*` writes
# the same reports at the end of the run; --input feeds the children's
# stdin (default /dev/null), --output sends their stdout to a file,
# --show-output shows it on stderr.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

spin="$WL/perfab-spin work=300 drain_ms=1 release_bound_ms=2"
# A head that holds 16 MiB more: its peak RSS, CPU and faults are far
# beyond base's and null's in every rep, a FAIL at 6 reps whatever the
# load; each ledger repeats it.
expect_rc 1 "$PERFAB" run -q --reps 6 --max-reps 6 --no-sanity-gate --out a.json \
	--export-csv run.csv --export-json run.json --export-markdown run.md "$spin" "$spin extra_mib=16"
run_rc=$rc
expect_rc "$run_rc" "$PERFAB" ledger --format csv a.json
mv "$T/out" ledger.csv
expect_rc "$run_rc" "$PERFAB" ledger --format json a.json
mv "$T/out" ledger.json
expect_rc "$run_rc" "$PERFAB" ledger --format markdown a.json
mv "$T/out" ledger.md
cmp -s ledger.csv run.csv || fail "run --export-csv differs from perfab ledger --format csv"
cmp -s ledger.json run.json || fail "run --export-json differs from perfab ledger --format json"
cmp -s ledger.md run.md || fail "run --export-markdown differs from perfab ledger --format markdown"
expect_rc 7 "$PERFAB" run -q --reps 2 --max-reps 2 /bin/true /bin/true --out x7.json \
	--export-csv no-such-dir/x.csv
grep_err "cannot write 'no-such-dir/x.csv'"
jq -e .complete x7.json >/dev/null || fail "an export that failed lost the artifact"

python3 - ledger.csv ledger.json <<'PY' || fail "the CSV ledger does not match the JSON ledger"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
led = json.load(open(sys.argv[2]))
cells = [(r, c) for r in led["rows"] for c in r["cells"]]
assert len(rows) == len(cells) and len(rows) >= 5, (len(rows), len(cells))
def num(s):
    return None if s == "" else float(s)
for got, (r, c) in zip(rows, cells):
    want = {"row": r["row"], "arm": r["arm"], "base": led["base"], "n": str(r["n"]),
            "row_verdict": r["verdict"], "metric": c["metric"], "unit": c["unit"],
            "verdict": c["verdict"]}
    for k, v in want.items():
        assert got[k] == v, (k, got[k], v)
    if c["verdict"] == "NOT MEASURED":
        assert all(got[k] == "" for k in ("base_median", "change", "ratio", "reason")), got
        continue
    ch = c["change"]
    nums = {"base_median": c["base_median"], "head_median": c["head_median"],
            "change": ch["median"], "change_lo": ch["lo"], "change_hi": ch["hi"],
            "coverage": ch["coverage"], "tolerance": c["tolerance"], "noise": c["noise"],
            "allowance": c["allowance"], "ratio": c["ratio"]}
    for k, v in nums.items():
        assert num(got[k]) == v, (c["metric"], k, got[k], v)
    assert got["interval_exists"] == ("true" if ch["exists"] else "false"), got
    assert got["direction"] == c["direction"], (got["direction"], c["direction"])
    assert got["reason"] == c.get("reason", ""), (got["reason"], c.get("reason"))
PY

# Raw samples: one line per rep and arm, in run order, the artifact's values.
expect_rc 0 "$PERFAB" export a.json
mv "$T/out" samples.csv
expect_rc 0 "$PERFAB" export --format json -o samples.json a.json
# (18 samples: 6 reps of 3 arms, or 9 where exact counts fixed the FAIL in
# the first block and stopped the row; the artifact says which.)
python3 - samples.csv samples.json a.json <<'PY' || fail "perfab export does not hold the artifact's samples"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
doc = json.load(open(sys.argv[2]))
art = json.load(open(sys.argv[3]))
assert doc["schema"] == "perfab-samples/1" and doc["units"]["wall"] == "s", doc["units"]
want = []
for row in art["rows"]:
    for i, rep in enumerate(row["reps"]):
        for pos, arm in enumerate(rep["order"]):
            want.append((row["name"], i, rep["block"], pos, arm, rep["results"][arm]))
assert len(rows) == len(doc["samples"]) == len(want) and len(want) in (9, 18), (len(rows), len(want))
for got, js, (row, i, block, pos, arm, res) in zip(rows, doc["samples"], want):
    assert (got["row"], int(got["rep"]), int(got["block"]), int(got["position"]), got["arm"]) == \
        (row, i, block, pos, arm), got
    assert (js["row"], js["rep"], js["block"], js["position"], js["arm"]) == (row, i, block, pos, arm), js
    for m, v in res.items():
        assert (None if got[m] == "" else float(got[m])) == v, (m, got[m], v)
        assert js[m] == v, (m, js[m], v)
PY
expect_rc 2 "$PERFAB" export --format xml a.json
grep_err "csv or json"

# --input FILE is the children's stdin; without it they read /dev/null.
# (Counting off: the check counts the timed children's reads; the counted
# child's stdin is counts_child.sh's.)
printf 'line one\nline two\n' >in.txt
expect_rc 3 "$PERFAB" run -q --counts off --no-null-arm --reps 2 --max-reps 2 --input in.txt \
	"sh -c 'cat >>got-base'" "sh -c 'cat >>got-head'" --out in.json
[ "$(grep -c 'line two' got-base)" = 2 ] && [ "$(grep -c 'line two' got-head)" = 2 ] ||
	fail "--input did not reach every child's stdin: $(cat got-base got-head)"
jq -e '.run.input == "in.txt"' in.json >/dev/null || fail "run.input not recorded"
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 \
	"sh -c 'cat >>nul-base'" "sh -c 'cat >>nul-head'" --out nul.json
[ ! -s nul-base ] && [ ! -s nul-head ] || fail "without --input a child read something"
expect_rc 2 "$PERFAB" run -q --input no-such-file /bin/true /bin/true --out x.json
grep_err "no-such-file"

# --output FILE collects the children's stdout; by default it is dropped.
# (Counting off: the check counts the timed children's lines.)
expect_rc 3 "$PERFAB" run -q --counts off --no-null-arm --reps 2 --max-reps 2 --output kids.txt \
	"echo from-base" "echo from-head" --out out.json
[ "$(grep -c from-base kids.txt)" = 2 ] && [ "$(grep -c from-head kids.txt)" = 2 ] ||
	fail "--output FILE: $(cat kids.txt)"
if grep -q "from-" "$T/out"; then fail "the children's stdout reached perfab's"; fi

# --show-output: their stdout and stderr on perfab's stderr.
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --show-output \
	"sh -c 'echo out-base; echo err-base >&2'" "sh -c 'echo out-head'" --out show.json
for w in out-base err-base out-head; do grep_err "$w"; done
if grep -q "out-base" "$T/out"; then fail "--show-output wrote to stdout"; fi
exit 0
