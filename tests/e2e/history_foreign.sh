#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# history_foreign.sh — perfab keeps its history only in a SQLite file of
# its own (store/history_file.h, "Perfab's own"): another program's
# database — tables perfab does not make, or another application id — is
# refused by `history record` (exit 7) and by the readers (exit 2), left
# byte for byte as it was (no perfab tables, no WAL), with a message
# naming what it holds. An empty file, or a path with nothing there, is
# a new history; a database perfab wrote carries perfab's application id.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
sql() { # DB SQL...: run SQL on DB with Python's sqlite3
	db=$1
	shift
	python3 - "$db" "$@" <<'PY' || hard_error "cannot run SQL on $db"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for s in sys.argv[2:]:
    for row in c.execute(s):
        print(*row)
c.commit()
PY
}

# refused DB WHAT: record and show refuse DB, saying WHAT, and leave it.
refused() {
	sum=$(sha256sum <"$1")
	expect_rc 7 "$PERFAB" history record --db "$1" "$D/p2-pass.json"
	grep_err "$2"
	expect_rc 2 "$PERFAB" history show --db "$1"
	grep_err "$2"
	[ "$(sha256sum <"$1")" = "$sum" ] || fail "$1 was changed"
	[ ! -e "$1-wal" ] || fail "$1 got a write-ahead log"
	[ "$(sql "$1" "pragma journal_mode")" = delete ] || fail "$1 was switched to WAL"
}

sql notes.db "create table notes (id integer primary key, text text)" \
	"insert into notes (text) values ('mine')"
refused notes.db "history database 'notes.db' is not perfab's: it holds 'notes', which perfab does not make, and no perfab mark"
[ "$(sql notes.db "select group_concat(name) from sqlite_master")" = notes ] ||
	fail "perfab's tables were added to notes.db"
pass "another program's tables: refused, left as they were"

# Another application's id, even with no table.
sql app.db "pragma application_id = 1234" "pragma user_version = 5"
refused app.db "history database 'app.db' is another program's SQLite database (application id 0x000004d2), not perfab's"
pass "another application id: refused"

# perfab's tables of schema 2 plus one of another program's.
expect_rc 0 "$PERFAB" history record --db ours.db "$D/p2-pass.json"
[ "$(sql ours.db "pragma application_id")" = $((0x50464142)) ] ||
	fail "perfab's database lacks its application id: $(sql ours.db "pragma application_id")"
sql old.db "create table merges (id integer primary key, artifact_sha256 text not null unique,
	commit_sha text, base_sha text, branch text, recorded_at integer not null,
	perfab_version text, rules text, stop_reason text)" \
	"create table cells (merge_id integer, row text, arm text, metric text, base_median real,
	head_median real, change_pct real, lo_pct real, hi_pct real, tolerance_pct real,
	verdict text, n integer)" \
	"create table extra (x)" "pragma user_version = 1"
refused old.db "history database 'old.db' is not perfab's: it holds 'extra', which perfab does not make"
pass "perfab's old tables with another's beside them: refused"

# An empty file is a new history.
: >empty.db
expect_rc 0 "$PERFAB" history record --db empty.db "$D/p2-pass.json"
grep_out "recorded merge #1"
pass "an empty file is a new history"
exit 0
