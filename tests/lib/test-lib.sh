# SPDX-License-Identifier: GPL-3.0-or-later
# tests/lib/test-lib.sh — the one helper library of perfab's shell tests
# (tests/e2e/, tests/static/, tests/fuzz/smoke.sh). Every script starts
#
#   . "${top_srcdir}/tests/lib/test-lib.sh"
#
# The harness (AM_TESTS_ENVIRONMENT) exports top_srcdir, top_builddir,
# PERFAB (the built binary) and PERFAB_WORKLOAD_DIR; by hand, run one test
# with `make check TESTS=tests/e2e/NAME.sh`, or set top_srcdir (and
# top_builddir for an out-of-tree build) and run it with sh.
#
# One convention for the result, automake's: exit 0 pass, 1 fail (fail),
# 77 skip (skip: a tool the test needs is optional and absent, or the
# machine cannot do it), 99 hard error (hard_error, require: the test
# itself cannot run — a required tool is missing, a program is not
# built). A failing check ends the test at once, with its message.
#
# Sections: core (every test), workloads (the workload programs run
# through perfab-workload/1), pool (artifacts of tiny real runs, refusal
# checks), memgate (a battery of scenarios and its baseline).
set -u

# ------------------------------------------------------------------ core

: "${top_srcdir:?top_srcdir must point at the source tree}"
: "${top_builddir:=$top_srcdir}"
: "${PERFAB:=$top_builddir/src/perfab}"
: "${PERFAB_WORKLOAD_DIR:=$top_builddir/workloads}"
WL=$PERFAB_WORKLOAD_DIR

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

hard_error() {
	echo "ERROR: $*" >&2
	exit 99
}

# require TOOL...: a hard error unless every TOOL is on PATH.
require() {
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 || hard_error "$tool is required"
	done
}

# pass MSG: note a check that held (the log shows what was checked).
pass() {
	echo "ok: $*"
}

require jq

# The scratch directory, removed on exit (a test that sets its own EXIT
# trap removes it there; PERFAB_TEST_KEEP=1 keeps it, to look at a
# failure); every test runs inside it.
T=$(mktemp -d "${TMPDIR:-/tmp}/perfab-test.XXXXXX") || hard_error "no scratch directory"
trap '[ -n "${PERFAB_TEST_KEEP:-}" ] || rm -rf "$T"' EXIT
cd "$T" || hard_error "cannot enter '$T'"

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT. Output kept in
# $T/out and $T/err for later greps.
expect_rc() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "--- stdout" >&2; cat "$T/out" >&2
		echo "--- stderr" >&2; cat "$T/err" >&2
		fail "'$*' exited $rc, expected $want"
	fi
}

# grep_err PATTERN: the last command's stderr must match PATTERN.
grep_err() {
	grep -q -- "$1" "$T/err" || { cat "$T/err" >&2; fail "stderr lacks '$1'"; }
}

grep_out() {
	grep -q -- "$1" "$T/out" || { cat "$T/out" >&2; fail "stdout lacks '$1'"; }
}

# A verdict is known exactly wherever it can be, and said with expect_rc:
# a 2x slowdown FAILs, fewer than 6 reps are INCONCLUSIVE (3), a recorded
# artifact's ledger gives its recorded verdict. Where noise may pick one of
# two, the property that excludes the third is named; no helper accepts
# every verdict.

# expect_two_of RCS PROPERTY CMD...: CMD exits with one of the two codes
# RCS ("0|3", "1|3"); PROPERTY says why both are right.
expect_two_of() {
	_rcs=$1
	_property=$2
	shift 2
	case $_rcs in 0\|3 | 1\|3) ;; *) fail "expect_two_of: '$_rcs' is not two verdicts" ;; esac
	if [ -z "$_property" ] || command -v -- "$_property" >/dev/null 2>&1; then
		fail "expect_two_of without the property it checks: $*"
	fi
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" = "${_rcs%|*}" ] || [ "$rc" = "${_rcs#*|}" ]; then
		pass "$_property (exit $rc)"
	else
		echo "--- stdout" >&2; cat "$T/out" >&2
		echo "--- stderr" >&2; cat "$T/err" >&2
		fail "$_property: '$*' exited $rc, expected $_rcs"
	fi
}

# expect_not_fail PROPERTY CMD...: PASS (0) or INCONCLUSIVE (3), e.g. "an
# A/A run does not FAIL" (with its null arm, which guards FAIL).
expect_not_fail() {
	expect_two_of "0|3" "$@"
}

# exact_counts: true when a run with default settings counts instructions
# exactly here — under valgrind (no hardware PMU, valgrind installed) and
# PERFAB_COUNTS not off (doc/method.md section 13) — so that a change of
# work decides a row at its first look, with 2 or 3 reps.
# if_exact A B: prints A when exact_counts, else B (an expected status).
exact_counts() {
	if [ -z "${_exact_counts:-}" ]; then
		_exact_counts=no
		[ "${PERFAB_COUNTS:-auto}" = off ] ||
			! "$PERFAB" env 2>/dev/null | grep -q 'instructions are counted by valgrind' ||
			_exact_counts=yes
	fi
	[ "$_exact_counts" = yes ]
}
if_exact() {
	if exact_counts; then echo "$1"; else echo "$2"; fi
}

# first_block_fail FILE: true when the artifact's first row stopped in its
# first block (fewer than 6 reps) because its exact counts FAILed it
# (doc/method.md §8), which its ledger must then show; false when it ran
# on to a look. Whether counts are exact for a small program can vary from
# run to run (a program that polls a clock), so a test of a large effect
# reads which it was, and checks each case's own facts.
first_block_fail() {
	_n=$(jq '.rows[0].reps | length' "$1")
	[ "$_n" -lt 6 ] || return 1
	"$PERFAB" ledger --format json "$1" >"$T/first-block.json" 2>/dev/null
	jq -e '[.rows[0].cells[] | select(.metric == "instructions") |
		.verdict == "FAIL" and .exact == true] == [true]' "$T/first-block.json" >/dev/null ||
		fail "$1: its row stopped at $_n reps without an exact FAIL of its counts"
}

# expect_not_pass PROPERTY CMD...: FAIL (1) or INCONCLUSIVE (3), e.g. "a
# 1.5x slower head does not PASS" (few reps on a loaded machine may leave
# it undecided).
expect_not_pass() {
	expect_two_of "1|3" "$@"
}

# ------------------------------------------------------------- workloads
# The workload programs (tests/e2e/workloads_*.sh run them directly).

ALLOC="$WL/perfab-alloc"
SPIN="$WL/perfab-spin"
JEMALLOC=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2

# The allocator rows of the suite; workloads_suite.sh checks this list
# against the programs' own --help, so a new row cannot be missed here.
ALLOC_ROWS="large-class/8 large-class-ephemeral/8 random-large/8
random-large-bursty/8 random-large/1 small/8 larson/1 larson/8"

# Short drain windows and pauses keep every run well under a second; the
# tests check relations and exact counts, never elapsed times.
FAST="drain_ms=20 release_bound_ms=50"

# need_workloads: a hard error unless the workload programs are built; a
# note when jemalloc is absent (the jemalloc checks are then skipped).
need_workloads() {
	for p in "$ALLOC" "$SPIN"; do
		[ -x "$p" ] || hard_error "'$p' is not built; run make first"
	done
	if [ ! -r "$JEMALLOC" ]; then
		echo "note: $JEMALLOC not found (apt-get install libjemalloc2):" \
			"the jemalloc checks are skipped" >&2
	fi
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

# ------------------------------------------------------------------ pool
# Artifacts from real runs of the calibration workload, kept tiny (one
# rotation block of three arms); refusal cases are jq edits of a real
# artifact. The refusal rules themselves are unit-tested on committed
# artifacts (tests/unit/test_pool.c); these helpers check the commands.

SPIN_CMD="$SPIN work=1000 drain_ms=10 release_bound_ms=20"

# fast_run OUT [ARGS...]: a complete, balanced artifact in one block.
fast_run() {
	out=$1
	shift
	# Three reps: INCONCLUSIVE (no 95% interval below 6 reps).
	expect_rc 3 "$PERFAB" run -q --null-arm --reps 3 --max-reps 3 --no-sanity-gate \
		--arm "base=$SPIN_CMD" --arm "head=$SPIN_CMD" "$@" --out "$out"
	[ -s "$out" ] || fail "no artifact '$out'"
}

# shard_run ARGS...: one run of the three-row experiment the shard tests
# split (rows r1..r3: gzip of three inputs of different sizes), in one
# block of base, head and null, the same command in each arm, counted
# under valgrind (--counts sim). Its verdict is known: gzip executes the
# same instructions in every rep, so the required cell (instructions) is
# an exact PASS at n = 3 and the guards cannot FAIL below 6 reps. A row
# whose reps were mixed with another row's (a pooling bug) is no longer
# exact, and INCONCLUSIVE.
shard_run() {
	require valgrind gzip
	if [ ! -s cfg.json ]; then
		seq 1 3000 >in1.txt
		seq 1 6000 >in2.txt
		seq 1 9000 >in3.txt
		gz=$(command -v gzip)
		cat >cfg.json <<JSON
{"arms": [{"name": "base", "argv": ["$gz", "-6", "-c"]}, {"name": "head", "argv": ["$gz", "-6", "-c"]}],
 "rows": [{"name": "r1", "argv": ["$T/in1.txt"]}, {"name": "r2", "argv": ["$T/in2.txt"]},
          {"name": "r3", "argv": ["$T/in3.txt"]}]}
JSON
	fi
	# Instructions alone are judged: a time guard has no interval at 3
	# reps and would hold every row INCONCLUSIVE (doc/method.md 8a).
	expect_rc 0 "$PERFAB" run -q --config cfg.json --null-arm --reps 3 --max-reps 3 \
		--counts sim --metrics instructions "$@"
}

# expect_exact_pass FILE: every row of the ledger JSON FILE is PASS on an
# exact instructions cell (what shard_run's rows are, pooled or not).
expect_exact_pass() {
	jq -e '.overall == "PASS" and ([.rows[] | .verdict == "PASS" and
		([.cells[] | select(.metric == "instructions") |
		  .verdict == "PASS" and .exact == true] == [true])] | all)' "$1" >/dev/null ||
		fail "not every row an exact PASS: $(jq -c '[.rows[] | [.row, .verdict]], .overall' "$1")"
}

# expect_refused PATTERN FILE...: pool, ledger and gate of FILE... all
# refuse with exit 4 and a reason matching PATTERN, and pool writes nothing.
expect_refused() {
	pattern=$1
	shift
	rm -f pooled.json
	expect_rc 4 "$PERFAB" pool "$@" -o pooled.json
	grep_err "refused to pool"
	grep_err "$pattern"
	[ ! -e pooled.json ] || fail "a refused pool wrote pooled.json"
	expect_rc 4 "$PERFAB" ledger "$@"
	grep_err "$pattern"
	[ ! -s "$T/out" ] || fail "a refused ledger printed a verdict"
	expect_rc 4 "$PERFAB" gate "$@"
	grep_err "$pattern"
}

# expect_pools FILE...: the same files pool (exit 0): the edit under test
# really is the only difference.
expect_pools() {
	rm -f pooled.json
	expect_rc 0 "$PERFAB" pool "$@" -o pooled.json
}

# --------------------------------------------------------------- memgate
# A three-scenario battery of the calibration workload holding 4, 16 and
# 24 MiB, and runs of it kept short (2 reps, 1000 iterations).

# battery FILE [ROW_ARGS_FOR_large]: a config whose "large" row gets the
# extra arguments (a leak, more memory) as a JSON array body, e.g.
# '"leak_mib=16"'.
battery() {
	extra=${2:+, $2}
	cat >"$1" <<JSON
{"arms": [{"name": "base", "argv": ["$SPIN", "work=1000", "drain_ms=10", "release_bound_ms=20"]},
          {"name": "head", "argv": ["$SPIN", "work=1000", "drain_ms=10", "release_bound_ms=20"]}],
 "rows": [{"name": "small", "argv": ["extra_mib=4"]},
          {"name": "medium", "argv": ["extra_mib=16"]},
          {"name": "large", "argv": ["extra_mib=24"$extra]}]}
JSON
}

# runs CONFIG PREFIX COUNT [ARGS...]: COUNT runs, PREFIX1.json ...
runs() {
	cfg=$1 prefix=$2 count=$3
	shift 3
	i=1
	while [ "$i" -le "$count" ]; do
		# Two reps a row: INCONCLUSIVE (no 95% interval below 6 reps).
		expect_rc 3 "$PERFAB" run -q --config "$cfg" --reps 2 --max-reps 2 --no-sanity-gate "$@" \
			--out "$prefix$i.json"
		i=$((i + 1))
	done
}

# A baseline from three runs of the plain battery: baseline.json.
make_baseline() {
	battery plain.json
	runs plain.json base 3
	expect_rc 0 "$PERFAB" memgate record base1.json base2.json base3.json -o baseline.json
	grep_err "only 3 runs"
	jq -e '.schema == "perfab-memgate/1" and .arm == "head" and .runs == 3 and
	       (.scenarios | keys_unsorted) == ["small", "medium", "large"] and
	       (.scenarios | all(. > 1048576))' baseline.json >/dev/null ||
		fail "baseline: $(cat baseline.json)"
}
