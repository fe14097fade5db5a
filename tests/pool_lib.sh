# SPDX-License-Identifier: GPL-3.0-or-later
# tests/pool_lib.sh — helpers for the pool_*.sh tests, sourced after
# lib.sh. Artifacts come from real runs of the calibration workload, kept
# tiny (one rotation block of three arms) so each refusal case can be its
# own test; refusal cases are jq edits of a real artifact.

SPIN="$WL/perfab-spin work=1000 drain_ms=10 release_bound_ms=20"

# fast_run OUT [ARGS...]: a complete, balanced artifact in one block.
fast_run() {
	out=$1
	shift
	expect_verdict "$PERFAB" run -q --null-arm --reps 3 --max-reps 3 --no-sanity-gate \
		--arm "base=$SPIN" --arm "head=$SPIN" "$@" --out "$out"
	[ -s "$out" ] || fail "no artifact '$out'"
}

# expect_refused PATTERN FILE...: pool, ledger and gate of FILE... all
# refuse with exit 4 and a reason matching PATTERN, and pool writes nothing.
expect_refused() {
	pattern=$1
	shift
	rm -f pooled.json
	expect_rc 4 "$PERFAB" pool "$@" -o pooled.json
	grep_err "refused to pool"
	grep_err "$pattern"
	[ ! -e pooled.json ] || fail "a refused pool wrote pooled.json"
	expect_rc 4 "$PERFAB" ledger "$@"
	grep_err "$pattern"
	[ ! -s "$T/out" ] || fail "a refused ledger printed a verdict"
	expect_rc 4 "$PERFAB" gate "$@"
	grep_err "$pattern"
}

# expect_pools FILE...: the same files pool (exit 0): the edit under test
# really is the only difference.
expect_pools() {
	rm -f pooled.json
	expect_rc 0 "$PERFAB" pool "$@" -o pooled.json
}
