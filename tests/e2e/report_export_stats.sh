#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# report_export_stats.sh — perfab export --stats (doc/perfab.1, PERFAB
# EXPORT): what hyperfine exports per command, per row, arm and metric —
# n, failed, mean, stddev (sample), median, min, max — checked against
# the same figures computed by Python's statistics module from perfab
# export's raw samples, in CSV and JSON; a failed rep is counted, its
# values left out.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
# The statistics of timed samples are under test; counting would only add
# valgrind runs (counts_exact.sh tests what export gives of counts).
PERFAB_COUNTS=off
export PERFAB_COUNTS

expect_rc 0 "$PERFAB" export --stats "$top_srcdir/tests/data/ledger/failed-signal.json" -o stats.csv
expect_rc 0 "$PERFAB" export --stats --format json "$top_srcdir/tests/data/ledger/failed-signal.json" -o stats.json
expect_rc 0 "$PERFAB" export "$top_srcdir/tests/data/ledger/failed-signal.json" -o samples.csv
[ "$(head -1 stats.csv)" = "row,arm,metric,unit,n,failed,mean,stddev,median,min,max" ] ||
	fail "the header is $(head -1 stats.csv)"
jq -e '.schema == "perfab-stats/1"' stats.json >/dev/null || fail "no perfab-stats/1 schema"

python3 - samples.csv stats.csv stats.json <<'PY' || fail "the statistics differ from Python's"
import csv, json, math, statistics, sys
samples = list(csv.DictReader(open(sys.argv[1])))
metrics = [k for k in samples[0] if k not in
           ("row", "rep", "block", "position", "arm", "failed", "exit_code")]
want = {}
for row in dict.fromkeys(s["row"] for s in samples):
    for arm in dict.fromkeys(s["arm"] for s in samples):
        mine = [s for s in samples if s["row"] == row and s["arm"] == arm]
        ok = [s for s in mine if s["failed"] == "false"]
        for m in metrics:
            v = [float(s[m]) for s in ok if s[m] != ""]
            if v:
                want[(row, arm, m)] = {
                    "n": len(v), "failed": len(mine) - len(ok),
                    "mean": statistics.fmean(v),
                    "stddev": statistics.stdev(v) if len(v) > 1 else None,
                    "median": statistics.median(v), "min": min(v), "max": max(v)}
def close(a, b):
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300)
def check(got, source):
    assert set(got) == set(want), (source, sorted(set(got) ^ set(want)))
    for k, w in want.items():
        for f, x in w.items():
            assert close(got[k][f], x), (source, k, f, got[k][f], x)
got = {}
for r in csv.DictReader(open(sys.argv[2])):
    got[(r["row"], r["arm"], r["metric"])] = {
        f: (None if r[f] == "" else float(r[f]) if f not in ("n", "failed") else int(r[f]))
        for f in ("n", "failed", "mean", "stddev", "median", "min", "max")}
check(got, "csv")
got = {(o["row"], o["arm"], o["metric"]): o for o in json.load(open(sys.argv[3]))["stats"]}
check(got, "json")
head_wall = want[("command", "head", "wall")]
assert (head_wall["n"], head_wall["failed"]) == (3, 1), head_wall
PY
pass "export --stats: n, failed, mean, stddev, median, min and max as Python computes them"

expect_rc 2 "$PERFAB" export --stats --format markdown "$top_srcdir/tests/data/ledger/failed-signal.json"
grep_err "takes csv or json"
pass "export --stats takes csv or json"
