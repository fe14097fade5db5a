#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# calibrate_bound.sh — a calibration tolerance above the plausible
# bound (50%, doc/calibration.md "The plausible bound") is refused by
# `perfab run --calibration` before anything runs (exit 2), naming the
# metric, its value and the bound, and saying what to do; 50% itself is
# taken. `perfab calibrate --from` an A/A run whose spread needs more
# warns that a run will refuse the file it wrote.
. "${top_srcdir}/tests/lib/test-lib.sh"

cpu=$("$PERFAB" env --format json 2>/dev/null | jq -r .host.cpu_model)
[ -n "$cpu" ] && [ "$cpu" != null ] || hard_error "perfab env names no CPU model"
cal() { # TOLERANCE-OBJECT: a calibration of this machine with those tolerances
	jq -n --arg cpu "$cpu" --argjson t "$1" \
		'{schema: "perfab-calibration/1", cpu_model: $cpu, tolerance: $t}'
}
run_with() { # WANT FILE
	expect_rc "$1" "$PERFAB" run -q --counts off --reps 2 --max-reps 2 --no-null-arm \
		--calibration "$2" --out run.json /bin/true /bin/true
}

for t in 1000 50.01; do
	cal "{\"cpu\": 2, \"minor_faults\": $t}" >wide.json
	run_with 2 wide.json
	grep_err "calibration 'wide.json': tolerance.minor_faults is $t%, more than the 50% perfab takes from a calibration"
	grep_err "would PASS a head $t% worse than its base"
	grep_err "declare the tolerance (--tolerance minor_faults=PCT)"
	[ ! -e run.json ] || fail "a refused calibration still wrote an artifact"
	pass "a calibration tolerance of $t% is refused"
done

# The bound itself is taken, and recorded.
cal '{"minor_faults": 50}' >edge.json
run_with 3 edge.json
jq -e '.tolerance.minor_faults == 50 and .run.calibration.tolerance.minor_faults == 50' \
	run.json >/dev/null || fail "a tolerance of 50% was not taken: $(jq -c .tolerance run.json)"
pass "a calibration tolerance of 50% is taken"

# calibrate: an A/A artifact whose head is 3x its base in every rep (so
# its paired spread is wide) gives a cpu tolerance above the bound, and a
# warning. p1-nonull.json has 6 reps; head's cpu is multiplied by 1, 3, 1,
# 3, ... so the changes alternate 0% and +200%.
jq '(.rows[0].reps |= (to_entries | map(if .key % 2 == 1 then
	.value.results.head.cpu *= 3 else . end | .value)))' \
	"$top_srcdir/tests/data/ledger/p1-nonull.json" >aa.json
expect_rc 0 "$PERFAB" calibrate -q --from aa.json --reps 6 -o noisy.json
grep_err "warning: the tolerance of cpu ([0-9.]*%) is more than the 50% perfab run --calibration takes"
jq -e '.tolerance.cpu > 50' noisy.json >/dev/null ||
	fail "the noisy A/A run's cpu tolerance is not above 50%: $(jq -c .tolerance noisy.json)"
pass "calibrate warns of a tolerance above the bound"
exit 0
