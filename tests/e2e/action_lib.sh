# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# tests/e2e/action_lib.sh — sourced by the action's emulated tests
# (action_emulated.sh, action_trust.sh): a scratch repository made from
# this tree, the helpers that run a workflow through
# tests/e2e/gh_emulator.py and read its record, and workflow variants.
#
#   main:  A (this tree) --- M (lands later: hashbench made faster)
#                         \-- slow  (the example's slowdown patch)
#                         \-- same  (a README edit only)
#                         \-- data  (workload.txt: four times the rounds)
#                         \-- trust (hashbench four times slower, and
#                                    "tolerance": 1000 in perfab.json)
#
# A cache miss installs perfab from this build (ci/action.sh's test hook
# PAB_TEST_INSTALL_FROM), so the miss, the save and the restore are real
# without building perfab from scratch in every test.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
command -v git >/dev/null 2>&1 || skip "git is not installed"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"
command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 || skip "no make or cc"

EMU=${top_srcdir}/tests/e2e/gh_emulator.py
st=$T/state
mkdir -p "$st"
# On a failure, the emulated run's log (the last stderr) tells why.
fail() {
	[ ! -s "$T/err" ] || { echo "--- the last run's stderr (tail)" >&2; tail -80 "$T/err" >&2; }
	echo "FAIL: $*" >&2
	exit 1
}
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$T
export PAB_TEST_INSTALL_FROM=$top_builddir

mkdir repo
if git -C "$top_srcdir" ls-files >files.txt 2>/dev/null && [ -s files.txt ]; then
	(cd "$top_srcdir" && tar cf - -T "$T/files.txt") | (cd repo && tar xf -)
else
	(cd "$top_srcdir" && tar cf - --exclude='./_*' --exclude=./.git --exclude=./autom4te.cache .) |
		(cd repo && tar xf -)
fi
[ -f repo/action.yml ] && [ -f repo/examples/hashbench/slowdown.patch ] || fail "the tree copy lacks the action or the example"
git -C repo init -q -b main
git -C repo add -A
git -C repo commit -qm A
A=$(git -C repo rev-parse HEAD)
git -C repo checkout -q -b slow
git -C repo apply examples/hashbench/slowdown.patch
git -C repo commit -qam "hashbench: more mixing rounds (slower)"
SLOW=$(git -C repo rev-parse HEAD)
git -C repo checkout -q -b same "$A"
echo "An edit." >>repo/examples/hashbench/README
git -C repo commit -qam "hashbench: README"
SAME=$(git -C repo rev-parse HEAD)
git -C repo checkout -q -b data "$A"
echo "8192 600" >repo/examples/hashbench/workload.txt
git -C repo commit -qam "hashbench: a heavier workload"
DATA=$(git -C repo rev-parse HEAD)
git -C repo checkout -q -b trust "$A"
sed -i 's/r < rounds; r++/r < 4 * rounds; r++/' repo/examples/hashbench/hashbench.c
grep -q 'r < 4 \* rounds' repo/examples/hashbench/hashbench.c || fail "cannot slow hashbench down"
jq '. + {"tolerance": 1000}' repo/examples/hashbench/perfab.json >tol.json && mv tol.json repo/examples/hashbench/perfab.json
git -C repo commit -qam "hashbench: four times the work, and a tolerance of 1000%"
TRUST=$(git -C repo rev-parse HEAD)
git -C repo checkout -q main
sed -i 's/^#define MIX_ROUNDS 4$/#define MIX_ROUNDS 2/' repo/examples/hashbench/table.c
git -C repo commit -qam "hashbench: fewer mixing rounds (faster)"
M=$(git -C repo rev-parse HEAD)
[ "$(git -C repo merge-base "$M" "$SLOW")" = "$A" ] || fail "scratch history is not as drawn"

# event PR_NUMBER HEAD_SHA ACTION [HEAD_REPO]: a pull_request event.
event() {
	cat <<JSON
{"action": "$3", "number": $1,
 "repository": {"full_name": "owner/hashbench", "default_branch": "main"},
 "pull_request": {"number": $1, "head": {"sha": "$2", "ref": "pr-$1", "repo": {"full_name": "${4:-owner/hashbench}"}},
                  "base": {"sha": "$M", "ref": "main"}}}
JSON
}

# gh_state JSON: what the gh stub answers (comments, pulls, login).
gh_state() {
	printf '%s\n' "$1" >"$st/gh-state.json"
	rm -f "$st/gh.jsonl"
}

# record EXPR: a value from the last run's record.json (python expression
# over r = the record, j = the first job, s = its steps by id).
record() {
	python3 - "$1" "$st" <<'PY'
import json, sys
r = json.load(open(sys.argv[2] + "/record.json"))
j = r["jobs"][0] if r["jobs"] else {}
s = {x["id"]: x for x in j.get("steps", [])}
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v))
PY
}

# variant SRC DST KEY=VALUE...: workflow SRC with a first look of 6 reps
# (a 20% slowdown needs no more) up to 48 (an unchanged head's PASS waits
# for its cpu guard, which a loaded runner resolves at 4% only by 24 or 48
# reps of a command this short) and the perfab step's inputs set (an empty
# VALUE drops the input).
variant() {
	python3 - "$@" <<'PY'
import sys, yaml
src, dst, sets = sys.argv[1], sys.argv[2], sys.argv[3:]
wf = yaml.safe_load(open(src))
n = 0
for job in wf["jobs"].values():
    for st in job.get("steps", []):
        if st.get("uses") == "./" and "artifacts" not in (st.get("with") or {}):
            w = st["with"]
            if "reps" in w:
                w["reps"] = "6"
            if "max-reps" in w:
                w["max-reps"] = "48"
            for kv in sets:
                k, v = kv.split("=", 1)
                if v:
                    w[k] = v
                else:
                    w.pop(k, None)
            n += 1
assert n, "no perfab step in %s" % src
open(dst, "w").write(yaml.safe_dump(wf, sort_keys=False))
PY
}

# emulate RC WORKFLOW EVENT EVENT_FILE SHA RUN_ID [ARGS...]
emulate() {
	_rc=$1 _wf=$2 _ev=$3 _evf=$4 _sha=$5 _id=$6
	shift 6
	expect_rc "$_rc" python3 "$EMU" "$_wf" --repo repo --state "$st" --event "$_ev" \
		--event-file "$_evf" --sha "$_sha" --run-id "$_id" "$@"
}
