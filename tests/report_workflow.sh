#!/bin/sh
# The example GitHub Actions workflow (ci/workflows/perfab.yml): no run:
# script interpolates ${{ }} (inputs reach the shell only through env:),
# every run: block is valid bash, and it has the shape doc/ci.md promises:
# base and head built, a matrix of shards measured with perfab run --shard,
# artifacts uploaded, one job that pools and gates. The checker is itself
# checked against workflows it must reject.
. "${top_srcdir}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 is required" >&2; exit 99; }

wf=${top_srcdir}/ci/workflows/perfab.yml
check=${top_srcdir}/tests/check_workflow.py
[ -f "$wf" ] || fail "no workflow at $wf"
expect_rc 0 python3 "$check" "$wf" --syntax
grep_err "run: blocks checked"

has() {
	grep -q -- "$1" "$wf" || fail "the workflow lacks: $1"
}
has 'pull_request:'
has 'workflow_dispatch:'
has 'path: base'
has 'path: head'
has 'perfab run'
has '--shard "$SHARD/$SHARDS"'
has '--null-arm'
has 'perfab pool shards/perfab-shard-\*.json -o perfab-pooled.json'
has 'perfab gate'
has 'ledger --format html'
has 'ledger --format junit'
has 'ledger --format markdown'
has '<!-- perfab-ledger -->'
has 'gh api --method PATCH'
has 'actions/upload-artifact@'
has 'actions/download-artifact@'
has 'pattern: perfab-shard-\*'
# The matrix and SHARDS agree.
matrix=$(sed -n 's/^ *shard: \[\(.*\)\]$/\1/p' "$wf" | tr -d ' ')
shards=$(sed -n "s/^ *SHARDS: '\([0-9]*\)'$/\1/p" "$wf")
[ -n "$matrix" ] && [ -n "$shards" ] || fail "cannot find the shard matrix or SHARDS"
[ "$matrix" = "$(seq -s, 1 "$shards")" ] || fail "matrix [$matrix] does not match SHARDS=$shards"
# Inputs are used, and only through env: (checked above) — e.g. reps.
grep -q 'REPS: \${{ inputs.reps }}' "$wf" || fail "inputs.reps not passed through env"

# If python3 has a YAML parser, the file must parse and hold three jobs.
if python3 -c 'import yaml' 2>/dev/null; then
	python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert set(d["jobs"]) == {"build", "measure", "gate"}, d["jobs"].keys()' "$wf" ||
		fail "the workflow is not valid YAML with jobs build, measure, gate"
fi

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
for f in bad1.yml bad2.yml bad3.yml; do
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
