#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The trust boundary of perfab's GitHub Action (doc/ci.md "Security"),
# and what each arm runs, through tests/e2e/gh_emulator.py on the scratch
# repository of tests/e2e/action_lib.sh:
#
# - a head four times slower whose own perfab.json says "tolerance": 1000
#   FAILs: the config is read from the base checkout; with config-from:
#   head the pull request's config decides (PASS);
# - inputs are checked before anything runs: a base-ref or head-ref that
#   starts with '-' (git would read --upload-pack=... as an option) and a
#   tolerance that is not PCT or METRIC=PCT ('cpu=*', never globbed);
# - a base that cannot be fetched fails with git's reason, and the fetch
#   carries the token in git's environment, never in its argv;
# - the data-file benchmark (sh data-bench.sh workload.txt): each arm runs
#   in its own checkout and reads its own file (head's four times the
#   rounds: FAIL); the words of bench that name files become each
#   checkout's own;
# - the fork recipe (examples/fork/): the pull_request workflow measures
#   and uploads with no write permission and no comment; the workflow_run
#   workflow downloads that artifact, checks the pull request's number
#   against the measured commit, judges and comments — and refuses a
#   number whose pull request is at another commit.
. "${top_srcdir}/tests/e2e/action_lib.sh"

# --- 1. the pull request's own config does not judge it.
variant "$top_srcdir/examples/hashbench/perfab.yml" cfg.yml config=examples/hashbench/perfab.json
event 10 "$TRUST" synchronize >ev-trust.json
gh_state '{}'
emulate 1 cfg.yml pull_request ev-trust.json "$TRUST" 301
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = FAIL ] ||
	fail "a head config with tolerance 1000 judged its own 4x slowdown: $(record 's["perfab"]["outputs"]')"
grep -q "config: .*/.perfab/base/examples/hashbench/perfab.json (from the base checkout)" "$T/out" ||
	fail "the config was not read from the base checkout"
jq -e '[.settings.tolerance // empty] | tostring | test("1000") | not' "$st/artifacts/301/perfab/perfab.json" >/dev/null ||
	fail "the head's tolerance reached the run"
# ... unless the workflow says the head's config decides. (With a history
# database holding run 301's merge, the summary also gets the base
# branch's drift line for the row.)
"$PERFAB" history record "$st/artifacts/301/perfab/perfab.json" --db "$T/h.db" --commit c301 \
	--branch main >/dev/null || fail "cannot record run 301 into a history database"
variant "$top_srcdir/examples/hashbench/perfab.yml" cfg-head.yml config=examples/hashbench/perfab.json \
	config-from=head "history=$T/h.db"
emulate 0 cfg-head.yml pull_request ev-trust.json "$TRUST" 302
record 'j["summary"]' | grep -q "^- cpu of .* over the last 1 merge" ||
	fail "no drift line from the history database in the summary: $(record 'j["summary"]' | tail -5)"
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = PASS ] ||
	fail "config-from: head did not use the head's tolerance: $(record 's["perfab"]["outputs"]')"
grep -q "config: .*/.perfab/head/examples/hashbench/perfab.json (from the head checkout)" "$T/out" ||
	fail "config-from: head did not read the head checkout's config"

# --- 2. inputs refused before anything runs.
refused() { # refused WHAT KEY=VALUE PATTERN
	variant "$top_srcdir/examples/hashbench/perfab.yml" bad.yml "$2"
	emulate 1 bad.yml pull_request ev-trust.json "$TRUST" 303
	[ "$(record '[x["id"] for x in j["steps"] if x.get("outcome") == "failure"]')" = '["perfab", "key"]' ] ||
		fail "$1: not refused by the first step: $(record '[(x["id"], x.get("outcome")) for x in j["steps"]]')"
	[ "$(record '[x["outcome"] for x in j["steps"] if x.get("uses", "").startswith("actions/checkout") and x.get("composite")]')" = '["skipped"]' ] ||
		fail "$1: something was checked out"
	grep -q "$3" "$T/err" || fail "$1: no message '$3'"
}
refused "a base-ref option" 'base-ref=--upload-pack=touch${IFS}pwned' "base-ref '--upload-pack=.*' starts with '-'"
refused "a head-ref option" 'head-ref=-x' "head-ref '-x' starts with '-'"
refused "a tolerance glob" 'tolerance=cpu=*' "tolerance 'cpu=\*' is not PCT or METRIC=PCT"
refused "a config-from" 'config-from=both' "config-from takes base or head"
[ ! -e pwned ] && [ ! -e "$st/runner/workspace/pwned" ] || fail "a base-ref ran a command"
# split_list: comma-separated, blanks dropped, nothing globbed.
touch cpu=99
printf '%s\n' 'cpu=*, wall=3 ,2' >want.txt
bash -c '. /dev/stdin; split_list "cpu=*, wall=3 ,2"' <<SH >got.txt || fail "split_list"
$(sed -n '/^split_list() {/,/^}/p' "$top_srcdir/ci/action.sh")
SH
printf '%s\n' 'cpu=*' 'wall=3' '2' | cmp -s - got.txt || fail "split_list: $(cat got.txt)"

# --- 3. a base that cannot be fetched: git's reason; the token in git's
# environment only.
mkdir -p ws/.perfab fakebin
git clone -q repo ws/.perfab/head
cat >fakebin/git <<SH
#!/bin/sh
case "\$*" in *fetch*) echo "argv: \$*" >>"$T/git.log"; env | grep '^GIT_CONFIG_' >>"$T/git.log" ;; esac
exec $(command -v git) "\$@"
SH
chmod +x fakebin/git
: >gh.out
rc=0
PATH=$T/fakebin:$PATH GITHUB_WORKSPACE=$T/ws GITHUB_OUTPUT=$T/gh.out RUNNER_TEMP=$T PAB_TOKEN=sekrit \
	PAB_BASE_REF=no-such-branch "$top_srcdir/ci/action.sh" prepare >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "an unfetchable base exited $rc"
grep -q "cannot fetch 'no-such-branch' from origin: .*couldn't find remote ref no-such-branch" err ||
	fail "no clear fetch failure: $(cat err)"
grep -q '^argv: fetch -q origin --end-of-options no-such-branch$' git.log || fail "git fetch argv: $(cat git.log)"
if grep '^argv:' git.log | grep -q sekrit; then fail "the token is in git's argv"; fi
auth=$(printf 'x-access-token:sekrit' | base64 -w0)
grep -q "^GIT_CONFIG_VALUE_0=AUTHORIZATION: basic $auth$" git.log || fail "the fetch had no credentials: $(cat git.log)"

# --- 4. the arms: words that name files are each checkout's own.
mkdir -p ws/.perfab/base/tools ws/.perfab/head/tools
echo 'print(1)' >ws/.perfab/base/tools/bench.py
echo 'print(2)' >ws/.perfab/head/tools/bench.py
echo '{}' >ws/.perfab/head/in.json
WORK=$T/ws/.perfab PAB_BENCH="python3 tools/bench.py --input=in.json 'a b' -q 7" \
	python3 "$top_srcdir/ci/action-arms.py" arms.json >out 2>err || fail "action-arms.py: $(cat err)"
jq -e --arg w "$T/ws/.perfab" '.arms == [
  {"name": "base", "argv": ["env", "-C", ($w + "/base"), "--", "python3", ($w + "/base/tools/bench.py"),
                            ("--input=" + $w + "/base/in.json"), "a b", "-q", "7"], "revision": .arms[0].revision},
  {"name": "head", "argv": ["env", "-C", ($w + "/head"), "--", "python3", ($w + "/head/tools/bench.py"),
                            ("--input=" + $w + "/head/in.json"), "a b", "-q", "7"], "revision": .arms[1].revision}]
  and (.arms[0].revision | test("^base files:[0-9a-f]{16}$")) and .arms[0].revision != (.arms[1].revision | sub("head"; "base"))' \
	arms.json >/dev/null || fail "the arms: $(jq -c .arms arms.json)"
WORK=$T/ws/.perfab PAB_BENCH="tools/missing --x" expect_rc 2 python3 "$top_srcdir/ci/action-arms.py" arms.json
grep_err "the build made no executable 'tools/missing' in the base checkout"

# --- 5. the data-file benchmark: base and head read their own file.
variant "$top_srcdir/examples/hashbench/perfab.yml" data.yml \
	'bench=sh examples/hashbench/data-bench.sh examples/hashbench/workload.txt'
event 11 "$DATA" synchronize >ev-data.json
gh_state '{}'
emulate 1 data.yml pull_request ev-data.json "$DATA" 304
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = FAIL ] ||
	fail "the head's heavier workload file was not what head ran: $(record 's["perfab"]["outputs"]')"
jq -e '(.arms[0].argv | index("sh")) == 4 and (.arms[0].argv[6] | endswith("/.perfab/base/examples/hashbench/workload.txt")) and
       (.arms[1].argv[6] | endswith("/.perfab/head/examples/hashbench/workload.txt"))' \
	"$st/artifacts/304/perfab/perfab.json" >/dev/null ||
	fail "the data-file arms: $(jq -c '[.arms[].argv]' "$st/artifacts/304/perfab/perfab.json")"

# --- 6. forks: measure without a write token, then judge and comment.
event 12 "$SLOW" synchronize owner-fork/hashbench >ev-fork.json
gh_state '{}'
emulate 1 "$top_srcdir/examples/fork/perfab-measure.yml" pull_request ev-fork.json "$SLOW" 305
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = FAIL ] || fail "the fork's measure run: $(record 's["perfab"]["outputs"]')"
python3 -c 'import sys, yaml; j = yaml.safe_load(open(sys.argv[1]))["jobs"]["gate"]; sys.exit(j["permissions"] != {"contents": "read"})' \
	"$top_srcdir/examples/fork/perfab-measure.yml" || fail "the fork's measure job has more than contents: read"
[ ! -s "$st/gh.jsonl" ] || fail "the fork's measure run called the API: $(cat "$st/gh.jsonl")"
[ "$(cat "$st/artifacts/305/perfab/pr-number")" = 12 ] || fail "the artifact does not name the pull request"
cat >ev-wr.json <<JSON
{"action": "completed",
 "workflow_run": {"id": 305, "name": "perfab-measure", "event": "pull_request", "conclusion": "failure",
                  "head_sha": "$SLOW", "head_repository": {"full_name": "owner-fork/hashbench"}, "pull_requests": []},
 "repository": {"full_name": "owner/hashbench", "default_branch": "main"}}
JSON
gh_state "{\"pulls\": {\"12\": {\"head\": {\"sha\": \"$SLOW\"}}}}"
emulate 0 "$top_srcdir/examples/fork/perfab-comment.yml" workflow_run ev-wr.json "$M" 306
python3 - "$st" "$SLOW" <<'PY' || fail "the workflow_run judge"
import json, sys
r = json.load(open(sys.argv[1] + "/record.json"))
assert r["triggered"] and [j["job"] for j in r["jobs"]] == ["comment"], r["jobs"]
j = r["jobs"][0]
steps = {s["id"]: s for s in j["steps"]}
# Nothing of the pull request was checked out: only the action (github.sha).
co = [s for s in j["steps"] if s.get("uses", "").startswith("actions/checkout")]
assert [s["outcome"] for s in co] == ["success", "skipped", ], [(s["name"], s["outcome"]) for s in co]
assert "ref" not in co[0]["with"], co[0]["with"]
assert sys.argv[2] not in json.dumps([s.get("with") for s in co if s["outcome"] == "success"])
verdicts = [s["outputs"].get("verdict") for s in j["steps"] if s.get("outputs", {}).get("verdict")]
assert verdicts and set(verdicts) == {"FAIL"}, verdicts
calls = [json.loads(l) for l in open(sys.argv[1] + "/gh.jsonl")]
post = [c for c in calls if "POST" in c["argv"]]
assert len(post) == 1 and post[0]["argv"][-3].endswith("/issues/12/comments"), calls
assert "FAIL" in post[0]["body"].split("\n")[1] and "/actions/runs/306)" in post[0]["body"]
PY
# A pull request number that names another commit is refused: no comment.
gh_state "{\"pulls\": {\"12\": {\"head\": {\"sha\": \"$M\"}}}}"
emulate 1 "$top_srcdir/examples/fork/perfab-comment.yml" workflow_run ev-wr.json "$M" 307
cat "$T/out" "$T/err" | grep -q "pull request 12 is at $M, not the measured $SLOW" || fail "no refusal of a mismatched number"
if grep -q '"POST"' "$st/gh.jsonl"; then fail "commented on a pull request that was not measured"; fi
# --- every outcome is reported: a run that ends without a verdict (here an
# option perfab refuses) still writes the summary, the comment and the
# upload, in perfab's own words.
variant "$top_srcdir/examples/hashbench/perfab.yml" err.yml "perfab-args=--max-procs 0"
gh_state '{}'
emulate 1 err.yml pull_request ev-trust.json "$TRUST" 308
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = ERROR ] ||
	fail "a refused run is not reported as ERROR: $(record 's["perfab"]["outputs"]')"
record 'j["summary"]' >err-summary.md
grep -q "No verdict: perfab exited 2" err-summary.md && grep -q -- "--max-procs" err-summary.md ||
	{ cat err-summary.md >&2; fail "the summary does not say why there is no verdict"; }
[ "$(record 's["upload"].get("outcome")')" = success ] ||
	fail "nothing uploaded for a run without a verdict: $(record 's["upload"]')"
grep -q '"POST"' "$st/gh.jsonl" || fail "no comment for a run without a verdict"
exit 0
