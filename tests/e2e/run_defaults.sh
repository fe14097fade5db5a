#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The defaults a pull-request gate lives with: perfab/2 with a null arm,
# planned looks (12, 24, 48, 96) that stop a row once it is decided, a
# budget that stops the run and says so, tolerance floors that let a small
# process PASS its page-granular peak RSS, and --metrics.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin drain_ms=0 release_bound_ms=0"

# A 2x slowdown at default settings FAILs at the first look: 12 reps (3
# where exact counts fix the FAIL in the first block and stop the row),
# the run stopped because every row was decided.
expect_rc 1 "$PERFAB" run -q --no-sanity-gate --scale 0.03 \
	--arm "base=$spin" --arm "head=$spin slowdown_pct=100" --out slow.json
grep_out "overall: FAIL"
jq -e '.rules == "perfab/2" and ([.arms[].name] == ["base", "head", "null"])' slow.json >/dev/null ||
	fail "default rules and null arm not recorded: $(jq -c '[.rules, [.arms[].name]]' slow.json)"
[ "$(jq '.rows[0].reps | length' slow.json)" = 12 ] || first_block_fail slow.json ||
	fail "a row that FAILed at the first look must have 12 reps, not $(jq '.rows[0].reps | length' slow.json)"
jq -e '.run.stop_reason == "decided" and .run.looks == [12, 24, 48, 96] and .run.budget_s == 600' slow.json >/dev/null ||
	fail "stop reason, looks or budget: $(jq -c '.run | [.stop_reason, .looks, .budget_s]' slow.json)"
expect_rc 1 "$PERFAB" ledger --format json slow.json
m=cpu
! first_block_fail slow.json || m=instructions
jq -e --arg m "$m" '.rules == "perfab/2" and .fail_unguarded == false and
       (.rows[0].cells[] | select(.metric == $m) | .verdict == "FAIL" and .fail_guarded and .head_null.lo > 2)' \
	"$T/out" >/dev/null || fail "$m must FAIL, guarded by head vs null"

# A/A at the default rules and null arm does not FAIL (capped at 24 reps
# to keep the test short; the cap is not the point here).
expect_not_fail "an A/A run at the default rules and null arm does not FAIL" \
	"$PERFAB" run -q --no-sanity-gate --scale 0.03 --max-reps 24 \
	--arm "base=$spin" --arm "head=$spin" --out aa.json
n=$(jq '.rows[0].reps | length' aa.json)
case $n in 12|24) ;; *) fail "an A/A row stops at a planned look, not at $n reps" ;; esac

# The budget stops the run after complete blocks and the artifact says why.
expect_rc 3 "$PERFAB" run -q --budget 1s --arm "base=/bin/sleep 0.2" --arm "head=/bin/sleep 0.2" \
	--out budget.json
jq -e '.complete and .run.stop_reason == "budget" and .run.budget_s == 1 and (.rows[0].reps | length) == 3' \
	budget.json >/dev/null || fail "budget stop: $(jq -c '[.complete, .run.stop_reason, .run.budget_s, (.rows[0].reps | length)]' budget.json)"
expect_rc 3 "$PERFAB" ledger budget.json
expect_rc 2 "$PERFAB" run -q --budget 0 --arm base=/bin/true --arm head=/bin/true
grep_err "budget '0'"
expect_rc 2 "$PERFAB" run -q --budget 5x --arm base=/bin/true --arm head=/bin/true
grep_err "budget '5x'"

# A ~1.5 MiB process against itself PASSes peak_rss: its pages move by
# more than 2% run to run, the 128 KiB floor covers that.
expect_rc 0 "$PERFAB" run -q --metrics peak_rss,minor_faults --max-reps 48 \
	--arm "base=/bin/sleep 0" --arm "head=/bin/sleep 0" --out small.json
expect_rc 0 "$PERFAB" ledger --format json small.json
jq -e '(.floors == {"bytes": 131072, "count": 4}) and
       (.rows[0].cells[] | select(.metric == "peak_rss") | .verdict == "PASS" and .floor_pct > 2 and .tolerance == .floor_pct)' \
	"$T/out" >/dev/null || fail "peak_rss of a small process must PASS on its floor: $(jq -c '.rows[0].cells' "$T/out")"

# --metrics cpu judges only cpu; the rest is still measured.
# (One block of 3 reps: fewer than 6 pairs, INCONCLUSIVE; the ledger repeats it.)
expect_rc 3 "$PERFAB" run -q --metrics cpu --reps 3 --max-reps 3 \
	--arm base=/bin/true --arm head=/bin/true --out cpu.json
jq -e '.run.metrics == ["cpu"] and (.rows[0].reps[0].results.base.peak_rss > 0)' cpu.json >/dev/null ||
	fail "--metrics cpu: $(jq -c .run.metrics cpu.json)"
expect_rc 3 "$PERFAB" ledger --format json cpu.json
jq -e '[.rows[0].cells[].metric] == ["cpu"] and .metrics == ["cpu"]' "$T/out" >/dev/null ||
	fail "only cpu may be judged: $(jq -c '[.rows[0].cells[].metric]' "$T/out")"
expect_rc 2 "$PERFAB" ledger --metrics peak_rss cpu.json
grep_err "not judged by the run"
expect_rc 2 "$PERFAB" run -q --metrics cpu,bogus --arm base=/bin/true --arm head=/bin/true
grep_err "unknown metric 'bogus'"
# ledger and gate may narrow the run's set and then say so.
# (Both metrics PASS in small.json, so each alone does.)
expect_rc 0 "$PERFAB" ledger --metrics minor_faults --format json small.json
grep_err "covers only"
jq -e '.metrics_narrowed and .metrics == ["minor_faults"] and [.rows[0].cells[].metric] == ["minor_faults"]' "$T/out" >/dev/null ||
	fail "narrowed ledger json: $(jq -c '[.metrics_narrowed, .metrics]' "$T/out")"
expect_rc 0 "$PERFAB" ledger --metrics peak_rss small.json
grep_out "the verdict covers only: peak_rss"
grep_err "covers only peak_rss"
expect_rc 0 "$PERFAB" gate --metrics peak_rss small.json

# Without the null arm: two arms, and perfab/2's FAIL is unguarded.
# (An unguarded A/A could FAIL by chance from 6 reps on: 4 reps, fewer than
# 6 pairs, are INCONCLUSIVE, and the ledger repeats it.)
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 4 --max-reps 4 \
	--arm base=/bin/true --arm head=/bin/true --out nonull.json
[ "$(jq -c '[.arms[].name]' nonull.json)" = '["base","head"]' ] || fail "--no-null-arm"
expect_rc 3 "$PERFAB" ledger --format json nonull.json
jq -e '.fail_unguarded' "$T/out" >/dev/null || fail "no null arm: FAIL must be marked unguarded"
expect_rc 3 "$PERFAB" ledger nonull.json
grep_out "FAIL is unguarded"
expect_rc 2 "$PERFAB" run -q --null-arm --no-null-arm --arm base=/bin/true --arm head=/bin/true
# rule12 without a null arm warns about its familywise false-FAIL rate.
# (4 reps: fewer than 6 pairs, INCONCLUSIVE under rule12 too.)
expect_rc 3 "$PERFAB" run -q --no-null-arm --rules rule12 --reps 4 --max-reps 4 \
	--arm base=/bin/true --arm head=/bin/true --out r12.json
grep_err "familywise false-FAIL rate"
expect_rc 3 "$PERFAB" ledger --rules rule12 nonull.json
grep_err "familywise false-FAIL rate"

# The config equivalents (no null arm: 4 reps, fewer than 6 pairs,
# INCONCLUSIVE).
cat >cfg.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["/bin/true"] }, { "name": "head", "argv": ["/bin/true"] } ],
  "reps": 4, "max_reps": 4, "null_arm": false, "budget": "2m", "metrics": ["cpu", "peak_rss"] }
CFG
expect_rc 3 "$PERFAB" run -q --config cfg.json --out cfg-run.json
jq -e '[.arms[].name] == ["base", "head"] and .run.budget_s == 120 and .run.metrics == ["cpu", "peak_rss"]' \
	cfg-run.json >/dev/null || fail "config null_arm/budget/metrics: $(jq -c '[[.arms[].name], .run.budget_s, .run.metrics]' cfg-run.json)"
echo '{ "arms": [ { "name": "base", "argv": ["/bin/true"] } ], "null_arm": "yes" }' >bad.json
expect_rc 2 "$PERFAB" run -q --config bad.json
grep_err "null_arm"
echo '{ "arms": [ { "name": "base", "argv": ["/bin/true"] } ], "metrics": "nope" }' >bad2.json
expect_rc 2 "$PERFAB" run -q --config bad2.json
grep_err "unknown metric 'nope'"
exit 0
