#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run_hyperfine_clash.sh — hyperfine spellings that perfab reads in
# another sense are refused with what to do, never run silently
# otherwise (doc/perfab.1, HYPERFINE'S OPTIONS): -w N (perfab's -w is
# --workloads: -w 1 ran the rows whose names hold a 1), -n NAME (perfab's
# -n is --reps), a second --prepare (hyperfine's per-command prepare; the
# first was dropped), --output pipe (a file named pipe was written).
. "${top_srcdir}/tests/lib/test-lib.sh"
PERFAB_COUNTS=off # the spellings, not the counts, are under test
export PERFAB_COUNTS

for w in "-w 1" "-w 3" "-w8" "-w=2"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$PERFAB" run -q $w --reps 3 --max-reps 3 /bin/true /bin/true --out w.json
	grep_err "reads as hyperfine's: -w is --workloads here"
	grep_err "warmup runs are --warmup N"
	[ ! -e w.json ] || fail "'$w' ran: $(jq -c '[.rows[].name]' w.json)"
done
# perfab's own meaning stays: a selection by name, and by a number spelt long.
expect_rc 2 "$PERFAB" run -q -w no-such-row /bin/true /bin/true
grep_err "'no-such-row' selects no row"
expect_rc 2 "$PERFAB" run -q --workloads 999 /bin/true /bin/true
grep_err "'999' selects no row"
pass "-w N is refused with --warmup N; -w SEL and --workloads N select rows"

expect_rc 2 "$PERFAB" run -q -n fast /bin/true /bin/true
grep_err "not 'fast' (hyperfine's -n: -n is --reps here, a number; name arms with --arm NAME=COMMAND)"
pass "-n NAME says -n is --reps and how arms are named"

expect_rc 2 "$PERFAB" run -q -r 3 --prepare "sh -c 'echo a >>log'" -p "sh -c 'echo b >>log'" \
	/bin/true /bin/true --out prep.json
grep_err "prepare is given 2 times"
grep_err "the arm's \"prepare\" in --config FILE"
[ ! -e log ] && [ ! -e prep.json ] || fail "two --prepare ran: $(cat log 2>/dev/null)"
pass "a second --prepare (hyperfine's per command) is refused with the config's arm prepare"

expect_rc 2 "$PERFAB" run -q -r 3 --output pipe /bin/true /bin/true --out pipe.json
grep_err "--output pipe: perfab sends the children's stdout to null"
[ ! -e pipe ] && [ ! -e pipe.json ] || fail "--output pipe ran and wrote a file named pipe"
expect_rc 3 "$PERFAB" run -q -r 4 --no-null-arm --output ./pipe "echo x" "echo y" --out pipe.json
[ "$(sort pipe | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')" = "4x 4y " ] ||
	fail "--output ./pipe did not write the file: $(cat pipe)"
pass "--output pipe is refused; a file named pipe is ./pipe"
