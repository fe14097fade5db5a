#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# history_readonly.sh — the readers of a history database (show, drift,
# html) open it read-only: in a directory the reader cannot write (as
# another user when the test runs as root, else a chmod 555 directory)
# they read a WAL database as the writer left it, print what a reader
# with write access prints, and leave the file byte for byte and the
# directory as they were; a record there fails, saying it cannot write.
# Every file SQLite opens for the database is opened non-blocking and
# looked at first: a FIFO at the database's path or beside it (its
# write-ahead log) is refused by readers and writers alike, never waited
# on. The commands end at once; `timeout 600` only turns one blocked in
# open() into a failure instead of a hang.
. "${top_srcdir}/tests/lib/test-lib.sh"
require timeout

D=$top_srcdir/tests/data/ledger
mkdir ro
for f in p2-pass p2-inconclusive-spin tolerance-margin; do
	expect_rc 0 "$PERFAB" history record --db ro/h.db "$D/$f.json" --commit "c-$f"
done
[ "$(ls ro)" = h.db ] || fail "the writer left more than its database: $(ls ro)"
# What a reader with write access prints.
for sub in show drift html; do
	"$PERFAB" history "$sub" --db ro/h.db >"want-$sub" || fail "history $sub failed"
done
ls ro >want-ls
sum=$(sha256sum <ro/h.db)

# as_reader CMD...: CMD as a user who cannot write ro/.
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip "root without setpriv: no user who cannot write ro/"
	chmod 755 "$T"
	as_reader() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
else
	chmod 555 ro
	as_reader() { "$@"; }
fi
as_reader sh -c ': >ro/probe' 2>/dev/null && hard_error "the reader can write ro/"
for sub in show drift html; do
	expect_rc 0 as_reader timeout 600 "$PERFAB" history "$sub" --db ro/h.db
	cmp -s "$T/out" "want-$sub" || { diff "want-$sub" "$T/out" >&2; fail "$sub reads otherwise"; }
done
[ "$(sha256sum <ro/h.db)" = "$sum" ] || fail "a reader changed the database"
ls ro | cmp -s - want-ls || fail "a reader left files in ro/: $(ls ro)"
pass "show, drift and html read a database in a directory they cannot write"
expect_rc 7 as_reader timeout 600 "$PERFAB" history record --db ro/h.db "$D/p2-gain.json"
grep_err "history database 'ro/h.db': cannot write it"
[ "$(sha256sum <ro/h.db)" = "$sum" ] || fail "a refused record changed the database"
pass "a record there says it cannot write"
[ "$(id -u)" = 0 ] || chmod 755 ro

# A FIFO at the path, or where the write-ahead log goes: refused at once.
mkfifo fifo.db
expect_rc 2 timeout 600 "$PERFAB" history show --db fifo.db
grep_err "history database 'fifo.db' is a FIFO, not a regular file"
expect_rc 7 timeout 600 "$PERFAB" history record --db fifo.db "$D/p2-pass.json"
grep_err "history database 'fifo.db' is a FIFO, not a regular file"
[ -p fifo.db ] || fail "the FIFO was replaced"
# (The reads with write access above left the log's files, empty.)
rm -f ro/h.db-wal ro/h.db-shm
mkfifo ro/h.db-wal
expect_rc 2 timeout 600 "$PERFAB" history drift --db ro/h.db
grep_err "history database 'ro/h.db': 'ro/h.db-wal' beside it is a FIFO, not a regular file"
expect_rc 7 timeout 600 "$PERFAB" history record --db ro/h.db "$D/p2-gain.json"
grep_err "'ro/h.db-wal' beside it is a FIFO"
[ -p ro/h.db-wal ] || fail "the FIFO beside the database was replaced"
[ "$(sha256sum <ro/h.db)" = "$sum" ] || fail "a FIFO beside the database let it change"
pass "a FIFO at the database or its write-ahead log is refused, never waited on"
exit 0
