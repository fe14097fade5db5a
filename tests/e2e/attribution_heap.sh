#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# attribution_heap.sh — memory by allocation site (doc/attribution.md §2):
# a head that holds 32 MiB more at its peak, in one block from
# grow_cache() (tests/data/attr/attr_prog.c), FAILs on peak_rss at 6 reps
# whatever the load; its attribution (auto: the FAIL asks for it), made
# from one extra run of each arm under DHAT, names grow_cache first with
# 32 MiB within 10% in one block, apart from small_nodes()' 2000 small
# blocks that both arms hold; the ledger labels it a profile of an extra
# run, not a timed one, and records its cost.
. "${top_srcdir}/tests/lib/test-lib.sh"
require valgrind
unset PERFAB_ATTRIBUTE
PROG=$top_builddir/tests/data/attr/attr_prog
[ -x "$PROG" ] || hard_error "'$PROG' is not built (make check builds it)"

expect_rc 1 "$PERFAB" run --counts off --metrics peak_rss --reps 6 --max-reps 6 --no-sanity-gate \
	--out heap.json --arm "base=$PROG" --arm "head=$PROG hold_mib=32"
grep_err "plan: then attribution (--attribute auto)"
grep_err "attribution of row 'command' arm 'head', peak_rss: one extra run of each arm under DHAT"
a=$(jq -c '[.attribution[] | select(.metric == "peak_rss")][0]' heap.json)
echo "$a" | jq -e '.profiler == "dhat" and .source == "extra run" and .cost_s > 0 and
	.note == null' >/dev/null || fail "no DHAT attribution of an extra run: $(echo "$a" | cut -c1-400)"
echo "$a" | jq -e '.items[0].name | startswith("grow_cache (")' >/dev/null ||
	fail "grow_cache is not first: $(echo "$a" | jq -c '[.items[:3][] | {name, base, head}]')"
echo "$a" | jq -e '(.items[0].head - .items[0].base) as $d | $d > 0.9 * 33554432 and
	$d < 1.1 * 33554432 and .items[0].head_blocks == 1' >/dev/null ||
	fail "grow_cache's change is not 32 MiB within 10% in one block: $(echo "$a" | jq -c '.items[0]')"
# small_nodes holds the same in both arms: it did not move.
echo "$a" | jq -e '[.items[] | select(.name | startswith("small_nodes"))] | length == 0' >/dev/null ||
	fail "small_nodes, unchanged, is listed as moved: $(echo "$a" | jq -c '.items')"
pass "32 MiB more at the peak: grow_cache first, $(echo "$a" | jq '.items[0].head - .items[0].base') bytes in 1 block"
grep -A3 "what moved in peak_rss" out | grep -q "untimed run of each arm, not a timed one" ||
	{ cat out >&2; fail "the ledger does not say the profile is of an extra run"; }
grep -A3 "what moved in peak_rss" out | grep -q "grow_cache (attr_prog.c:[0-9]*) .* in 1 block of 32.0 MiB" ||
	{ cat out >&2; fail "the ledger does not list grow_cache's one block of 32 MiB"; }
jq -e '.run.attribution.cost_s > 0 and .run.attribution.made == 1' heap.json >/dev/null ||
	fail "the phase's cost is not recorded: $(jq -c .run.attribution heap.json)"
pass "the ledger labels the extra run and lists the one block; the cost is recorded"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 -c '
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print(e.message, "/".join(map(str, e.absolute_path)), file=sys.stderr)
sys.exit(1 if errs else 0)' "${top_srcdir}/doc/artifact.schema.json" heap.json ||
		fail "heap.json does not match doc/artifact.schema.json"
	pass "heap.json matches doc/artifact.schema.json"
fi
