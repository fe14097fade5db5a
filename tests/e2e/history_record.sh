#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab history record -> show -> drift on committed artifacts: the chained
# change of three merges' cpu cells is the one computed by hand from their
# ledgers; the same artifact twice is one record; a FAIL merge makes the
# chain drift beyond the tolerance, names the merge behind it and the
# command that confirms it; --last, --since, --branch, --row and --metric
# select; every format parses and the text fits 100 columns.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
db=h.db
rec() { "$PERFAB" history record --db "$db" "$@"; }

expect_rc 0 rec "$D/p2-pass.json" --commit c1 --base c0 --branch main --label runner=vm1
grep_out "recorded merge #1: 4 cells"
expect_rc 0 rec "$D/p2-inconclusive-spin.json" --commit c2 --base c1 --branch main
expect_rc 0 rec "$D/tolerance-margin.json" --commit c3 --base c2 --branch main
# The same artifact again: one record, said so, exit 0.
expect_rc 0 rec "$D/p2-pass.json" --commit other --branch main
grep_out "already recorded as merge #1; nothing changed"
[ "$(python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("select count(*) from merges").fetchone()[0], c.execute("select count(*) from cells where merge_id=1").fetchone()[0], c.execute("select commit_sha from merges where id=1").fetchone()[0])' "$db")" = "3 4 c1" ] ||
	fail "the second record of p2-pass.json changed the database"
# What the record keeps besides the figures.
python3 - "$db" <<'PY' || fail "a merge's metadata is not recorded"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
m = c.execute("select base_sha, branch, rules, stop_reason, cpu_model, length(host_digest),"
              " counts_source, length(artifact_sha256) from merges where id = 1").fetchone()
assert m == ("c0", "main", "perfab/2", "decided", "Intel(R) Xeon(R) Processor", 64, "default", 64), m
assert c.execute("select key, value from labels where merge_id = 1").fetchall() == [("runner", "vm1")]
assert c.execute("pragma user_version").fetchone()[0] == 3
assert c.execute("pragma journal_mode").fetchone()[0] == "wal"
PY

# By hand, from the three ledgers' cpu cells (perfab ledger --format json):
#   merge  change     interval              coverage   z = Phi^-1((1+cov)/2)
#   c1     -0.97395   [-3.90482, +2.27398]  0.9614258  2.06870
#   c2     +2.36235   [+0.63694, +7.16969]  0.96875    2.15387
#   c3     +8.61638   [-1.48418, +26.94156] 0.96875    2.15387
# log-ratios ln(1 + c/100): -0.0097872 + 0.0233487 + 0.0826521 = 0.0962136
# se_i = (ln(1 + hi/100) - ln(1 + lo/100)) / (2 z_i): 0.0150617, 0.0146002,
# 0.0588497; se = sqrt(sum se_i^2) = 0.0624764
# chained: exp(0.0962136) - 1 = +10.099%,
# interval exp(0.0962136 -+ 1.959964 * 0.0624764) - 1 = [-2.590%, +24.441%]
expect_rc 0 "$PERFAB" history drift --db "$db" --row command --metric cpu
grep_out "^cpu of 'command' \[head\] is +10.1% \[-2.6, +24.4\] over the last 3 merges; 2 of them were INCONCLUSIVE$"
grep_out "^drift of 1 series over 3 merges: 0 DRIFT (worse), 0 GAIN (better), 1 none$"
grep -Eq '^  DRIFT|DRIFT:' "$T/out" && fail "a chained interval inside the tolerance was flagged"
expect_rc 0 "$PERFAB" history drift --db "$db" --row command --metric cpu --format json
jq -e '.merges == 3 and (.series | length) == 1 and (.series[0] |
	(.change_pct - 10.0994 | fabs) < 0.001 and (.lo_pct + 2.5897 | fabs) < 0.001 and
	(.hi_pct - 24.4415 | fabs) < 0.001 and (.se_log - 0.0624764 | fabs) < 1e-6 and
	.inconclusive == 2 and .pass == 1 and .drift == "none")' "$T/out" >/dev/null ||
	fail "drift JSON: $(cat "$T/out")"

# A FAIL merge (+29% cpu) on top: the chain's whole interval is beyond the
# last tolerance (2%); the merge behind it and the confirming run are named.
expect_rc 0 rec "$D/p1-nonull.json" --commit c4 --base c3 --branch main
expect_rc 0 rec "$D/budget.json" --commit f1 --base c4 --branch feature
expect_rc 0 "$PERFAB" history drift --db "$db" --branch main --row command --metric cpu
grep_out "over the last 4 merges"
grep_out "DRIFT: the whole interval is beyond the tolerance of 2.00% (worse)"
grep_out "most of it from: #4 c4 +29.40%"
grep_out "perfab run BUILD_AT_c0 BUILD_AT_c4"
# Revisions named with spaces: the confirming command keeps each one word.
db=sp.db
expect_rc 0 rec "$D/p2-pass.json" --commit "v 1" --base "system malloc" --branch main
expect_rc 0 rec "$D/p1-nonull.json" --commit "glibc malloc" --base "v 1" --branch main
expect_rc 0 "$PERFAB" history drift --db "$db" --row command --metric cpu
grep_out "perfab run 'BUILD_AT_system malloc' 'BUILD_AT_glibc malloc'\$"
db=h.db
# Selections: --last, --since, --branch (every branch: 5 merges).
expect_rc 0 "$PERFAB" history drift --db "$db" --branch main --last 1 --metric cpu --format json
jq -e '.merges == 1 and .series[0].merges == 1 and (.series[0].change_pct - 29.4026 | fabs) < 0.001' \
	"$T/out" >/dev/null || fail "--last 1: $(cat "$T/out")"
expect_rc 0 "$PERFAB" history drift --db "$db" --since c2 --metric cpu --format json
jq -e '.merges == 3' "$T/out" >/dev/null || fail "--since c2 (c3, c4, f1): $(cat "$T/out")"
expect_rc 0 "$PERFAB" history show --db "$db" --format json
jq -e '.merges == 5 and ([.cells[].merge] | unique) == [1,2,3,4,5]' "$T/out" >/dev/null ||
	fail "show JSON: $(cat "$T/out")"
expect_rc 2 "$PERFAB" history drift --db "$db" --since nosuch
grep_err "no merge of commit 'nosuch' is recorded"
expect_rc 2 "$PERFAB" history drift --db missing.db
grep_err "does not exist"

# Formats: CSV (17 columns, a line per cell), Markdown, text within 100
# columns.
expect_rc 0 "$PERFAB" history show --db "$db" --format csv --metric cpu
python3 - "$T/out" <<'PY' || fail "CSV: $(cat "$T/out")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:3] == ["merge", "commit", "base"] and len(rows[0]) == 17, rows[0]
assert len(rows) == 6 and all(len(r) == 17 for r in rows), rows
assert [r[1] for r in rows[1:]] == ["c1", "c2", "c3", "c4", "f1"], rows
assert abs(float(rows[3][10]) - 8.616382714667454) < 1e-9, rows[3]
PY
expect_rc 0 "$PERFAB" history show --db "$db" --format markdown --metric cpu
grep_out "^| merge | commit | row | arm | metric | base → head | change | verdict | n |$"
grep_out '^| 4 | c4 | command | head | cpu | 21.9 ms → 28.5 ms | 1.29× slower \\\[1.25, 1.40\\\] | FAIL | 6 |$'
expect_rc 0 "$PERFAB" history show --db "$db"
awk 'length > 100 { exit 1 }' "$T/out" || fail "show text wider than 100 columns"
grep_out "^cpu of 'command' \[head\]$"
grep_out "^  #4 *c4 *FAIL *2% *6  21.9 ms -> 28.5 ms  1.29x slower \[1.25, 1.40\]$"
grep_out "^  #3 *c3 *INCONCLUSIVE *25% *6  22.2 ms -> 24.2 ms$"
grep_out "^ *unclear: 1.02x faster to 1.27x slower$"
expect_rc 0 "$PERFAB" history drift --db "$db"
awk 'length > 100 { exit 1 }' "$T/out" || fail "drift text wider than 100 columns"

# Refusals: an artifact with no verdict is not recorded.
expect_rc 4 rec "$D/incomplete.json"
grep_err "not recorded"
expect_rc 2 rec "$D/p2-pass.json" "$D/p2-gain.json"
grep_err "one artifact at a time"
expect_rc 2 "$PERFAB" history record "$D/p2-pass.json"
grep_err -- "--db FILE is required"
expect_rc 2 rec "$D/p2-pass.json" --label novalue
expect_rc 2 rec "$D/p2-pass.json" --label k=1 --label k=2
grep_err -- "--label 'k' given twice"
expect_rc 2 "$PERFAB" history frob
grep_err "history needs record, show, drift or html"
exit 0
