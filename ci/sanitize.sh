#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/sanitize.sh [DIR] — perfab under the sanitizers and valgrind
# (doc/hacking.md "The sanitizer pass", doc/fuzzing.md).
# ci/sanitize.sh --print-selection — in a configured build tree: the tests
# of step 1 (ci/test.sh runs the others, so each test runs once).
#
#  1. an out-of-tree build in DIR/asan (default <top>/_sanitize/asan) with
#     -fsanitize=address,undefined -fno-sanitize-recover=all, and there,
#     with LeakSanitizer on (ASAN_OPTIONS detect_leaks=1), the tests that
#     reach memory-unsafe code, chosen by one rule:
#       - every Check program (tests/unit/, tests/sim/): all of the code,
#         case by case, including the edge cases a run rarely makes;
#       - the fuzz smoke (tests/fuzz/smoke.sh): libFuzzer on each parser;
#       - the end-to-end tests that give perfab bytes it did not write, or
#         cut its writes short: hostile or damaged artifacts, configs,
#         journals, workload reports and history databases, hostile names
#         and children, and a kill or a full disk in the middle of a write
#         (sanitize_e2e below). Lengths and indexes there come from
#         outside; the other end-to-end tests run the same code on
#         perfab's own well-formed data, and the plain pass runs them;
#       - the end-to-end tests that end a run or a row early, leaving its
#         structures half filled: a hook or a child that fails before the
#         first rep, a base that fails, a stop signal, a build that fails
#         in a bisection (run_hooks.sh, ledger_no_verdict.sh,
#         bisect_counts.sh).
#     They run here only, not in ci/test.sh's plain pass too, and as a
#     user's run does: counting instructions (valgrind where there is no
#     PMU), so the reader of valgrind's output is under the sanitizers
#     (counts_exact.sh), as is the count cache's reader of corrupt and
#     malformed files (counts_cache.sh);
#  2. valgrind memcheck (--leak-check=full) of the core unit tests
#     (test_stats, test_rotation_argv, test_artifact, test_format, test_values, test_workloads_suite, and the pure
#     modules: test_ledger, test_pool, test_runconf, test_options,
#     test_checklist) and of perfab itself: a small `perfab run` (ptrace
#     works under valgrind), `ledger`, `gate`, and the bad-input exits of
#     `ledger` and `run --config`.
#
# The workload programs (perfab-alloc, perfab-spin) are built with UBSan
# only: ASan's allocator, quarantine and shadow memory change exactly the
# RSS the memory tests measure, and LeakSanitizer cannot run in a process
# that perfab ptraces (it needs ptrace itself: "LeakSanitizer does not work
# under ptrace"). Their code is still under memcheck via
# test_workloads_suite.
#
# Prints the tests it ran, one summary line; exits 0 only when everything
# was clean. Environment: SANITIZE_CC (default clang, else gcc),
# VALGRIND_BUILD (a configured plain build to take the valgrind binaries
# from; default <top>/_build when it exists, else DIR/plain), FUZZ_SECONDS
# (the fuzz smoke's run per harness; default tests/fuzz/smoke.sh's, 0
# skips it), SANITIZE_TESTS (the tests to run instead of the selection,
# e.g. the whole suite: SANITIZE_TESTS=all).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

# The selection of step 1 (the rule is at the top of this file), from the
# TESTS of the Makefile in the current directory. A test named in
# sanitize_e2e that the tree no longer has is an error: a renamed test must
# not drop out of the pass unseen.
sanitize_e2e="tests/e2e/reliability_hostile_inputs.sh tests/e2e/ledger_corpus.sh
	tests/e2e/ledger_input.sh tests/e2e/memgate_input.sh tests/e2e/pool_refuse.sh
	tests/e2e/reliability_tamper.sh tests/e2e/reliability_resume_trust.sh tests/e2e/reliability_journal.sh
	tests/e2e/reliability_report_reader.sh tests/e2e/history_migrate.sh
	tests/e2e/history_foreign.sh tests/e2e/history_readonly.sh
	tests/e2e/reliability_small_hardening.sh tests/e2e/reliability_term_safe.sh
	tests/e2e/reliability_hostile_children.sh
	tests/e2e/reliability_kill9.sh tests/e2e/reliability_disk_full.sh tests/e2e/reliability_safe_write.sh
	tests/e2e/counts_exact.sh tests/e2e/counts_cache.sh
	tests/e2e/run_hooks.sh tests/e2e/ledger_no_verdict.sh tests/e2e/bisect_counts.sh"
# shellcheck source=ci/test-lists.sh
. "$top/ci/test-lists.sh"
selection() {
	all=$(all_tests)
	sel=
	case " $all " in *" tests/fuzz/smoke.sh "*) sel=" tests/fuzz/smoke.sh" ;; esac
	for t in $all; do
		case $t in tests/unit/* | tests/sim/*) sel="$sel $t" ;; esac
	done
	for t in $sanitize_e2e; do
		case " $all " in
		*" $t "*) sel="$sel $t" ;;
		*) echo "sanitize: '$t' is not a test of this tree: update sanitize_e2e in ci/sanitize.sh" >&2; return 1 ;;
		esac
	done
	echo "${sel# }"
}
if [ "${1:-}" = --print-selection ]; then
	selection
	exit
fi

out=${1:-$top/_sanitize}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=$(nproc)
t0=$(date +%s)

cc=${SANITIZE_CC:-}
if [ -z "$cc" ]; then
	for c in clang clang-14 gcc; do
		if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
	done
fi
san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
ubsan="-fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

# shellcheck disable=SC3013 # -nt: dash, bash and busybox have it
if ! [ -x "$top/configure" ] || ! [ "$top/configure" -nt "$top/configure.ac" ]; then
	(cd "$top" && autoreconf -fi)
fi

# ---------------------------------------------------------------- ASan
asan=$out/asan
mkdir -p "$asan"
cd "$asan"
if [ ! -f Makefile ]; then
	# configure's probe programs must not fail on LeakSanitizer reports.
	ASAN_OPTIONS=detect_leaks=0 "$top/configure" -q CC="$cc" \
		CFLAGS="-O1 -g $san" LDFLAGS="$san"
fi
make -j"$jobs" >build.log 2>&1 || { cat build.log; echo "sanitize: the ASan build failed"; exit 1; }

# Rebuild the workload programs with UBSan only (see above).
# shellcheck disable=SC2016 # make syntax, not shell
wl=$(printf '%s\n' 'pab-print-wl:' \
	'	@echo $(pkglibexec_PROGRAMS)' \
	'	@echo $(foreach p,$(pkglibexec_PROGRAMS),$(am_$(subst -,_,$(subst /,_,$(p:$(EXEEXT)=)))_OBJECTS))' |
	make -s -f Makefile -f - pab-print-wl)
wl_progs=$(echo "$wl" | sed -n 1p)
wl_objs=$(echo "$wl" | sed -n 2p)
# shellcheck disable=SC2086 # lists
rm -f $wl_progs $wl_objs
# shellcheck disable=SC2086
# DWARF 4: valgrind 3.19 cannot read clang 14's default DWARF 5 and would
# refuse to count the workloads (--counts sim).
make -j"$jobs" CFLAGS="-O1 -gdwarf-4 $ubsan" LDFLAGS="$ubsan" $wl_progs >>build.log 2>&1 ||
	{ cat build.log; echo "sanitize: rebuilding the workloads failed"; exit 1; }

sel=$(selection) || exit 1
case ${SANITIZE_TESTS:-} in
'') ;;
all) sel=$(all_tests) ;;
*) sel=$SANITIZE_TESTS ;;
esac
sel=${sel# }
# The longest tests of the pass start first (ci/test-lists.sh): those of
# the 10 slowest that ci/test.sh printed at recent runs.
long="tests/fuzz/smoke.sh tests/sim/test_gate_sim tests/e2e/reliability_hostile_inputs.sh
	tests/sim/test_calibrate_gate_sim tests/e2e/ledger_corpus.sh tests/e2e/bisect_counts.sh
	tests/e2e/counts_exact.sh tests/e2e/memgate_input.sh"
sel=$(long_first "$long" "$sel")
echo "sanitize: ASan+UBSan on $(echo "$sel" | wc -w) tests: $sel"

ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_odr_violation=2}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
find . -name '*.trs' -exec rm -f {} +
set +e
# One job more than CPUs: its end-to-end tests wait on their children.
make -j"$((jobs + 1))" -k check TESTS="$sel" >check.out 2>&1
rc=$?
set -e
trs=$(find . -name '*.trs')
count() { # PATTERN: how many test results match
	[ -n "$trs" ] || { echo 0; return; }
	# shellcheck disable=SC2086 # paths without blanks
	cat $trs | grep -c -E "^:test-result: ($1)" || true
}
a_pass=$(count PASS)
a_fail=$(count 'FAIL|ERROR|XPASS')
a_skip=$(count SKIP)
if [ "$rc" != 0 ] && [ "$a_fail" = 0 ]; then
	tail -30 check.out
	a_fail=1 # the build or the harness failed
fi
# shellcheck disable=SC2086,SC2013 # paths without blanks
for f in $(grep -l -E '^:test-result: (FAIL|ERROR|XPASS)' $trs 2>/dev/null); do
	log=${f%.trs}.log
	echo "=== $asan/$log"
	# A sanitizer report first (its stack), else the test's own FAIL
	# lines (a log's end may be later, passing steps), then the end.
	if grep -q -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
		grep -A25 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" | head -60
	else
		grep -A14 -E '^(FAIL|not ok)' "$log" | head -60
		echo "--- end of log"
		tail -20 "$log"
	fi
done
a_secs=$(( $(date +%s) - t0 ))
echo "sanitize: ASan+UBSan tests: $a_pass passed, $a_fail failed, $a_skip skipped ($a_secs s)"

# ------------------------------------------------------------- valgrind
t1=$(date +%s)
v_clean=0
v_bad=0
v_skip=0
if ! command -v valgrind >/dev/null 2>&1; then
	echo "sanitize: valgrind is not installed: memcheck pass skipped"
	v_bad=1
else
	plain=${VALGRIND_BUILD:-}
	if [ -z "$plain" ] && [ -f "$top/_build/Makefile" ]; then plain=$top/_build; fi
	if [ -z "$plain" ]; then
		plain=$out/plain
		mkdir -p "$plain"
		[ -f "$plain/Makefile" ] || (cd "$plain" && "$top/configure" -q CFLAGS="-O1 -g")
	fi
	unit="tests/unit/test_stats tests/unit/test_rotation_argv tests/unit/test_artifact tests/unit/test_format tests/unit/test_values tests/unit/test_workloads_suite
		tests/unit/test_ledger tests/unit/test_pool tests/unit/test_runconf
		tests/unit/test_options tests/unit/test_checklist"
	# shellcheck disable=SC2086
	make -C "$plain" -j"$jobs" -k all $unit >"$out/plain-build.log" 2>&1 || true
	vlog=$out/valgrind
	rm -rf "$vlog"
	mkdir -p "$vlog"
	# 109: valgrind found errors (perfab's own exit codes are 0-7).
	vg="valgrind -q --error-exitcode=109 --leak-check=full
		--errors-for-leak-kinds=definite,indirect
		--show-leak-kinds=definite,indirect --track-fds=no"
	# vcheck NAME WANT DIR CMD...: memcheck CMD in DIR. Clean when it
	# exits with one of the codes in WANT (perfab's verdicts, 2 for bad
	# input) and valgrind printed nothing (-q: any "==PID==" line is a
	# report). Its outcome (clean, bad, skip) goes to NAME.result, what to
	# show to NAME.report.
	vcheck() {
		name=$1 want=$2 dir=$3
		shift 3
		vr=0
		# shellcheck disable=SC2086 # $vg is a command line
		(cd "$dir" && HWLOC_COMPONENTS=-x86 CK_FORK=no top_srcdir=$top \
			exec $vg "$@") >"$vlog/$name.out" 2>"$vlog/$name.log" || vr=$?
		if grep -q 'Unsupported clone() flags' "$vlog/$name.log"; then
			echo skip >"$vlog/$name.result"
			echo "valgrind: $name: skipped: perfab starts children with clone(CLONE_VM), which valgrind cannot run ($(grep -m1 'Unsupported clone' "$vlog/$name.log" | sed 's/^==[0-9]*== //'))" >"$vlog/$name.report"
			return 0
		fi
		case " $want " in
		*" $vr "*)
			if ! grep -q -E '^==[0-9]+==' "$vlog/$name.log"; then
				echo clean >"$vlog/$name.result"
				return 0
			fi ;;
		esac
		echo bad >"$vlog/$name.result"
		{
			echo "=== valgrind: $name: exit $vr (wanted $want): $*"
			grep -v -E '^hwloc|^May be reenabled|^and reloading' "$vlog/$name.log" | head -60
		} >"$vlog/$name.report"
	}
	# vrun NAME WANT DIR CMD...: vcheck in the background, $jobs at a
	# time (the memcheck runs are independent and each uses one CPU; POSIX
	# sh has no "wait for any", so they go in batches). vdone waits for
	# the last batch and counts the outcomes, in the order they were run.
	vnames=
	vbatch=0
	vrun() {
		vnames="$vnames $1"
		vcheck "$@" &
		vbatch=$((vbatch + 1))
		if [ "$vbatch" -ge "$jobs" ]; then wait; vbatch=0; fi
	}
	vdone() {
		wait
		for name in $vnames; do
			r=$(cat "$vlog/$name.result" 2>/dev/null || echo bad)
			case $r in
			clean) v_clean=$((v_clean + 1)) ;;
			skip) v_skip=$((v_skip + 1)) ;;
			*) v_bad=$((v_bad + 1)) ;;
			esac
			if [ -f "$vlog/$name.report" ]; then cat "$vlog/$name.report"
			elif [ "$r" = bad ]; then echo "=== valgrind: $name: no outcome (see $vlog/$name.log)"; fi
		done
	}
	for u in $unit; do
		if [ -x "$plain/$u" ]; then
			vrun "${u#tests/unit/}" 0 "$plain" "$plain/$u"
		else
			echo "=== valgrind: $u was not built (is check installed?)"
			v_bad=$((v_bad + 1))
		fi
	done
	P=$plain/src/perfab
	w=$(mktemp -d "${TMPDIR:-/tmp}/perfab-vg.XXXXXX")
	echo 'not json' >"$w/bad.json"
	printf '{"arms": [{"name": "base", "argv": 7}]}' >"$w/bad-config.json"
	spin=$plain/workloads/perfab-spin
	# One block, no drain wait: a row that runs to its cap (96 reps of a
	# 1 s drain wait) took 5 minutes under memcheck and tested nothing more.
	printf '{ "arms": [ { "name": "base", "argv": ["%s", "work=2000", "drain_ms=0", "release_bound_ms=0"] },\n' "$spin" >"$w/config.json"
	printf '            { "name": "head", "argv": "%s work=2000 drain_ms=0 release_bound_ms=0" } ],\n' "$spin" >>"$w/config.json"
	printf '  "reps": 3, "max_reps": 3, "timeout": 60 }\n' >>"$w/config.json"
	# perfab run itself: the tracer under memcheck, children native.
	vrun run "0 1 3" "$w" "$P" run -q --arm base=/bin/true --arm head=/bin/true \
		--null-arm --reps 3 --out vg-run.json
	vrun run-config-workload "0 1 3" "$w" "$P" run -q --config config.json --out wl.json
	vrun run-bad-config 2 "$w" "$P" run -q --config bad-config.json --out never.json
	# The ledger on a fresh artifact (made natively) and on the seed
	# artifacts of the fuzz corpus (verdicts, refusals, sanity gate).
	(cd "$w" && "$P" run -q --arm base=/bin/true --arm head=/bin/true --null-arm \
		--reps 6 --out vg.json >/dev/null 2>&1) || true
	vrun ledger "0 1 3" "$w" "$P" ledger vg.json
	vrun ledger-json "0 1 3" "$w" "$P" ledger --format json vg.json
	vrun gate "0 1 3" "$w" "$P" gate vg.json
	for a in "$top"/tests/fuzz/corpus/artifact/*.json; do
		vrun "ledger-$(basename "$a" .json)" "0 1 2 3 4 5" "$w" "$P" ledger --format markdown "$a"
	done
	vrun ledger-bad-json 2 "$w" "$P" ledger bad.json
	vrun ledger-no-file 2 "$w" "$P" ledger none.json
	vdone
	rm -rf "$w"
fi
v_secs=$(( $(date +%s) - t1 ))
echo "sanitize: valgrind memcheck: $v_clean clean, $v_bad with errors, $v_skip skipped ($v_secs s)"

total=$(( $(date +%s) - t0 ))
ok=yes
[ "$a_fail" = 0 ] && [ "$v_bad" = 0 ] || ok=no
echo "sanitize: ASan+UBSan $a_pass passed, $a_fail failed, $a_skip skipped; valgrind $v_clean clean, $v_bad with errors, $v_skip skipped; $total s; $( [ $ok = yes ] && echo clean || echo NOT CLEAN)"
[ "$ok" = yes ]
