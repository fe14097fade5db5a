#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# kill -9 in the middle of a `perfab history record` (the crash point
# between its cells, PERFAB_TEST_CRASH_AT) leaves a consistent database:
# PRAGMA integrity_check says ok, the merge being recorded is not there at
# all (no merge row, no cells), what was recorded before is intact, and
# recording the artifact again then works.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
db=h.db
rec() { "$PERFAB" history record --db "$db" "$@"; }
state() { # merges, cells, integrity
	python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("select count(*) from merges").fetchone()[0],
      c.execute("select count(*) from cells").fetchone()[0],
      c.execute("pragma integrity_check").fetchone()[0])
PY
}

expect_rc 0 rec "$D/p2-pass.json" --commit c1
[ "$(state)" = "1 4 ok" ] || fail "after one record: $(state)"
# Where the crash point is among the points the record passes.
PERFAB_TEST_CRASH_AT=list rec "$D/p2-inconclusive-spin.json" --commit c2 >/dev/null 2>list.err ||
	fail "the listing record failed: $(cat list.err)"
at=$(sed -n 's/^perfab: crash point \([0-9]*\): history record: cells half written (listed)$/\1/p' list.err)
[ -n "$at" ] || fail "no crash point in the record: $(cat list.err)"
expect_rc 0 python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("delete from merges where commit_sha = ?", ("c2",)); c.execute("delete from cells where merge_id = 2"); c.execute("delete from runs where merge_id = 2"); c.commit()' "$db"
[ "$(state)" = "1 4 ok" ] || fail "after removing the listed record: $(state)"

# Killed with half its cells written, inside the transaction.
PERFAB_TEST_CRASH_AT=$at rec "$D/p2-inconclusive-spin.json" --commit c2 >out 2>err
rc=$?
[ "$rc" = 137 ] || fail "the record was not killed (exit $rc): $(cat err)"
grep -q "crash point $at: history record: cells half written" err || fail "killed elsewhere: $(cat err)"
[ "$(state)" = "1 4 ok" ] || fail "after a kill -9 mid-record: $(state)"
expect_rc 0 "$PERFAB" history show --db "$db" --format json
jq -e '.merges == 1' "$T/out" >/dev/null || fail "show after the kill: $(cat "$T/out")"
# The same artifact records whole afterwards.
expect_rc 0 rec "$D/p2-inconclusive-spin.json" --commit c2
grep_out "recorded merge #[0-9]*: 5 cells"
[ "$(state)" = "2 9 ok" ] || fail "after recording again: $(state)"
exit 0
