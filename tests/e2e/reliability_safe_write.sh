#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every file perfab writes goes through one safe writer: only a regular
# file is replaced (a device node, FIFO, directory or symlink at the path
# is refused with exit 7 and left as it was), the replacement keeps the
# mode of the file it replaces, a symlink planted at the temp file name is
# never written through, and --resume removes only perfab's own stale
# temp files. Run, pool -o and memgate record -o alike.
. "${top_srcdir}/tests/lib/test-lib.sh"

# One block of 3 reps (base, head, null), capped there: fewer than 6 pairs,
# INCONCLUSIVE (exit 3) whenever the file is written.
run() { "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 3 --max-reps 3 "$@"; }

expect_rc 3 run --out ok.json
expect_rc 3 run --out ok2.json

# A device node (a copy of /dev/null) stays a device node.
if mknod dev.json c 1 3 2>/dev/null; then
	expect_rc 7 run --out dev.json
	grep_err "is a device node"
	[ -c dev.json ] || fail "run replaced a device node"
	expect_rc 7 "$PERFAB" pool ok.json ok2.json -o dev.json
	[ -c dev.json ] || fail "pool -o replaced a device node"
	expect_rc 7 "$PERFAB" memgate record ok.json -o dev.json --arm head
	[ -c dev.json ] || fail "memgate record -o replaced a device node"
else
	echo "mknod not permitted: device-node case skipped"
fi

# A FIFO and a directory: refused, no hang.
mkfifo fifo.json
expect_rc 7 run --out fifo.json
grep_err "is a FIFO"
[ -p fifo.json ] || fail "run replaced a FIFO"
mkdir dir.json
expect_rc 7 run --out dir.json
grep_err "is a directory"

# A symlink at the target: refused; what it points at is untouched.
echo secret >victim
chmod 600 victim
ln -s victim link.json
expect_rc 7 run --out link.json
grep_err "is a symbolic link"
{ [ -L link.json ] && [ "$(cat victim)" = secret ]; } || fail "run wrote through a symlink"
expect_rc 7 "$PERFAB" pool ok.json ok2.json -o link.json
[ "$(cat victim)" = secret ] || fail "pool -o wrote through a symlink"

# A symlink planted at the temp file name perfab would have used
# (FILE.tmp.PID: exec keeps the shell's PID): never followed.
sh -c 'ln -s victim planted.json.tmp.$$; exec "$0" run -q --arm base=/bin/true \
	--arm head=/bin/true --reps 3 --max-reps 3 --out planted.json' "$PERFAB" >/dev/null 2>"$T/err"
[ "$(cat victim)" = secret ] || fail "a planted temp-file symlink was written through"
jq -e '.complete' planted.json >/dev/null || fail "planted.json was not written"

# The mode of the replaced file is kept.
cp ok.json mode.json
chmod 600 mode.json
expect_rc 3 run --out mode.json
[ "$(stat -c %a mode.json)" = 600 ] || fail "mode 600 became $(stat -c %a mode.json)"
chmod 640 ok2.json
expect_rc 0 "$PERFAB" pool ok.json -o ok2.json
[ "$(stat -c %a ok2.json)" = 640 ] || fail "pool -o: mode 640 became $(stat -c %a ok2.json)"

# --resume cleans only its own stale temp files: the exact name pattern,
# a regular file, a PID that no longer runs. Not the user's FILE.tmp.*.
jq '.complete = false | .rows[0].reps |= .[0:0]' ok.json >part.json
echo mine >part.json.tmp.notes
echo stale >part.json.tmp.99999999.0123456789abcdef
mkdir part.json.tmp.99999998.0123456789abcdef
# The resumed run keeps ok.json's 3 reps: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --resume part.json --arm base=/bin/true --arm head=/bin/true
[ -e part.json.tmp.notes ] || fail "--resume removed a file that is not perfab's"
[ -d part.json.tmp.99999998.0123456789abcdef ] || fail "--resume removed a directory"
[ ! -e part.json.tmp.99999999.0123456789abcdef ] || fail "--resume left its own stale temp file"
exit 0
