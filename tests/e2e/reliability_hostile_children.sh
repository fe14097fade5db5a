#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile children: huge stdout/stderr is drained and bounded (perfab never
# holds it whole; the last lines of stderr are kept for the report); a fork
# bomb is stopped by --max-procs, and its reason recorded however slow the
# sampler is; a child that dies by a signal or exits
# non-zero is recorded (see also run_failures.sh for timeouts).
. "${top_srcdir}/tests/lib/test-lib.sh"

# 300 MB on stdout and 300 MB on stderr, then a last line, then exit 3.
loud="/bin/sh -c 'head -c 300000000 /dev/zero; head -c 300000000 /dev/zero >&2; echo LAST-LINE >&2; exit 3'"
"$PERFAB" run -q --reps 1 --max-reps 1 --arm base=/bin/true --arm "head=$loud" --out loud.json >"$T/out" 2>"$T/err" &
pid=$!
hwm=0
while kill -0 $pid 2>/dev/null; do
	h=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null || echo 0)
	[ "${h:-0}" -gt "$hwm" ] && hwm=$h
	sleep 0.05
done
wait $pid
rc=$?
[ "$rc" = 1 ] || fail "loud child: exit $rc, expected FAIL (1)"
echo "perfab peak RSS while draining 600 MB: $hwm KiB"
[ "$hwm" -lt 65536 ] || fail "perfab held the output in memory (VmHWM $hwm KiB)"
grep -q "LAST-LINE" "$T/err" || fail "the last stderr line was not shown"
jq -e '.rows[0].reps[0].status.head | .exit_code == 3 and (.stderr_tail | test("LAST-LINE"))' loud.json >/dev/null ||
	fail "stderr tail not recorded"

# A fork bomb (bounded so a broken limit cannot take the machine down).
bomb="/bin/sh -c 'i=0; while [ \$i -lt 400 ]; do sleep 30.$$ & i=\$((i+1)); done; wait'"
expect_rc 1 "$PERFAB" run -q --reps 1 --max-reps 1 --max-procs 50 --timeout 60 --arm base=/bin/true --arm "head=$bomb" --out bomb.json
jq -e '.rows[0].reps[0].status.head.tree_limit and (.rows[0].fail_reason | test("max-procs"))' bomb.json >/dev/null ||
	fail "the process-tree limit did not stop the fork bomb"
sleep 0.3
n=$(pgrep -c -f "sleep 30.$$" 2>/dev/null); n=${n:-0}
[ "$n" -lt 50 ] || fail "$n sleeps of the bomb survived"
# The reason is never lost: with the sampler slow between its look at the
# tree and the kill, the child is not seen dead before the reason is set.
PERFAB_TEST_SAMPLER_FOLD_DELAY_MS=300 expect_rc 1 "$PERFAB" run -q --reps 1 --max-reps 1 \
	--max-procs 50 --timeout 60 --arm base=/bin/true --arm "head=$bomb" --out bomb2.json
jq -e '.rows[0].reps[0].status.head.tree_limit and (.rows[0].fail_reason | test("max-procs"))' bomb2.json >/dev/null ||
	fail "the kill reason was lost: $(jq -c '.rows[0].fail_reason' bomb2.json)"
exit 0
