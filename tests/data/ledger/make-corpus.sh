#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/data/ledger/make-corpus.sh PERFAB WORKLOAD_DIR OUTDIR [NAME...] —
# how the artifacts of this corpus were made: real runs of PERFAB (small
# --reps, fixed --seed) and, only where a state cannot be had otherwise, a
# jq edit of a real run's artifact. Writes OUTDIR/NAME.json for each NAME
# (default: all). It is provenance, not part of the test: runs are noisy,
# so a second run gives other numbers, and committing its output means
# regenerating every golden (regen.sh). Each artifact's purpose is in
# README beside this script.
set -u
perfab=${1:?usage: make-corpus.sh PERFAB WORKLOAD_DIR OUTDIR [NAME...]}
W=${2:?usage: make-corpus.sh PERFAB WORKLOAD_DIR OUTDIR [NAME...]}
out=${3:?usage: make-corpus.sh PERFAB WORKLOAD_DIR OUTDIR [NAME...]}
shift 3
perfab=$(cd "$(dirname "$perfab")" && pwd)/$(basename "$perfab")
W=$(cd "$W" && pwd)
mkdir -p "$out" && cd "$out" || exit 1
export PERFAB_WORKLOAD_DIR="$W"
command -v jq >/dev/null 2>&1 || { echo "jq is required" >&2; exit 1; }

# Plain commands: a dash loop of N iterations (about 1 ms per 1000 here).
loop() { printf "sh -c 'x=0; while [ \$x -lt %s ]; do x=\$((x+1)); done'" "$1"; }
# The calibration workload without its drain and release waits.
spin="$W/perfab-spin drain_ms=0 release_bound_ms=0"

# run NAME ARGS...: perfab run ARGS --out NAME.json, its verdict reported.
run() {
	name=$1
	shift
	rm -f "$name.json" "$name.json.journal"
	"$perfab" run -q "$@" --out "$name.json" >"$name.run.out" 2>"$name.run.err"
	echo "$name: run exited $?" >&2
}

# edit NAME FROM FILTER: NAME.json is FROM.json through jq FILTER.
edit() {
	jq -c "$3" "$2.json" >"$1.json" || exit 1
	echo "$1: edited from $2" >&2
}

mk_p2_null_fail() {
	run p2-null-fail --seed 1 --reps 6 --max-reps 6 "$(loop 10000)" "$(loop 20000)"
}
mk_p2_nonull_fail() {
	run p2-nonull-fail --seed 2 --reps 6 --max-reps 6 --no-null-arm "$(loop 10000)" "$(loop 20000)"
}
mk_p2_pass() {
	run p2-pass --seed 3 --reps 12 --max-reps 12 --no-null-arm --tolerance 40 \
		"$(loop 10000)" "$(loop 10000)"
}
mk_p2_gain() {
	run p2-gain --seed 4 --reps 6 --max-reps 6 --metrics cpu,throughput,peak_rss \
		"$(loop 20000)" "$(loop 10000)"
}
mk_p2_inconclusive_spin() {
	run p2-inconclusive-spin --seed 5 --reps 6 --max-reps 6 --scale 0.01 \
		"$spin" "$spin slowdown_pct=3"
}
mk_p1_null() {
	run p1-null --seed 6 --reps 6 --max-reps 6 --rules perfab/1 --scale 0.01 \
		"$spin" "$spin slowdown_pct=40"
}
mk_p1_nonull() {
	run p1-nonull --seed 7 --reps 6 --max-reps 6 --rules perfab/1 --no-null-arm \
		"$(loop 10000)" "$(loop 13000)"
}
mk_rule12_null() {
	run rule12-null --seed 8 --reps 6 --max-reps 6 --rules rule12 --scale 0.01 \
		"$spin" "$spin slowdown_pct=40"
}
mk_rule12_nonull() {
	run rule12-nonull --seed 9 --reps 6 --max-reps 6 --rules rule12 --no-null-arm \
		"$(loop 10000)" "$(loop 10000)"
}
mk_head_env3() {
	# head, hd01, hd02: N iterations from the environment, against base's 10000.
	run head-env3 --seed 10 --reps 8 --max-reps 8 --no-null-arm \
		--arm "base=$(loop 10000)" \
		--arm "head=sh -c 'x=0; while [ \$x -lt \$N ]; do x=\$((x+1)); done'" \
		--head-env 'N=10000 || N=14000 || N=30000'
}
mk_arms4() {
	# Three head arms (one slower, one faster, one the same) and the null arm.
	run arms4 --seed 11 --reps 8 --max-reps 8 --metrics cpu,throughput \
		--arm "base=$(loop 10000)" --arm "slow=$(loop 25000)" \
		--arm "fast=$(loop 4000)" --arm "same=$(loop 10000)"
}
mk_workloads_spin() {
	run workloads-spin --seed 12 --reps 6 --max-reps 6 --scale 0.01 -w =spin \
		--arm "base=$W/perfab-spin" --arm "head=$W/perfab-spin slowdown_pct=50 extra_mib=1"
}
mk_workloads_alloc() {
	# Built-in allocator rows (one a control), glibc against jemalloc.
	cat >workloads-alloc.cfg <<-'CFG'
	{ "arms": [ { "name": "base", "revision": "glibc" },
	            { "name": "head", "revision": "jemalloc",
	              "env": { "LD_PRELOAD": "libjemalloc.so.2" } } ],
	  "null_arm": false, "reps": 6, "max_reps": 6, "seed": 13 }
	CFG
	run workloads-alloc --config workloads-alloc.cfg -w '=random-large/1|=small/8' --scale 0.02 \
		--no-sanity-gate
}
mk_memory_credit() {
	# glibc with large mmap/trim thresholds holds less than jemalloc: credit.
	cat >memory-credit.cfg <<-'CFG'
	{ "arms": [ { "name": "base", "env": { "LD_PRELOAD": "libjemalloc.so.2" } },
	            { "name": "head", "env": { "GLIBC_TUNABLES":
	              "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=33554432" } } ],
	  "reps": 6, "max_reps": 6, "seed": 14 }
	CFG
	run memory-credit --config memory-credit.cfg -w '=random-large/1' --scale 0.05
}
mk_memory_floor() {
	# The same artifact with a 64 MiB memory floor recorded: head's peak
	# fell by less than it, so no memory credit (and the reason is said).
	edit memory-floor memory-credit '.run.floors.bytes = 67108864'
}
mk_memory_fail() {
	# Head holds 6 MiB more: below the sanity gate, above every allowance.
	run memory-fail --seed 15 --reps 6 --max-reps 6 --scale 0.01 --metrics peak_rss,drain_rss,cpu \
		"$spin" "$spin extra_mib=6"
}
mk_metrics_subset() {
	run metrics-subset --seed 16 --reps 6 --max-reps 6 --metrics minor_faults,peak_rss \
		--no-null-arm "$(loop 10000)" "$(loop 10000)"
}
mk_p99() {
	run p99 --seed 17 --reps 6 --max-reps 6 --scale 0.01 --metrics p99,cpu --no-null-arm \
		"$spin" "$spin slowdown_pct=30"
}
mk_tolerance_margin() {
	# Per-metric tolerances and a wide equivalence margin on a control row.
	run tolerance-margin --seed 18 --reps 6 --max-reps 6 --no-null-arm \
		--tolerance 10 --tolerance cpu=25 --tolerance minor_faults=0 \
		--equivalence-margin 30 --controls command \
		"$(loop 10000)" "$(loop 10000)"
}
mk_few_reps() {
	# Fewer than 6 pairs: ranges, never intervals.
	run few-reps --seed 19 --reps 3 --max-reps 3 "$(loop 10000)" "$(loop 20000)"
}
mk_adaptive() {
	# Two rows: one decided at the first look, one taken on to the last.
	cat >adaptive.cfg <<-'CFG'
	{ "arms": [ { "name": "base", "argv": ["/bin/sh", "-c",
	                "x=0; while [ $x -lt 10000 ]; do x=$((x+1)); done", "sh"] },
	            { "name": "head", "argv": ["/bin/sh", "-c",
	                "n=10000; [ \"$1\" = slow ] && n=30000; x=0; while [ $x -lt $n ]; do x=$((x+1)); done", "sh"] } ],
	  "rows": [ { "name": "slow", "argv": ["slow"] }, { "name": "same", "argv": ["same"] } ],
	  "null_arm": false, "reps": 6, "max_reps": 12, "seed": 20 }
	CFG
	run adaptive --config adaptive.cfg
}
mk_budget() {
	run budget --seed 21 --reps 2 --max-reps 96 --budget 4s --no-null-arm \
		"sh -c 'sleep 0.3'" "sh -c 'sleep 0.3'"
}
mk_sanity_gate() {
	run sanity-gate --seed 22 --reps 6 --max-reps 6 --scale 0.01 "$spin" "$spin extra_mib=64"
}
mk_failed_exit() {
	# Row bad's head exits 3 with a message at once; row good runs on.
	cat >failed-exit.cfg <<-'CFG'
	{ "arms": [ { "name": "base", "argv": ["/bin/sh", "-c", "exit 0", "sh"] },
	            { "name": "head", "argv": ["/bin/sh", "-c",
	                "[ \"$1\" = bad ] && { echo 'head: cannot open bench.dat' >&2; exit 3; }; exit 0", "sh"] } ],
	  "rows": [ { "name": "good", "argv": ["good"] }, { "name": "bad", "argv": ["bad"] } ],
	  "null_arm": false, "reps": 6, "max_reps": 6, "seed": 23 }
	CFG
	run failed-exit --config failed-exit.cfg
}
mk_failed_signal() {
	# Head crashes (SIGSEGV) on its 4th run, in the middle of block 1.
	rm -f failed-signal.count
	c=$(pwd)/failed-signal.count
	run failed-signal --seed 24 --reps 6 --max-reps 6 --no-null-arm --arm "base=$(loop 1000)" \
		--arm "head=sh -c 'n=\$(cat $c 2>/dev/null || echo 0); echo \$((n+1)) >$c; [ \$n -lt 3 ] || { echo segfault >&2; kill -SEGV \$\$; }'"
}
mk_failed_timeout() {
	run failed-timeout --seed 25 --reps 2 --max-reps 2 --timeout 1 --no-null-arm \
		"sh -c 'sleep 0.1'" "sh -c 'sleep 5'"
}
mk_pool_shards() {
	# Three rows in two shards, the second on another (test) CPU model.
	cat >pool-shards.cfg <<-'CFG'
	{ "arms": [ { "name": "base", "argv": ["/bin/sh", "-c",
	                "x=0; while [ $x -lt $1 ]; do x=$((x+1)); done", "sh"] },
	            { "name": "head", "argv": ["/bin/sh", "-c",
	                "x=0; while [ $x -lt $(($1 * 3 / 2)) ]; do x=$((x+1)); done", "sh"] } ],
	  "rows": [ { "name": "n4000", "argv": ["4000"] }, { "name": "n8000", "argv": ["8000"] },
	            { "name": "n12000", "argv": ["12000"] } ],
	  "null_arm": false, "reps": 6, "max_reps": 6, "seed": 26 }
	CFG
	run shard1 --config pool-shards.cfg --shard 1/2
	PERFAB_TEST_CPU_MODEL='Test CPU @ 2.00GHz' run shard2 --config pool-shards.cfg --shard 2/2
	"$perfab" pool shard1.json shard2.json -o pool-shards.json
	echo "pool-shards: pool exited $?" >&2
	rm -f shard1.json shard2.json
}
mk_pool_blocks() {
	# The same row in two runs: their blocks concatenated.
	run blocks1 --seed 27 --reps 6 --max-reps 6 --scale 0.01 "$spin" "$spin slowdown_pct=10"
	run blocks2 --seed 28 --reps 6 --max-reps 6 --scale 0.01 "$spin" "$spin slowdown_pct=10"
	"$perfab" pool blocks1.json blocks2.json -o pool-blocks.json
	echo "pool-blocks: pool exited $?" >&2
	rm -f blocks1.json blocks2.json
}
mk_incomplete() {
	# Interrupted by SIGTERM (a background job ignores SIGINT) after rep 8:
	# the artifact holds 8 reps, its journal the rest up to the signal.
	rm -f incomplete.json incomplete.json.journal
	"$perfab" run --seed 29 --reps 24 --max-reps 24 --no-null-arm \
		"sh -c 'sleep 0.2'" "sh -c 'sleep 0.2'" --out incomplete.json \
		>incomplete.run.out 2>incomplete.run.err &
	pid=$!
	while ! grep -q 'rep 9/24 done' incomplete.run.err 2>/dev/null; do sleep 0.1; done
	kill -TERM "$pid"
	wait "$pid"
	echo "incomplete: run exited $?" >&2
}
mk_unbalanced() {
	# A complete artifact with its last rep cut: not whole blocks.
	edit unbalanced p2-nonull-fail '.rows[0].reps |= .[:-1]'
}
mk_hostile_rows() {
	# Names that must be escaped in every format: control characters (NL,
	# CR, TAB, ESC, BEL, DEL), an OSC title sequence, U+202E, HTML, XML
	# attribute quotes, Markdown table syntax; in rows, revision labels and
	# argv words (real run), and in the host's CPU model (jq edit).
	cat >hostile-rows.cfg <<-'CFG'
	{ "arms": [ { "name": "base", "revision": "v1 <b>bold</b> & \"dq\" 'sq'\n\u001b[31mred\u001b[0m",
	              "argv": ["/bin/sh", "-c", "exit 0", "<script>alert(1)</script>"] },
	            { "name": "head", "revision": "\u0007bell\r\ttab\u007fdel | `tick` *em*",
	              "argv": ["/bin/sh", "-c", "exit 0", "]]></x>&amp;"] } ],
	  "rows": [ { "name": "evil\noverall: PASS\u001b]0;title\u0007\u001b[31m" },
	            { "name": "<img src=x onerror=alert(1)>&amp;\"'" },
	            { "name": "md | pipe `code` *em* [l](http://x) <!-- c --> \u202eabc" } ],
	  "null_arm": false, "reps": 6, "max_reps": 6, "seed": 30 }
	CFG
	run hostile-rows.run --config hostile-rows.cfg
	edit hostile-rows hostile-rows.run \
		'.host.cpu_model = "CPU <i>\"x\"</i> & \u001b[2J\nfake line\u0007"'
	rm -f hostile-rows.run.json
}
mk_hostile_arm() {
	# An arm name no run can make: the reader refuses it, escaped.
	edit hostile-arm p2-nonull-fail '
		def r: if . == "head" then "he<b>ad\n\u001b[31m" else . end;
		.arms[1].name |= r
		| .rows[].executables |= with_entries(.key |= r)
		| .rows[].reps[] |= (.order |= map(r)
			| (.results, .status, .null_reasons, .checksums) |=
				(if type == "object" then with_entries(.key |= r) else . end))'
}

all="p2_null_fail p2_nonull_fail p2_pass p2_gain p2_inconclusive_spin p1_null p1_nonull
rule12_null rule12_nonull head_env3 arms4 workloads_spin workloads_alloc memory_credit
memory_floor memory_fail metrics_subset p99 tolerance_margin few_reps adaptive budget sanity_gate
failed_exit failed_signal failed_timeout pool_shards pool_blocks incomplete unbalanced
hostile_rows hostile_arm"
# shellcheck disable=SC2086 # the names are words
[ $# -gt 0 ] || set -- $all
for n in "$@"; do
	"mk_$(echo "$n" | tr - _)"
done
