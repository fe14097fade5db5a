#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The checkpoint journal (doc/artifact-schema.md, section 1): a torn last
# record is dropped and the run resumes; a damaged, foreign or
# non-continuing journal is refused with the reason by every reader; a
# normal end leaves the artifact alone; and a checkpoint costs as many
# bytes per rep at rep 1000 as at rep 10 (bytes counted through the
# PERFAB_TEST_IO_LOG hook, never time).
. "${top_srcdir}/tests/lib/test-lib.sh"

arms="--arm base=/bin/true --arm head=/bin/true --no-null-arm"
# shellcheck disable=SC2086 # $arms is words
run() { "$PERFAB" run -q $arms --no-cgroup --max-reps "$1" --reps "$@"; }
# --resume FILE with the run's own arms (it checks the artifact against them).
# The interrupted runs below have 4 reps (two blocks) and keep them when
# resumed: fewer than 6 pairs, INCONCLUSIVE.
# shellcheck disable=SC2086
resume() { "$PERFAB" run --resume "$1" $arms; }

# nth_point NAME K: the number of the K-th crash point called NAME.
PERFAB_TEST_CRASH_AT=list run 4 --seed 3 --out list.json >/dev/null 2>"$T/list.err"
[ "$(jq -r .complete list.json)" = true ] || fail "the listing run failed"
nth_point() {
	grep ": $1 (listed)$" "$T/list.err" | sed -n "${2}s/^perfab: crash point \([0-9]*\):.*/\1/p"
}

# --- 1. A crash in the middle of a record: dropped, the run resumes.
at=$(nth_point "journal: record half written" 4)
[ -n "$at" ] || fail "no 4th journal append in the listing"
PERFAB_TEST_CRASH_AT=$at run 4 --seed 3 --out torn.json >/dev/null 2>&1
[ -s torn.json.journal ] || fail "no journal beside the interrupted artifact"
# Readers accept it: incomplete (4), not an unreadable input (2).
expect_rc 4 "$PERFAB" ledger torn.json
grep_err "incomplete"
expect_rc 3 resume torn.json
grep_err "dropped its torn last record"
[ "$(jq '.rows[0].reps | length' torn.json)" = 4 ] || fail "resume after a torn record: not 4 reps"
[ "$(jq -r .complete torn.json)" = true ] || fail "resume after a torn record: not complete"
[ ! -e torn.json.journal ] || fail "the journal survived the end of the run"

# --- 2. The same by hand: a record cut short, or a tail of zeros (blocks
# the kernel allocated but never filled), is a torn tail.
at=$(nth_point "journal: record synced" 4)
PERFAB_TEST_CRASH_AT=$at run 4 --seed 3 --out j.json >/dev/null 2>&1
cp j.json.journal good.journal
size=$(wc -c <good.journal)
[ "$(jq '.rows[0].reps | length' j.json)" -lt 3 ] || fail "the artifact already holds 3 reps: nothing to read from the journal"
head -c $((size - 50)) good.journal >j.json.journal
expect_rc 4 "$PERFAB" ledger j.json
{ cat good.journal; head -c 3000 /dev/zero; } >j.json.journal
expect_rc 4 "$PERFAB" ledger j.json
cp j.json zeros.json
cp j.json.journal zeros.json.journal
expect_rc 3 resume zeros.json
grep_err "dropped its torn last record (3000 bytes"
# Rep 3 existed only in the journal: resume kept it, it did not rerun it.
want=$(awk '/^@/ { n++; next } n == 4' good.journal | jq .data.results.base.wall)
[ -n "$want" ] && [ "$(jq '.rows[0].reps[2].results.base.wall' zeros.json)" = "$want" ] ||
	fail "rep 3, held only by the journal, was not kept ($want)"
jq '.complete = true' j.json >whole.json

# --- 3. Damage before the end is no crash: refused, with the reason.
sed '0,/"wall":0/s//"wall":9/' good.journal >j.json.journal
cmp -s good.journal j.json.journal && fail "the damage did not change the journal"
expect_rc 2 "$PERFAB" ledger j.json
grep_err "is bad, yet another record starts"
expect_rc 2 resume j.json
grep_err "cannot trust the checkpoint journal"
expect_rc 2 "$PERFAB" gate j.json
grep_err "damaged"

# --- 4. A journal of another run: refused by id and seed.
PERFAB_TEST_CRASH_AT=$at run 4 --seed 4 --out other.json >/dev/null 2>&1
cp other.json.journal j.json.journal
expect_rc 2 "$PERFAB" ledger j.json
grep_err "belongs to another run"
expect_rc 2 resume j.json
grep_err "belongs to another run"
# An artifact that names no journal, with one beside it.
jq '.journal = null' j.json >nj.json
cp good.journal nj.json.journal
expect_rc 2 "$PERFAB" ledger nj.json
grep_err "names no journal"
# Reps recorded after the artifact says it is complete.
cp good.journal whole.json.journal
expect_rc 2 "$PERFAB" ledger whole.json
grep_err "after 'whole.json' was complete"

# --- 5. The good journal resumes into a complete, balanced run.
cp good.journal j.json.journal
expect_rc 3 resume j.json
[ "$(jq '.rows[0].reps | length' j.json)" = 4 ] || fail "resume from the journal: not 4 reps"
[ ! -e j.json.journal ] || fail "the journal survived the resumed run's end"

# --- 6. A new run over an old run's files: the old journal goes before
# the new artifact is written, so a crash right after it resumes.
cp other.json.journal fresh.json.journal
at=$(nth_point "checkpoint: renamed, directory not synced" 1)
PERFAB_TEST_CRASH_AT=$at run 4 --seed 3 --out fresh.json >/dev/null 2>&1
expect_rc 3 resume fresh.json
[ "$(jq '.rows[0].reps | length' fresh.json)" = 4 ] || fail "the new run did not resume"

# --- 7. Bytes per rep: O(1), the same at rep 1000 as at rep 10.
PERFAB_TEST_IO_LOG=$T/io.log run 1000 --out big.json >/dev/null 2>&1
[ "$(jq -r .complete big.json)" = true ] || fail "the 1000-rep run failed"
[ ! -e big.json.journal ] || fail "the journal survived a normal end"
[ "$(jq '.rows[0].reps | length' big.json)" = 1000 ] || fail "not 1000 reps"
# io.log: "journal B" per record (the first is the header), "artifact B"
# per fold. cost(k) = bytes written up to and including rep k's checkpoint.
awk '
	$1 == "journal" && !hdr { hdr = 1; total += $2; next }
	$1 == "journal" { rep++; total += $2; rec[rep] = $2; cum[rep] = total; next }
	$1 == "artifact" { total += $2; if (rep) cum[rep] = total }
	END {
		if (rep != 1000) { print "records: " rep; exit 1 }
		printf "record bytes: rep 10 %d, rep 1000 %d; bytes per rep so far: at rep 10 %.0f, at rep 1000 %.0f (all folds included)\n",
			rec[10], rec[1000], cum[10] / 10, total / 1000
		# One rep costs the same record at rep 1000 as at rep 10...
		if (rec[1000] > rec[10] * 1.05 || rec[1000] < rec[10] * 0.95) exit 2
		# ...and all writes together, folds included, stay O(1) per rep.
		if (total / 1000 > 2 * cum[10] / 10) exit 3
		if (total / 1000 > 5 * rec[10]) exit 4
	}' "$T/io.log" || fail "checkpoint bytes grow with the rep count (awk exit $?)"
exit 0
