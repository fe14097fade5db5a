#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# memgate on bad input: exit 2 with the reason; an incomplete run is
# refused (4); usage and help.
. "${top_srcdir}/tests/lib/test-lib.sh"

make_baseline
expect_rc 2 "$PERFAB" memgate
grep_err "needs 'check' or 'record'"
expect_rc 2 "$PERFAB" memgate verify base1.json
grep_err "not 'verify'"
expect_rc 0 "$PERFAB" memgate --help
grep_out "usage: perfab memgate check"
expect_rc 0 "$PERFAB" memgate check --help
grep_out "--tolerance PCT"
expect_rc 2 "$PERFAB" memgate check base1.json
grep_err "--baseline FILE is required"
expect_rc 2 "$PERFAB" memgate check --baseline baseline.json
grep_err "no run artifact"
expect_rc 2 "$PERFAB" memgate check base1.json --baseline /no/such.json
grep_err "cannot read baseline"
echo '{"schema": "perfab-memgate/9", "scenarios": {"a": 1}}' >wrong.json
expect_rc 2 "$PERFAB" memgate check base1.json --baseline wrong.json
grep_err "must be \"perfab-memgate/1\""
echo '{"schema": "perfab-memgate/1", "scenarios": {"small": -4}}' >neg.json
expect_rc 2 "$PERFAB" memgate check base1.json --baseline neg.json
grep_err "scenarios.small must be a positive number"
expect_rc 2 "$PERFAB" memgate check base1.json --baseline baseline.json --tolerance -1
expect_rc 2 "$PERFAB" memgate check base1.json --baseline baseline.json --arm nosuch
grep_err "has no arm 'nosuch'"
expect_rc 2 "$PERFAB" memgate check /no/run.json --baseline baseline.json
grep_err "cannot read"
jq '.complete = false' base1.json >inc.json
expect_rc 4 "$PERFAB" memgate check inc.json --baseline baseline.json
grep_err "'inc.json' is incomplete"
jq '.rows[].reps[].results.head.peak_rss = null' base1.json >nopeak.json
expect_rc 2 "$PERFAB" memgate check nopeak.json --baseline baseline.json
grep_err "has no peak_rss"
expect_rc 2 "$PERFAB" memgate record base1.json
grep_err "-o FILE is required"
exit 0
