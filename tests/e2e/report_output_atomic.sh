#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# report_output_atomic.sh — the files a user names for a report (run
# --export-markdown, --export-csv, --export-json; export -o; history html
# -o) are written as the artifact is (store/tempfile.h): a symbolic link
# at the path is refused, never written through (the file it points at is
# untouched); a FIFO there is refused without being waited on; a kill in
# the middle of the write (the crash points of the safe writer) leaves the
# previous file whole, never a torn one; a write that succeeds leaves no
# temp file and keeps the mode of the file it replaced.
#
# The commands end at once; `timeout 600` only turns one blocked in
# open() on a FIFO into a failure instead of a hang.
. "${top_srcdir}/tests/lib/test-lib.sh"

require timeout
D=$top_srcdir/tests/data/ledger
echo precious >victim
expect_rc 0 "$PERFAB" history record --db h.db "$D/p2-pass.json" --commit c1

# The three writers, each given OUT as its file.
write_export() { timeout 600 "$PERFAB" export "$D/p2-pass.json" -o "$1"; }
write_html() { timeout 600 "$PERFAB" history html --db h.db -o "$1"; }
write_run() {
	rm -f run.json
	timeout 600 "$PERFAB" run -q --counts off --reps 2 --max-reps 2 --no-null-arm \
		--out run.json --export-markdown "$1" /bin/true /bin/true
}

# refused WRITER WANT-RC: a symbolic link and a FIFO at the path are refused.
refused() {
	rm -f out.txt
	ln -s victim out.txt
	expect_rc "$2" "write_$1" out.txt
	grep_err "'out.txt' is a symbolic link: perfab replaces only regular files"
	[ "$(cat victim)" = precious ] || fail "$1 wrote through a symbolic link"
	[ -L out.txt ] || fail "$1 replaced the symbolic link"
	rm out.txt
	mkfifo out.txt
	expect_rc "$2" "write_$1" out.txt
	grep_err "'out.txt' is a FIFO: perfab replaces only regular files"
	[ -p out.txt ] || fail "$1 replaced the FIFO"
	rm out.txt
	pass "$1: a symbolic link or a FIFO at the path is refused"
}
refused export 7
refused html 7
# run: the artifact is written all the same, the export is what fails.
refused run 7
jq -e .complete run.json >/dev/null || fail "run lost its artifact to a refused export"

# written WRITER: a plain file is replaced, its mode kept, no temp file left.
written() {
	echo old >out.txt
	chmod 640 out.txt
	expect_rc "$2" "write_$1" out.txt
	[ "$(cat out.txt)" != old ] && [ -s out.txt ] || fail "$1 did not write out.txt"
	[ "$(stat -c %a out.txt)" = 640 ] || fail "$1 did not keep the mode 640: $(stat -c %a out.txt)"
	ls | grep -q '^out\.txt\.tmp\.' && fail "$1 left a temp file: $(ls)"
	pass "$1: a file is replaced, its mode kept, no temp file left"
}
written export 0
written html 0
written run 3

# crashed WRITER: killed at each crash point of the write, the file is the
# old one, whole.
crashed() {
	"write_$1" whole.txt >/dev/null 2>&1 || fail "$1: cannot write whole.txt"
	echo old >out.txt
	PERFAB_TEST_CRASH_AT=list "write_$1" out.txt >/dev/null 2>list.err
	n=$(grep -c "crash point [0-9]*: checkpoint: " list.err)
	grep -q "checkpoint: temp file half written" list.err ||
		fail "$1: no crash point in the middle of the write: $(cat list.err)"
	at=1
	while [ "$at" -le "$n" ]; do
		echo old >out.txt
		PERFAB_TEST_CRASH_AT=$at "write_$1" out.txt >/dev/null 2>crash.err
		grep -q "crash point $at: " crash.err || fail "$1: not killed at point $at: $(cat crash.err)"
		[ "$(cat out.txt)" = old ] || cmp -s out.txt whole.txt ||
			fail "$1: killed at point $at ($(cat crash.err)), out.txt is torn"
		at=$((at + 1))
	done
	pass "$1: killed at each of $n crash points, out.txt is the old file or the whole new one"
}
crashed export
crashed html
exit 0
