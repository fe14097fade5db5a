#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses an incomplete artifact (an interrupted run).
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.complete = false' b.json >inc.json
expect_rc 4 "$PERFAB" pool a.json inc.json -o pooled.json
grep_err "'inc.json' is incomplete"
[ ! -e pooled.json ] || fail "a refused pool wrote pooled.json"
expect_rc 4 "$PERFAB" ledger a.json inc.json
grep_err "'inc.json' is incomplete"
expect_rc 4 "$PERFAB" gate inc.json a.json
grep_err "'inc.json' is incomplete"
exit 0
