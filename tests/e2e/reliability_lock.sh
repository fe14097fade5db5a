#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One writer per artifact: while a run writes FILE it holds FILE.lock, so a
# second run on the same --out, a --resume of the running run, `pool -o`
# and `memgate record -o` are refused (exit 7) and FILE is left to its
# writer; once the run ends, the lock is gone and FILE can be written
# again. A refused run, pool or baseline leaves no FILE.lock behind. No timing: the first run's
# child waits for a file the test creates, and the test polls.
. "${top_srcdir}/tests/lib/test-lib.sh"

cat >hold.sh <<'SH'
#!/bin/sh
# Held until the test says go (a generous cap so nothing hangs forever).
touch started
i=0
while [ ! -e go ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
SH
chmod +x hold.sh
expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --no-null-arm --out done.json
"$PERFAB" run -q --arm base=./hold.sh --arm head=./hold.sh --reps 2 --max-reps 2 --no-null-arm --out shared.json \
	>first.out 2>first.err &
first=$!
trap 'touch "$T/go"; kill $first 2>/dev/null; wait $first 2>/dev/null; rm -rf "$T"' EXIT
i=0
while [ ! -e started ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
[ -e started ] || fail "the first run never started its child"
before=$(cat shared.json)

expect_rc 7 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --no-null-arm --out shared.json
grep_err "is in use: another perfab run writes it"
[ "$(cat shared.json)" = "$before" ] || fail "the second run wrote the first run's artifact"
expect_rc 7 "$PERFAB" run -q --resume shared.json --arm base=./hold.sh --arm head=./hold.sh --no-null-arm
grep_err "is in use"
expect_rc 7 "$PERFAB" pool done.json -o shared.json
grep_err "is in use"
expect_rc 7 "$PERFAB" memgate record done.json -o shared.json
grep_err "is in use"
[ "$(cat shared.json)" = "$before" ] || fail "memgate record -o replaced the running artifact"
touch go
wait $first
rc=$?
# Two reps a row: no interval yet, so INCONCLUSIVE.
[ "$rc" = 3 ] || { cat first.err >&2; fail "the first run exited $rc, not 3 (INCONCLUSIVE at 2 reps)"; }
jq -e '.complete and (.rows[0].reps | length) == 2' shared.json >/dev/null ||
	fail "the first run's artifact is not its own complete one"
[ ! -e shared.json.lock ] || fail "the lock file was left behind"
# Refused after the lock was taken: the lock file goes too.
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm head=./no-such-program --reps 2 \
	--no-null-arm --out refused.json
[ ! -e refused.json.lock ] || fail "a refused run left its lock file behind"
expect_rc 4 "$PERFAB" pool done.json done.json -o refusedpool.json
[ ! -e refusedpool.json.lock ] || fail "a refused pool left its lock file behind"
jq '.complete = false' done.json >inc.json
"$PERFAB" memgate record inc.json -o refusedbase.json 2>/dev/null && fail "memgate record took an incomplete run"
[ ! -e refusedbase.json.lock ] || fail "a refused memgate record left its lock file behind"
# Free again: the next run on the same --out is accepted.
expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --no-null-arm --out shared.json
exit 0
