#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# counts_exact.sh — exact instruction counts (--counts, doc/method.md "Exact
# counts") on real children under valgrind's cachegrind:
#   - a deterministic child (xz on a fixed input) counts the same in every
#     rep, and its A/A cell is decided at the first look with a point as
#     its interval;
#   - a head doing 1% more work (perfab-spin slowdown_pct=1: more
#     iterations, not sleeps) FAILs on the count at the first look, while
#     its time cells, with 3 reps, cannot decide anything;
#   - a child whose counts move (a loop of a random length) is counted in
#     every rep and judged by the sign test, and the ledger says the counts
#     varied;
#   - a multi-threaded child (perfab-alloc larson/8) has no exact count:
#     its instructions are null with the reason, and the row is judged by
#     time (cpu required);
#   - without valgrind, auto falls back to off with a note, sim is a usage
#     error (exit 2).
# Each run here names its --counts.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads
require valgrind xz

# The instructions cell of row $1 × head as JSON (perfab ledger --format json).
count_cell() {
	"$PERFAB" ledger --format json "$1" >cell.json
	jq -c '[.rows[0].cells[] | select(.metric == "instructions")][0]' cell.json
}

# --- a deterministic child: the same count in every rep, a point interval;
# one block of 3 reps counted (--count-reps default), the other 3 not.
seq 1 20000 >in.txt
# Its required cell is the exact count, which does not move: never FAIL.
expect_not_fail "an A/A run of a deterministic child does not FAIL" "$PERFAB" run -q --counts sim --reps 6 --max-reps 6 --no-sanity-gate \
	--arm "base=xz -6 -c $T/in.txt" --arm "head=xz -6 -c $T/in.txt" --out det.json
[ "$(jq -r '.run.counts.source' det.json)" = sim ] || fail "counts.source is not sim"
[ "$(jq -r '.run.counts.reps' det.json)" = 3 ] || fail "counts.reps is not one block (3)"
for arm in base head null; do
	n=$(jq "[.rows[0].reps[:3][].results.$arm.instructions] | map(select(. != null)) | length" det.json)
	u=$(jq "[.rows[0].reps[:3][].results.$arm.instructions] | unique | length" det.json)
	[ "$n" = 3 ] && [ "$u" = 1 ] || fail "arm $arm: $n counts, $u distinct (want 3, 1)"
	jq -e "[.rows[0].reps[3:][].results.$arm.instructions] | all(. == null)" det.json \
		>/dev/null || fail "arm $arm: counted after the counting reps, though nothing moved"
done
jq -e '.rows[0].reps[4].null_reasons.base.instructions | test("not counted in this rep")' \
	det.json >/dev/null || fail "an uncounted rep says not why: $(jq -c '.rows[0].reps[4]' det.json | cut -c1-300)"
pass "xz counted the same in all 3 reps of every arm"
[ "$(jq '.rows[0].reps[0].results.base.instructions' det.json)" = \
  "$(jq '.rows[0].reps[2].results.head.instructions' det.json)" ] ||
	fail "base and head count the same binary differently"
c=$(count_cell det.json)
echo "$c" | jq -e '.verdict == "PASS" and .exact == true and .source == "sim" and
	.change.n == 3 and .change.lo == .change.hi and .change.exists == true' >/dev/null ||
	fail "A/A counted cell is not an exact PASS with a point interval: $c"
pass "A/A: the counted cell PASSes at the first look (n=3), interval a point"
# Exact counts decide the row: instructions is its required cell, cpu and
# the other time cells guard.
jq -e '.rows[0].required == ["instructions"] and (.rows[0].guards | index("cpu")) and
	.rows[0].verdict != "FAIL"' cell.json >/dev/null ||
	fail "the counted cell is not the row's required one: $(jq -c '.rows[0] | {required, guards, verdict}' cell.json)"
"$PERFAB" ledger det.json >led.txt
grep -q "counted by valgrind (sim); exact: each arm.s count identical in every rep" led.txt ||
	{ cat led.txt >&2; fail "the ledger does not say the counts were exact"; }

# Counts of another source are not the same metric: pooling refuses them.
jq '.run.counts.source = "pmu" | .seed = 12345' det.json >pmu.json
expect_rc 4 "$PERFAB" pool det.json pmu.json -o pooled.json
grep_err "instruction counts differ in source: sim in 'det.json', pmu in 'pmu.json'"
pass "pool refuses sim counts with pmu counts"

# --- 1% more work: FAIL on the count at the first look
expect_rc 1 "$PERFAB" run -q --counts sim --reps 3 --max-reps 3 --no-sanity-gate \
	--arm "base=$SPIN work=300000 $FAST" --arm "head=$SPIN work=300000 slowdown_pct=1 $FAST" \
	--out heavy.json
c=$(count_cell heavy.json)
echo "$c" | jq -e '.verdict == "FAIL" and .exact == true and .change.n == 3 and
	.change.lo > 0.5 and .change.hi < 1.5' >/dev/null ||
	fail "1% heavier head: the counted cell is not an exact FAIL near +1%: $c"
jq -e '[.rows[0].cells[] | select(.metric == "cpu")][0].verdict == "INCONCLUSIVE"' cell.json \
	>/dev/null || fail "with 3 reps the cpu cell decided: the count is not what decided"
pass "1% more iterations FAIL on the count at the first look (cpu cannot decide with 3 reps)"

# --- counts that move: every rep counted, judged by the sign test
# (6 reps, so that a sign-test interval exists; A/A with the null arm,
# which guards FAIL: the run does not FAIL.) The loop's length comes from
# /dev/urandom, so the count differs from rep to rep.
cat >rnd.sh <<'EOF2'
#!/bin/sh
n=$(od -An -N2 -tu2 /dev/urandom)
i=0
while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
EOF2
chmod +x rnd.sh
expect_not_fail "an A/A run with its null arm does not FAIL" \
	"$PERFAB" run -q --counts sim --reps 6 --max-reps 6 --count-reps 3 \
	--no-sanity-gate ./rnd.sh ./rnd.sh --out mv.json
n=$(jq '[.rows[0].reps[].results.base.instructions] | map(select(. != null)) | length' mv.json)
[ "$n" = 6 ] || fail "counts that moved were counted in $n of 6 reps, not all"
c=$(count_cell mv.json)
echo "$c" | jq -e '.exact == false and .spread_pct > 0.01 and .change.n == 6 and
	.change.exists == true' >/dev/null ||
	fail "varying counts were not judged by the sign test: $c"
echo "$c" | jq -e '.reason | test("varied across reps by up to .*judged by the sign test")' \
	>/dev/null || fail "the ledger does not say the counts varied: $c"
pass "counts that varied were counted in every rep and judged by the sign test"

# --- threads: valgrind runs them one at a time, so no exact count. The
# counting stops at the first rep; every count of the row is null with the
# reason, and the row is judged by time as a run without counts is (cpu,
# and the workload's own throughput, required).
expect_not_fail "a threaded A/A run with its null arm does not FAIL" \
	"$PERFAB" run -q --counts sim --reps 6 --max-reps 6 --count-reps 3 \
	--no-sanity-gate --arm "base=$ALLOC larson/8 ops=2000 drain_ms=0 release_bound_ms=0" \
	--arm "head=$ALLOC larson/8 ops=2000 drain_ms=0 release_bound_ms=0" --out mt.json
n=$(jq '[.rows[0].reps[].results[].instructions] | map(select(. != null)) | length' mt.json)
[ "$n" = 0 ] || fail "a threaded program kept $n counts"
jq -e '[.rows[0].reps[].null_reasons[].instructions] | length == 18 and
	all(test("^not exact: the program runs threads"))' mt.json >/dev/null || fail "the threaded program's counts do not say why they are null"
"$PERFAB" ledger --format json mt.json >mtl.json
jq -e '[.rows[0].cells[] | select(.role == "required") | .metric] | index("cpu") != null and
	index("instructions") == null' mtl.json \
	>/dev/null || fail "a row without exact counts is not judged by time: $(cat mtl.json)"
"$PERFAB" ledger mt.json >mtl.txt 2>&1 || true
grep -q "not exact: the program runs threads" mtl.txt ||
	{ cat mtl.txt >&2; fail "the text ledger does not say why the count is missing"; }
pass "a threaded program has no exact count, says why, and is judged by time"

# --- no valgrind: auto is off with a note, sim a usage error
# Counts off and three reps: INCONCLUSIVE.
PERFAB_VALGRIND=/nonexistent/valgrind expect_rc 3 "$PERFAB" run --counts auto --reps 3 \
	--max-reps 3 --no-sanity-gate --arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out off.json
grep_err "note: exact counts are off: no PMU"
grep_err "valgrind is not available"
[ "$(grep -c 'exact counts are off' "$T/err")" = 1 ] || fail "the note is not one line"
jq -e '.run.counts.mode == "auto" and .run.counts.source == null and
	([.rows[0].reps[].results.base.instructions] | all(. == null))' off.json >/dev/null ||
	fail "auto without valgrind recorded counts"
PERFAB_VALGRIND=/nonexistent/valgrind expect_rc 2 "$PERFAB" run --counts sim --reps 3 \
	--no-sanity-gate --arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out sim.json
grep_err "counts sim: valgrind is not available ('/nonexistent/valgrind'"
[ ! -e sim.json ] || fail "a refused --counts sim wrote an artifact"
PATH=/nonexistent expect_rc 2 "$PERFAB" run --counts sim --reps 3 --no-sanity-gate \
	--arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out sim.json
grep_err "looked up on PATH"
pass "no valgrind: auto falls back with a one-line note, sim exits 2"
