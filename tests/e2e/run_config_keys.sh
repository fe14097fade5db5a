#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run_config_keys.sh — a config's typos: every unknown key of the top
# level, of the arms and of the rows is named in one message (one line,
# exit 2, nothing run, no artifact), each with the known key it likely
# means ("did you mean", the same nearest-name rule as for options).
. "${top_srcdir}/tests/lib/test-lib.sh"

# has TEXT: the last command's stderr holds TEXT, as is.
has() {
	grep -qF -- "$1" "$T/err" || { cat "$T/err" >&2; fail "stderr lacks '$1'"; }
}

cat >typo.json <<'CFG'
{ "repz": 3, "nul_arm": true, "zzzzzz": 1,
  "arms": [ { "name": "base", "argv": ["/bin/true"] },
            { "nmae": "head", "argv": ["/bin/true"] } ],
  "rows": [ { "name": "one", "contrl": true } ] }
CFG
expect_rc 2 "$PERFAB" run -q --config typo.json --out typo-art.json
[ "$(grep -c . "$T/err")" = 1 ] || { cat "$T/err" >&2; fail "config typos: not one message"; }
has "perfab: error: config 'typo.json': the top level: unknown keys 'repz' (did you mean 'reps'?), 'nul_arm' (did you mean 'null_arm'?), 'zzzzzz'; arms[1]: unknown key 'nmae' (did you mean 'name'?); rows[0]: unknown key 'contrl' (did you mean 'control'?)"
[ ! -e typo-art.json ] || fail "a config with typos wrote an artifact"
pass "every unknown key named once, with its likely spelling"

# One typo in an arm alone: the same message for it.
cat >arm.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["/bin/true"], "revison": "r1" } ] }
CFG
expect_rc 2 "$PERFAB" run -q --config arm.json
has "config 'arm.json': arms[0]: unknown key 'revison' (did you mean 'revision'?)"
pass "an arm's typo"

# Known keys of a wrong type are still reported as before (the keys first).
echo '{ "reps": "three" }' >type.json
expect_rc 2 "$PERFAB" run -q --config type.json
has "'reps' must be"
exit 0
