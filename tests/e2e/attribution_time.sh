#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# attribution_time.sh — CPU time by function (doc/attribution.md §3): a
# head whose sort_keys() does 11 times the iterations
# (tests/data/attr/attr_prog.c extra_pct=1000: about 3 times the CPU time
# of base, in every rep whatever the load) FAILs on cpu at 6 reps; its
# attribution, one extra run of each arm under perf's cpu-clock sampling
# scaled to each arm's median cpu, names sort_keys first with most of the
# change, and the HTML report's differential flame graph shows it grown. A
# head that waits longer (usleep, the same CPU time) FAILs on wall and its
# wall profile, on and off the CPU, names the function that waited.
# Without perf on PATH the attribution says so and the verdict and exit
# code are the same.
. "${top_srcdir}/tests/lib/test-lib.sh"
require perf
unset PERFAB_ATTRIBUTE
PROG=$top_builddir/tests/data/attr/attr_prog
[ -x "$PROG" ] || hard_error "'$PROG' is not built (make check builds it)"
perf record -q -e cpu-clock -o probe.data -- /bin/true >/dev/null 2>&1 ||
	skip "perf cannot sample cpu-clock here (perf_event_paranoid, a container)"

expect_rc 1 "$PERFAB" run --counts off --reps 6 --max-reps 6 --no-sanity-gate --out time.json \
	--arm "base=$PROG" --arm "head=$PROG extra_pct=1000"
a=$(jq -c '[.attribution[] | select(.metric == "cpu")][0]' time.json)
echo "$a" | jq -e '.profiler == "perf" and .source == "extra run" and .cost_s > 0 and .note == null' \
	>/dev/null || fail "no perf attribution of an extra run: $(echo "$a" | cut -c1-400)"
echo "$a" | jq -e '.items[0].name == "sort_keys" and
	(.items[0].head - .items[0].base) / (.head_total - .base_total) >= 0.5' >/dev/null ||
	fail "sort_keys is not first with most of the change: $(echo "$a" | jq -c '[.items[:4][] | {name, base, head}], .base_total, .head_total')"
# Each arm's profile is scaled to its median measured cpu.
for arm in base head; do
	jq -e --arg arm "$arm" '([.rows[0].reps[].results[$arm].cpu] | sort | (.[2] + .[3]) / 2) as $m |
		[.attribution[] | select(.metric == "cpu")][0] |
		(if $arm == "base" then .base_total else .head_total end) as $t |
		($t - $m) | fabs < 1e-9 * ($m + 1)' time.json >/dev/null ||
		fail "arm $arm's profile is not scaled to its median cpu"
done
pass "3x the CPU time in sort_keys: listed first, $(echo "$a" | jq '(.items[0].head - .items[0].base) / (.head_total - .base_total) * 100 | floor')% of the change"
grep -A3 "what moved in cpu" out | grep -q "untimed run of each arm, not a timed one" ||
	{ cat out >&2; fail "the ledger does not say the time profile is of an extra run"; }

# The HTML report draws the differential flame graph: sort_keys grew, under
# the frame that called it.
jq -e '[.attribution[] | select(.metric == "cpu")][0].stacks |
	any(.name | test(";sort_keys$"))' time.json >/dev/null ||
	fail "no folded stack ends in sort_keys: $(jq -c '[.attribution[0].stacks[:3][] | .name]' time.json)"
expect_rc 1 "$PERFAB" ledger --format html time.json
grep -q '<svg class="flame"' out && grep -q '<g class="grew"><title>sort_keys: ' out ||
	{ grep -o '<g class="[a-z]*"><title>[^<]*' out | head -5 >&2; fail "the HTML report has no flame graph in which sort_keys grew"; }
pass "the HTML report's flame graph shows sort_keys grown"
expect_rc 1 "$PERFAB" gate time.json
grep_err "command · head: cpu moved most: sort_keys +"
pass "perfab gate names sort_keys under the cpu FAIL"

# Time off the CPU: a head whose wait_for_reply() sleeps 200 ms longer in
# one usleep (the same instructions and CPU time) FAILs on wall, judged
# here; its cpu does not FAIL, so the profile made is the wall one, and it
# names wait_for_reply first, off the CPU, with most of the change (the
# C library's usleep and clock_nanosleep are not named for it).
expect_rc 1 "$PERFAB" run --counts off --reps 6 --max-reps 6 --no-sanity-gate --metrics wall,cpu \
	--require wall --out wait.json --arm "base=$PROG wait_ms=20" --arm "head=$PROG wait_ms=220"
jq -e '.attribution | map(.metric) | index("wall") != null' wait.json >/dev/null ||
	fail "a wall FAIL made no wall profile: $(jq -c '[.attribution[] | {metric, note}]' wait.json)"
w=$(jq -c '[.attribution[] | select(.metric == "wall")][0]' wait.json)
echo "$w" | jq -e '.profiler == "perf" and .items[0].name == "wait_for_reply [off-CPU]" and
	(.items[0].head - .items[0].base) / (.head_total - .base_total) >= 0.8 and
	(.items[0].head - .items[0].base) > 0.15' >/dev/null ||
	fail "wait_for_reply is not first, off the CPU, with most of the change: $(echo "$w" | jq -c '[.items[:4][] | {name, base, head}], .base_total, .head_total')"
echo "$w" | jq -e '.stacks | any(.name | test(";wait_for_reply;.*\\[off-CPU\\]$"))' >/dev/null ||
	fail "no folded stack ends off the CPU under wait_for_reply: $(echo "$w" | jq -c '[.stacks[:3][] | .name]')"
grep -q "what moved in wall" out || { cat out >&2; fail "the ledger does not show the wall profile"; }
expect_rc 1 "$PERFAB" gate wait.json
grep_err "command · head: wall moved most: wait_for_reply \[off-CPU\] +"
pass "200 ms more in usleep: wait_for_reply [off-CPU] first, $(echo "$w" | jq '(.items[0].head - .items[0].base) / (.head_total - .base_total) * 100 | floor')% of the wall change"

# perf loses events when its reader falls behind (a loaded machine), a
# switch to wait with them: a wall profile whose record accounts for under
# half of its own span (on the CPU, waiting or preempted) is made again. Here the first two profiles (base's and
# head's) lose their waits through the test hook: each is made again and
# the wait is named as above; when every run loses them, the note says so.
# lose_waits N OUT: the wait pair above, the first N wall profiles losing their waits.
lose_waits() {
	PERFAB_TEST_PERF_WALL_LOSE_WAITS=$1 expect_rc 1 "$PERFAB" run --counts off --reps 6 \
		--max-reps 6 --no-sanity-gate --metrics wall,cpu --require wall --out "$2" \
		--arm "base=$PROG wait_ms=20" --arm "head=$PROG wait_ms=220"
}
lose_waits 2 lost.json
w=$(jq -c '[.attribution[] | select(.metric == "wall")][0]' lost.json)
echo "$w" | jq -e '.items[0].name == "wait_for_reply [off-CPU]" and
	(.items[0].head - .items[0].base) > 0.15 and .note == null' >/dev/null ||
	fail "a wall profile that lost its waits was not made again: $(echo "$w" | jq -c '.note, [.items[:3][] | {name, base, head}]')"
pass "a wall profile that lost its waits is made again"
lose_waits 9 lost3.json
jq -e '[.attribution[] | select(.metric == "wall")][0].note |
	test("perf.s record of (base|head).s run accounted for only [0-9]+% of its time in 3 runs")' lost3.json >/dev/null ||
	fail "no note when every wall profile lost its waits: $(jq -c '[.attribution[] | select(.metric == "wall")][0].note' lost3.json)"
pass "when every run loses them, the note says so"

# At its file's cap (256 MiB; 1 MiB here through the test hook) perf ends
# the profiled run with SIGTERM: the note says so, the verdict stands. The
# arms spend ~70 ms on the CPU, 2000 samples a second of 8 KiB stacks.
PERFAB_TEST_PERF_WALL_MAX_MIB=1 expect_rc 1 "$PERFAB" run --counts off --reps 6 --max-reps 6 \
	--no-sanity-gate --metrics wall,cpu --require wall --out capped.json \
	--arm "base=$PROG extra_pct=5000 wait_ms=20" --arm "head=$PROG extra_pct=5000 wait_ms=520"
jq -e '[.attribution[] | select(.metric == "wall")][0].note |
	test("perf.s file reached its 1 MiB cap and perf ended the run")' capped.json >/dev/null ||
	fail "a wall profile at perf's cap: $(jq -c '[.attribution[] | {metric, note}]' capped.json)"
pass "perf's file at its cap: the note says so"

# Without perf on PATH: a note, the same verdict and exit code.
mkdir bin
PATH=$T/bin expect_rc 1 "$PERFAB" run --counts off --reps 6 --max-reps 6 --no-sanity-gate --out noperf.json \
	--arm "base=$PROG" --arm "head=$PROG extra_pct=1000"
jq -e '[.attribution[] | select(.metric == "cpu")][0].note | test("perf is not available")' noperf.json \
	>/dev/null || fail "a missing perf is not said: $(jq -c '[.attribution[] | .note]' noperf.json)"
grep -q "attribution note: no profile: perf is not available" out ||
	{ cat out >&2; fail "the ledger does not say perf is missing"; }
pass "no perf on PATH: the attribution says so, FAIL (exit 1) as with it"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 -c '
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print(e.message, "/".join(map(str, e.absolute_path)), file=sys.stderr)
sys.exit(1 if errs else 0)' "${top_srcdir}/doc/artifact.schema.json" time.json &&
	python3 -c '
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
sys.exit(1 if list(v.iter_errors(json.load(open(sys.argv[2])))) else 0)' \
		"${top_srcdir}/doc/artifact.schema.json" wait.json ||
		fail "time.json or wait.json does not match doc/artifact.schema.json"
	pass "time.json and wait.json, their stacks too, match doc/artifact.schema.json"
fi
