#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Two writers of one history database both land: while one record holds
# the write transaction (PERFAB_TEST_HISTORY_HOLD keeps it open until a file
# is removed), a second waits on the busy timeout instead of failing, and
# both merges are there afterwards; two records racing on a new file both
# create-or-find the schema and land too, and one that finds a new file's
# write lock held waits for it.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
count() {
	python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("select count(*) from merges").fetchone()[0], c.execute("select count(*) from cells").fetchone()[0], c.execute("pragma integrity_check").fetchone()[0])' "$1"
}

# The held writer, then the second while the first holds the lock.
PERFAB_TEST_HISTORY_HOLD=$T/hold "$PERFAB" history record --db h.db "$D/p2-pass.json" \
	--commit c1 >a.out 2>a.err &
a=$!
i=0
while [ ! -e "$T/hold" ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "the first writer never took the lock: $(cat a.err)"
	sleep 0.1
done
PERFAB_TEST_HISTORY_BUSY=$T/busy "$PERFAB" history record --db h.db "$D/tolerance-margin.json" \
	--commit c2 >b.out 2>b.err &
b=$!
# The second waits for the lock (its busy handler marks the first wait):
# it cannot have committed while the first holds it, and must not give up.
i=0
while [ ! -e "$T/busy" ]; do
	i=$((i + 1))
	kill -0 $b 2>/dev/null || fail "the second writer ended without waiting: $(cat b.out b.err)"
	[ $i -lt 600 ] || fail "the second writer never waited for the lock: $(cat b.err)"
	sleep 0.1
done
kill -0 $b 2>/dev/null || fail "the second writer gave up waiting: $(cat b.out b.err)"
rm "$T/hold"
wait $a || fail "the first writer failed: $(cat a.err)"
wait $b || fail "the second writer failed: $(cat b.err)"
grep -q "recorded merge #1" a.out || fail "first: $(cat a.out)"
grep -q "recorded merge #2" b.out || fail "second: $(cat b.out)"
[ "$(count h.db)" = "2 8 ok" ] || fail "after two writers: $(count h.db)"

# Four racing on a file that does not exist yet.
for f in p2-pass p2-inconclusive-spin tolerance-margin p1-nonull; do
	"$PERFAB" history record --db new.db "$D/$f.json" --commit "$f" >"$f.out" 2>"$f.err" &
done
ok=0
for j in $(jobs -p); do wait "$j" && ok=$((ok + 1)); done
[ "$ok" = 4 ] || fail "only $ok of 4 racing writers succeeded: $(cat ./*.err)"
[ "$(count new.db)" = "4 17 ok" ] || fail "after four racing writers: $(count new.db)"

# The race that lost one of four writers on a loaded machine, made certain:
# another connection holds the write lock of a new, still empty file (a
# rollback-journal transaction, as a writer switching it to WAL holds) when
# a writer switches it to WAL. SQLite gives that switch no busy handler,
# so it must wait itself, and land once the lock is let go.
: >held.db
python3 - "$T/held.db" "$T/locked" "$T/release" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
c.execute("COMMIT")
PY
holder=$!
i=0
while [ ! -e "$T/locked" ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "the holder never took the lock"
	sleep 0.1
done
PERFAB_TEST_HISTORY_BUSY=$T/busy2 "$PERFAB" history record --db held.db "$D/p2-pass.json" \
	--commit w >w.out 2>w.err &
w=$!
i=0
while [ ! -e "$T/busy2" ]; do
	i=$((i + 1))
	kill -0 $w 2>/dev/null || fail "a writer did not wait for a lock held on a new file: $(cat w.out w.err)"
	[ $i -lt 600 ] || fail "the writer never waited for the held lock: $(cat w.err)"
	sleep 0.1
done
: >"$T/release"
wait $holder || fail "the holder failed"
wait $w || fail "the writer failed once the lock was let go: $(cat w.err)"
[ "$(count held.db)" = "1 4 ok" ] || fail "after the held switch: $(count held.db)"
exit 0
