#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Small holes closed: a CPU number past 32 bits, arm names that are paths
# (".." with --preserve-builds), duplicate JSON keys (read differently by
# other tools), "\u0000" inside a string (it would cut an argv short),
# descriptors inherited from whoever started perfab reaching the children,
# empty or duplicate list items, '=' in an environment key (the child would
# see another variable) and --trust-artifact without --resume.
. "${top_srcdir}/tests/lib/test-lib.sh"

# A good run to edit: one block of 3 reps, fewer than 6 pairs, INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 3 --max-reps 3 --out ok.json

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
# 3 reps: fewer than 6 pairs, INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --arm base=./fd.sh --arm head=./fd.sh --reps 3 --max-reps 3 --out fd.json 9>fd9.txt
jq -e '.rows[0].failed == false' fd.json >/dev/null || fail "a child inherited perfab's fd 9"

# Lists: an empty item or one given twice is refused, never read as "all"
# or folded silently.
t2="--arm base=/bin/true --arm head=/bin/true --reps 2 --no-null-arm"
# shellcheck disable=SC2086 # $t2 is words
{
expect_rc 2 "$PERFAB" run -q $t2 --metrics cpu,cpu --out l1.json
grep_err "'cpu,cpu' names 'cpu' twice"
expect_rc 2 "$PERFAB" run -q $t2 --metrics cpu, --out l2.json
grep_err "'cpu,' has an empty item"
expect_rc 2 "$PERFAB" run -q $t2 --workloads '' --out l3.json
grep_err "--workloads '' has an empty item"
expect_rc 2 "$PERFAB" run -q $t2 --workloads 'spin||alloc' --out l4.json
grep_err "has an empty item"
expect_rc 2 "$PERFAB" run -q $t2 --workloads 'spin|spin' --out l5.json
grep_err "names 'spin' twice"
expect_rc 2 "$PERFAB" run -q $t2 --counters cycles,cycles --out l6.json
grep_err "names 'cycles' twice"
expect_rc 2 "$PERFAB" ledger --metrics wall,wall ok.json
grep_err "names 'wall' twice"
expect_rc 2 "$PERFAB" run -q $t2 --trust-artifact --out l7.json
grep_err "--trust-artifact applies to --resume only"
}
for f in l1 l2 l3 l4 l5 l6 l7; do
	[ ! -e $f.json ] || fail "a refused run wrote $f.json"
done

# An environment key holding '=' (or empty): refused in a config and in an
# artifact, never passed on as another variable.
printf '{"arms": [{"name": "base", "argv": ["/bin/true"], "env": {"C=D": "x"}}, {"name": "head", "argv": ["/bin/true"]}]}' >eqenv.json
expect_rc 2 "$PERFAB" run -q --config eqenv.json --no-null-arm
grep_err "env.C=D is not an environment variable name"
printf '{"arms": [{"name": "base", "argv": ["/bin/true"], "env": {"": "x"}}, {"name": "head", "argv": ["/bin/true"]}]}' >emptyenv.json
expect_rc 2 "$PERFAB" run -q --config emptyenv.json --no-null-arm
grep_err "is not an environment variable name"
jq '.arms[0].env = {"C=D": "x"}' ok.json >eqenvart.json
expect_rc 2 "$PERFAB" ledger eqenvart.json
grep_err "is not an environment variable name"
# A directory given as the command says so (it said "Permission denied").
mkdir -p notaprog
expect_rc 2 "$PERFAB" run --reps 3 --max-reps 3 ./notaprog /bin/true
grep_err "Is a directory"
exit 0
