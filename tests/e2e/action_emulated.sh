#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab's GitHub Action (action.yml) run for real, offline: the example
# workflows of examples/ go through tests/e2e/gh_emulator.py (GitHub's runner
# semantics; checkout, cache, upload and download are stubs that record
# their inputs) with real bash, real perfab and real builds of the
# hashbench example at several revisions of a scratch repository made from
# this tree:
#
#   main:  A (this tree) --- M (lands later: hashbench made faster)
#                         \-- slow (the example's slowdown patch)
#                         \-- same (a README edit only)
#
# Against the merge-base A, "slow" must FAIL (exit 1, verdict=FAIL) and
# "same" must not; against main's tip M, "same" would look slower: a base
# taken from the tip instead of the merge-base fails this test. Also: the
# step summary and the one pull-request comment (the gh calls are stubbed:
# body, marker, link, size limit and truncation), the uploaded artifact
# complete and uploaded with overwrite (a re-run of a job uploads again),
# and the sharded example with two shards measured under different CPU
# models (PERFAB_TEST_CPU_MODEL), pooled and judged by its gate job.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
command -v git >/dev/null 2>&1 || skip "git is not installed"
command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 || skip "no make or cc"

EMU=${top_srcdir}/tests/e2e/gh_emulator.py
# On a failure, the emulated run's log (the last stderr) tells why.
fail() {
	[ ! -s "$T/err" ] || { echo "--- the last run's stderr (tail)" >&2; tail -80 "$T/err" >&2; }
	echo "FAIL: $*" >&2
	exit 1
}
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$T

# The emulator's expressions follow GitHub's rules (the cases the action
# and the examples depend on).
python3 - "$top_srcdir/tests/e2e" <<'PY' || fail "the emulator's expressions"
import sys
sys.path.insert(0, sys.argv[1])
import gh_emulator as g
ctx = {"github": {"event_name": "pull_request", "event": {"action": "labeled"}},
       "inputs": {"base-ref": "", "comment": "true", "shards": ""},
       "steps": {"r": {"outputs": {"n": "3"}}}}
ev = lambda t: g.evaluate(t, ctx)
assert ev("${{ inputs.base-ref || 'tip' }}") == "tip"
assert ev("${{ github.event.action == 'LABELED' }}") is True      # case-insensitive
assert ev("${{ steps.r.outputs.n == 3 }}") is True                # '3' == 3
assert ev("${{ steps.nope.outputs.x == '' }}") is True            # null == ''
assert ev("a-${{ format('{0}/{1}', 1, 'b') }}") == "a-1/b"
assert ev("${{ contains(fromJSON('[\"opened\"]'), github.event.action) && 'code' || 'x' }}") == "x"
assert g.condition("inputs.comment == 'true' && inputs.shards == ''", ctx, "success")
assert not g.condition("inputs.comment == 'true'", ctx, "failure")   # success() implied
assert g.condition("always()", ctx, "failure")
import tempfile
with tempfile.NamedTemporaryFile("w", delete=False) as f:
    f.write("a=1\nb<<EOF\nline 1\nline=2\nEOF\nc=x=y\n")
assert g.read_outputs(f.name) == {"a": "1", "b": "line 1\nline=2", "c": "x=y"}
PY

# --- the scratch repository: this tree's tracked files, then branches.
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
git -C repo checkout -q main
sed -i 's/^#define MIX_ROUNDS 4$/#define MIX_ROUNDS 2/' repo/examples/hashbench/table.c
git -C repo commit -qam "hashbench: fewer mixing rounds (faster)"
M=$(git -C repo rev-parse HEAD)
[ "$(git -C repo merge-base "$M" "$SLOW")" = "$A" ] || fail "scratch history is not as drawn"

# --- perfab's build in the cache, as a first run would have saved it:
# the key is the action's own (a digest of its sources), the content an
# install of this build.
: >key.out
(cd repo && GITHUB_OUTPUT="$T/key.out" PAB_ACTION_PATH="$T/repo" RUNNER_TEMP="$T" ci/action.sh key) ||
	fail "ci/action.sh key failed"
key=$(sed -n 's/^key=//p' key.out)
case $key in perfab-*-*-*) ;; *) fail "odd cache key '$key'" ;; esac
make -s -C "$top_builddir" install prefix="$T/state/cache/$key" >install.log 2>&1 ||
	{ cat install.log >&2; fail "make install into the cache failed"; }
[ -x "state/cache/$key/bin/perfab" ] || fail "no perfab in the seeded cache"

# event PR_NUMBER HEAD_SHA ACTION: a pull_request event's payload.
event() {
	cat <<JSON
{"action": "$3", "number": $1,
 "repository": {"full_name": "owner/hashbench"},
 "pull_request": {"number": $1, "head": {"sha": "$2", "ref": "pr-$1", "repo": {"full_name": "owner/hashbench"}},
                  "base": {"sha": "$M", "ref": "main"}}}
JSON
}

# record EXPR: a value from the last run's record.json (python expression
# over r = the record, j = the first job, s = the steps by id).
record() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[2] + "/record.json"))
j = r["jobs"][0] if r["jobs"] else {}
s = {x["id"]: x for x in j.get("steps", [])}
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v))
PY
}

# The examples as written, but fewer reps (6, adaptive up to 12) to keep
# the test short: a 20% slowdown needs no more.
for wf in hashbench/perfab.yml sharded.yml; do
	sed -e "s/^\( *\)reps: '12'$/\1reps: '6'/" -e "s/^\( *\)max-reps: '30'$/\1max-reps: '12'/" \
		"$top_srcdir/examples/$wf" >"$(basename "$wf")"
	grep -q "reps: '6'" "$(basename "$wf")" && grep -q "max-reps: '12'" "$(basename "$wf")" ||
		fail "cannot set the reps of examples/$wf"
done
HB=$T/perfab.yml
SH=$T/sharded.yml

# --- 1. the slowed-down head: FAIL, exit 1.
event 7 "$SLOW" synchronize >ev-slow.json
expect_rc 1 python3 "$EMU" "$HB" --repo repo --state state --event pull_request \
	--event-file ev-slow.json --sha "$SLOW" --run-id 101
st=$T/state
[ "$(record 'j["result"]' "$st")" = failure ] || fail "the job of a slower head did not fail"
[ "$(record 's["perfab"]["outputs"]["verdict"]' "$st")" = FAIL ] || fail "verdict: $(record 's["perfab"]["outputs"]' "$st")"
[ "$(record 's["perfab"]["outputs"]["exit-code"]' "$st")" = 1 ] || fail "exit-code is not 1"
[ "$(record 's["prepare"]["outputs"]["base-sha"]' "$st")" = "$A" ] || fail "base is not the merge-base $A"
[ "$(record 's["prepare"]["outputs"]["head-sha"]' "$st")" = "$SLOW" ] || fail "head is not the pull request's head"
[ "$(record 's["cache"]["outputs"]["cache-hit"]' "$st")" = true ] || fail "the seeded cache was not hit"
# The gate step failed, the step after it (if: always()) ran.
[ "$(record '[x["outcome"] for x in j["steps"] if x["name"] == "Gate"]' "$st")" = '["failure"]' ] ||
	fail "the Gate step did not fail"
[ "$(record '[x["outcome"] for x in j["steps"] if x["name"] == "The verdict"]' "$st")" = '["success"]' ] ||
	fail "a step with if: always() after the gate did not run"
# Stubs saw the inputs the action must give them.
checkout=$(record '[x["with"] for x in j["steps"] if x.get("uses", "").startswith("actions/checkout") and x["with"].get("path") == ".perfab/head"][0]' "$st")
echo "$checkout" | grep -q '"fetch-depth": "0"' || fail "head checkout without full history: $checkout"
echo "$checkout" | grep -q "\"ref\": \"$SLOW\"" || fail "head checkout of the wrong ref: $checkout"
upload=$(record 's["upload"]["with"]' "$st")
echo "$upload" | grep -q '"overwrite": "true"' || fail "upload without overwrite: $upload"
echo "$upload" | grep -q '"name": "perfab"' || fail "upload name: $upload"
# The step summary holds the Markdown ledger.
record 'j["summary"]' "$st" >summary.md
grep -q '^### perfab: .*FAIL' summary.md || fail "no FAIL ledger in the step summary"
# The artifact is complete, judged the same again, with its reports.
art=$st/artifacts/101/perfab
for f in perfab.json report.html ledger.md ledger.json junit.xml ledger.txt; do
	[ -s "$art/$f" ] || fail "the uploaded artifact lacks $f"
done
jq -e '.complete == true and ([.arms[].name] == ["base", "head", "null"]) and
       (.arms[0].sha256 | length) == 64 and .arms[0].sha256 != .arms[1].sha256 and
       .arms[0].sha256 == .arms[2].sha256' "$art/perfab.json" >/dev/null ||
	fail "the artifact is not a complete base/head/null run of two builds"
expect_rc 1 "$PERFAB" gate "$art/perfab.json"
grep -q '<html' "$art/report.html" || fail "report.html is not HTML"
# One comment, created (no marked comment yet), linking the report.
[ "$(grep -c '"--paginate"' state/gh.jsonl)" = 1 ] || fail "comments not listed once"
python3 - "$st/gh.jsonl" <<'PY' || fail "the comment"
import json, sys
calls = [json.loads(l) for l in open(sys.argv[1])]
post = [c for c in calls if "POST" in c["argv"]]
assert len(post) == 1 and not any("PATCH" in c["argv"] for c in calls), calls
assert post[0]["argv"][-3].endswith("repos/owner/hashbench/issues/7/comments"), post[0]["argv"]
b = post[0]["body"]
assert b.startswith("<!-- perfab-ledger -->\n### perfab: "), b[:80]
assert "FAIL" in b.split("\n")[1]
assert "](https://github.com/owner/hashbench/actions/runs/101/artifacts/" in b, b[-300:]
assert len(b) < 65536
PY

# --- 2. the unchanged head: not FAIL (against main's faster tip it would).
event 8 "$SAME" synchronize >ev-same.json
rm -f state/gh.jsonl
rc=0
EMU_GH_COMMENT_ID=4242 python3 "$EMU" "$HB" --repo repo --state state --event pull_request \
	--event-file ev-same.json --sha "$SAME" --run-id 102 2>same.err || rc=$?
v=$(record 's["perfab"]["outputs"]["verdict"]' "$st")
case $v in
PASS) [ "$rc" = 0 ] || fail "PASS, yet the emulated job failed ($rc)" ;;
INCONCLUSIVE) [ "$(record 's["perfab"]["outputs"]["exit-code"]' "$st")" = 3 ] || fail "INCONCLUSIVE without exit 3" ;;
*) cat same.err >&2; fail "an unchanged head got '$v'" ;;
esac
[ "$(record 's["prepare"]["outputs"]["base-sha"]' "$st")" = "$A" ] || fail "base of the unchanged head is not the merge-base"
# The existing marked comment is edited in place, not a second one.
grep -q '"PATCH", "repos/owner/hashbench/issues/comments/4242"' state/gh.jsonl || fail "the comment was not updated in place"
if grep -q '"POST"' state/gh.jsonl; then fail "a second comment was created"; fi

# --- 3. the comment's size limit: a ledger far over 65,536 characters.
python3 "$top_srcdir/ci/gen-artifact.py" big.json --rows 700 --reps 6 --shift 0.05
expect_verdict "$PERFAB" ledger --format markdown big.json
cp "$T/out" big.md
[ "$(wc -c <big.md)" -gt 200000 ] || fail "the big ledger is not big"
GITHUB_REPOSITORY=o/p GITHUB_RUN_ID=9 PAB_REPORT_URL=https://example.org/r \
	"$top_srcdir/ci/action.sh" comment-body big.md body.md || fail "comment-body failed"
[ "$(wc -c <body.md)" -lt 65536 ] || fail "the comment is $(wc -c <body.md) bytes"
[ "$(wc -c <body.md)" -gt 50000 ] || fail "the comment was cut far more than needed: $(wc -c <body.md) bytes"
grep -q 'of 700 rows did not fit in a comment' body.md || fail "no note of the cut rows"
grep -q 'did not fit in a comment: see the full report' body.md || fail "no note of the folded details"
grep -q '^\*\*Disposition:\*\*' body.md || fail "the disposition line was cut"
grep -q '](https://example.org/r)' body.md || fail "no link to the report"
# ... and a small ledger goes in whole.
cp "$art/ledger.md" small.md
"$top_srcdir/ci/action.sh" comment-body small.md sbody.md
tail -n +2 sbody.md | head -n "$(wc -l <small.md)" | cmp -s - small.md || fail "a small ledger was changed in the comment"

# --- 4. the sharded example: two shards on two CPU models, one gate.
rm -f state/gh.jsonl
expect_rc 1 python3 "$EMU" "$SH" --repo repo --state state --event pull_request \
	--event-file ev-slow.json --sha "$SLOW" --run-id 103 \
	--matrix-env "shard=1:PERFAB_TEST_CPU_MODEL=Emulated CPU Alpha" \
	--matrix-env "shard=2:PERFAB_TEST_CPU_MODEL=Emulated CPU Beta"
python3 - "$st/record.json" <<'PY' || fail "the sharded run"
import json, sys
r = json.load(open(sys.argv[1]))
jobs = [(j["job"], j["matrix"].get("shard"), j["result"]) for j in r["jobs"]]
assert jobs == [("measure", 1, "success"), ("measure", 2, "success"), ("gate", None, "failure")], jobs
c = r["jobs"][0]["concurrency"]
assert c["group"] == "perfab-sharded-7-code" and c["cancel-in-progress"], c
gate = {s["id"]: s for s in r["jobs"][2]["steps"]}
assert gate["perfab"]["outputs"]["verdict"] == "FAIL", gate["perfab"]["outputs"]
assert "measured on" not in r["jobs"][2]["summary"] and "| CPU model |" in r["jobs"][2]["summary"]
PY
for i in 1 2; do
	[ -s "state/artifacts/103/perfab-shard-$i/perfab-shard-$i.json" ] || fail "shard $i uploaded no artifact"
done
pooled=state/artifacts/103/perfab-pooled/perfab.json
jq -e '.run.pool.mode == "shards" and .host.cpu_model == "Emulated CPU Alpha" and
       ([.rows[].name] == ["small-table", "large-table"]) and
       .rows[1].host.cpu_model == "Emulated CPU Beta"' "$pooled" >/dev/null ||
	fail "pooled shards: $(jq -c '[.run.pool.mode, [.rows[] | [.name, .host.cpu_model]]]' "$pooled")"
grep -q 'Emulated CPU Beta' state/artifacts/103/perfab-pooled/ledger.md || fail "the pooled ledger does not show the CPU models"
grep -q '"POST"' state/gh.jsonl || fail "the gate job did not comment"
[ "$(grep -c "\"POST\"" state/gh.jsonl)" = 1 ] || fail "not exactly one comment: a measure job commented"
# "Re-run failed jobs": the gate job again in the same run uploads again.
expect_rc 1 python3 "$EMU" "$SH" --repo repo --state state --event pull_request \
	--event-file ev-slow.json --sha "$SLOW" --run-id 103 --job gate
[ "$(record 'j["job"] + " " + s["perfab"]["outputs"]["verdict"]' "$st")" = "gate FAIL" ] ||
	fail "the re-run gate job: $(record 'j["result"]' "$st")"
# A label starts no run of the examples (so it can cancel none).
event 7 "$SLOW" labeled >ev-label.json
for wf in "$HB" "$SH"; do
	expect_rc 0 python3 "$EMU" "$wf" --repo repo --state state --event pull_request \
		--event-file ev-label.json --sha "$SLOW" --run-id 104
	[ "$(record 'r["triggered"]' "$st")" = false ] || fail "$wf runs on a label"
done
exit 0
