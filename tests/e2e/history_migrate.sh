#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A history database of schema 1 (made here with Python's sqlite3, as the
# first release wrote it) is read as it is by the readers (drift, show:
# read-only, nothing migrated, the file unchanged) and migrates to schema
# 3 on the next record: its merges and cells kept, the new columns, the
# labels and runs tables added, user_version 3 and perfab's application
# id, and drift chains the old cells (read at the nominal 95%) with the
# new. A database of a newer schema than perfab knows is refused.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
python3 - old.db <<'PY' || hard_error "cannot make the schema-1 database"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
CREATE TABLE merges (id INTEGER PRIMARY KEY, artifact_sha256 TEXT NOT NULL UNIQUE,
 commit_sha TEXT, base_sha TEXT, branch TEXT, recorded_at INTEGER NOT NULL,
 perfab_version TEXT, rules TEXT, stop_reason TEXT);
CREATE TABLE cells (merge_id INTEGER NOT NULL REFERENCES merges(id) ON DELETE CASCADE,
 row TEXT NOT NULL, arm TEXT NOT NULL, metric TEXT NOT NULL, base_median REAL, head_median REAL,
 change_pct REAL, lo_pct REAL, hi_pct REAL, tolerance_pct REAL, verdict TEXT NOT NULL,
 n INTEGER NOT NULL, PRIMARY KEY (merge_id, row, arm, metric)) WITHOUT ROWID;
CREATE INDEX cells_series ON cells (row, arm, metric, merge_id);
INSERT INTO merges VALUES (1, 'aa', 'old1', 'old0', 'main', 1700000000, '0.9', 'perfab/2', 'decided');
INSERT INTO cells VALUES (1, 'command', 'head', 'cpu', 1.0, 1.1, 10.0, 5.0, 15.0, 2.0, 'FAIL', 12);
PRAGMA user_version = 1;
""")
c.commit()
PY
# Read as it is: schema 1 has no coverage (the nominal 95%; the change
# +10% read as a normal interval on the log scale: exp(ln 1.10 -+ 1.959964
# * 0.0232150) - 1 = [+5.1%, +15.1%]).
sum=$(sha256sum old.db)
expect_rc 0 "$PERFAB" history drift --db old.db --metric cpu
grep_out "^cpu of 'command' \[head\] is +10.0% \[+5.1, +15.1\] over the last 1 merge"
expect_rc 0 "$PERFAB" history show --db old.db --format json
jq -e '.merges == 1' "$T/out" >/dev/null || fail "show of schema 1: $(cat "$T/out")"
[ "$(sha256sum old.db)" = "$sum" ] || fail "a reader changed the schema-1 database"
[ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("pragma user_version").fetchone()[0])' old.db)" = 1 ] ||
	fail "a reader migrated the database"

expect_rc 0 "$PERFAB" history record --db old.db "$D/p2-pass.json" --commit new1 --label k=v
grep_err "migrated 'old.db' from schema 1 to 3"
python3 - old.db <<'PY' || fail "the migrated database is not schema 3 with its old merge"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("pragma user_version").fetchone()[0] == 3
assert c.execute("pragma application_id").fetchone()[0] == 0x50464142
assert c.execute("select merge_id from runs").fetchall() == [(2,)]
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
assert c.execute("select id, commit_sha, cpu_model from merges order by id").fetchall() == \
    [(1, "old1", None), (2, "new1", "Intel(R) Xeon(R) Processor")]
assert c.execute("select change_pct, coverage from cells where merge_id = 1").fetchall() == [(10.0, None)]
assert c.execute("select key, value from labels").fetchall() == [("k", "v")]
PY
# The old cell chains at 95%: ln 1.10 + ln(1 - 0.0097395) = 0.0855230,
# se = sqrt(((ln 1.15 - ln 1.05) / 3.919928)^2 + 0.0150617^2) = 0.0276666,
# exp(0.0855230) - 1 = +8.93%, interval [+3.18%, +15.00%].
expect_rc 0 "$PERFAB" history drift --db old.db --metric cpu
grep_out "^cpu of 'command' \[head\] is +8.9% \[+3.2, +15.0\] over the last 2 merges"
# Opened again: nothing to migrate.
expect_rc 0 "$PERFAB" history record --db old.db "$D/tolerance-margin.json"
grep -q migrated "$T/err" && fail "migrated twice: $(cat "$T/err")"

# A newer schema is refused, the file untouched.
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = 4"); c.commit()' old.db
sum=$(sha256sum old.db)
expect_rc 2 "$PERFAB" history show --db old.db
grep_err "has schema 4, newer than this perfab's 3"
expect_rc 7 "$PERFAB" history record --db old.db "$D/p2-gain.json"
grep_err "has schema 4, newer than this perfab's 3"
[ "$(sha256sum old.db)" = "$sum" ] || fail "a newer schema was changed"

# A negative schema version (a damaged header: the fuzz smoke found one)
# is refused with its reason, never an empty one.
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = -256"); c.commit()' old.db
expect_rc 2 "$PERFAB" history show --db old.db
grep_err "has schema -256, which no perfab writes: it is damaged"
expect_rc 7 "$PERFAB" history record --db old.db "$D/p2-gain.json"
grep_err "has schema -256, which no perfab writes"
exit 0
