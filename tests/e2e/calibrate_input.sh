#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# calibrate_input.sh — `perfab run --calibration FILE` reads FILE as
# an untrusted input, as it reads the other files a user or another user
# can place (doc/calibration.md, "Reading the file"): a FIFO, a device
# node, a directory or a socket at the path is refused (exit 2, naming
# what is there) without being waited on, and nothing is measured.
#
# The runs end at once; `timeout 600` only turns a run blocked in open()
# on a FIFO into a failure instead of a hang.
. "${top_srcdir}/tests/lib/test-lib.sh"

require timeout python3

# refused KIND WHAT: run --calibration on what is at c.json is exit 2, says
# "is WHAT, not a regular file", and writes no artifact.
refused() {
	expect_rc 2 timeout 600 "$PERFAB" run -q --counts off --reps 2 --max-reps 2 \
		--calibration c.json --out run.json /bin/true /bin/true
	grep_err "calibration 'c.json' is $2, not a regular file"
	[ ! -e run.json ] || fail "$1: a refused calibration still wrote an artifact"
	pass "a $1 as --calibration is refused"
}

mkfifo c.json
refused FIFO "a FIFO"
rm c.json

mkdir c.json
refused directory "a directory"
rmdir c.json

python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' c.json ||
	hard_error "cannot make a socket"
refused socket "a socket"
rm c.json

# A symbolic link to a device node: the link is followed, the device is not
# opened.
ln -s /dev/zero c.json
refused device "a device node"
rm c.json
exit 0
