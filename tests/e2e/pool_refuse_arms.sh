#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses artifacts whose arms differ: another name (the arm renamed
# everywhere it appears), another set (no null arm), another order.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.arms[1].name = "cand"
    | .rows[].reps[] |= (.order |= map(if . == "head" then "cand" else . end)
        | .results |= with_entries(if .key == "head" then .key = "cand" else . end)
        | .status |= with_entries(if .key == "head" then .key = "cand" else . end))' \
	b.json >renamed.json
expect_verdict "$PERFAB" ledger renamed.json
expect_refused "arms differ: arm 2 is 'head' in 'a.json' and 'cand'" a.json renamed.json
expect_verdict "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" --out two.json
expect_refused "arms differ: 'a.json' has 3 arms, 'two.json' has 2" a.json two.json
exit 0
