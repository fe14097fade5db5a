#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The workload suite through perfab itself: every allocator row reports p99 from its
# latency replay when p99 is judged (plain commands, and workload rows of a run
# that does not judge p99, run no replay: null with a reason), arms running the same
# row and seed report the same operation checksum, the leak knob shows in
# drain_rss, and an injected 30% slowdown makes throughput FAIL.
. "${top_srcdir}/tests/lib/test-lib.sh"

jemalloc=$(ldconfig -p | awk '/libjemalloc\.so\.2 / { print $NF; exit }')
cat >alloc.json <<CFG
{ "arms": [ { "name": "base" },
            { "name": "head", "env": { "LD_PRELOAD": "${jemalloc:-}" } } ],
  "workloads": "large-class|random-large|small|larson",
  "reps": 2, "max_reps": 2, "scale": 0.02, "seed": 9 }
CFG
[ -n "$jemalloc" ] || sed -i 's/"LD_PRELOAD": ""/"PAB_NO_JEMALLOC": "1"/' alloc.json
# Two reps a row: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --no-sanity-gate --config alloc.json --out a.json \
	--metrics throughput,cpu,minor_faults,peak_rss,drain_rss,p99
rows=$(jq '.rows | length' a.json)
[ "$rows" -ge 8 ] || fail "expected the 8 allocator rows, got $rows"
jq -e '[.rows[].reps[].results[] | .p99 > 0] | all' a.json >/dev/null ||
	fail "p99 missing for an allocator row: $(jq -c '[.rows[] | [.name, [.reps[].results[].p99]]]' a.json)"
jq -e '[.rows[].reps[] | .checksums.base == .checksums.head and (.checksums.base | length > 0)] | all' a.json >/dev/null ||
	fail "arms of the same row and seed differ in checksum"
jq -e '[.rows[].reps[].results[] | .rss_floor > 0 and .rss_floor <= .peak_rss * 1.05] | all' a.json >/dev/null ||
	fail "rss_floor missing or above the peak"

expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --out plain.json
jq -e '.rows[0].reps[0] | .results.base.p99 == null and (.null_reasons.base.p99 | test("perfab-workload"))' plain.json >/dev/null ||
	fail "a plain command must have p99 null with a reason"

# The leak reaches drain_rss. (Counts off: touching 64 MiB page by page is
# +0.54% of this row's instructions, a hair above their 0.5% tolerance, so
# the verdict would rest on the page size; this checks the memory.)
spin="$WL/perfab-spin work=2000000 drain_ms=100 release_bound_ms=150"
expect_rc 3 "$PERFAB" run -q --counts off --no-sanity-gate --reps 2 --max-reps 2 --arm "base=$spin leak_mib=0" \
	--arm "head=$spin leak_mib=64" --out leak.json
jq -e '[.rows[0].reps[] | .results.head.drain_rss - .results.base.drain_rss >= 62 * 1048576] | all' leak.json >/dev/null ||
	fail "leak_mib=64 not in drain_rss: $(jq -c '[.rows[0].reps[] | [.results.base.drain_rss, .results.head.drain_rss]]' leak.json)"
# p99 is not judged by default: no latency replay ran, and p99 says why.
jq -e '[.rows[0].reps[] | .results.base.p99 == null and (.null_reasons.head.p99 | test("not judged"))] | all' \
	leak.json >/dev/null || fail "a default run replayed for p99: $(jq -c '.rows[0].reps[0]' leak.json)"

spin="$WL/perfab-spin work=30000000 drain_ms=5 release_bound_ms=10"
# No null arm here: this checks that the knob reaches throughput. Under a
# parallel `make check` one preempted null rep can widen the noise guard
# past a true 30% (the guard itself is tested in ledger_verdicts.sh). Only
# throughput is judged: a row stops at its first FAIL, which cpu would
# otherwise give before throughput has settled. A 2x slowdown: throughput
# is 1/wall, and on a machine busy on every CPU the wall time of a 30%
# slower head spread its interval down to the tolerance.
expect_rc 1 "$PERFAB" run -q --no-null-arm --metrics throughput --reps 12 --max-reps 45 \
	--arm "base=$spin slowdown_pct=0" \
	--arm "head=$spin slowdown_pct=100" --out slow.json
expect_rc 1 "$PERFAB" ledger --format json slow.json
jq -e '.rows[0].cells[] | select(.metric == "throughput") | .verdict == "FAIL"' "$T/out" >/dev/null ||
	fail "a 2x slowdown must FAIL on throughput: $(jq -c '.rows[0].cells[] | select(.metric == "throughput")' "$T/out")"
exit 0
