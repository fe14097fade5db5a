#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# doc/artifact.schema.json and doc/ledger.schema.json describe what perfab
# really writes: real artifacts (the README demo's run, a five-variant run,
# a fresh run, a pooled one, an interrupted one, a sanity-gate stop, one
# with warmup, hooks and parameter rows) and
# the ledger JSON of each judgeable one validate against them (python3-
# jsonschema); documents that break the contract do not. The three JSON
# documents (artifact, ledger, memgate baseline) name their version under
# the same key, "schema".
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
doc="${top_srcdir}/doc"
data="${top_srcdir}/tests/data"

validate() { # SCHEMA FILE...
	python3 - "$@" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    for e in sorted(v.iter_errors(json.load(open(path))), key=str)[:3]:
        print("%s: %s at %s" % (path, e.message, "/".join(map(str, e.absolute_path))), file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
}

spin="$WL/perfab-spin work=300 drain_ms=1 release_bound_ms=2"
# A head that holds 16 MiB more: its peak RSS, CPU and faults are far
# beyond base's and null's in every rep, a FAIL at 6 reps whatever the load
# and under every rule set (the ledgers below repeat it).
expect_rc 1 "$PERFAB" run -q --null-arm --reps 6 --max-reps 6 --no-sanity-gate --out fresh.json "$spin" "$spin extra_mib=16"
expect_rc 1 "$PERFAB" run -q --null-arm --reps 6 --max-reps 6 --seed 7 --no-sanity-gate --out fresh2.json "$spin" "$spin extra_mib=16"
expect_rc 0 "$PERFAB" pool fresh.json fresh2.json -o pooled.json
jq '.complete = false | .rows[0].reps = .rows[0].reps[:2]' fresh.json >partial.json
expect_rc 1 "$PERFAB" run -q --out gated.json --reps 3 --max-reps 3 "$spin" "$spin extra_mib=64"

cat >hooks-conf.json <<'EOF'
{ "arms": [ { "name": "base", "argv": "/bin/true {n}" },
            { "name": "head", "argv": "/bin/true {n}", "prepare": "/bin/true" } ] }
EOF
expect_rc 3 "$PERFAB" run -q --reps 2 --max-reps 2 --config hooks-conf.json --warmup 1 --prepare /bin/true \
	--setup /bin/true --cleanup /bin/true --parameter-list n a,b --out hooks.json
jq -e '.run.warmup == 1 and .arms[1].prepare == "/bin/true" and .rows[1].params.n == "b"' hooks.json >/dev/null ||
	fail "hooks.json lacks the settings it should show the schema"

# Where a rep's counts came from (a run with counts writes it; this one
# has none, so it is put in by hand).
jq '.rows[0].reps[1].count_origin = {"base": "reused", "null": "cached"}' fresh.json >origin.json
artifacts="$data/demo-run.json $data/variants5.json fresh.json pooled.json partial.json gated.json hooks.json origin.json"
validate "$doc/artifact.schema.json" $artifacts || fail "an artifact does not match doc/artifact.schema.json"
n=0
for a in "$data/demo-run.json" "$data/variants5.json" fresh.json pooled.json gated.json; do
	n=$((n + 1))
	# The recorded demo FAILs, the five variants are INCONCLUSIVE, the
	# sanity gate's stop FAILs; so do the fresh run and the pool of two
	# (a head 16 MiB larger in every rep), under either rule set.
	case $a in
	*/variants5.json) want=3 ;;
	*) want=1 ;;
	esac
	for rules in own rule12; do
		set -- --format json
		[ "$rules" = own ] || set -- "$@" --rules "$rules"
		expect_rc "$want" "$PERFAB" ledger "$@" "$a"
		case $rules in rule12) mv "$T/out" "ledger$n-rule12.json" ;; *) mv "$T/out" "ledger$n.json" ;; esac
	done
done
validate "$doc/ledger.schema.json" ledger*.json || fail "a ledger does not match doc/ledger.schema.json"

# The schemas are not vacuous: broken documents fail them.
jq '.rows[0].reps[0].results.base.cpu = "fast"' fresh.json >bad1.json
jq 'del(.arms)' fresh.json >bad2.json
jq '.schema = "perfab-artifact/2"' fresh.json >bad3.json
jq '.rows[0].reps[1].count_origin = {"base": "guessed"}' fresh.json >bad4.json
for b in bad1 bad2 bad3 bad4; do
	validate "$doc/artifact.schema.json" $b.json 2>/dev/null && fail "$b.json passed the artifact schema"
done
jq '.rows[0].cells[0].verdict = "MAYBE"' ledger1.json >lbad1.json
jq 'del(.rows[0].cells[0].ratio)' ledger1.json >lbad3.json
for b in lbad1 lbad3; do
	validate "$doc/ledger.schema.json" $b.json 2>/dev/null && fail "$b.json passed the ledger schema"
done

# One version key for all three documents.
jq -e '.schema == "perfab-artifact/1"' fresh.json >/dev/null || fail "artifact version key"
jq -e '.schema == "perfab-ledger/1" and .format == "perfab-ledger/1"' ledger1.json >/dev/null || fail "ledger version key"
expect_rc 0 "$PERFAB" memgate record -o base.json fresh.json
jq -e '.schema == "perfab-memgate/1"' base.json >/dev/null || fail "memgate baseline version key: $(head -c 300 base.json)"
exit 0
