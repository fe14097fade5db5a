#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/bench-journal.sh — `perfab ledger` on a run interrupted after its 4th
# rep, with a planted 4 MiB FILE.journal beside it: (1) a bad record and
# then frame lines whose lengths each reach the end of the file (a reader
# that hashed every candidate frame did O(size^2) work: minutes), refused
# as damage; (2) the same lines each one byte short of a frame, a torn
# tail, read and dropped. Prints the wall time of each (target < 2 s);
# asserts nothing, and is not part of `make check` (the unit test
# journal_reader_linear checks the reader's work with its own counter).
# Usage: ci/bench-journal.sh [BUILD_DIR] [MIB]
set -eu
build=${1:-_build}
mib=${2:-4}
perfab=$(cd "$build" && pwd)/src/perfab
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"

# A real run and journal: crash at the 4th "record synced" point.
run() {
	"$perfab" run -q --arm base=/bin/true --arm head=/bin/true --no-null-arm \
		--no-cgroup --reps 6 --max-reps 6 --seed 3 --out "$@"
}
PERFAB_TEST_CRASH_AT=list run list.json >/dev/null 2>list.err || true
at=$(grep ': journal: record synced (listed)$' list.err |
	sed -n '4s/^perfab: crash point \([0-9]*\):.*/\1/p')
PERFAB_TEST_CRASH_AT=$at run j.json >/dev/null 2>&1 || true
[ -s j.json.journal ] || { echo "bench-journal: no journal from the interrupted run" >&2; exit 2; }

# plant KIND: the good journal, a bad record, lines up to MIB MiB.
plant() {
	python3 - "$1" "$mib" j.json.journal <<'PY'
import sys
kind, mib, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
out = bytearray(open(path, "rb").read())
out += b"@99 3 " + b"0" * 64 + b"\nabc\n"
start, width = len(out), 88
lines = (mib * 2**20 - start) // width
end = start + lines * width
for i in range(lines):
    off = start + (i + 1) * width
    n = end - off - 1 if i + 1 < lines else 0
    line = b"@%010d %010d %064x\n" % (i + 100, n, i)
    if kind == "torn":
        line = line[:-2] + b"g\n"
    out += line
open(path, "wb").write(out)
PY
}
cp j.json.journal good.journal
for kind in damage torn; do
	cp good.journal j.json.journal
	plant "$kind"
	size=$(stat -c %s j.json.journal)
	start=$(date +%s.%N)
	rc=0
	"$perfab" ledger j.json >/dev/null 2>err || rc=$?
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v z="$size" -v k="$kind" -v rc="$rc" 'BEGIN {
		printf "perfab ledger, %s journal of %.1f MiB: %.3f s, exit %d (target < 2 s)\n",
			k, z / 1048576, e - s, rc }'
	sed 's/^/  /' err | head -2
done
