#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run_hyperfine_short.sh — hyperfine's spellings of options that mean the
# same in perfab run are taken as they are (doc/perfab.1, HYPERFINE'S
# OPTIONS): -s/-p/-c run the setup, prepare and cleanup as --setup,
# --prepare and --cleanup do; -P/-D/-L make the rows --parameter-scan,
# --parameter-step-size and --parameter-list make; a short option's value
# may be attached (-r4, -r=4); --input null is /dev/null; --shell=none.
. "${top_srcdir}/tests/lib/test-lib.sh"
PERFAB_COUNTS=off # the spellings, not the counts, are under test
export PERFAB_COUNTS

count() { # count WORD FILE: lines equal to WORD
	grep -cx -- "$1" "$2" || true
}

# Hooks: one setup and one cleanup for the row, a prepare before each of
# the 4 reps x 2 arms; every child and hook appends a word to one log.
expect_rc 3 "$PERFAB" run -q --no-null-arm -r4 -s "sh -c 'echo s >>log'" \
	-p "sh -c 'echo p >>log'" -c "sh -c 'echo c >>log'" \
	"sh -c 'echo b >>log'" "sh -c 'echo h >>log'" --out hooks.json
[ "$(count s log) $(count p log) $(count b log) $(count h log) $(count c log)" = "1 8 4 4 1" ] ||
	fail "-s/-p/-c did not run as --setup/--prepare/--cleanup: $(sort log | uniq -c | tr '\n' ' ')"
[ "$(head -1 log) $(tail -1 log)" = "s c" ] || fail "setup not first or cleanup not last: $(tr '\n' ' ' <log)"
jq -e '.run.setup == "sh -c '\''echo s >>log'\''" and .run.prepare == "sh -c '\''echo p >>log'\''" and .run.cleanup == "sh -c '\''echo c >>log'\''"' hooks.json >/dev/null ||
	fail "the artifact does not record the hooks: $(jq -c '[.run.setup, .run.prepare, .run.cleanup]' hooks.json)"
pass "-s, -p and -c are --setup, --prepare and --cleanup"

# Parameters: -P NAME MIN MAX with -D STEP, and -L NAME LIST.
expect_rc 3 "$PERFAB" run -q -r=3 -P n 1 5 -D 2 "/bin/echo {n}" "/bin/echo {n}" --out scan.json
[ "$(jq -r '[.rows[].name] | join(" ")' scan.json)" = "n=1 n=3 n=5" ] ||
	fail "-P n 1 5 -D 2 made the rows $(jq -c '[.rows[].name]' scan.json)"
expect_rc 3 "$PERFAB" run -q --runs 3 -L x a,b "/bin/echo {x}" "/bin/echo {x}" --out list.json
[ "$(jq -r '[.rows[].name] | join(" ")' list.json)" = "x=a x=b" ] ||
	fail "-L x a,b made the rows $(jq -c '[.rows[].name]' list.json)"
pass "-P, -D and -L are --parameter-scan, --parameter-step-size and --parameter-list"

# Attached values, hyperfine's null input and its --shell=none.
[ "$(jq '.reps, .max_reps' hooks.json | tr '\n' ' ')" = "4 4 " ] || fail "-r4 is not --runs 4"
[ "$(jq '.reps, .max_reps' scan.json | tr '\n' ' ')" = "3 3 " ] || fail "-r=3 is not --runs 3"
expect_rc 3 "$PERFAB" run -q -r 3 --input null --shell=none "cat" "cat" --out in.json
[ "$(jq -r '.run.input' in.json)" = /dev/null ] || fail "--input null read '$(jq -r '.run.input' in.json)'"
pass "-r4, -r=3, --input null and --shell=none as hyperfine reads them"
