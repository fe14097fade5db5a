#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/bench-ledger.sh — the ledger on a generated artifact of about 1,000,000
# samples (20 rows x 3 arms x 1002 reps x 16 metrics): wall time and peak
# RSS (targets <= 1 s and <= 256 MiB). Prints figures,
# asserts nothing.
# Usage: ci/bench-ledger.sh [BUILD_DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-_build}
perfab=$build/src/perfab
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
python3 "$top/ci/gen-artifact.py" "$t/big.json" --rows 20 --reps 1002
samples=$((20 * 3 * 1002 * 16))
size=$(stat -c %s "$t/big.json")
for i in 1 2 3; do
	start=$(date +%s.%N)
	"$perfab" ledger --format json "$t/big.json" >"$t/ledger.json" 2>/dev/null &
	pid=$!
	hwm=0
	while kill -0 $pid 2>/dev/null; do
		h=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null || echo 0)
		[ "${h:-0}" -gt "$hwm" ] && hwm=$h
		sleep 0.01
	done
	wait $pid || true
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v h="$hwm" -v n="$samples" -v z="$size" -v i="$i" 'BEGIN {
		printf "run %d: perfab ledger on %d samples (%.0f MiB of JSON): %.3f s, peak RSS %.1f MiB (targets <= 1 s, <= 256 MiB)\n",
			i, n, z / 1048576, e - s, h / 1024 }'
done
jq -r '"verdict: \(.overall), \(.rows | length) row x arm entries"' "$t/ledger.json"
