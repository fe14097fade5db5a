#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Disk full or read-only output while checkpointing: perfab stops with a
# clear error (exit 7), the previous checkpoint stays intact and parseable,
# and it can be resumed elsewhere. Needs root to mount a small tmpfs; skips
# (77) where mounting is not allowed.
. "${top_srcdir}/tests/lib/test-lib.sh"

mkdir mnt
mount -t tmpfs -o size=160k tmpfs mnt 2>/dev/null || skip "cannot mount a tmpfs here"
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
# With the null arm (the default): the finished run below is an A/A whose
# FAIL the null arm guards. 2001 reps: complete blocks of 3 arms.
expect_rc 7 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2001 --max-reps 2001 --out mnt/full.json
grep_err "No space left on device"
grep_err "previous checkpoint is intact"
jq -e '.complete == false and (.rows[0].reps | length) > 2' mnt/full.json >/dev/null ||
	fail "the previous checkpoint is not intact"
[ -z "$(ls mnt | grep tmp)" ] || fail "a temp file was left on the full disk"
n=$(jq '.rows[0].reps | length' mnt/full.json)
# Move it somewhere with room and finish it: nothing measured is lost.
cp mnt/full.json roomy.json
jq '.reps = 42 | .max_reps = 42' roomy.json >r2.json && mv r2.json roomy.json
expect_not_fail "an A/A run with its null arm does not FAIL" \
	"$PERFAB" run -q --resume roomy.json --arm base=/bin/true --arm head=/bin/true
[ "$(jq '.rows[0].reps | length' roomy.json)" = 42 ] || fail "resume after disk full"
[ "$(jq -c "[.rows[0].reps[0:$n][].order]" roomy.json)" = "$(jq -c '[.rows[0].reps[].order]' mnt/full.json)" ] ||
	fail "the reps measured before the disk filled were not kept"
mount -o remount,ro mnt
expect_rc 7 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --out mnt/ro.json
grep_err "Read-only file system"
grep_err "nothing was measured yet"
exit 0
