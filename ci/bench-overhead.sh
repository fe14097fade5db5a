#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/bench-overhead.sh — what measuring costs. Prints figures, asserts
# nothing: timing on a shared VM is noisy, so every comparison is made
# within one round (the reference and perfab back to back) and the median
# over ROUNDS rounds is printed.
#  1. the wall perfab records for /bin/true vs a plain posix_spawn+wait4
#     loop (ci/spawnloop), in the same round (target <= 1.10x);
#  2. the breakdown of that wall: each piece of perfab's own work around a
#     child left out in turn (PERFAB_TEST_WITHOUT, perfab(1) ENVIRONMENT;
#     --no-cgroup), its cost = the median wall with it minus without it;
#  3. whole-run arm runs per second at 100, 400 and 1600 reps, checkpoints
#     included, beside the raw loop's rate in the same round (target: within
#     1.5x of it, flat in the reps), and hyperfine's runs per second on the
#     same command;
#  4. perfab's own peak RSS over the 1600-rep run (target <= 10 MiB) and
#     the sampler thread's CPU share at the default 10 ms interval.
# Usage: ci/bench-overhead.sh [BUILD_DIR]   (env: N reps per round, ROUNDS)
set -eu
build=${1:-_build}
perfab=$build/src/perfab
loop=$build/ci/spawnloop
[ -x "$perfab" ] && [ -x "$loop" ] || { echo "build first (make; make ci/spawnloop)" >&2; exit 2; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
N=${N:-300}
ROUNDS=${ROUNDS:-5}

# run_true OUT REPS [perfab options]: a /bin/true A/A run into OUT.
run_true() {
	out=$1 reps=$2
	shift 2
	"$perfab" run -q --arm base=/bin/true --arm head=/bin/true --reps "$reps" "$@" \
		--out "$out" >/dev/null 2>&1 || true
}
median_wall_us() {
	jq '[.rows[0].reps[].results[].wall] | sort | .[length / 2 | floor] * 1e6 | floor' "$1"
}
now() { date +%s.%N; }

# ---- 1 and 2: the measuring window, round by round.
pieces="ptrace sampler pin runner-pin counters cgroup"
: >"$t/rounds"
for r in $(seq "$ROUNDS"); do
	raw=$("$loop" $((2 * N)) /bin/true | awk '{ printf "%d", $1 * 1e6 }')
	run_true "$t/w.json" "$N"
	all=$(median_wall_us "$t/w.json")
	line="$raw $all"
	for p in $pieces; do
		if [ "$p" = cgroup ]; then
			run_true "$t/w.json" "$N" --no-cgroup
		else
			PERFAB_TEST_WITHOUT=$p run_true "$t/w.json" "$N"
		fi
		line="$line $(median_wall_us "$t/w.json")"
	done
	PERFAB_TEST_WITHOUT=ptrace,sampler,pin,runner-pin,counters run_true "$t/w.json" "$N" --no-cgroup
	echo "$line $(median_wall_us "$t/w.json")" >>"$t/rounds"
done
awk -v pieces="$pieces" -v rounds="$ROUNDS" -v n="$N" '
	function med(a, k,   i, j, x) {
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			x = a[j]; a[j] = a[j - 1]; a[j - 1] = x
		}
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	{ for (i = 1; i <= NF; i++) v[NR, i] = $i; nf = NF }
	END {
		np = split(pieces, name, " ")
		for (r = 1; r <= NR; r++) { raw[r] = v[r, 1]; all[r] = v[r, 2]; ratio[r] = v[r, 2] / v[r, 1] }
		printf "rounds:                   %d x (%d spawn-loop runs, then perfab 2 arms x %d reps per setting)\n", rounds, 2 * n, n
		printf "posix_spawn+wait4 median: %d us\n", med(raw, NR)
		printf "perfab median wall:       %d us (/bin/true, everything on)\n", med(all, NR)
		printf "ratio to the raw loop:    %.2fx (median of the rounds; target <= 1.10x)\n", med(ratio, NR)
		print  "breakdown (us per child; median over rounds of: wall with everything on - wall without the piece):"
		label["ptrace"] = "ptrace exit stop (VmHWM read; perfab'"'"'s hold excluded)"
		label["sampler"] = "tree sampler (watch, thread wake-ups)"
		label["pin"] = "binding the child to its CPUs"
		label["runner-pin"] = "perfab'"'"'s runner on the children'"'"'s CPUs (negative: it saves)"
		label["counters"] = "perf counters opened on the child"
		label["cgroup"] = "a memory cgroup of its own (--no-cgroup)"
		for (p = 1; p <= np; p++) {
			for (r = 1; r <= NR; r++) d[r] = v[r, 2] - v[r, p + 2]
			printf "  %-62s %+5d\n", label[name[p]], med(d, NR)
		}
		for (r = 1; r <= NR; r++) d[r] = v[r, 2] - v[r, np + 3]
		printf "  %-62s %+5d\n", "all of them together", med(d, NR)
		for (r = 1; r <= NR; r++) d[r] = v[r, np + 3] - v[r, 1]
		printf "  %-62s %+5d\n", "what remains vs the raw loop (gate, exec wait, poll loop)", med(d, NR)
	}' "$t/rounds"

# ---- 3 and 4: whole runs, checkpoints included, each beside the raw
# loop's rate for as many runs in the same round (target: within 1.5x, flat
# in the reps). With default settings (the two counted /bin/true children
# of the counting pass included) and with --counts off.
for reps in 100 400 1600; do
	for counts in default off; do
		set --
		[ "$counts" = default ] || set -- --counts off
		loop_rate=$("$loop" $((3 * reps)) /bin/true | awk '{ printf "%d", 1 / $1 }')
		t0=$(now)
		run_true "$t/r$reps.json" "$reps" --max-reps "$reps" "$@"
		t1=$(now)
		jq -r --arg t0 "$t0" --arg t1 "$t1" --argjson reps "$reps" --argjson loop "$loop_rate" \
			--arg counts "$counts" '
			([.rows[0].reps[].results[]] | length) as $runs |
			(($t1 | tonumber) - ($t0 | tonumber)) as $s |
			"arm runs/s at \($reps) reps, counts \($counts):" +
			(" " * (16 - ($reps | tostring | length) - ($counts | length))) +
			"\($runs / $s | floor) (\($runs) runs in \($s * 1000 | floor) ms); raw loop \($loop)/s: " +
			"\($loop / ($runs / $s) * 100 | floor / 100)x (target <= 1.5x)"
		' "$t/r$reps.json"
	done
done
jq -r '"perfab peak RSS:          \(.run.perfab_peak_rss / 1048576 * 10 | floor / 10) MiB over the 1600-rep run (target <= 10 MiB)"' "$t/r1600.json"
jq -r --arg t0 "$t0" --arg t1 "$t1" '
	"sampler CPU:              \(.run.sampler_cpu_s * 1000 | floor) ms = \(.run.sampler_cpu_s / (($t1 | tonumber) - ($t0 | tonumber)) * 1000 | floor / 10)% of the 1600-rep run, \(.run.sampler_samples) samples"
' "$t/r1600.json"
if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N --runs 2000 --export-json "$t/h.json" /bin/true >/dev/null 2>&1
	jq -r '.results[0] | "hyperfine /bin/true:      \(1 / .mean | floor) runs/s (mean \(.mean * 1e6 | floor) us, 2000 runs)"' "$t/h.json"
else
	echo "hyperfine: not installed (apt-get install hyperfine) — comparison skipped"
fi
