#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The ledger ends with a disposition line after the table
# "Accepting incremental performance improvements". Each class is forced
# deterministically: a real A/A artifact whose head (and null) values are
# rewritten from base's with jq, so every paired change is known exactly.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin work=1000 drain_ms=10 release_bound_ms=20"
# An A/A run with the null arm does not FAIL; its verdict is not the point
# (every change is set below).
expect_not_fail "an A/A run does not FAIL" "$PERFAB" run -q --null-arm --reps 6 --max-reps 6 --no-sanity-gate \
	--metrics throughput,cpu,minor_faults,peak_rss,drain_rss,p99 \
	--arm "base=$spin" --arm "head=$spin" --out aa.json

# set(metric; f): head = base x f rep by rep (f reads the rep index as its input);
# the null arm equals base for every judged metric, so noise is 0.
judged='["throughput", "cpu", "minor_faults", "peak_rss", "drain_rss", "p99"]'
edit() {
	jq --argjson judged "$judged" "
	  def set(\$m; f): .rows[0].reps |= (to_entries | map(.key as \$i | .value
	    | .results.head[\$m] = (.results.base[\$m] * (\$i | f))) );
	  .rows[0].reps |= map(.results.head as \$h | .results.base as \$b
	    | reduce \$judged[] as \$m (.; .results.head[\$m] = \$b[\$m] | .results.null[\$m] = \$b[\$m]))
	  | $1" aa.json >"$2"
}
# expect_disposition FILE RC KIND PHRASE
expect_disposition() {
	expect_rc "$2" "$PERFAB" ledger "$1"
	# the disposition line, folded to 100 columns, joined again
	sed -n '/^disposition: /,$p' "$T/out" | sed 's/^  //' | tr '\n' ' ' | grep -q "^disposition: $4" || { cat "$T/out" >&2; fail "$1: wrong disposition line"; }
	expect_rc "$2" "$PERFAB" ledger --format json "$1"
	jq -e --arg k "$3" '.disposition.kind == $k' "$T/out" >/dev/null ||
		fail "$1: disposition $(jq -c .disposition "$T/out"), want $3"
}

edit '.' same.json
expect_disposition same.json 0 accept "accept: the regression gate passed, which proves neither"
edit 'set("cpu"; 0.9)' faster.json
expect_disposition faster.json 0 accept-gain "accept the improvement; report its size and scope"
jq -e '.disposition.gains == 1' "$T/out" >/dev/null || fail "one supported gain expected"
# A better median whose interval crosses 0 is no demonstrated gain.
edit 'set("cpu"; if . % 2 == 0 then 0.9 else 1.01 end)' crosses.json
expect_disposition crosses.json 0 accept "accept: the regression gate passed"
# An undecided guard (drain_rss) is accepted uncertainty: the row PASSes on
# its required cells, the disposition says what was not shown.
edit 'set("drain_rss"; if . % 2 == 0 then 0.9 else 1.1 end)' limited.json
expect_disposition limited.json 0 accept-with-uncertainty "accept when the full intervals fit the risk you declared acceptable"
edit 'set("cpu"; if . % 2 == 0 then 0.9 else 1.1 end)' wide.json
expect_disposition wide.json 3 follow-up "attribute or run a bounded, planned follow-up"
edit 'set("cpu"; 1.5)' slower.json
expect_disposition slower.json 1 reject-cpu "reject or revise, even if other workloads improve"
edit 'set("peak_rss"; 1.5) | set("cpu"; 0.9)' fatter.json
expect_disposition fatter.json 1 reject-other "reject or revise; p99 and memory receive no memory credit"
edit 'set("p99"; 1.3)' tail.json
expect_disposition tail.json 1 reject-other "reject or revise"
edit '.rows[0].failed = true | .rows[0].failed_arm = "head" | .rows[0].fail_reason = "arm head rep 2: killed by signal 11"' crash.json
expect_disposition crash.json 1 reject-failure "reject or fix before acceptance"
# The base's child failed it, or nothing recorded did (a hook): no verdict.
edit '.rows[0].failed = true | .rows[0].failed_arm = "base" | .rows[0].fail_reason = "arm base rep 2: killed by signal 11"' basecrash.json
expect_disposition basecrash.json 8 no-verdict "fix the benchmark or the runner"
edit '.rows[0].failed = true | .rows[0].fail_reason = "setup exited with status 1"' hookfail.json
expect_disposition hookfail.json 8 no-verdict "fix the benchmark or the runner"
# A control row that is not shown unchanged holds the change for follow-up.
edit '.rows[0].control = true | set("drain_rss"; if . % 2 == 0 then 0.98 else 1.04 end)' control.json
expect_disposition control.json 3 follow-up "attribute or run a bounded, planned follow-up"
# Fewer than 6 paired reps: missing coverage.
edit '.rows[0].reps |= .[0:3]' few.json
expect_disposition few.json 3 follow-up "attribute or run"
# The other formats carry it too.
expect_rc 1 "$PERFAB" ledger --format markdown slower.json
tail -1 "$T/out" | grep -q '^\*\*Disposition:\*\* reject or revise' || fail "markdown disposition"
exit 0
