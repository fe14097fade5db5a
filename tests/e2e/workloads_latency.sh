#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_latency.sh — latency mode reports raw per-operation samples,
# taken on a power-of-two stride, at most 4096 per worker thread (exactly
# ceil(ops per thread / stride) per thread, as the stride is fixed);
# throughput mode reports none.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

check_latency() { # check_latency REPORT TAG
	jq -e '
		(.latency_ns | type == "array" and length > 0)
		and (.latency_ns | all(type == "number" and . >= 0 and . == floor))
		and (.latency_stride as $s | $s >= 1
		     and ([range(0; 41)] | map(pow(2; .)) | index($s)) != null)
		and (.latency_ns | length) <= 4096 * .threads
		and ((.ops / .threads) as $n | .latency_stride as $s
		     | (.latency_ns | length)
		       == .threads * ((($n + $s - 1) / $s) | floor))
	' "$1" >/dev/null && pass "$2: $(jq -c '[(.latency_ns | length), .latency_stride, .threads]' "$1")" ||
		fail "$2: bad latency report $(jq -c '{ops, threads, latency_stride, n: (.latency_ns | length?)}' "$1")"
}

for row in $ALLOC_ROWS; do
	extra=""
	case $row in *bursty*) extra="pause_ms=5" ;; esac
	PERFAB_MODE=latency run_row "$T/l.json" "$ALLOC" "$row" $FAST $extra ||
		{ fail "$row latency: exit $?"; continue; }
	check_latency "$T/l.json" "$row latency"
	run_row "$T/t.json" "$ALLOC" "$row" $FAST $extra ||
		{ fail "$row throughput: exit $?"; continue; }
	jq -e 'has("latency_ns") | not' "$T/t.json" >/dev/null &&
		pass "$row throughput: no samples" ||
		fail "$row throughput reports latency_ns"
done

# At full scale the stride grows so each worker stays within 4096.
PERFAB_SCALE=1 PERFAB_MODE=latency run_row "$T/l.json" "$ALLOC" small/8 \
	ops=100000 $FAST && check_latency "$T/l.json" "small/8 ops=100000"
[ "$(jqr "$T/l.json" .latency_stride)" = 32 ] ||
	fail "100000 ops need stride 32, got $(jqr "$T/l.json" .latency_stride)"
# A requested stride is a minimum.
PERFAB_SCALE=1 PERFAB_MODE=latency run_row "$T/l.json" "$ALLOC" small/8 \
	ops=1000 latency_stride=5 $FAST && check_latency "$T/l.json" "stride 5"
[ "$(jqr "$T/l.json" .latency_stride)" = 8 ] ||
	fail "latency_stride=5 is rounded up to 8"

# Spin times chunks of `chunk` iterations: 100000 iterations in chunks
# of 10 are 10000 chunks, stride 4, 2500 samples.
PERFAB_MODE=latency run_row "$T/s.json" "$SPIN" spin work=2000000 \
	chunk=10 $FAST || fail "spin latency run"
jq -e '(.latency_ns | length) == 2500 and .latency_stride == 4' \
	"$T/s.json" >/dev/null && pass "spin latency: chunks timed" ||
	fail "spin latency: $(jq -c '[(.latency_ns | length?), .latency_stride]' "$T/s.json")"
exit 0
