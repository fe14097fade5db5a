#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# attribution_counts.sh — instructions by function (doc/attribution.md §1)
# on a test program of known causes (tests/data/attr/attr_prog.c):
#   - a head whose sort_keys() does 30% more iterations FAILs on the count,
#     and its attribution, made from the counting pass's own files (no
#     extra run, cost 0), lists sort_keys first with >= 80% of the row's
#     instruction change, and its source line; the text ledger, the
#     Markdown report and `perfab ledger` of the artifact show it;
#   - a stripped pair of programs: the attribution says they are stripped
#     (their code is ???), and the verdict is that of --attribute never;
#   - no valgrind (PERFAB_VALGRIND names a missing file): each attribution
#     --attribute always asks for says so in a note, the verdict and exit
#     code are those of --attribute never;
#   - a pool keeps each input's attribution, named by its input;
#   - --attribute never (and the config's "attribute") makes none; a bad
#     mode is a usage error.
. "${top_srcdir}/tests/lib/test-lib.sh"
require valgrind
unset PERFAB_ATTRIBUTE
PROG=$top_builddir/tests/data/attr/attr_prog
[ -x "$PROG" ] || hard_error "'$PROG' is not built (make check builds it)"
cp "$PROG" prog

# Three reps, one block: the exact count decides, the rest cannot.
run3() { # OUT ARGS...
	out=$1
	shift
	"$PERFAB" run --counts sim --reps 3 --max-reps 3 --no-sanity-gate --out "$out" "$@"
}

# --- 30% more work in sort_keys: FAIL, and sort_keys first
expect_rc 1 run3 more.json --arm "base=$T/prog" --arm "head=$T/prog extra_pct=30"
grep_err "plan: then attribution (--attribute auto)"
grep_err "attribution: row 'command' arm 'head' instructions: sort_keys moved most"
a=$(jq -c '[.attribution[] | select(.metric == "instructions")][0]' more.json)
echo "$a" | jq -e '.row == "command" and .arm == "head" and .profiler == "cachegrind" and
	.source == "counting pass" and .cost_s == 0 and .note == null' >/dev/null ||
	fail "not an attribution of the counting pass's own files: $(echo "$a" | cut -c1-400)"
echo "$a" | jq -e '.items[0].name == "sort_keys" and
	(.items[0].head - .items[0].base) / (.head_total - .base_total) >= 0.8' >/dev/null ||
	fail "sort_keys is not first with >= 80% of the change: $(echo "$a" | jq -c '[.items[:3][] | {name, base, head}], .base_total, .head_total')"
# 30% more iterations of the loop: its own count grows by 30%, exactly.
echo "$a" | jq -e '.items[0].head / .items[0].base > 1.29 and .items[0].head / .items[0].base < 1.31' \
	>/dev/null || fail "sort_keys did not grow by 30%: $(echo "$a" | jq -c '.items[0]')"
echo "$a" | jq -e '.lines[0].name | test("attr_prog.c:[0-9]+$")' >/dev/null ||
	fail "no source line of attr_prog.c first: $(echo "$a" | jq -c '.lines[:2]')"
pass "30% more in sort_keys: listed first, $(echo "$a" | jq '(.items[0].head - .items[0].base) / (.head_total - .base_total) * 100 | floor')% of the change, from the counting pass"
jq -e '.run.attribution.mode == "auto" and .run.attribution.made == 1' more.json >/dev/null ||
	fail "run.attribution does not record the phase: $(jq -c .run.attribution more.json)"
# The text ledger lists it under the row, sort_keys the first mover.
grep -A2 "what moved in instructions" out | grep -q "sort_keys" ||
	{ cat out >&2; fail "the ledger does not list sort_keys under 'what moved'"; }
expect_rc 1 "$PERFAB" ledger more.json
grep -A2 "what moved in instructions" out | grep -q "sort_keys" ||
	{ cat out >&2; fail "perfab ledger does not show the artifact's attribution"; }
expect_rc 1 "$PERFAB" ledger --format markdown more.json
grep -q "^### What moved" out && grep -q "| sort\\\\_keys |" out ||
	{ cat out >&2; fail "the Markdown report lacks What moved and sort_keys"; }
# The first mover in a line of its own, the table folded under it.
grep -q '^\*\*command · head\*\*, instructions: sort\\_keys +1.50 M, 100% of the change$' out ||
	{ cat out >&2; fail "the Markdown report does not name the first mover in a line"; }
sed -n '/^### What moved/,/^<details><summary>Intervals/p' out >moved.md
awk '/^<details><summary>top [0-9]+ movers/ { d = 1 } /^<\/details>/ { d = 0 }
	/\| sort\\_keys \|/ { found = d } END { exit !found }' moved.md ||
	{ cat moved.md >&2; fail "the movers' table is not folded in its <details>"; }
# A comment too long for its limit folds that table first and says so.
cp out moved-full.md
PAB_COMMENT_LIMIT=$(($(wc -c <moved-full.md) + 150)) GITHUB_REPOSITORY=o/p GITHUB_RUN_ID=9 \
	"$top_srcdir/ci/action.sh" comment-body moved-full.md body.md || fail "comment-body failed"
grep -q '^_The list did not fit in a comment: see the full report._$' body.md &&
	grep -q '^\*\*command · head\*\*, instructions: sort\\_keys' body.md ||
	{ cat body.md >&2; fail "a cut comment does not keep the first mover and say the list was cut"; }
# The JSON ledger keeps it under its row, with the schema's keys; JUnit's
# failure says what moved most.
expect_rc 1 "$PERFAB" ledger --format json more.json
cp "$T/out" ledger-more.json
jq -e '.rows[0].attribution[0] | .metric == "instructions" and .profiler == "cachegrind" and
	.source == "counting pass" and .items[0].name == "sort_keys" and .explained > 0.8 and
	(.change - (.items[0].head - .items[0].base)) / .change < 0.2' ledger-more.json >/dev/null ||
	fail "the JSON ledger lacks the attribution: $(jq -c '.rows[0].attribution' ledger-more.json | cut -c1-400)"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 -c '
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
sys.exit(1 if list(v.iter_errors(json.load(open(sys.argv[2])))) else 0)' \
		"$top_srcdir/doc/ledger.schema.json" ledger-more.json ||
		fail "the JSON ledger with attribution does not match doc/ledger.schema.json"
fi
expect_rc 1 "$PERFAB" ledger --format junit more.json
grep -q '<failure type="perfab.FAIL".*(moved most: sort_keys +1.50 M, 100% of the change (cachegrind, the counting pass))' out ||
	{ grep failure out >&2; fail "the JUnit failure does not say what moved most"; }
expect_rc 1 "$PERFAB" gate more.json
grep_err "command · head: instructions moved most: sort_keys +1.50 M, 100% of the change"
pass "text, perfab ledger, gate, Markdown, JSON and JUnit name sort_keys"

# --- an A/A pair counted in one rep: head's count is base's (the same
# program, counted once in the rep), and so is its profile: no extra run
expect_rc 3 run3 aa.json --count-reps 1 --attribute always --metrics instructions --arm "base=$T/prog" \
	--arm "head=$T/prog"
jq -e '[.attribution[] | select(.metric == "instructions")][0] | .source == "counting pass" and
	.cost_s == 0 and .base_total == .head_total and (.items | length) == 0' aa.json >/dev/null ||
	fail "an A/A pair's profile is not the shared count's: $(jq -c '.attribution[0] | {source, cost_s, base_total, head_total}' aa.json)"
pass "A/A: head's profile is base's shared count, no extra run, nothing moved"

# --- never: no attribution, the same verdict
expect_rc 1 run3 never.json --attribute never --arm "base=$T/prog" --arm "head=$T/prog extra_pct=30"
jq -e '(has("attribution") | not) and .run.attribution.mode == "never"' never.json >/dev/null ||
	fail "--attribute never made an attribution"
printf '{"attribute": "never", "arms": [{"name": "base", "argv": ["%s"]}, {"name": "head", "argv": ["%s", "extra_pct=30"]}]}\n' \
	"$T/prog" "$T/prog" >never-conf.json
expect_rc 1 run3 never-conf.json.out --config never-conf.json
jq -e 'has("attribution") | not' never-conf.json.out >/dev/null ||
	fail "the config's \"attribute\": \"never\" was not taken"
expect_rc 2 run3 bad.json --attribute sometimes --arm "base=$T/prog" --arm "head=$T/prog"
grep_err "attribute 'sometimes': use auto, always or never"
pass "--attribute never and the config key make none; a bad mode is refused"

# --- stripped programs: said, verdict unchanged
cp prog prog-s
strip prog-s
expect_rc 1 run3 stripped.json --arm "base=$T/prog-s" --arm "head=$T/prog-s extra_pct=30"
jq -e '.attribution[0] | .base_stripped and .head_stripped and (.note | test("stripped")) and
	.items[0].name == "???"' stripped.json >/dev/null ||
	fail "a stripped pair is not said so: $(jq -c '.attribution[0] | {note, base_stripped, i: .items[0].name}' stripped.json)"
grep -q "attribution note: both programs are stripped" out ||
	{ cat out >&2; fail "the ledger does not say the programs are stripped"; }
pass "stripped programs: the note says so, the verdict is FAIL as without attribution"

# --- no valgrind: a note, the verdict of --attribute never
PERFAB_VALGRIND=$T/no-such-valgrind expect_rc 3 "$PERFAB" run --counts off --reps 3 --max-reps 3 \
	--no-sanity-gate --attribute never --out nv-never.json "$T/prog" "$T/prog extra_pct=30"
PERFAB_VALGRIND=$T/no-such-valgrind expect_rc 3 "$PERFAB" run --counts off --reps 3 --max-reps 3 \
	--no-sanity-gate --attribute always --out nv.json "$T/prog" "$T/prog extra_pct=30"
jq -e '[.attribution[] | select(.profiler != "perf") | .note | test("valgrind is not available")] |
	length == 2 and all' nv.json \
	>/dev/null || fail "a missing valgrind is not said: $(jq -c '[.attribution[] | .note]' nv.json)"
shape='[(.rows[0].reps | length), .complete, .rows[0].failed]'
[ "$(jq -c "$shape" nv.json)" = "$(jq -c "$shape" nv-never.json)" ] && [ "$(jq -c "$shape" nv.json)" = "[3,true,false]" ] ||
	fail "attribution changed the run: $(jq -c "$shape" nv.json) and $(jq -c "$shape" nv-never.json)"
grep -q "attribution note: no profile: valgrind is not available" out ||
	{ cat out >&2; fail "the ledger does not say valgrind is missing"; }
pass "no valgrind: each attribution says so, exit 3 as with --attribute never"

# --- a pool keeps each input's attribution
expect_rc 1 run3 more2.json --seed 5 --arm "base=$T/prog" --arm "head=$T/prog extra_pct=30"
expect_rc 0 "$PERFAB" pool more.json more2.json -o pooled.json
jq -e '[.attribution[] | .input] == ["more.json", "more2.json"] and
	all(.attribution[]; .items[0].name == "sort_keys")' pooled.json >/dev/null ||
	fail "the pool lost an input's attribution: $(jq -c '[.attribution[] | {input, n: .items[0].name}]' pooled.json)"
pass "the pool keeps both inputs' attributions"

# --- what they wrote is what doc/artifact.schema.json says (section 8a)
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "${top_srcdir}/doc/artifact.schema.json" more.json stripped.json nv.json pooled.json never.json <<'PY' ||
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
bad = 0
for path in sys.argv[2:]:
    for e in list(v.iter_errors(json.load(open(path))))[:3]:
        print("%s: %s at %s" % (path, e.message, "/".join(map(str, e.absolute_path))), file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
		fail "an artifact with attribution does not match doc/artifact.schema.json"
	pass "the artifacts match doc/artifact.schema.json"
fi
