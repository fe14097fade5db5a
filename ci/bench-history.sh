#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/bench-history.sh — perfab history at scale: record 10,000 merges x 8
# rows x 6 metrics into a new database (ci/bench-history, one transaction
# per merge, as `perfab history record` writes each after judging), then
# `perfab history drift` over all of them and `--last 30`: seconds and peak
# RSS of each (targets: under 2 s and 64 MiB). Prints figures, asserts
# nothing; not part of make check.
# Usage: ci/bench-history.sh [BUILD_DIR] [MERGES]
set -eu
build=${1:-_build}
merges=${2:-10000}
perfab=$build/src/perfab
make -s -C "$build" ci/bench-history src/perfab
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$build/ci/bench-history" "$t/h.db" "$merges" 8 6
echo "database: $(du -k "$t/h.db" | cut -f1) KiB"

# measure LABEL CMD...: wall seconds and the peak RSS (VmHWM) of CMD.
measure() {
	label=$1
	shift
	start=$(date +%s.%N)
	"$@" >"$t/out" 2>/dev/null &
	pid=$!
	hwm=0
	while kill -0 $pid 2>/dev/null; do
		h=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null || echo 0)
		[ "${h:-0}" -gt "$hwm" ] && hwm=$h
		sleep 0.01
	done
	wait $pid || echo "$label: exit $?"
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v h="$hwm" -v l="$label" 'BEGIN {
		printf "%s: %.3f s, peak RSS %.1f MiB (targets < 2 s, < 64 MiB)\n", l, e - s, h / 1024 }'
}
for i in 1 2 3; do
	measure "drift, all $merges merges, 48 series (run $i)" "$perfab" history drift --db "$t/h.db"
done
head -2 "$t/out"
measure "drift --last 30" "$perfab" history drift --db "$t/h.db" --last 30
measure "show --format csv, all" "$perfab" history show --db "$t/h.db" --format csv
