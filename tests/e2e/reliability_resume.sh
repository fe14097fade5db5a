#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --resume refuses what it cannot stand behind: a complete artifact, a
# changed executable (digest), extra options, a missing file, an artifact
# stopped by the sanity gate.
. "${top_srcdir}/tests/lib/test-lib.sh"

cp /bin/true ./mytrue
# A complete artifact to cut: two blocks of base and head, the second in
# reversed order; 4 reps are fewer than 6 pairs, INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --no-null-arm --arm base=./mytrue --arm head=./mytrue --reps 4 --max-reps 4 --out done.json
expect_rc 2 "$PERFAB" run --resume done.json
grep_err "already complete"
# Cut inside the reversed block: the resume must continue its order.
jq '.complete = false | .rows[0].reps |= .[0:3]' done.json >part.json
expect_rc 2 "$PERFAB" run --resume part.json --reps 9
grep_err "its own settings"
# Neither the arms again nor --trust-artifact: refused, the plan shown.
expect_rc 2 "$PERFAB" run --resume part.json
grep_err "trust-artifact"
grep_err "arm head: './mytrue'"
# The resumed run keeps the artifact's 4 reps: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --resume part.json --no-null-arm --arm base=./mytrue --arm head=./mytrue
[ "$(jq '.rows[0].reps | length' part.json)" = 4 ] || fail "resume did not finish the reps"
jq -e '.complete' part.json >/dev/null || fail "resume did not complete"
# The balance survives: orders continue the rotation (an order out of it
# is refused, exit 4), and the ledger repeats the run's INCONCLUSIVE.
expect_rc 3 "$PERFAB" ledger part.json
jq '.complete = false | .rows[0].reps |= .[0:3]' done.json >changed.json
printf '\n' >>mytrue
expect_rc 4 "$PERFAB" run --resume changed.json --trust-artifact
grep_err "changed since the run started"
expect_rc 2 "$PERFAB" run --resume /no/such.json
grep_err "cannot resume"
jq '.complete = false | .stopped_by = "sanity-gate"' done.json >gate.json
expect_rc 2 "$PERFAB" run --resume gate.json
grep_err "sanity gate"
exit 0
