#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_protocol.sh — perfab-workload/1 as doc/workload-protocol.md
# states it: the report's fields and types, the atomic report file,
# parameter precedence (row defaults < PERFAB_PARAMS < key=value), manual
# use without PERFAB_ROW, and the program's own VmHWM even when started
# by a parent with a much larger peak.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

mkdir "$T/rep"
r="$T/rep/report.json"
PERFAB_SEED=12345678901 run_row "$r" "$ALLOC" random-large/1 $FAST \
	>"$T/out" || fail "run: exit $?"
[ -s "$T/out" ] && fail "a run with PERFAB_REPORT printed to stdout"
[ "$(ls "$T/rep")" = report.json ] && pass "one report, no temp file" ||
	fail "report directory holds: $(ls "$T/rep")"

jq -e '
	def bytes: type == "number" and . == floor and . > 0;
	.protocol == "perfab-workload/1"
	and .program == "perfab-alloc"
	and .row == "random-large/1"
	and (.params | type == "object" and length == 12
	     and all(.[]; type == "string") and .sizes == "uniform"
	     and .drain_ms == "20")
	and .mode == "throughput"
	and .seed == 12345678901
	and .scale == 0.05
	and .threads == 1
	and .ops == ((.params.ops | tonumber) * 0.05 | round)
	and (.elapsed_s | type == "number" and . > 0)
	and (.checksum | test("^[0-9a-f]{16}$"))
	and (.live_bytes | bytes) and (.live_rss_bytes | bytes)
	and (.pre_rss_bytes | bytes) and (.vmhwm_bytes | bytes)
	and (.drain_rss_bytes | bytes) and (.release_bound_rss_bytes | bytes)
	and .rss_floor_bytes == .pre_rss_bytes + .live_bytes
	and (.release_ms | type == "number" and . >= 0 and . <= 50)
	and (has("latency_ns") | not)
' "$r" >/dev/null && pass "report fields and types" ||
	fail "report: $(cat "$r")"

# Precedence: defaults < PERFAB_PARAMS < arguments.
PERFAB_PARAMS="threads=2,ops=300,$(echo $FAST | tr ' ' ',')" \
	run_row "$r" "$ALLOC" small/8 && jq -e '.threads == 2 and .ops == 30
	and .params.threads == "2" and .params.ops == "300"
	and .params.slots == "8"' "$r" >/dev/null &&
	pass "PERFAB_PARAMS overrides the defaults" ||
	fail "PERFAB_PARAMS: $(jq -c '[.threads, .ops, .params]' "$r")"
PERFAB_PARAMS="threads=2,ops=300,$(echo $FAST | tr ' ' ',')" \
	run_row "$r" "$ALLOC" small/8 threads=3 &&
	jq -e '.threads == 3 and .params.threads == "3"' "$r" >/dev/null &&
	pass "arguments override PERFAB_PARAMS" ||
	fail "argument override: $(jq -c '[.threads, .params]' "$r")"
PERFAB_PARAMS= run_row "$r" "$ALLOC" small/8 $FAST &&
	jq -e '.threads == 8' "$r" >/dev/null &&
	pass "empty PERFAB_PARAMS means the defaults" || fail "empty PERFAB_PARAMS"
# With PERFAB_ROW set, every argument is a parameter.
run_row "$r" "$ALLOC" small/8 small/8 2>"$T/err"
[ $? -eq 2 ] && pass "a row argument beside PERFAB_ROW is refused" ||
	fail "a row argument beside PERFAB_ROW was accepted"

# Manual use: the row from argv[1], the report on stdout.
PERFAB_SCALE=0.01 "$ALLOC" larson/8 threads=2 $FAST >"$T/m.json" &&
	jq -e '.row == "larson/8" and .threads == 2 and .seed == 0' \
		"$T/m.json" >/dev/null && pass "manual use prints the report" ||
	fail "manual use: $(cat "$T/m.json")"

# The child reports its own peak: a parent that touched 512 MiB and then
# exec'd the workload must not lend it its high-water mark (wait4's
# ru_maxrss would).
if command -v python3 >/dev/null 2>&1; then
	python3 - "$SPIN" "$T/big.json" <<'PY' || fail "big parent run"
import os, sys
ballast = b"x" * (512 << 20)  # really touched, unlike a bytearray
os.environ.update(PERFAB_REPORT=sys.argv[2], PERFAB_SCALE="0.01",
                  PERFAB_ROW="spin")
os.execv(sys.argv[1], [sys.argv[1], "drain_ms=0", "release_bound_ms=0"])
PY
	hwm=$(jqr "$T/big.json" .vmhwm_bytes)
	[ "$hwm" -lt $((64 << 20)) ] &&
		pass "own VmHWM after a 512 MiB parent: $hwm bytes" ||
		fail "VmHWM $hwm carries the parent's peak"
fi

# The drain schedule: release_ms is a 10 ms tick or the bound itself.
run_row "$r" "$SPIN" spin work=1000 drain_ms=15 release_bound_ms=35 &&
	jq -e '(.release_ms | . <= 35 and (. % 10 == 0 or . == 35))
	and .drain_rss_bytes > 0 and .release_bound_rss_bytes > 0' "$r" \
	>/dev/null && pass "drain window off the 10 ms grid" ||
	fail "drain window: $(jq -c '[.release_ms, .drain_rss_bytes]' "$r")"
exit 0
