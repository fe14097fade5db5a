#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab's GitHub Action (action.yml) and the example workflows under
# examples/: no run: script interpolates ${{ }} (inputs reach the shell
# only through env:), every run: block is valid bash, and they have the
# shape doc/ci.md promises: a composite action whose run steps name their
# shell and call ci/action.sh, the inputs and outputs it documents, uploads
# with overwrite (so "Re-run failed jobs" does not conflict), least
# privilege, no trigger on labels, a concurrency group per pull request.
# Validated with action-validator (npm @action-validator/cli, installed by
# ci/setup-test.sh) when it is on PATH. The checker is itself checked
# against workflows it must reject. tests/e2e/action_emulated.sh runs them.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

action=${top_srcdir}/action.yml
examples="${top_srcdir}/examples/hashbench/perfab.yml ${top_srcdir}/examples/sharded.yml ${top_srcdir}/examples/perfab-self.yml"
check=${top_srcdir}/tests/static/check_workflow.py
[ ! -e "${top_srcdir}/ci/workflows/perfab.yml" ] || fail "the old example ci/workflows/perfab.yml is back"
for f in "$action" $examples; do
	[ -f "$f" ] || fail "no $f"
	expect_rc 0 python3 "$check" "$f" --syntax
	grep_err "run: blocks checked"
done

# The linter, when installed.
if command -v action-validator >/dev/null 2>&1; then
	for f in "$action" $examples; do
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

for f in sys.argv[1:]:
    doc = yaml.safe_load(open(f))
    for name, job, st in steps(doc):
        uses = st.get("uses", "")
        if uses.startswith("actions/upload-artifact"):
            assert str(st["with"].get("overwrite")).lower() == "true", "%s: upload without overwrite" % f
        if uses and not uses.startswith("./"):
            assert "@v" in uses, "%s: %s is not pinned to a release" % (f, uses)
    if f == sys.argv[1]:
        continue
    on = doc.get("on", doc.get(True))
    types = on["pull_request"]["types"]
    assert "labeled" not in types, "%s: a label would cancel or skip the measurement" % f
    assert doc["permissions"] == {}, "%s: the workflow's default permissions are not empty" % f
    conc = doc["concurrency"]
    assert "github.event.pull_request.number" in conc["group"], "%s: concurrency not per pull request" % f
    for name, job in doc["jobs"].items():
        perms = job.get("permissions")
        assert perms is not None, "%s: job %s takes the default permissions" % (f, name)
        assert set(perms.values()) <= {"read", "write"} and perms.get("contents") == "read"
        comments = any(st.get("uses") == "./" and st.get("with", {}).get("comment") != "false"
                       for st in job["steps"])
        assert (perms.get("pull-requests") == "write") == comments, \
            "%s: job %s: pull-requests: write without commenting, or the reverse" % (f, name)
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
