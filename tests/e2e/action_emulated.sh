#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab's GitHub Action (action.yml) run for real, offline: the example
# workflows of examples/ go through tests/e2e/gh_emulator.py (GitHub's runner
# semantics; checkout, cache, upload and download are stubs that record
# their inputs and model GitHub's rules) with real bash, real perfab and
# real builds of the hashbench example at several revisions of a scratch
# repository (tests/e2e/action_lib.sh draws it).
#
# Against the merge-base A, "slow" must FAIL (exit 1, verdict=FAIL) and
# "same" must not; against main's tip M, "same" would look slower: a base
# taken from the tip instead of the merge-base fails this test. The cache:
# the first run misses, installs perfab and saves it although its gate
# FAILs; a push to main cannot see that pull request's cache (GitHub's
# branch scoping), builds and saves its own; the next pull request
# restores main's and installs nothing. The comment: created when this
# token has none, edited in place when it has one, and a comment by
# another login that starts with the marker is left alone; the size limit.
# The artifact complete and uploaded with overwrite and hidden files
# included; the sharded example with two shards under two CPU models,
# pooled and judged by its gate job; a re-run; a cancelled run starts no
# gate job (always() would have); a merge queue's merge_group runs the
# gate; a label starts nothing.
. "${top_srcdir}/tests/e2e/action_lib.sh"
require valgrind

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
assert g.condition("always()", ctx, "cancelled")
assert not g.condition("${{ !cancelled() }}", ctx, "cancelled")
assert g.condition("${{ !cancelled() }}", ctx, "failure")
import tempfile
with tempfile.NamedTemporaryFile("w", delete=False) as f:
    f.write("a=1\nb<<EOF\nline 1\nline=2\nEOF\nc=x=y\n")
assert g.read_outputs(f.name) == {"a": "1", "b": "line 1\nline=2", "c": "x=y"}
PY

# Exact counts (valgrind) decide the hashbench rows: an unchanged head
# must PASS and the slowed one FAIL, whatever this machine's load.
variant "$top_srcdir/examples/hashbench/perfab.yml" hb.yml counts=sim count-cache=true
variant "$top_srcdir/examples/sharded.yml" sh.yml
HB=$T/hb.yml
SH=$T/sh.yml
marker='<!-- perfab-ledger -->'

# --- 1. the slowed-down head: FAIL, exit 1; the cache saved all the same.
# Mallory's comment on the pull request starts with the marker.
event 7 "$SLOW" synchronize >ev-slow.json
gh_state "{\"comments\": [{\"id\": 555, \"issue\": 7, \"user\": {\"login\": \"mallory\"}, \"body\": \"$marker\\nLGTM, PASS\"}]}"
emulate 1 "$HB" pull_request ev-slow.json "$SLOW" 101
[ "$(record 'j["result"]' )" = failure ] || fail "the job of a slower head did not fail"
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = FAIL ] || fail "verdict: $(record 's["perfab"]["outputs"]')"
[ "$(record 's["perfab"]["outputs"]["exit-code"]')" = 1 ] || fail "exit-code is not 1"
[ "$(record 's["prepare"]["outputs"]["base-sha"]')" = "$A" ] || fail "base is not the merge-base $A"
[ "$(record 's["prepare"]["outputs"]["head-sha"]')" = "$SLOW" ] || fail "head is not the pull request's head"
[ "$(record 's["cache"]["outputs"]["cache-hit"]')" = false ] || fail "a first run hit a cache"
[ "$(record 's["install"]["outputs"]["built"]')" = true ] || fail "a cache miss did not install perfab"
[ "$(record '[c["op"] + " " + c.get("scope", "") for c in r["cache"]]')" = '["miss ", "save refs/pull/7/merge", "miss "]' ] ||
	fail "the first run did not save perfab's build in its own scope although its gate failed, or saved counts: $(record 'r["cache"]')"
key=$(record 's["key"]["outputs"]["key"]')
[ -x "$st/cache/refs%pull%7%merge/$key/bin/perfab" ] || fail "the saved cache holds no perfab"
# The gate step failed; the step after it (if: !cancelled()) ran.
[ "$(record '[x["outcome"] for x in j["steps"] if x["name"] == "Gate"]')" = '["failure"]' ] ||
	fail "the Gate step did not fail"
[ "$(record '[x["outcome"] for x in j["steps"] if x["name"] == "The verdict"]')" = '["success"]' ] ||
	fail "a step with if: !cancelled() after the gate did not run"
# Stubs saw the inputs the action must give them.
checkout=$(record '[x["with"] for x in j["steps"] if x.get("uses", "").startswith("actions/checkout") and x["with"].get("path") == ".perfab/head"][0]')
echo "$checkout" | grep -q '"fetch-depth": "0"' || fail "head checkout without full history: $checkout"
echo "$checkout" | grep -q "\"ref\": \"$SLOW\"" || fail "head checkout of the wrong ref: $checkout"
echo "$checkout" | grep -q '"persist-credentials": "false"' || fail "the head checkout keeps credentials: $checkout"
upload=$(record 's["upload"]["with"]')
echo "$upload" | grep -q '"overwrite": "true"' || fail "upload without overwrite: $upload"
echo "$upload" | grep -q '"include-hidden-files": "true"' || fail "upload without include-hidden-files: $upload"
echo "$upload" | grep -q '"name": "perfab"' || fail "upload name: $upload"
# The step summary holds the Markdown ledger.
record 'j["summary"]' >summary.md
grep -q '^### perfab: .*FAIL' summary.md || fail "no FAIL ledger in the step summary"
# The artifact is complete, judged the same again, with its reports; each
# arm ran in its own checkout, labelled with its commit and files.
art=$st/artifacts/101/perfab
for f in perfab.json report.html ledger.md ledger.json junit.xml ledger.txt pr-number; do
	[ -s "$art/$f" ] || fail "the uploaded artifact lacks $f"
done
jq -e --arg a "$(echo "$A" | cut -c1-12)" --arg s "$(echo "$SLOW" | cut -c1-12)" \
	'.complete == true and ([.arms[].name] == ["base", "head", "null"]) and
       (.arms[0].argv[0:3] == ["env", "-C", (.arms[0].argv[2])]) and
       (.arms[0].argv[2] | endswith("/.perfab/base")) and (.arms[1].argv[2] | endswith("/.perfab/head")) and
       (.arms[0].revision | startswith($a)) and (.arms[1].revision | startswith($s)) and
       .arms[0].revision == .arms[2].revision' "$art/perfab.json" >/dev/null ||
	fail "the artifact is not a complete base/head/null run of two checkouts: $(jq -c '[.arms[] | [.name, .argv, .revision]]' "$art/perfab.json")"
expect_rc 1 "$PERFAB" gate "$art/perfab.json"
grep -q '<html' "$art/report.html" || fail "report.html is not HTML"
# One comment, created: Mallory's marked comment is not this token's.
[ "$(grep -c '"--paginate"' "$st/gh.jsonl")" = 1 ] || fail "comments not listed once"
python3 - "$st" <<'PY' || fail "the comment"
import json, sys
calls = [json.loads(l) for l in open(sys.argv[1] + "/gh.jsonl")]
post = [c for c in calls if "POST" in c["argv"]]
assert len(post) == 1 and not any("PATCH" in c["argv"] for c in calls), calls
assert post[0]["argv"][-3].endswith("repos/owner/hashbench/issues/7/comments"), post[0]["argv"]
b = post[0]["body"]
assert b.startswith("<!-- perfab-ledger -->\n### perfab: "), b[:80]
assert "FAIL" in b.split("\n")[1]
assert "[The workflow run](https://github.com/owner/hashbench/actions/runs/101)" in b, b[-300:]
assert "](https://github.com/owner/hashbench/actions/runs/101/artifacts/" in b, b[-300:]
assert len(b) < 65536
state = json.load(open(sys.argv[1] + "/gh-state.json"))
m = [c for c in state["comments"] if c["id"] == 555][0]
assert m["body"] == "<!-- perfab-ledger -->\nLGTM, PASS" and "edited_by" not in m, m
assert [c["user"]["login"] for c in state["comments"]] == ["mallory", "github-actions[bot]"]
PY

# --- 2. a push to main: measured against the commit before; the pull
# request's cache is invisible to it (a child branch's), it saves its own.
cat >ev-push.json <<JSON
{"ref": "refs/heads/main", "before": "$A", "after": "$M",
 "repository": {"full_name": "owner/hashbench", "default_branch": "main"}}
JSON
gh_state '{}'
rc=0
python3 "$EMU" "$HB" --repo repo --state "$st" --event push --event-file ev-push.json \
	--sha "$M" --run-id 102 >out 2>err || rc=$?
[ "$(record 'r["triggered"]')" = true ] || fail "a push to main does not run the example"
[ "$(record 's["prepare"]["outputs"]["base-sha"]')" = "$A" ] || fail "a push's base is not the commit before"
# It saves its build and, a push, the counts it made (a pull request's
# run above saved none).
[ "$(record '[c["op"] + " " + c.get("scope", "") + " " + ("counts" if c["key"].startswith("perfab-counts-") else "perfab") for c in r["cache"]]')" = \
	'["miss  perfab", "save refs/heads/main perfab", "miss  counts", "save refs/heads/main counts"]' ] ||
	fail "the push to main: $(record 'r["cache"]')"
ckey=$(record '[c["key"] for c in r["cache"] if c["op"] == "save" and c["key"].startswith("perfab-counts-")][0]')
[ -s "$st/cache/refs%heads%main/$ckey/counts.json" ] || fail "the saved count cache holds no counts.json"
[ "$(record 's["install"]["outputs"]["built"]')" = true ] || fail "main did not install on its miss"
# Faster by exact counts, and its cpu guard sees a gain, not a slowdown:
# PASS, as the unchanged head below.
v=$(record 's["perfab"]["outputs"]["verdict"]')
[ "$v" = PASS ] || fail "main's faster tip got '$v', not PASS (rc $rc)"
[ ! -s "$st/gh.jsonl" ] || fail "a push commented: $(cat "$st/gh.jsonl")"

# --- 3. another pull request, unchanged head: main's cache restored,
# nothing installed; not FAIL (against main's faster tip it would be).
# This token's marked comment is edited, Mallory's is not.
event 8 "$SAME" synchronize >ev-same.json
gh_state "{\"comments\": [{\"id\": 555, \"issue\": 8, \"user\": {\"login\": \"mallory\"}, \"body\": \"$marker\\nx\"},
  {\"id\": 4242, \"issue\": 8, \"user\": {\"login\": \"github-actions[bot]\"}, \"body\": \"$marker\\nold\"},
  {\"id\": 556, \"issue\": 8, \"user\": {\"login\": \"mallory\"}, \"body\": \"$marker\\ny\"}]}"
rc=0
python3 "$EMU" "$HB" --repo repo --state "$st" --event pull_request --event-file ev-same.json \
	--sha "$SAME" --run-id 103 >out 2>err || rc=$?
v=$(record 's["perfab"]["outputs"]["verdict"]')
# Its exact counts PASS; its cpu guard may, on a loaded machine, not
# resolve within the cap: then INCONCLUSIVE for that reason alone (the
# guard holds the PASS, doc/method.md §8a), and the job fails as
# inconclusive: fail asks.
case $v in
PASS) [ "$rc" = 0 ] || fail "PASS, yet the emulated job failed ($rc)" ;;
INCONCLUSIVE)
	jq -e '.rows[0] | .unresolved_guards == ["cpu"] and
		([.cells[] | select(.metric == "instructions")][0].verdict == "PASS") and
		([.cells[] | select(.verdict == "FAIL")] | length == 0)' \
		"$st/artifacts/103/perfab/ledger.json" >/dev/null ||
		fail "an unchanged head INCONCLUSIVE other than by its unresolved cpu guard: $(jq -c '.rows[0] | [.unresolved_guards, [.cells[] | [.metric, .verdict]]]' "$st/artifacts/103/perfab/ledger.json")"
	[ "$rc" = 1 ] || fail "INCONCLUSIVE with inconclusive: fail, yet the job exited $rc" ;;
*) fail "an unchanged head got '$v', not PASS (its counts are exact)" ;;
esac
# The job's log shows the counting pass: in the plan, and a line per pass.
grep -q 'plan: and a counting pass under valgrind' err ||
	fail "the job's log does not name the counting pass in the plan"
grep -q 'counting under valgrind, about' err ||
	fail "the job's log has no progress line while counting"
[ "$(record 's["prepare"]["outputs"]["base-sha"]')" = "$A" ] || fail "base of the unchanged head is not the merge-base"
[ "$(record 's["cache"]["outputs"]["cache-hit"]')" = true ] || fail "the second pull request did not restore main's cache"
[ "$(record '[c["op"] + " " + c.get("scope", "") for c in r["cache"]]')" = '["restore refs/heads/main", "restore refs/heads/main"]' ] ||
	fail "the second pull request did not restore main's build and counts (or saved): $(record 'r["cache"]')"
# Its base is the build main's push counted: taken from the cache, not
# counted again (the artifact says which counts were cached).
jq -e '[.rows[].reps[] | (.count_origin // {}) | to_entries[] | select(.value == "cached")] | length > 0' \
	"$st/artifacts/103/perfab/perfab.json" >/dev/null ||
	fail "no count came from main's count cache: $(jq -c '[.rows[].reps[0].count_origin]' "$st/artifacts/103/perfab/perfab.json")"
[ "$(record 's["install"]["outputs"]["built"]')" = false ] || fail "perfab was installed again on a cache hit"
cat out err | grep -q 'perfab from the cache' || fail "the install step did not take perfab from the cache"
grep -q '"PATCH", "repos/owner/hashbench/issues/comments/4242"' "$st/gh.jsonl" || fail "the comment was not updated in place"
if grep -q '"POST"\|comments/55[56]' "$st/gh.jsonl"; then fail "a second comment, or Mallory's edited: $(cat "$st/gh.jsonl")"; fi
jq -e '[.comments[] | select(.user.login == "mallory") | .body] == ["<!-- perfab-ledger -->\nx", "<!-- perfab-ledger -->\ny"]' \
	"$st/gh-state.json" >/dev/null || fail "Mallory's comments changed"

# --- 4. the comment's size limit: a ledger far over 65,536 characters.
python3 "$top_srcdir/ci/gen-artifact.py" big.json --rows 700 --reps 6 --shift 0.05
# Its 700 rows shifted 5% in every rep: the recorded artifact FAILs.
expect_rc 1 "$PERFAB" ledger --format markdown big.json
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
grep -q '^\[The workflow run\](https://github.com/o/p/actions/runs/9)' body.md || fail "no link to the run page"
# ... and a small ledger goes in whole.
cp "$art/ledger.md" small.md
"$top_srcdir/ci/action.sh" comment-body small.md sbody.md
tail -n +2 sbody.md | head -n "$(wc -l <small.md)" | cmp -s - small.md || fail "a small ledger was changed in the comment"

# --- 5. the sharded example: two shards on two CPU models, one gate.
gh_state '{}'
emulate 1 "$SH" pull_request ev-slow.json "$SLOW" 104 \
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
# Each job restored perfab: the pull request's own scope from run 1.
assert [c["op"] for c in r["cache"]] == ["restore"] * 3, r["cache"]
PY
for i in 1 2; do
	[ -s "$st/artifacts/104/perfab-shard-$i/perfab-shard-$i.json" ] || fail "shard $i uploaded no artifact"
done
pooled=$st/artifacts/104/perfab-pooled/perfab.json
jq -e '.run.pool.mode == "shards" and .host.cpu_model == "Emulated CPU Alpha" and
       ([.rows[].name] == ["small-table", "large-table"]) and
       .rows[1].host.cpu_model == "Emulated CPU Beta"' "$pooled" >/dev/null ||
	fail "pooled shards: $(jq -c '[.run.pool.mode, [.rows[] | [.name, .host.cpu_model]]]' "$pooled")"
grep -q 'Emulated CPU Beta' "$st/artifacts/104/perfab-pooled/ledger.md" || fail "the pooled ledger does not show the CPU models"
[ "$(grep -c "\"POST\"" "$st/gh.jsonl")" = 1 ] || fail "not exactly one comment: a measure job commented, or the gate did not"
# "Re-run failed jobs": the gate job again in the same run uploads again.
emulate 1 "$SH" pull_request ev-slow.json "$SLOW" 104 --job gate
[ "$(record 'j["job"] + " " + s["perfab"]["outputs"]["verdict"]')" = "gate FAIL" ] ||
	fail "the re-run gate job: $(record 'j["result"]')"

# --- 6. a cancelled run (a newer push) starts no gate job; with the
# always() the example had, it would have, and failed the check.
emulate 0 "$SH" pull_request ev-slow.json "$SLOW" 105 --cancel-at measure
[ "$(record '[(x["job"], x["result"]) for x in r["jobs"]]')" = '[["measure", "skipped"], ["measure", "skipped"], ["gate", "skipped"]]' ] ||
	fail "a cancelled run: $(record '[(x["job"], x["result"]) for x in r["jobs"]]')"
sed 's/if: .{{ !cancelled() }}/if: always()/' "$SH" >sh-always.yml
grep -q 'if: always()' sh-always.yml || fail "cannot make the always() variant"
emulate 1 sh-always.yml pull_request ev-slow.json "$SLOW" 106 --cancel-at measure
[ "$(record '[x["result"] for x in r["jobs"] if x["job"] == "gate"]')" = '["failure"]' ] ||
	fail "the emulator does not start an always() job of a cancelled run"

# --- 7. a merge queue: merge_group runs the gate against the group's base.
cat >ev-mg.json <<JSON
{"action": "checks_requested",
 "merge_group": {"head_sha": "$SLOW", "head_ref": "refs/heads/gh-readonly-queue/main/pr-7-$SLOW",
                 "base_sha": "$A", "base_ref": "refs/heads/main"},
 "repository": {"full_name": "owner/hashbench", "default_branch": "main"}}
JSON
gh_state '{}'
emulate 1 "$HB" merge_group ev-mg.json "$SLOW" 107
[ "$(record 's["perfab"]["outputs"]["verdict"]')" = FAIL ] || fail "merge group: $(record 's["perfab"]["outputs"]')"
[ "$(record 's["prepare"]["outputs"]["base-sha"]')" = "$A" ] || fail "the merge group's base is not its base_sha"
[ "$(record 'r["cache"][0]["op"] + " " + r["cache"][0]["scope"]')" = "restore refs/heads/main" ] ||
	fail "the merge group did not restore its base branch's cache: $(record 'r["cache"]')"
[ ! -s "$st/gh.jsonl" ] || fail "a merge group commented"

# --- 8. a label starts no run of the examples (so it can cancel none).
event 7 "$SLOW" labeled >ev-label.json
for wf in "$HB" "$SH"; do
	emulate 0 "$wf" pull_request ev-label.json "$SLOW" 108
	[ "$(record 'r["triggered"]')" = false ] || fail "$wf runs on a label"
done
exit 0
