#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Failing children are recorded, their row marked failed and judged FAIL,
# never dropped: non-zero exit, death by signal, and --timeout (which kills
# the whole process group, even a child that ignores SIGTERM).
. "${top_srcdir}/tests/lib/test-lib.sh"

expect_rc 1 "$PERFAB" run -q --reps 2 --max-reps 2 --arm base=/bin/true --arm head=/bin/false --out f.json
jq -e '.complete and .rows[0].failed and (.rows[0].fail_reason | test("exited with status 1"))' f.json >/dev/null ||
	fail "non-zero exit not recorded"
jq -e '.rows[0].reps[0].status.head | .exit_code == 1 and .failed' f.json >/dev/null || fail "status"

expect_rc 1 "$PERFAB" run -q --reps 2 --max-reps 2 --arm base=/bin/true \
	--arm "head=/bin/sh -c 'kill -SEGV \$\$'" --out sig.json
jq -e '.rows[0].fail_reason | test("signal 11")' sig.json >/dev/null || fail "signal not recorded"

start=$(date +%s)
expect_rc 1 "$PERFAB" run -q --reps 2 --max-reps 2 --timeout 1 --arm base=/bin/true \
	--arm "head=/bin/sh -c 'trap \"\" TERM; sleep 60.$$ & sleep 60.$$; wait'" --out t.json
end=$(date +%s)
jq -e '.rows[0].reps[0].status.head.timed_out and (.rows[0].fail_reason | test("timed out"))' t.json >/dev/null ||
	fail "timeout not recorded"
# Nothing of the child's group survives (the sleeps are in its group).
i=0
while pgrep -f "sleep 60.$$" >/dev/null 2>&1 && [ $i -lt 20 ]; do
	sleep 0.1 # SIGKILLed processes may take a moment to be reaped
	i=$((i + 1))
done
if pgrep -f "sleep 60.$$" >/dev/null 2>&1; then
	pgrep -af "sleep 60.$$" >&2
	fail "the timed-out child's process group was not killed"
fi
[ $((end - start)) -lt 50 ] || fail "the timeout did not stop the child"
exit 0
