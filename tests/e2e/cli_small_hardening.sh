#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Small holes closed: a CPU number past 32 bits, arm names that are paths
# (".." with --preserve-builds), duplicate JSON keys (read differently by
# other tools), "\u0000" inside a string (it would cut an argv short), and
# descriptors inherited from whoever started perfab reaching the children.
. "${top_srcdir}/tests/lib/test-lib.sh"

expect_verdict "the input is handled" "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --out ok.json

expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --cpus 4294967296
grep_err "cannot parse --cpus '4294967296'"

mkdir keep
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm ..=/bin/true --preserve-builds keep/p
grep_err "arm name '..' is not valid"
{ [ ! -e keep/true ] && [ ! -e keep/p ]; } || fail "an arm named '..' wrote outside its directory"
printf '{"arms": [{"name": "base", "argv": ["/bin/true"]}, {"name": ".hidden", "argv": ["/bin/true"]}]}' >dots.json
expect_rc 2 "$PERFAB" run -q --config dots.json
grep_err "name must be a name"
jq '.arms[1].name = ".." | .rows[0].reps[].results |= (.[".."] = .head | del(.head))' ok.json >dotarm.json
expect_rc 2 "$PERFAB" ledger dotarm.json
grep_err "arm name '..' is not valid"

# Duplicate keys: refused, in a config and in an artifact.
printf '{"arms": [{"name": "base", "argv": ["/bin/true"]}, {"name": "head", "argv": ["/bin/true"], "argv": ["/bin/false"]}]}' >dup.json
expect_rc 2 "$PERFAB" run -q --config dup.json
grep_err "holds the key 'argv' twice"
sed 's/"seed":/"seed":1,"seed":/' ok.json >dupart.json
expect_rc 2 "$PERFAB" ledger dupart.json
grep_err "holds the key 'seed' twice"

# \u0000 in a string: refused, not truncated.
printf '{"arms": [{"name": "base", "argv": ["/bin/true"]}, {"name": "head", "argv": ["/bin/true\\u0000 --evil"]}]}' >nul.json
expect_rc 2 "$PERFAB" run -q --config nul.json
grep_err 'a string holds \\u0000'
jq '.arms[1].argv = ["/bin/true", "x"]' ok.json | sed 's/"x"/"x\\u0000y"/' >nulart.json
expect_rc 2 "$PERFAB" ledger nulart.json
grep_err 'a string holds \\u0000'

# Inherited descriptors stay with perfab: the child must not see fd 9.
cat >fd.sh <<'SH'
#!/bin/sh
[ -e /proc/$$/fd/9 ] && exit 3
exit 0
SH
chmod +x fd.sh
expect_verdict "the input is handled" "$PERFAB" run -q --arm base=./fd.sh --arm head=./fd.sh --reps 2 --out fd.json 9>fd9.txt
jq -e '.rows[0].failed == false' fd.json >/dev/null || fail "a child inherited perfab's fd 9"
exit 0
