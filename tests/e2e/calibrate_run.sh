#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# calibrate_run.sh — `perfab calibrate` and `perfab run --calibration`
# (doc/calibration.md): the A/A run writes a perfab-calibration/1 file that
# validates against doc/calibration.schema.json (and a broken one does
# not), states what its tolerance is and with what confidence, in the
# file and printed, prints its table in at most 100 columns, and recomputes the same
# numbers from its artifact (--from: the simulation is seeded by the run's
# seed); run --calibration takes each metric's tolerance from the file,
# never below the declared one, records the file's SHA-256 and values and
# names the origin in the ledger; a file from another CPU model is refused.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

expect_rc 0 "$PERFAB" calibrate -q --max-reps 12 --counts off -o cal.json --artifact aa.json \
	"$SPIN_CMD"
[ -s cal.json ] && [ -s aa.json ] || fail "calibrate wrote no calibration or no artifact"
cols=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/out")
[ "$cols" -le 100 ] || { cat "$T/out" >&2; fail "the table is $cols columns wide"; }
grep_out "cpu"
jq -e '.schema == "perfab-calibration/1" and (.rows[0].metrics | length) >= 3 and
	(.rows[0].metrics[] | select(.metric == "cpu") | .n == 12 and .spread_pct >= 0 and
	 .tolerance_pct >= 0 and (.looks | length) >= 1)' cal.json >/dev/null ||
	fail "cal.json lacks the cpu entry: $(jq -c .rows cal.json)"
[ "$(jq -r .cpu_model cal.json)" = "$(jq -r .host.cpu_model aa.json)" ] ||
	fail "the calibration names another CPU model than its run"
[ "$(jq -r .experiment.sha256 cal.json)" = "$(sha256sum aa.json | cut -d' ' -f1)" ] ||
	fail "the calibration does not record its artifact's SHA-256"
# The definition and its confidence, in the file and printed: one row,
# so the row's 90% is the gate's, by the only look (12 reps).
jq -e '(.definition | test("PASSes by 12 reps in at least 90.0%")) and
	.experiment.gate_pass_prob == 0.9 and .experiment.gate_rows == 1 and
	.experiment.by_reps == 12 and (.experiment.pass_prob - 0.9 | fabs) < 1e-12' \
	cal.json >/dev/null || fail "cal.json lacks the definition: $(jq -c '.definition, .experiment' cal.json)"
grep_out "sized for a gate of 1 row"
grep_out "PASSes by 12 reps in >= 90.0% of simulated runs"
grep_out "confidence: one A/A run's estimate"
pass "calibrate: an A/A run of 12 reps, its definition and its table in $cols columns"

if python3 -c 'import jsonschema' 2>/dev/null; then
	validate() {
		python3 - "${top_srcdir}/doc/calibration.schema.json" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
errs = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print("%s: %s at %s" % (sys.argv[2], e.message, list(e.absolute_path)), file=sys.stderr)
sys.exit(1 if errs else 0)
PY
	}
	validate cal.json || fail "cal.json does not match doc/calibration.schema.json"
	jq '.rows[0].metrics[0].looks = "many"' cal.json >bad1.json
	jq 'del(.tolerance)' cal.json >bad2.json
	for b in bad1 bad2; do
		validate $b.json 2>/dev/null && fail "$b.json passed the calibration schema"
	done
	pass "cal.json validates against doc/calibration.schema.json; broken ones do not"
else
	echo "note: python3-jsonschema is not installed: schema validation skipped" >&2
fi

# The same numbers again from the artifact: the simulation is seeded.
expect_rc 0 "$PERFAB" calibrate -q --from aa.json -o again.json
[ "$(jq -c .tolerance cal.json)" = "$(jq -c .tolerance again.json)" ] ||
	fail "calibrate --from gave other tolerances: $(jq -c .tolerance again.json)"
pass "calibrate --from recomputes the same tolerances"

# run --calibration: cpu from the file (above the declared 2%), peak_rss
# stays at the declared 2% (the file's 0.1% is below it).
# The file's other tolerances are this machine's (a loaded runner's may pass
# the 50% perfab takes): held at 10% or less, so only these two are tried.
jq '.tolerance |= map_values(if . > 10 then 10 else . end) |
	.tolerance.cpu = 7.5 | .tolerance.peak_rss = 0.1' cal.json >use.json
# Three reps: INCONCLUSIVE whatever the tolerances.
expect_rc 3 "$PERFAB" run -q --counts off --reps 3 --max-reps 3 --no-sanity-gate \
	--calibration use.json --arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out withcal.json
jq -e '.tolerance.cpu == 7.5 and .tolerance.peak_rss == 2 and
	.run.calibration.file == "use.json" and .run.calibration.tolerance.cpu == 7.5 and
	.run.calibration.tolerance.peak_rss == 0.1' withcal.json >/dev/null ||
	fail "run --calibration did not take and record the tolerances: $(jq -c '.tolerance, .run.calibration' withcal.json)"
[ "$(jq -r .run.calibration.sha256 withcal.json)" = "$(sha256sum use.json | cut -d' ' -f1)" ] ||
	fail "the artifact does not record the calibration's SHA-256"
"$PERFAB" ledger --format json withcal.json >led.json
jq -e '[.rows[0].cells[] | select(.metric == "cpu")][0] | .tolerance == 7.5 and
	.tolerance_origin == "calibration"' led.json >/dev/null || fail "cpu's origin is not the calibration"
jq -e '[.rows[0].cells[] | select(.metric == "peak_rss")][0] | .tolerance_origin == "default"' \
	led.json >/dev/null || fail "peak_rss's tolerance did not stay the declared one"
"$PERFAB" ledger withcal.json | tr -s ' \n' '  ' >led.txt # reasons are folded
grep -q "tolerance 7.5% from calibration 'use.json'" led.txt ||
	{ cat led.txt >&2; fail "the text ledger does not name the tolerance's origin"; }
pass "run --calibration: cpu 7.5% from the file, peak_rss kept at 2%, SHA-256 recorded"

# 7.5% is 3.75 times the declared 2%: a warning under the text ledger's
# heading and in the Markdown comment; peak_rss (kept at 2%) is not named.
jq -e '.run.calibration.declared.cpu == 2 and .run.calibration.declared.peak_rss == 2' \
	withcal.json >/dev/null || fail "the artifact does not record the declared tolerances"
# (The file's other tolerances are this machine's: they may be named too.)
widened=$(grep -o "warning: calibration 'use.json' widened the tolerance of [^:]*:" led.txt)
case $widened in
*"cpu 7.5% (3.75x the declared 2%)"*) ;;
*) cat led.txt >&2; fail "the text ledger does not warn of cpu's 7.5%" ;;
esac
case $widened in *peak_rss*) fail "the text ledger warns of peak_rss, kept at 2%" ;; esac
"$PERFAB" ledger --format markdown withcal.json >led.md
grep "^> .*\*\*Warning:\*\* calibration 'use.json' widened the tolerance of" led.md |
	grep -qF "cpu 7.5% (3.75x the declared 2%)" ||
	{ cat led.md >&2; fail "the Markdown ledger does not warn of cpu's 7.5%"; }
# 3% is 1.5 times: no warning (the others held at the declared 2%).
jq '.tolerance |= map_values(if . > 2 then 2 else . end) | .tolerance.cpu = 3' use.json >mild.json
expect_rc 3 "$PERFAB" run -q --counts off --reps 3 --max-reps 3 --no-sanity-gate \
	--calibration mild.json --arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out mild-run.json
"$PERFAB" ledger mild-run.json | grep -q "widened the tolerance" &&
	fail "a calibrated tolerance 1.5 times the declared one is a warning"
pass "a calibrated tolerance above 1.5 times the declared one is a warning (text, Markdown)"

# Another CPU model: refused before anything runs.
jq '.cpu_model = "Imaginary CPU 9000"' use.json >other.json
expect_rc 2 "$PERFAB" run -q --counts off --reps 3 --calibration other.json \
	--arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out other-run.json
grep_err "was measured on 'Imaginary CPU 9000'"
[ ! -e other-run.json ] || fail "a refused calibration still wrote an artifact"
jq '.schema = "perfab-artifact/1"' cal.json >notcal.json
expect_rc 2 "$PERFAB" run -q --counts off --reps 3 --calibration notcal.json \
	--arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out other-run.json
grep_err "must be \"perfab-calibration/1\""
pass "a calibration from another CPU model, or not a calibration, is refused (exit 2)"
