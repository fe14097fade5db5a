#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_suite.sh — the programs list exactly the suite's rows in
# --help, each program only its own, and every row's defaults run.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

listed() {
	"$1" --help | sed -n 's/^  \([^ ]\{1,\}\) .*/\1/p'
}

got=$(listed "$ALLOC" | tr '\n' ' ')
want=$(echo $ALLOC_ROWS)
[ "$got" = "$want " ] && pass "perfab-alloc --help lists the allocator rows" ||
	fail "perfab-alloc --help lists '$got', expected '$want '"
got=$(listed "$SPIN" | tr '\n' ' ')
[ "$got" = "spin " ] && pass "perfab-spin --help lists spin" ||
	fail "perfab-spin --help lists '$got', expected 'spin'"
"$ALLOC" -h >/dev/null && pass "-h exits 0" || fail "-h did not exit 0"

# Every row runs with its defaults (scaled down) and reports itself.
for row in $ALLOC_ROWS; do
	PERFAB_SCALE=0.01 run_row "$T/r.json" "$ALLOC" "$row" $FAST \
		pause_ms=$(case $row in *bursty*) echo 5 ;; *) echo 0 ;; esac) ||
		{ fail "$row: exit status $?"; continue; }
	[ "$(jqr "$T/r.json" .row)" = "$row" ] && pass "$row runs" ||
		fail "$row: report names row '$(jqr "$T/r.json" .row)'"
	t=$(jqr "$T/r.json" .threads)
	[ "$t" = "${row#*/}" ] && pass "$row: threads $t" ||
		fail "$row: threads $t, expected ${row#*/}"
done
PERFAB_SCALE=0.01 run_row "$T/s.json" "$SPIN" spin $FAST &&
	[ "$(jqr "$T/s.json" .row)" = spin ] && pass "spin runs" ||
	fail "spin did not run with its defaults"
exit 0
