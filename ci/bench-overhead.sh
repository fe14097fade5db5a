#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/bench-overhead.sh — what measuring costs (issue #2's benchmark; prints
# figures, asserts nothing: timing on a shared VM is noisy).
#  1. wall perfab records for /bin/true vs a plain posix_spawn+wait4 loop,
#     in the same run (target <= 1.10x with RSS sampling on);
#  2. whole-run reps per second including checkpoints, vs hyperfine;
#  3. perfab's own peak RSS over a 1000-rep run (target <= 10 MiB);
#  4. the sampler thread's CPU share at the default 10 ms interval.
# Usage: ci/bench-overhead.sh [BUILD_DIR]
set -eu
build=${1:-_build}
perfab=$build/src/perfab
loop=$build/ci/spawnloop
[ -x "$perfab" ] && [ -x "$loop" ] || { echo "build first (make; make ci/spawnloop)" >&2; exit 2; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
N=${N:-1000}

# perfab records its own VmHWM in the artifact (run.perfab_peak_rss).
start=$(date +%s.%N)
"$perfab" run -q --arm base=/bin/true --arm head=/bin/true --reps "$N" --out "$t/r.json" >/dev/null 2>&1 || true
end=$(date +%s.%N)
hwm=$(jq '.run.perfab_peak_rss / 1024 | floor' "$t/r.json")
ref=$("$loop" "$N" /bin/true)
jq -r --argjson ref "$ref" --argjson n "$N" --arg t0 "$start" --arg t1 "$end" --argjson hwm "$hwm" '
	[.rows[0].reps[].results[].wall] | sort | .[length / 2 | floor] as $med |
	"runs measured:            \(length) (/bin/true, 2 arms x \($n) reps)",
	"perfab median wall:       \($med * 1e6 | floor) us",
	"posix_spawn+wait4 median: \($ref * 1e6 | floor) us",
	"ratio:                    \($med / $ref * 100 | floor / 100)x (target <= 1.10x)",
	"whole-run arm runs/s:     \(length / (($t1 | tonumber) - ($t0 | tonumber)) | floor) (incl. a checkpoint per rep)",
	"perfab peak RSS:          \($hwm / 1024 * 10 | floor / 10) MiB over the run (target <= 10 MiB)"
' "$t/r.json"
jq -r --arg t0 "$start" --arg t1 "$end" '
	"sampler CPU:              \(.run.sampler_cpu_s * 1000 | floor) ms = \(.run.sampler_cpu_s / (($t1 | tonumber) - ($t0 | tonumber)) * 1000 | floor / 10)% of the run, \(.run.sampler_samples) samples"
' "$t/r.json"
if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N --runs "$N" --export-json "$t/h.json" /bin/true >/dev/null 2>&1
	jq -r '.results[0] | "hyperfine /bin/true:      \(1 / .mean | floor) runs/s (mean \(.mean * 1e6 | floor) us)"' "$t/h.json"
else
	echo "hyperfine: not installed (apt-get install hyperfine) — comparison skipped"
fi
