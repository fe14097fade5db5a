#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# kill -9 of perfab mid-run leaves a parseable artifact with complete
# false, and the ledger refuses it (exit 4) saying how to go on.
. "${top_srcdir}/tests/lib/test-lib.sh"

"$PERFAB" run -q --arm base=/bin/sleep\ 0.05 --arm head=/bin/sleep\ 0.05 --null-arm \
	--reps 300 --max-reps 300 --out k.json 2>/dev/null &
pid=$!
# Wait until a few reps are checkpointed, then kill at once.
i=0
while [ $i -lt 200 ]; do
	n=$(jq '.rows[0].reps | length' k.json 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 4 ] && break
	sleep 0.05
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
jq -e . k.json >/dev/null || fail "artifact not parseable after kill -9"
[ "$(jq -r .complete k.json)" = false ] || fail "complete must be false"
n=$(jq '.rows[0].reps | length' k.json)
[ "$n" -ge 4 ] || fail "only $n reps checkpointed"
ls k.json.tmp.* 2>/dev/null && echo "(a temp file was left behind; harmless)"
expect_rc 4 "$PERFAB" ledger k.json
grep_err "incomplete"
expect_rc 4 "$PERFAB" gate k.json
exit 0
