#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Arm definitions: hostile strings are never run through a shell; clear
# errors (exit 2) for unknown arms, empty commands, missing executables,
# duplicate names; a warning when executable paths differ in length.
. "${top_srcdir}/tests/lib/test-lib.sh"

# ; $(...) ` | and quotes are just bytes of argv: refused as shell syntax
# by default (exit 2, nothing run), and with --literal-argv passed on as
# they are, never to a shell.
base_cmd="base=/bin/echo a;touch PWNED1 \$(touch PWNED2) \`touch PWNED3\` | touch PWNED4"
head_cmd="head=/bin/echo 'x y' \"q\\\"z\" && touch PWNED5"
expect_rc 2 "$PERFAB" run -q --reps 2 --max-reps 2 --out h.json --arm "$base_cmd" --arm "$head_cmd"
grep_err "is shell syntax"
[ ! -e h.json ] || fail "a refused run wrote an artifact"
# --literal-argv runs them as words. Two reps, no counts: no verdict exists
# below 6 reps, so INCONCLUSIVE (exit 3) and nothing else.
expect_rc 3 "$PERFAB" run -q --reps 2 --max-reps 2 --out h.json --literal-argv --arm "$base_cmd" --arm "$head_cmd"
for f in PWNED1 PWNED2 PWNED3 PWNED4 PWNED5; do
	[ ! -e $f ] || fail "a shell ran: $f exists"
done
[ "$(jq -c '.arms[0].argv' h.json)" = '["/bin/echo","a;touch","PWNED1","$(touch","PWNED2)","`touch","PWNED3`","|","touch","PWNED4"]' ] ||
	fail "argv of base not split literally: $(jq -c '.arms[0].argv' h.json)"
[ "$(jq -c '.arms[1].argv' h.json)" = '["/bin/echo","x y","q\"z","&&","touch","PWNED5"]' ] ||
	fail "quotes not honoured: $(jq -c '.arms[1].argv' h.json)"

expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --arms base,nope
grep_err "unknown arm 'nope'"
expect_rc 2 "$PERFAB" run -q --arm base= --arm head=/bin/true
grep_err "empty command"
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm "head=/no/such/binary"
grep_err "/no/such/binary"
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm base=/bin/false
grep_err "defined twice"
expect_rc 2 "$PERFAB" run -q --arm "base=/bin/echo 'open"
grep_err "unterminated single quote"
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true
grep_err "nothing to compare"
expect_rc 2 "$PERFAB" run --bogus
grep_err "unknown option '--bogus'"
expect_rc 2 "$PERFAB" run --reps abc --arm base=/bin/true
grep_err "needs a whole number"
# --arms orders, and selects.
expect_rc 3 "$PERFAB" run -q --arm a=/bin/true --arm b=/bin/true --arm c=/bin/true \
	--arms c,a --no-null-arm --reps 2 --max-reps 2 --out sel.json
[ "$(jq -c '[.arms[].name]' sel.json)" = '["c","a"]' ] || fail "--arms order"
# Path-length warning: same binary, different path lengths.
ln -s /bin/true t
expect_rc 3 "$PERFAB" run --arm base=/bin/true --arm head=./t --reps 2 --max-reps 2 --out pl.json
grep_err "paths of different lengths"
# A config file: arms with env and revision, rows with argv; null copies base.
cat >cfg.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["/bin/sh", "-c", "exit 0"], "env": {"PAB_X": "1"}, "revision": "r1" },
            { "name": "head", "argv": ["/bin/sh", "-c", "exit 0"], "env": {"PAB_X": "2"}, "revision": "r2" } ],
  "rows": [ { "name": "one", "argv": [] }, { "name": "two", "argv": ["extra"], "control": true } ],
  "reps": 3, "max_reps": 3, "seed": 11 }
CFG
# Three reps a row: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --config cfg.json --arms base,head --null-arm --out c.json
[ "$(jq -c '.arms[2] | [.name, .argv, .env, .revision]' c.json)" = '["null",["/bin/sh","-c","exit 0"],{"PAB_X":"1"},"r1"]' ] ||
	fail "null arm must copy base's argv and env: $(jq -c '.arms[2]' c.json)"
[ "$(jq -c '[.rows[] | [.name, .control, (.reps | length)]]' c.json)" = '[["one",false,3],["two",true,3]]' ] ||
	fail "config rows"
[ "$(jq -r '.arms[0].sha256 | length' c.json)" = 64 ] || fail "sha256 missing"
# Children see the caller's environment plus the arm's env, nothing perfab
# set for itself (pin.c blacklists hwloc plugins only while it loads the
# topology); a variable the caller exported passes through unchanged.
# (Counting off: the check counts the timed children's dumps.)
expect_rc 3 "$PERFAB" run -q --counts off --arm "base=/bin/sh -c 'env >env.\$\$'" --null-arm --reps 2 --max-reps 2 --out env.json
[ "$(ls env.* | grep -vc json)" = 4 ] || fail "expected 4 environment dumps: $(ls env.*)"
grep -l '^HWLOC_' env.[0-9]* && fail "perfab's own HWLOC_ variable reached a child"
rm -f env.[0-9]*
HWLOC_PLUGINS_BLACKLIST=users-own expect_rc 3 "$PERFAB" run -q --counts off \
	--arm "base=/bin/sh -c 'env >env.\$\$'" --null-arm --reps 2 --max-reps 2 --out env.json
[ "$(grep -lx 'HWLOC_PLUGINS_BLACKLIST=users-own' env.[0-9]* | wc -l)" = 4 ] ||
	fail "the caller's HWLOC_PLUGINS_BLACKLIST was not passed on"
echo '{"arms": [ {"name": "base", "argv": 5} ]}' >bad.json
expect_rc 2 "$PERFAB" run --config bad.json
grep_err "argv"
echo '{"arms": [' >bad2.json
expect_rc 2 "$PERFAB" run --config bad2.json
grep_err "not a JSON object"
# An arm named null is the null arm; without the null arm (--no-null-arm or
# "null_arm": false) the name is refused before anything runs, not judged as
# noise into a ledger of no rows.
expect_rc 2 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --out nn.json \
	--arm base=/bin/true --arm null=/bin/true
grep_err "arm 'null': the name is reserved for the null arm"
[ ! -e nn.json ] || fail "a refused run wrote an artifact"
cat >nn.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["/bin/true"] }, { "name": "null", "argv": ["/bin/true"] } ],
  "null_arm": false, "reps": 2, "max_reps": 2 }
CFG
expect_rc 2 "$PERFAB" run -q --config nn.json
grep_err "arm 'null': the name is reserved"
exit 0
