#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --resume refuses what it cannot stand behind: a complete artifact, a
# changed executable (digest), extra options, a missing file, an artifact
# stopped by the sanity gate.
. "${top_srcdir}/tests/lib/test-lib.sh"

cp /bin/true ./mytrue
expect_verdict "a complete A/A artifact to cut (any verdict)" "$PERFAB" run -q --arm base=./mytrue --arm head=./mytrue --reps 6 --max-reps 6 --out done.json
expect_rc 2 "$PERFAB" run --resume done.json
grep_err "already complete"
jq '.complete = false | .rows[0].reps |= .[0:4]' done.json >part.json
expect_rc 2 "$PERFAB" run --resume part.json --reps 9
grep_err "its own settings"
# Neither the arms again nor --trust-artifact: refused, the plan shown.
expect_rc 2 "$PERFAB" run --resume part.json
grep_err "trust-artifact"
grep_err "arm head: './mytrue'"
expect_verdict "the resumed run completes" "$PERFAB" run -q --resume part.json --arm base=./mytrue --arm head=./mytrue
resumed_rc=$rc
[ "$(jq '.rows[0].reps | length' part.json)" = 6 ] || fail "resume did not finish the reps"
jq -e '.complete' part.json >/dev/null || fail "resume did not complete"
# The balance survives: orders continue the rotation.
expect_rc "$resumed_rc" "$PERFAB" ledger part.json
jq '.complete = false | .rows[0].reps |= .[0:4]' done.json >changed.json
printf '\n' >>mytrue
expect_rc 4 "$PERFAB" run --resume changed.json --trust-artifact
grep_err "changed since the run started"
expect_rc 2 "$PERFAB" run --resume /no/such.json
grep_err "cannot resume"
jq '.complete = false | .stopped_by = "sanity-gate"' done.json >gate.json
expect_rc 2 "$PERFAB" run --resume gate.json
grep_err "sanity gate"
exit 0
