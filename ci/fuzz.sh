#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/fuzz.sh [SECONDS] — build perfab's libFuzzer harnesses (tests/fuzz/)
# with clang, ASan and UBSan out of tree, and run each for SECONDS (default
# $FUZZ_SECONDS, else 60) from its seed corpus. Prints the executions per
# harness and any crash; exits 0 when nothing crashed, 1 on a crash, a
# leak, a timeout or an out-of-memory, 2 when the build failed, and 77 when
# clang or its fuzzer runtime is missing (the automake "skip" code).
#
# Environment:
#   FUZZ_BUILD       build and working directory (default: <top>/_fuzz)
#   FUZZ_CONFIG_DIR  a configured perfab build dir whose config.h to use
#                    (default: configure one in $FUZZ_BUILD/conf)
#   FUZZ_CC          the compiler (default: clang, else clang-14)
#   FUZZ_HARNESSES   which to run (default: "artifact config argv_split
#                    report resume_settings journal calibration history_db")
#   FUZZ_FLAGS       extra libFuzzer flags, e.g. "-seed=1 -jobs=4"
# Corpora grow in $FUZZ_BUILD/corpus/<harness>/; reproducers are written as
# $FUZZ_BUILD/<harness>-{crash,leak,timeout,oom}-<sha1>. See doc/fuzzing.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-${FUZZ_SECONDS:-60}}
out=${FUZZ_BUILD:-$top/_fuzz}
harnesses=${FUZZ_HARNESSES:-"artifact config argv_split report resume_settings journal calibration history_db"}

case $secs in
''|*[!0-9]*) echo "usage: ci/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac

cc=${FUZZ_CC:-}
if [ -z "$cc" ]; then
	for c in clang clang-14; do
		if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
	done
fi
if [ -z "$cc" ]; then
	echo "fuzz: skipped: no clang (apt-get install clang libclang-rt-14-dev)" >&2
	exit 77
fi
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

# The fuzzer runtime ships separately from clang on Debian (libclang-rt-*).
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	>"$out/probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$out/probe.c" -o "$out/probe" \
	>"$out/probe.log" 2>&1; then
	cat "$out/probe.log" >&2
	echo "fuzz: skipped: $cc cannot link -fsanitize=fuzzer (install libclang-rt-14-dev)" >&2
	exit 77
fi

# config.h: from a configured build, else configure one (once).
conf=${FUZZ_CONFIG_DIR:-}
if [ -z "$conf" ]; then
	conf=$out/conf
	if [ ! -f "$conf/config.h" ]; then
		(cd "$top" && { [ -x configure ] || autoreconf -fi; })
		mkdir -p "$conf"
		(cd "$conf" && "$top/configure" -q CC="$cc") || {
			echo "fuzz: configure failed (see $conf/config.log)" >&2; exit 2; }
	fi
fi
[ -f "$conf/config.h" ] || { echo "fuzz: no config.h in '$conf'" >&2; exit 2; }

deps="gsl libcjson hwloc nettle sqlite3"
# shellcheck disable=SC2086 # a list of packages
pcflags=$(pkg-config --cflags $deps) || { echo "fuzz: pkg-config $deps failed" >&2; exit 2; }
# shellcheck disable=SC2086
pclibs=$(pkg-config --libs $deps)
pfm=
if grep -q '^#define HAVE_LIBPFM 1' "$conf/config.h"; then pfm=-lpfm; fi

san="-fsanitize=address,undefined -fno-sanitize-recover=all"
cflags="-g -O1 -fno-omit-frame-pointer $san -fsanitize=fuzzer-no-link"
# The quotes around /nonexistent are for the compiler: a string literal.
# shellcheck disable=SC2089,SC2090
cppflags="-I$conf -I$top/src -I$top/stats -I$top -DPKGLIBEXECDIR=\"/nonexistent\" $pcflags"
# The sources of libperfab.a and libpabstats.a, as src/local.mk and
# stats/local.mk list them (main() is in src/perfab.c, not among them).
mk_sources() { # FILE VAR: the .c files of automake variable VAR in FILE
	awk -v var="$2" '
		$1 == var && $2 == "=" { on = 1; $1 = ""; $2 = "" }
		on { for (i = 1; i <= NF; i++) if ($i ~ /\.c$/) print $i
		     if ($NF != "\\") on = 0 }' "$1"
}
srcs="$(mk_sources "$top/src/local.mk" src_libperfab_a_SOURCES)
$(mk_sources "$top/stats/local.mk" stats_libpabstats_a_SOURCES)"
[ -n "$srcs" ] || { echo "fuzz: no sources found in src/local.mk" >&2; exit 2; }

# Rebuild everything when any source, header or the flags changed.
sig="$cc $cflags $cppflags"
stamp=$out/obj/stamp
newer=
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sig" ]; then
	newer=$(find "$top/src" "$top/common" "$top/stats" "$top/workloads" "$top/tests/fuzz" \
		"$conf/config.h" -newer "$stamp" \( -name '*.[ch]' \) 2>/dev/null | head -1)
else
	newer=yes
fi
start=$(date +%s)
if [ -n "$newer" ]; then
	rm -f "$stamp"
	echo "fuzz: building harnesses with $cc in $out" >&2
	objs=
	n=0
	for s in $srcs; do
		o=$out/obj/$(echo "$s" | tr / _).o
		objs="$objs $o"
		rm -f "$o"
		# shellcheck disable=SC2086,SC2090 # flag lists
		$cc $cflags $cppflags -c "$top/$s" -o "$o" >"$o.log" 2>&1 &
		n=$((n + 1))
		[ $((n % $(nproc))) != 0 ] || wait
	done
	wait
	for o in $objs; do
		if [ ! -s "$o" ]; then
			cat "$o.log" >&2
			echo "fuzz: build failed: $o" >&2
			exit 2
		fi
	done
	: >"$out/obj/build.log"
	for h in $harnesses; do
		# shellcheck disable=SC2086,SC2090 # flag lists
		if ! $cc $cflags $cppflags -fsanitize=fuzzer \
			"$top/tests/fuzz/fuzz_$h.c" $objs $pclibs $pfm -lm -pthread \
			-o "$out/fuzz_$h" >>"$out/obj/build.log" 2>&1; then
			cat "$out/obj/build.log" >&2
			echo "fuzz: linking fuzz_$h failed" >&2
			exit 2
		fi
	done
	echo "$sig" >"$stamp"
	echo "fuzz: built in $(( $(date +%s) - start )) s" >&2
fi

# Leaks are findings: LeakSanitizer runs after every input that allocated.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

failed=0
total=0
for h in $harnesses; do
	bin=$out/fuzz_$h
	seeds=$top/tests/fuzz/corpus/$h
	dict=$top/tests/fuzz/$h.dict
	work=$out/corpus/$h
	log=$out/fuzz_$h.log
	mkdir -p "$work"
	set -- -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$out/$h-"
	[ -f "$dict" ] && set -- "$@" -dict="$dict"
	# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
	set -- "$@" ${FUZZ_FLAGS:-} "$work" "$seeds"
	rc=0
	"$bin" "$@" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	size=$(ls "$work" | wc -l)
	total=$((total + ${execs:-0}))
	if [ "$rc" = 0 ]; then
		echo "fuzz: $h: ${execs:-?} executions in ${secs} s, corpus $size inputs, no crash"
	else
		failed=1
		echo "fuzz: $h: CRASH (exit $rc) after ${execs:-?} executions; log $log"
		grep -E '^(==[0-9]+==|SUMMARY|.*runtime error|    #[0-9]+ )' "$log" | head -40
		ls "$out/$h"-* 2>/dev/null | sed 's/^/  reproducer: /'
		echo "  reproduce: $bin <reproducer>"
	fi
done
echo "fuzz: $total executions in all; $( [ $failed = 0 ] && echo 'no crash' || echo 'CRASHED' )"
exit $failed
