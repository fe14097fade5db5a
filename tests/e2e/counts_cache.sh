#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# counts_cache.sh — the count cache (doc/method.md, "Exact counts";
# perfab(1) --count-cache), on the default counting path (valgrind here):
#   - the same A/A run twice with one cache: the first counts (2 valgrind
#     children: two reps agree, the third reuses), the second starts none
#     and records every count as "cached"; the ledger judges them as the
#     exact counts they are;
#   - --no-count-cache counts again and leaves the cache as it was;
#   - a changed program (another digest) is not served from the cache;
#     its unchanged base is;
#   - a corrupt cache file, malformed entries and a FIFO in its place are
#     ignored with a note, never trusted: the run counts;
#   - an interrupted run resumed keeps its counts: the resumed rep reuses
#     the two agreeing counts of the reps before the interrupt.
. "${top_srcdir}/tests/lib/test-lib.sh"
require valgrind
unset PERFAB_COUNTS PERFAB_COUNT_CACHE # the default path: counts auto, a cache

cat >work.sh <<'EOF'
#!/bin/sh
n=${WORK_N:-2000}
i=0
while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
EOF
chmod +x work.sh
# The valgrind perfab runs: each call logged, its arguments on a line.
cat >vg.sh <<EOF
#!/bin/sh
echo "\$*" >>"$T/vg.calls"
exec valgrind "\$@"
EOF
chmod +x vg.sh
PERFAB_VALGRIND=$T/vg.sh
export PERFAB_VALGRIND
# The counted children of the last run (a --version call is not one).
children() { grep -c -- '--tool=cachegrind' vg.calls || true; }
# run OUT ARGS...: an A/A (or A/B) run of 3 reps, the calls log emptied.
run3() {
	out=$1
	shift
	: >vg.calls
	"$PERFAB" run --reps 3 --max-reps 3 --out "$out" "$@"
}
cache=$T/cache.json

# --- the same run twice: counted once, then served from the cache
expect_rc 3 run3 one.json --count-cache "$cache" ./work.sh ./work.sh
[ "$(children)" = 2 ] || fail "the first run started $(children) counted children, not 2"
jq -e '.schema == "perfab-count-cache/1" and (.entries | length == 1)' "$cache" >/dev/null ||
	fail "the first run did not write one entry: $(head -c 400 "$cache")"
expect_rc 3 run3 two.json --count-cache "$cache" ./work.sh ./work.sh
[ "$(children)" = 0 ] || fail "the second run started $(children) counted children, not 0"
jq -e '[.rows[0].reps[].count_origin] == [range(3) | {"base": "cached", "head": "cached",
	"null": "cached"}]' two.json >/dev/null ||
	fail "the second run's counts are not recorded as cached: $(jq -c '[.rows[0].reps[].count_origin]' two.json)"
[ "$(jq '.rows[0].reps[0].results.base.instructions' two.json)" = \
  "$(jq '.rows[0].reps[0].results.base.instructions' one.json)" ] ||
	fail "the cached count is not the counted one"
"$PERFAB" ledger --format json two.json >l2.json
jq -e '[.rows[0].cells[] | select(.metric == "instructions")][0] |
	.verdict == "PASS" and .exact == true and .change.n == 3' l2.json >/dev/null ||
	fail "cached counts are not judged as exact counts: $(jq -c '.rows[0].cells' l2.json | head -c 600)"
pass "the same A/A twice: 2 counted children, then 0, every count 'cached' and an exact PASS"

# --- --no-count-cache: counted again, the cache untouched
cp "$cache" before.json
expect_rc 3 run3 off.json --no-count-cache ./work.sh ./work.sh
[ "$(children)" = 2 ] || fail "--no-count-cache started $(children) counted children, not 2"
jq -e '[.rows[0].reps[].count_origin] | index({"base": "cached", "head": "cached",
	"null": "cached"}) == null' off.json >/dev/null || fail "--no-count-cache served a cached count"
cmp -s "$cache" before.json || fail "--no-count-cache changed the cache"
pass "--no-count-cache counts again and leaves the cache alone"

# --- none unless asked for: no --count-cache and no PERFAB_COUNT_CACHE
# reads and writes no cache (its key cannot see a shared library rebuilt
# under an unchanged program), not even the default file.
HOME=$T/home XDG_CACHE_HOME= expect_rc 3 run3 none.json ./work.sh ./work.sh
[ "$(children)" = 2 ] || fail "a run without --count-cache started $(children) counted children, not 2"
[ ! -e "$T/home/.cache/perfab" ] || fail "a run without --count-cache wrote $(ls -R "$T/home/.cache")"
HOME=$T/home XDG_CACHE_HOME= expect_rc 3 run3 dflt.json --count-cache default ./work.sh ./work.sh
[ -s "$T/home/.cache/perfab/counts.json" ] || fail "--count-cache default wrote no ~/.cache/perfab/counts.json"
pass "no cache unless asked for; --count-cache default is ~/.cache/perfab/counts.json"

# --- a changed program: another digest, not served; its base is
cp work.sh work2.sh
echo '# changed' >>work2.sh
expect_rc 3 run3 changed.json --count-cache "$cache" ./work.sh ./work2.sh
[ "$(children)" = 2 ] || fail "a changed head started $(children) counted children, not 2 (its own)"
jq -e '.rows[0].reps[0].count_origin == {"base": "cached", "null": "cached"}' changed.json \
	>/dev/null || fail "a changed program was served, or its base not: $(jq -c \
	'.rows[0].reps[0].count_origin' changed.json)"
pass "a changed program (another digest) is counted; its unchanged base comes from the cache"

# --- what is not a cache is never trusted
printf '{"schema": "perfab-count-cache/1", "entries": [' >"$cache"
expect_rc 3 run3 corrupt.json --count-cache "$cache" ./work.sh ./work.sh
grep_err "count cache '$cache' is ignored"
[ "$(children)" = 2 ] || fail "a corrupt cache: $(children) counted children, not 2"
jq -e '[.rows[0].reps[].count_origin // {} | .[]] | index("cached") == null' corrupt.json \
	>/dev/null || fail "a corrupt cache served a count"
jq -e '.entries | length == 1' "$cache" >/dev/null || fail "the corrupt cache was not rewritten"
pass "a corrupt cache file is ignored with a note; the run counts and writes a sound one"

# Malformed entries: the right key with a count that is not one, a key
# that is not a key. Skipped, said, never served.
key=$(jq -r '.entries[0].key' "$cache")
jq --arg k "$key" '.entries = [{"key": $k, "instructions": -5}, {"key": "nokey",
	"instructions": 1000}, {"key": $k, "instructions": "many"}]' "$cache" >bad.json
cp bad.json "$cache"
expect_rc 3 run3 bad-entries.json --count-cache "$cache" ./work.sh ./work.sh
grep_err "3 malformed entries ignored"
[ "$(children)" = 2 ] || fail "malformed entries: $(children) counted children, not 2"
pass "malformed entries are ignored with a note and not served"

# A FIFO where the cache should be: not waited on, not written through.
rm -f "$cache"
mkfifo "$cache" || skip "cannot make a FIFO here"
expect_rc 3 run3 fifo.json --count-cache "$cache" ./work.sh ./work.sh
grep_err "is a FIFO, not a regular file"
grep_err "the count cache was not written"
[ -p "$cache" ] || fail "the FIFO was replaced"
[ "$(children)" = 2 ] || fail "a FIFO cache: $(children) counted children, not 2"
rm -f "$cache"
pass "a FIFO in the cache's place is neither read nor replaced; the run counts"

# --- an interrupted run resumed: the reps before the interrupt decide
# List the crash points of such a run, then kill it once its second
# rep's journal record is synced (the journal's first record is the run's
# start); the resumed third rep reuses the two reps' counts.
PERFAB_TEST_CRASH_AT=list "$PERFAB" run -q --reps 3 --max-reps 3 --no-count-cache \
	--out list.json ./work.sh ./work.sh >/dev/null 2>list.err || true
at=$(grep ': journal: record synced (listed)$' list.err |
	sed -n '3s/^perfab: crash point \([0-9]*\):.*/\1/p')
[ -n "$at" ] || hard_error "no third journal record in the listing: $(tail -3 list.err)"
: >vg.calls
PERFAB_TEST_CRASH_AT=$at "$PERFAB" run -q --reps 3 --max-reps 3 --no-count-cache \
	--out resumed.json ./work.sh ./work.sh >/dev/null 2>&1 || true
[ "$(children)" = 2 ] || fail "the interrupted run counted $(children) children, not 2"
: >vg.calls
expect_rc 3 "$PERFAB" run -q --resume resumed.json --trust-artifact --no-count-cache
[ "$(children)" = 0 ] || fail "the resumed rep counted $(children) children, not 0"
jq -e '.rows[0].reps | length == 3 and .[2].count_origin == {"base": "reused",
	"head": "reused", "null": "reused"} and ([.[].results[].instructions] | unique |
	length == 1)' resumed.json >/dev/null ||
	fail "the resumed run's counts: $(jq -c '[.rows[0].reps[] | [.count_origin, .results.base.instructions]]' resumed.json)"
pass "a resumed run reuses the agreeing counts of the reps before the interrupt"
