#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses an unbalanced artifact (reps that are not whole blocks, or
# arms not in every position equally often).
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.rows[0].reps |= .[0:2]' b.json >short.json
expect_refused "'short.json' is unbalanced" a.json short.json
jq '.rows[0].reps[1].order = .rows[0].reps[0].order' b.json >skew.json
expect_rc 4 "$PERFAB" pool a.json skew.json -o pooled.json
grep_err "'skew.json': row 'command' rep 2: the arm order is not the rotate-reverse/1 order"
exit 0
