#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/bench-verdicts.sh — verdicts at DEFAULT settings on a busy loop of
# about 30 ms (perfab-spin) against itself and against +2%, +5%, +10%
# injected slowdowns, TRIALS trials each: perfab's PASS / FAIL /
# INCONCLUSIVE counts, median reps and median seconds per verdict, beside
# hyperfine (18 runs per command, or its default) + Welch's t-test at 5% on the same
# commands, the two tools interleaved trial by trial in one session.
# Prints a Markdown table; asserts nothing (targets in doc/method.md).
#
# Usage: ci/bench-verdicts.sh [BUILD_DIR]
#   TRIALS=N      trials per case (default 20; e.g. TRIALS=3 for a quick look)
#   SPIN_WORK=N   busy-loop iterations (default 12000000, about 30 ms here)
#   HF_RUNS=N     hyperfine runs per command (default 18; 0: hyperfine's
#                 own default, at least 10 runs and 3 s per command)
#   PCTS="0 5"    the slowdowns to try (default "0 2 5 10")
#   COUNT_CACHE=warm  a count cache of this session's own (--count-cache),
#                 warm after the first trial, as for a gate whose base
#                 build a push counted; default: none, perfab's default
#                 (every trial counts afresh)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-_build}
perfab=$build/src/perfab
spin=$build/workloads/perfab-spin
trials=${TRIALS:-20}
work=${SPIN_WORK:-12000000}
hf_runs=${HF_RUNS:-18}
pcts=${PCTS:-0 2 5 10}
[ -x "$perfab" ] && [ -x "$spin" ] || { echo "bench-verdicts: build $build first" >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "bench-verdicts: jq is required" >&2; exit 2; }
have_hf=1
command -v hyperfine >/dev/null 2>&1 || have_hf=0
t=$(mktemp -d)
cache_opt=--no-count-cache
[ "${COUNT_CACHE:-off}" != warm ] || cache_opt=--count-cache=$t/counts.json
trap 'rm -rf "$t"' EXIT

# Welch's t-test on two hyperfine time samples: prints "slower", "faster"
# or "same" (two-sided p >= 0.05). The t distribution's CDF from the
# regularized incomplete beta function (continued fraction), no SciPy.
cat >"$t/welch.py" <<'EOF'
import json, math, sys

def betacf(a, b, x):
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d; d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + aa / c if abs(c) > 1e-300 else 1e300
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d; d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + aa / c if abs(c) > 1e-300 else 1e300
        de = d * c
        h *= de
        if abs(de - 1) < 1e-12:
            break
    return h

def betai(a, b, x):
    if x <= 0: return 0.0
    if x >= 1: return 1.0
    lb = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lb) * betacf(a, b, x) / a
    return 1 - math.exp(lb) * betacf(b, a, 1 - x) / b

r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["times"], r[1]["times"]
ma, mb = sum(a) / len(a), sum(b) / len(b)
va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
se2 = va / len(a) + vb / len(b)
if se2 == 0:
    print("same"); sys.exit(0)
tt = (mb - ma) / math.sqrt(se2)
df = se2 ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
p = betai(df / 2, 0.5, df / (df + tt * tt))
print("same" if p >= 0.05 else ("slower" if tt > 0 else "faster"))
EOF

echo "bench-verdicts: $trials trials per case, perfab-spin work=$work, count cache ${COUNT_CACHE:-off}, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| head | perfab PASS | FAIL | INCONCLUSIVE | median reps | s/verdict | hyperfine+Welch same | slower | faster | s/verdict |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
for pct in $pcts; do
	base="$spin work=$work drain_ms=0 release_bound_ms=0"
	head="$spin work=$work drain_ms=0 release_bound_ms=0 slowdown_pct=$pct"
	: >"$t/perfab" ; : >"$t/hf"
	i=0
	while [ "$i" -lt "$trials" ]; do
		i=$((i + 1))
		rc=0
		# shellcheck disable=SC2086 # empty or one option
		"$perfab" run -q $cache_opt --arm "base=$base" --arm "head=$head" --out "$t/a.json" \
			>/dev/null 2>"$t/err" || rc=$?
		case $rc in
		0) v=PASS ;; 1) v=FAIL ;; 3) v=INCONCLUSIVE ;;
		*) echo "bench-verdicts: perfab run exited $rc:" >&2; cat "$t/err" >&2; exit 1 ;;
		esac
		reps=$(jq '[.rows[].reps | length] | max' "$t/a.json")
		secs=$(jq '.run.elapsed_s' "$t/a.json")
		echo "$v $reps $secs" >>"$t/perfab"
		if [ "$have_hf" = 1 ]; then
			s0=$(date +%s.%N)
			if [ "$hf_runs" = 0 ]; then set --; else set -- --runs "$hf_runs"; fi
			hyperfine -N --style none --warmup 1 "$@" --export-json "$t/hf.json" \
				"$base" "$head" >/dev/null 2>&1
			s1=$(date +%s.%N)
			echo "$(python3 "$t/welch.py" "$t/hf.json") $(echo "$s1 - $s0" | bc -l)" >>"$t/hf"
		fi
		echo "bench-verdicts: +$pct% trial $i: perfab $v $reps reps $secs s; hyperfine $(tail -1 "$t/hf" 2>/dev/null)" >&2
	done
	label=$( [ "$pct" = 0 ] && echo identical || echo "+$pct%" )
	awk -v label="$label" -v hf="$t/hf" -v have_hf="$have_hf" '
		function median(a, n,   i, j, x) {
			for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ c[$1]++; reps[NR] = $2; secs[NR] = $3; n = NR }
		END {
			while (have_hf == 1 && (getline line < hf) > 0) {
				split(line, f, " "); h[f[1]]++; m++; hs[m] = f[2]
			}
			printf "| %s | %d | %d | %d | %g | %.1f |", label, c["PASS"], c["FAIL"],
				c["INCONCLUSIVE"], median(reps, n), median(secs, n)
			if (have_hf == 1)
				printf " %d | %d | %d | %.1f |\n", h["same"], h["slower"], h["faster"], median(hs, m)
			else
				printf " n/a | n/a | n/a | n/a |\n"
		}' "$t/perfab"
done
