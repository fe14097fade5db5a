#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# `ledger --controls SEL` and `gate --controls SEL` with a selection that
# names no row — empty (which would select every row), blanks, bars — are
# usage errors (exit 2) that say so, never judged; a selection with a
# term is judged.
. "${top_srcdir}/tests/lib/test-lib.sh"

# The README demo's run: it FAILs (exit 1).
run=$top_srcdir/tests/data/demo-run.json
for sel in '' ' ' '|' ' | '; do
	for cmd in ledger gate; do
		expect_rc 2 "$PERFAB" "$cmd" "$run" --controls "$sel"
		grep_err "--controls '$sel' names no row: give row names, or parts of them, separated by '|'"
		[ ! -s out ] || fail "$cmd --controls '$sel' printed a verdict"
	done
done
expect_rc 1 "$PERFAB" ledger "$run" --controls '=small/8'
grep_out "small/8 · head vs base · n=[0-9]* · control"
expect_rc 1 "$PERFAB" gate "$run" --controls 'large'
exit 0
