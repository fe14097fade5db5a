#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --resume trusts nothing in the artifact it cannot check: a forged
# artifact that runs another command (its digest forged to match) is
# refused when the arms are given again, and shown before anything runs;
# a changed program of a second row is refused by its own recorded digest;
# settings outside their options' ranges are refused with exit 2.
. "${top_srcdir}/tests/lib/test-lib.sh"

cp /bin/true ./mytrue
arms="--arm base=./mytrue --arm head=./mytrue"
# shellcheck disable=SC2086 # $arms is a list of options
expect_verdict "$PERFAB" run -q $arms --reps 6 --out done.json
jq '.complete = false | .rows[0].reps |= .[0:2]' done.json >part.json

# Forged: head runs sh -c '...' and its digest says /bin/sh.
shsum=$(sha256sum /bin/sh | cut -d' ' -f1)
jq --arg s "$shsum" --arg p "$T/pwned" \
	'.arms[1].argv = ["/bin/sh", "-c", ("touch " + $p + "; printf \"\u001b]0;owned\u0007\"")] |
	 .arms[1].exe = "/bin/sh" | .arms[1].sha256 = $s |
	 .rows[0].executables.head = {"path": "/bin/sh", "sha256": $s}' part.json >forged.json
# shellcheck disable=SC2086
expect_rc 4 "$PERFAB" run -q --resume forged.json $arms
grep_err "does not match the arms and rows given again: arm 'head' runs another command"
[ ! -e pwned ] || fail "the forged command ran"
# What it would run is shown first, terminal-safe.
grep_err "arm head: '/bin/sh' '-c' 'touch"
grep -q "$(printf '\033')" "$T/err" && fail "an ESC of the artifact reached stderr"
grep_err 'printf "\\x1b\]0;owned\\x07"'
# Neither the arms again nor --trust-artifact: refused, nothing run.
expect_rc 2 "$PERFAB" run -q --resume forged.json
grep_err "trust-artifact"
[ ! -e pwned ] || fail "the forged command ran"
# The genuine one resumes with its own arms.
# shellcheck disable=SC2086
expect_verdict "$PERFAB" run -q --resume part.json $arms
jq -e '.complete' part.json >/dev/null || fail "the genuine resume did not complete"

# Two built-in rows with different programs: the second row's program
# changed after the start is refused, though the first row's did not.
mkdir wl
cp "$WL/perfab-alloc" "$WL/perfab-spin" wl/
cat >rows.json <<'CFG'
{ "arms": [ { "name": "base" }, { "name": "head" } ],
  "workloads": "=small/8|=spin", "reps": 2, "max_reps": 2, "scale": 0.001 }
CFG
PERFAB_WORKLOAD_DIR=$T/wl expect_verdict "$PERFAB" run -q --no-sanity-gate --config rows.json \
	--out rows-done.json
[ "$(jq -r '[.rows[].program] | join(",")' rows-done.json)" = "perfab-alloc,perfab-spin" ] ||
	fail "expected rows small/8 (perfab-alloc) then spin (perfab-spin)"
jq -e '[.rows[1].executables[].path | test("perfab-spin$")] | all' rows-done.json >/dev/null ||
	fail "the second row's executables are not recorded"
jq '.complete = false | .rows[1].reps = []' rows-done.json >rows-part.json
printf '\n' >>wl/perfab-spin
export PERFAB_WORKLOAD_DIR="$T/wl"
expect_rc 4 "$PERFAB" run -q --resume rows-part.json --config rows.json
grep_err "executable '$T/wl/perfab-spin' (row 'spin') changed since the run started"
expect_rc 4 "$PERFAB" run -q --resume rows-part.json --trust-artifact
grep_err "(row 'spin') changed since the run started"
export PERFAB_WORKLOAD_DIR="$WL"

# Settings read back are range-checked like the options, before any cast.
for bad in '.run.max_procs = 1e300' '.run.timeout_s = 1e300' '.run.sample_interval_ms = -1' \
	'.run.scale = "big"' '.run.max_procs = 2.5' '.run.cgroup = 7'; do
	jq "$bad" done.json | jq '.complete = false | .rows[0].reps |= .[0:2]' >range.json
	# shellcheck disable=SC2086
	expect_rc 2 "$PERFAB" run -q --resume range.json $arms
	grep_err "cannot resume 'range.json': run\."
done
exit 0
