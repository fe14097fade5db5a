#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/mutate.sh — the mutation run over the code that decides verdicts
# (`make mutate`; doc/hacking.md "Mutation run"). Each mutant is one small
# deliberate mistake (the operators are listed in ci/mutate-gen.py: a
# comparison flipped, a condition negated, a constant moved by one or by an
# epsilon, an error return dropped, + and - swapped), applied alone to a
# scratch copy of the tree, rebuilt out of tree and run against the fast
# tests of its file (for a file whose mistakes can be reads past an
# array, also a Check case under valgrind's memcheck, or for one with
# stack arrays, a unit test built with AddressSanitizer). A mutant some test
# fails on is killed; one every test passes survived, unless
# ci/mutate-equivalent.txt lists it as equivalent (it cannot change any
# behaviour), with the reason. A mutant that does not compile is stillborn,
# and one whose tests run past TIMEOUT is a timeout: neither is counted in
# the score (a timeout is listed, as a loaded machine makes them too).
#
# Environment:
#   FILES    the source files to mutate (default: stats/*.c src/judge/*.c
#            src/model/pool.c src/model/pool_check.c src/model/rotation.c)
#   MAX      at most this many mutants per file, a stable sample spread by
#            a hash of each mutant's text (default 12; 0 = every mutant)
#   FULL     FULL=1 is MAX=0: every generated mutant of each file
#   SKIP     leave out the first SKIP mutants of each file's hash order
#            before taking MAX (default 0; SKIP=12 is the next sample)
#   JOBS     mutants run at once, each in its own scratch tree (default 1,
#            at most 2: the machine is shared)
#   TIMEOUT  seconds a mutant's build and tests may take (default 300)
#   LIST     run the mutants of this file (lines of a previous run's
#            mutants.tsv, e.g. its survivors) instead of FILES and MAX
#   MUTATE_DIR  the scratch directory (default a new one under $TMPDIR,
#            removed at the end unless KEEP=1)
#
# Output: one line per mutant (killed / survived / timeout / equivalent /
# stillborn),
# then a table per file: killed / non-equivalent and the score, and each
# survivor's file:line and change. Exit 0 when every file scores at least
# MIN_SCORE percent (default 95), 1 otherwise.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=ci/scratch-tree.sh
. "$top/ci/scratch-tree.sh"
FILES=${FILES:-"$(cd "$top" && echo stats/*.c src/judge/*.c) src/model/pool.c src/model/pool_check.c src/model/rotation.c"}
MAX=${MAX:-12}
[ "${FULL:-0}" != 1 ] || MAX=0
SKIP=${SKIP:-0}
JOBS=${JOBS:-1}
TIMEOUT=${TIMEOUT:-300}
MIN_SCORE=${MIN_SCORE:-95}
[ "$SKIP" -ge 0 ] 2>/dev/null || { echo "mutate: SKIP '$SKIP' is not a count" >&2; exit 2; }
[ "$MAX" -ge 0 ] 2>/dev/null || { echo "mutate: MAX '$MAX' is not a count" >&2; exit 2; }
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
[ "$JOBS" -le 2 ] || JOBS=2
gen="python3 $top/ci/mutate-gen.py"
equiv=$top/ci/mutate-equivalent.txt


# The fast tests every mutant runs, cheapest first (the first failure ends
# the mutant), and the extra tests of files they do not reach.
unit_tests="tests/unit/test_ledger tests/unit/test_pool tests/unit/test_artifact tests/unit/test_format tests/unit/test_rotation_argv tests/unit/test_values tests/unit/test_stats tests/unit/test_simcount"
# Only tests whose outcome does not depend on the machine: a test that a
# loaded machine can fail kills mutants it never reached (recorded
# artifacts and seeded simulations only; no test here starts a measured
# run, so ledger_fixes.sh and pool_refuse.sh, which do, are not).
e2e_tests="tests/e2e/ledger_corpus.sh"
sim_tests="tests/sim/test_stats_sim"
extra_tests() {
	case $1 in
	# (memcheck:PROGRAM:CASE: that Check case under valgrind's memcheck,
	# for a mutant whose only effect is a read past an array; asan:PROGRAM:
	# that program built with AddressSanitizer, which also sees the stack.)
	stats/calibrate.c) echo tests/sim/test_calibrate_sim tests/sim/test_calibrate_gate_sim memcheck:tests/unit/test_stats:changes ;;
	src/store/calibration.c) echo tests/sim/test_calibrate_gate_sim ;;
	stats/order.c) echo memcheck:tests/unit/test_stats:order ;;
	stats/drift.c) echo tests/sim/test_drift_sim ;;
	stats/edivisive.c | stats/pab_pcg32.c) echo tests/unit/test_history_stats tests/sim/test_drift_sim ;;
	src/judge/memgate.c) echo memcheck:tests/unit/test_ledger:core tests/e2e/memgate_input.sh tests/e2e/memgate_pass.sh tests/e2e/memgate_filtered.sh ;;
	# Loops over the metric table's stack arrays: a bound moved by one
	# reads or writes past them, which only AddressSanitizer sees.
	src/judge/ledger.c) echo asan:tests/unit/test_ledger ;;
	# The history's cells and drift: the history commands on databases and
	# artifacts that are recorded, not measured.
	src/judge/history.c) echo tests/e2e/history_record.sh tests/e2e/history_html.sh tests/e2e/history_migrate.sh ;;
	ALL) for f in stats/calibrate.c src/store/calibration.c stats/order.c stats/drift.c stats/edivisive.c src/judge/memgate.c src/judge/ledger.c src/judge/history.c; do
		extra_tests $f
	     done ;;
	esac
}
programs() {
	for t in $unit_tests $sim_tests $(extra_tests "$1"); do
		case $t in *.sh | memcheck:* | asan:*) ;; *) echo "$t" ;; esac
	done
	echo src/perfab
}

# One scratch tree per job (ci/scratch-tree.sh), built once.
setup_tree() {
	j=$1
	src=$work/src$j
	bld=$work/build$j
	scratch_tree "$top" "$src" "$bld"
	make -C "$bld" -s -j"$JOBS" all >/dev/null 2>&1
	# shellcheck disable=SC2046
	make -C "$bld" -s -j"$JOBS" $(programs stats/drift.c) $(programs src/judge/memgate.c) \
		$(programs stats/calibrate.c) $(programs stats/edivisive.c) >/dev/null 2>&1
	# The AddressSanitizer build of the same sources, for the asan: tests.
	if [ ! -f "$work/asan$j/Makefile" ]; then
		mkdir -p "$work/asan$j"
		(cd "$work/asan$j" && "$src/configure" ${PERFAB_CONFIGURE_FLAGS:-} \
			CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" \
			LDFLAGS="-fsanitize=address" >/dev/null)
	fi
	make -C "$work/asan$j" -s -j"$JOBS" tests/unit/test_ledger >/dev/null 2>&1
	# A mutation run means nothing if the tests fail without a mutant.
	if by=$(sh "$top/ci/mutate.sh" --run-tests "$work" "$j" ALL); then :; else
		echo "mutate: $by fails on the unmutated tree; fix that first" >&2
		exit 2
	fi
}

# run_tests J FILE: the tests of FILE in tree J; 0 when every one passes.
run_tests() {
	bld=$work/build$1
	(
		cd "$bld"
		top_srcdir=$work/src$1 top_builddir=$bld PERFAB=$bld/src/perfab \
			PERFAB_WORKLOAD_DIR=$bld/workloads CK_DEFAULT_TIMEOUT=600 PERFAB_COUNTS=off
		export top_srcdir top_builddir PERFAB PERFAB_WORKLOAD_DIR CK_DEFAULT_TIMEOUT PERFAB_COUNTS
		for t in $unit_tests $e2e_tests $sim_tests $(extra_tests "$2"); do
			rc=0
			case $t in
			*.sh) sh "$top_srcdir/$t" >/dev/null 2>&1 || rc=$? ;;
			asan:*)
				make -C "$work/asan$1" -s -j1 "${t#asan:}" >/dev/null 2>&1 &&
					ASAN_OPTIONS=detect_leaks=0 CK_FORK=no "$work/asan$1/${t#asan:}" \
					>/dev/null 2>&1 || rc=$? ;;
			memcheck:*)
				command -v valgrind >/dev/null || continue
				mc=${t#memcheck:}
				CK_RUN_CASE=${mc#*:} CK_FORK=no valgrind -q --error-exitcode=9 "./${mc%%:*}" \
					>/dev/null 2>&1 || rc=$? ;;
			*) "./$t" >/dev/null 2>&1 || rc=$? ;;
			esac
			[ "$rc" = 0 ] || [ "$rc" = 77 ] || { echo "$t"; exit 1; }
		done
		exit 0
	)
}

# (internal) --run-tests WORK J FILE: run_tests in a process of its own, so
# that timeout(1) can end it.
if [ "${1:-}" = --run-tests ]; then
	work=$2
	run_tests "$3" "$4"
	exit $?
fi

work=${MUTATE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/perfab-mutate.XXXXXX")}
mkdir -p "$work"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# is_equivalent FILE OP NTH ORIGINAL: listed in ci/mutate-equivalent.txt
# (FILE<TAB>OP<TAB>NTH<TAB>ORIGINAL<TAB>REASON).
is_equivalent() {
	[ -f "$equiv" ] || return 1
	awk -F '\t' -v f="$1" -v o="$2" -v n="$3" -v t="$4" \
		'!/^#/ && $1 == f && $2 == o && $3 == n && $4 == t { found = 1 } END { exit !found }' "$equiv"
}

# mutant J LINE: run one mutant (a line of the list) in tree J and print
# its outcome line.
mutant() {
	j=$1
	printf '%s\n' "$2" | {
		IFS='	' read -r file line op nth old new
		src=$work/src$j
		bld=$work/build$j
		if is_equivalent "$file" "$op" "$nth" "$old"; then
			printf 'equivalent\t%s:%s\t%s\t%s\n' "$file" "$line" "$op" "$new"
			exit 0
		fi
		cp "$top/$file" "$src/$file"
		$gen apply "$src/$file" "$line" "$op" "$nth"
		# shellcheck disable=SC2046
		if ! timeout "$TIMEOUT" make -C "$bld" -s -j1 $(programs "$file") >/dev/null 2>&1; then
			outcome=stillborn by=build
		else
			rc=0
			by=$(timeout "$TIMEOUT" sh "$top/ci/mutate.sh" --run-tests "$work" "$j" "$file") ||
				rc=$?
			if [ "$rc" = 0 ]; then
				outcome=survived by=
			elif [ "$rc" = 124 ] || [ -z "$by" ]; then
				# Past the timeout: a loaded machine is as likely as a
				# mutant that loops; neither killed nor survived.
				outcome=timeout by="${by:+$by, }past ${TIMEOUT} s"
			else
				outcome=killed
			fi
		fi
		cp "$top/$file" "$src/$file"
		printf '%s\t%s:%s\t%s\t%s\t%s\n' "$outcome" "$file" "$line" "$op" "$new" "$by"
	}
}

list=$work/mutants.tsv
if [ -n "${LIST:-}" ]; then
	cp "$LIST" "$list.new" || { echo "mutate: cannot read LIST '$LIST'" >&2; exit 2; }
	mv "$list.new" "$list"
	FILES=$(cut -f1 "$list" | sort -u)
else
: >"$list"
fi
for f in $FILES; do
	[ -z "${LIST:-}" ] || break
	[ -f "$top/$f" ] || { echo "mutate: no file '$f'" >&2; exit 2; }
	(cd "$top" && $gen list "$f") |
		while IFS= read -r m; do
			printf '%s\t%s\n' "$(printf '%s' "$m" | cut -f1,3,4,5 | cksum | cut -d' ' -f1)" "$m"
		done | sort -n | tail -n +"$((SKIP + 1))" |
		{ if [ "$MAX" -gt 0 ]; then head -n "$MAX"; else cat; fi; } |
		cut -f2- | sort -t '	' -k2,2n >>"$list"
done
total=$(wc -l <"$list")
echo "mutate: $total mutants of $(echo $FILES | wc -w) files, $JOBS job(s), scratch $work" >&2

j=0
while [ "$j" -lt "$JOBS" ]; do
	setup_tree "$j"
	j=$((j + 1))
done

results=$work/results.tsv
: >"$results"
j=0
while [ "$j" -lt "$JOBS" ]; do
	awk -v j="$j" -v n="$JOBS" 'NR % n == j' "$list" >"$work/list$j"
	(
		while IFS= read -r m; do
			mutant "$j" "$m"
		done <"$work/list$j" >"$work/results$j.tsv"
	) &
	j=$((j + 1))
done
# Progress while the jobs run.
while [ "$(jobs -p | wc -l)" -gt 0 ]; do
	sleep 10
	done_n=$(cat "$work"/results*.tsv 2>/dev/null | grep -c . || true)
	printf 'mutate: %s/%s\r' "$done_n" "$total" >&2
	[ "$done_n" -lt "$total" ] || break
done
wait
cat "$work"/results[0-9]*.tsv >"$results"
echo >&2

cat "$results"
echo
awk -F '\t' -v min="$MIN_SCORE" '
	{ split($2, a, ":"); f = a[1]; files[f] = 1; n[f, $1]++; all[$1]++ }
	$1 == "survived" { surv[++ns] = $2 "  " $3 ": " $4 }
	$1 == "timeout" { tout[++nt] = $2 "  " $3 ": " $4 }
	END {
		printf "| file | killed / non-equivalent | score | equivalent | stillborn | timeout |\n"
		printf "|---|---|---|---|---|---|\n"
		bad = 0
		for (f in files) {
			k = n[f, "killed"] + 0; s = n[f, "survived"] + 0
			ne = k + s; sc = ne ? 100 * k / ne : 100
			if (sc < min) bad = 1
			printf "| %s | %d / %d | %.1f%% | %d | %d | %d |\n", f, k, ne, sc, n[f, "equivalent"],
				n[f, "stillborn"], n[f, "timeout"]
		}
		k = all["killed"] + 0; ne = k + all["survived"]
		printf "| all | %d / %d | %.1f%% | %d | %d | %d |\n", k, ne, ne ? 100 * k / ne : 100,
			all["equivalent"], all["stillborn"], all["timeout"]
		if (ns) print "\nsurvivors:"
		for (i = 1; i <= ns; i++) print "  " surv[i]
		if (nt) print "\ntimeouts (run them again on a quieter machine, or raise TIMEOUT):"
		for (i = 1; i <= nt; i++) print "  " tout[i]
		exit bad
	}' "$results"
