# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_lib.sh — helpers for the workload tests (tests/workloads_*.sh).
# Sourced, not run. Finds the built programs, gives each test a scratch
# directory, and runs a row with its report written through PERFAB_REPORT.

: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${PERFAB_WORKLOAD_DIR:=$top_builddir/workloads}"
ALLOC="$PERFAB_WORKLOAD_DIR/perfab-alloc"
SPIN="$PERFAB_WORKLOAD_DIR/perfab-spin"
JEMALLOC=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2

# The allocator rows of the suite; workloads_suite.sh checks this list
# against the programs' own --help, so a new row cannot be missed here.
ALLOC_ROWS="large-class/8 large-class-ephemeral/8 random-large/8
random-large-bursty/8 random-large/1 small/8 larson/1 larson/8"

# Short drain windows and pauses keep every run well under a second; the
# tests check relations and exact counts, never elapsed times.
FAST="drain_ms=20 release_bound_ms=50"

if ! command -v jq >/dev/null 2>&1; then
	echo "SKIP: jq is needed to read the reports (apt-get install jq)" >&2
	exit 77
fi
for p in "$ALLOC" "$SPIN"; do
	if [ ! -x "$p" ]; then
		echo "FAIL: '$p' is not built; run make first" >&2
		exit 1
	fi
done

if [ ! -r "$JEMALLOC" ]; then
	echo "note: $JEMALLOC not found (apt-get install libjemalloc2):" \
		"the jemalloc checks are skipped" >&2
fi

WL_TMP=$(mktemp -d "${TMPDIR:-/tmp}/perfab-wl.XXXXXX") || exit 1
trap 'rm -rf "$WL_TMP"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

pass() {
	echo "ok: $*"
}

# Finish the test: exit 1 if anything failed.
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed" >&2
		exit 1
	fi
	exit 0
}

# run_row OUT PROGRAM ROW [key=value...]: run ROW through the protocol
# (environment as perfab sets it; PERFAB_SCALE, PERFAB_SEED and
# PERFAB_MODE may be set by the caller) and leave the report in OUT.
# Returns the program's exit status.
run_row() {
	out=$1 prog=$2 row=$3
	shift 3
	rm -f "$out"
	PERFAB_PROTOCOL=perfab-workload/1 PERFAB_ROW="$row" \
		PERFAB_SCALE="${PERFAB_SCALE:-0.05}" \
		PERFAB_SEED="${PERFAB_SEED:-42}" \
		PERFAB_MODE="${PERFAB_MODE:-throughput}" \
		PERFAB_REPORT="$out" "$prog" "$@"
}

# jqr FILE FILTER: a field of a report, raw.
jqr() {
	jq -r "$2" "$1"
}

# The largest error of the kernel's per-CPU RSS counters, in bytes: each
# CPU may hold up to max(32, 2 * ncpus) pages not yet folded into the
# total that statm and VmHWM read (percpu_counter batch, Linux >= 6.2).
rss_slack_bytes() {
	n=$(getconf _NPROCESSORS_CONF 2>/dev/null || echo 2)
	b=$((2 * n))
	[ "$b" -lt 32 ] && b=32
	s=$((n * b * 4096))
	# Kernels before 6.2 cache RSS per task (SPLIT_RSS_COUNTING) and fold
	# it in lazily: seen here as 266 KiB missing from a 64 MiB delta. Never
	# allow less than 2 MiB (3% of the 64 MiB knobs the tests use).
	[ "$s" -lt $((2 * 1048576)) ] && s=$((2 * 1048576))
	echo "$s"
}
