#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_spin.sh — the calibration workload's knobs inject exactly what
# they say: leak_mib shows in the RSS after the drain, extra_mib in the
# peak and not after the drain, slowdown_pct in the operation count (a
# deterministic count, not a time), and it runs as a plain command.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

MIB=1048576
slack=$(rss_slack_bytes)
SMALL="work=2000000 $FAST"

run_row "$T/base.json" "$SPIN" spin $SMALL || fail "spin base run"
run_row "$T/leak.json" "$SPIN" spin $SMALL leak_mib=64 || fail "leak run"
run_row "$T/extra.json" "$SPIN" spin $SMALL extra_mib=64 || fail "extra run"
run_row "$T/slow.json" "$SPIN" spin $SMALL slowdown_pct=100 ||
	fail "slowdown run"

bd=$(jqr "$T/base.json" .drain_rss_bytes)
bh=$(jqr "$T/base.json" .vmhwm_bytes)
ld=$(jqr "$T/leak.json" .drain_rss_bytes)
lb=$(jqr "$T/leak.json" .release_bound_rss_bytes)
eh=$(jqr "$T/extra.json" .vmhwm_bytes)
ed=$(jqr "$T/extra.json" .drain_rss_bytes)

[ "$ld" -ge $((bd + 64 * MIB - slack)) ] &&
	pass "leak_mib=64 stays after the drain ($bd -> $ld)" ||
	fail "leak_mib=64: drain RSS $ld, base $bd"
[ "$lb" -ge $((bd + 64 * MIB - slack)) ] &&
	pass "leak_mib=64 stays at the release bound" ||
	fail "leak_mib=64: release-bound RSS $lb, base drain $bd"
[ "$eh" -ge $((bh + 64 * MIB - slack)) ] &&
	pass "extra_mib=64 shows in the peak ($bh -> $eh)" ||
	fail "extra_mib=64: peak $eh, base peak $bh"
# glibc returns a 64 MiB block to the kernel at free(): gone by the drain.
[ "$ed" -lt $((bd + 32 * MIB)) ] &&
	pass "extra_mib=64 is released before the drain" ||
	fail "extra_mib=64: drain RSS $ed, base $bd"
[ "$(jqr "$T/leak.json" .live_bytes)" = $((64 * MIB)) ] &&
	[ "$(jqr "$T/extra.json" .live_bytes)" = $((64 * MIB)) ] &&
	[ "$(jqr "$T/base.json" .live_bytes)" = 0 ] &&
	pass "live_bytes counts the held memory" || fail "spin live_bytes"

bo=$(jqr "$T/base.json" .iterations)
so=$(jqr "$T/slow.json" .iterations)
# PERFAB_SCALE=0.05 of work=2000000 is 100000 iterations.
[ "$bo" = 100000 ] && [ "$so" = 200000 ] &&
	pass "slowdown_pct=100 doubles the work ($bo -> $so)" ||
	fail "slowdown_pct=100: ops $bo -> $so, expected 100000 -> 200000"
PERFAB_SCALE=1 run_row "$T/s.json" "$SPIN" spin work=1000 \
	slowdown_pct=3 $FAST && [ "$(jqr "$T/s.json" .iterations)" = 1030 ] &&
	[ "$(jqr "$T/s.json" .ops)" = 1000 ] &&
	pass "slowdown_pct=3 adds 3% of the iterations" ||
	fail "slowdown_pct=3 of 1000: iterations $(jqr "$T/s.json" .iterations), ops $(jqr "$T/s.json" .ops)"

# A plain command: no PERFAB_* at all, the report on stdout.
env -u PERFAB_SCALE -u PERFAB_SEED -u PERFAB_MODE -u PERFAB_ROW \
	-u PERFAB_REPORT -u PERFAB_PARAMS -u PERFAB_PROTOCOL \
	"$SPIN" slowdown_pct=100 work=2000000 $FAST >"$T/plain.json" ||
	fail "plain perfab-spin failed"
jq -e '.row == "spin" and .ops == 2000000 and .iterations == 4000000 and .scale == 1 and .seed == 0
	and .mode == "throughput"' "$T/plain.json" >/dev/null &&
	pass "plain command prints its report" ||
	fail "plain command report: $(cat "$T/plain.json")"
exit 0
