#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One protocol check in the loader: an artifact whose reps break
# rotate-reverse/1 — orders that are not the protocol's (even balanced
# ones), a block number out of sequence, a rep deleted in the middle — is
# refused by every command alike, with the same reason and exit 4:
# ledger, gate, pool, memgate record and check, run --resume.
. "${top_srcdir}/tests/lib/test-lib.sh"

arms="--arm base=/bin/true --arm head=/bin/true --no-null-arm"
# 4 reps (two blocks): fewer than 6 pairs, INCONCLUSIVE.
# shellcheck disable=SC2086 # $arms is a list of options
expect_rc 3 "$PERFAB" run -q $arms --reps 4 --max-reps 4 --out ok.json
expect_rc 0 "$PERFAB" memgate record ok.json -o baseline.json --arm head

# every_command FILE REASON: each command refuses FILE with exit 4 and REASON.
every_command() {
	for cmd in "ledger $1" "gate $1" "pool ok.json $1 -o pooled.json" \
		"memgate record $1 -o b2.json --arm head" \
		"memgate check $1 --baseline baseline.json --arm head"; do
		# shellcheck disable=SC2086 # a command line
		expect_rc 4 "$PERFAB" $cmd
		grep_err "$2"
	done
	{ [ ! -e pooled.json ] && [ ! -e b2.json ]; } || fail "a refused input was written out"
	jq '.complete = false' "$1" >"resume-$1"
	# shellcheck disable=SC2086
	expect_rc 4 "$PERFAB" run -q --resume "resume-$1" $arms
	grep_err "$2"
}

# Orders of block 0 swapped: still balanced, but not the protocol's.
jq '.rows[0].reps[0].order as $a | .rows[0].reps[0].order = .rows[0].reps[1].order |
	.rows[0].reps[1].order = $a' ok.json >swapped.json
every_command swapped.json "row 'command' rep 1: the arm order is not the rotate-reverse/1 order of its place in block 0"
# A block number out of sequence.
jq '.rows[0].reps[3].block = 99' ok.json >block.json
every_command block.json "row 'command' rep 4 is in block 99, not 1"
# A rep deleted in the middle of an interrupted run.
jq '.complete = false | .rows[0].reps |= del(.[1])' ok.json >deleted.json
# shellcheck disable=SC2086
expect_rc 4 "$PERFAB" run -q --resume deleted.json $arms
grep_err "row 'command' rep 2 is in block 1, not 0"
expect_rc 4 "$PERFAB" ledger deleted.json
grep_err "row 'command' rep 2 is in block 1, not 0"
# A journal forged to match: its records re-framed with valid checksums
# (the SHA-256 is an integrity check, not a signature), rep 2's order
# swapped. The artifact plus its journal is refused like the artifact.
listing=$(PERFAB_TEST_CRASH_AT=list "$PERFAB" run -q $arms --no-cgroup --reps 6 \
	--max-reps 6 --seed 5 --out list.json 2>&1 >/dev/null)
at=$(printf '%s\n' "$listing" |
	sed -n 's/^perfab: crash point \([0-9]*\): journal: record synced (listed)$/\1/p' |
	sed -n 4p)
[ -n "$at" ] || fail "no 4th journal record in the crash point listing"
# shellcheck disable=SC2086
PERFAB_TEST_CRASH_AT=$at "$PERFAB" run -q $arms --no-cgroup --reps 6 --max-reps 6 \
	--seed 5 --out forged.json >/dev/null 2>&1
[ -s forged.json.journal ] || fail "no journal beside the interrupted run"
python3 - forged.json.journal <<'PY' || fail "could not forge the journal"
import hashlib, json, sys
path = sys.argv[1]
data = open(path, "rb").read()
out, at, swapped = b"", 0, False
while at < len(data):
    nl = data.index(b"\n", at)
    seq, length, _ = data[at + 1:nl].split(b" ")
    payload = data[nl + 1:nl + 1 + int(length)]
    at = nl + 2 + int(length)
    rec = json.loads(payload)
    if rec.get("rep") == 1:
        rec["data"]["order"].reverse()
        payload, swapped = json.dumps(rec, separators=(",", ":")).encode(), True
    head = b"@%s %d " % (seq, len(payload))
    out += head + hashlib.sha256(head + payload).hexdigest().encode() + b"\n" + payload + b"\n"
if not swapped:
    sys.exit("no record of rep 2 in the journal")
open(path, "wb").write(out)
PY
for cmd in "ledger forged.json" "gate forged.json" "run -q --resume forged.json $arms"; do
	# shellcheck disable=SC2086 # a command line
	expect_rc 4 "$PERFAB" $cmd
	grep_err "row 'command' rep 2: the arm order is not the rotate-reverse/1 order"
done
exit 0
