#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ledger_no_verdict.sh — who failed a row decides what its failure means
# (doc/method.md §9, "Failed rows"), and run, ledger and gate say it alike:
#   - the head's child fails: FAIL (exit 1), reject-failure;
#   - the base's child fails: no verdict (exit 8), "no verdict: the base
#     arm failed", disposition no-verdict — never the change's FAIL;
#   - a --prepare fails before the base arm's first run: no verdict, "the
#     environment failed", and gate agrees (it refused the artifact as
#     unbalanced before).
. "${top_srcdir}/tests/lib/test-lib.sh"
PERFAB_COUNTS=off # who failed is beside the counts; a failed row has none
export PERFAB_COUNTS

# the_same NAME RC WORDS: run's, ledger's and gate's exit code for NAME.json
# is RC, and each says WORDS.
the_same() {
	expect_rc "$2" "$PERFAB" ledger "$1.json"
	grep_out "$3"
	expect_rc "$2" "$PERFAB" gate "$1.json"
	grep_err "$3"
	"$PERFAB" ledger --format json "$1.json" >"$1.ledger.json"
}

expect_rc 1 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 /bin/true "sh -c 'exit 1'" \
	--out head.json
grep_out "a child failed"
the_same head 1 "arm 'head' rep 1 exited with status 1"
jq -e '.disposition.kind == "reject-failure" and .rows[0].no_verdict == false' \
	head.ledger.json >/dev/null || fail "a failing head is not reject-failure"
pass "a failing head is FAIL (exit 1) in run, ledger and gate"

expect_rc 8 "$PERFAB" run -q --reps 3 --max-reps 3 "sh -c 'exit 1'" /bin/true --out base.json
grep_out "no verdict: the base arm failed"
the_same base 8 "no verdict: the base arm failed"
jq -e '.disposition.kind == "no-verdict" and .rows[0].no_verdict == true and
	.rows[0].verdict == "INCONCLUSIVE" and .overall == "INCONCLUSIVE"' base.ledger.json \
	>/dev/null || fail "a failing base is not no-verdict: $(cat base.ledger.json)"
pass "a failing base is no verdict (exit 8) in run, ledger and gate, never FAIL"

# The prepare fails on its first call, before the base arm's first run.
cat >prep.sh <<EOF2
#!/bin/sh
[ -f "$T/prep.done" ] && exit 0
: >"$T/prep.done"
echo 'cannot reach the database' >&2
exit 3
EOF2
chmod +x prep.sh
expect_rc 8 "$PERFAB" run -q --reps 3 --max-reps 3 --prepare ./prep.sh /bin/true /bin/true \
	--out env.json
grep_out "no verdict: the environment failed"
the_same env 8 "no verdict: the environment failed"
grep_err "cannot reach the database"
pass "a failing prepare is no verdict (exit 8) in run, ledger and gate"
