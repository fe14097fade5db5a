#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The fuzz smoke run of `make check` (issue #6): ci/fuzz.sh builds the
# libFuzzer harnesses of tests/fuzz/ (artifact loader, config parser, argv
# splitter, workload-report reader, resume settings) with clang + ASan +
# UBSan in $top_builddir/_fuzz and runs each for FUZZ_SECONDS (default 36:
# three minutes for the five) from the seed corpus, plus whatever earlier
# runs there added. Any crash, leak, sanitizer report or timeout fails the
# test; the reproducer is named in the log. Skips (77) without clang's
# fuzzer runtime, or with FUZZ_SECONDS=0. Longer runs: doc/fuzzing.md.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
secs=${FUZZ_SECONDS:-36}
if [ "$secs" = 0 ]; then
	echo "fuzz smoke: skipped (FUZZ_SECONDS=0)"
	exit 77
fi
# At idle priority: the fuzzers must not add noise to the timing tests
# that `make -j` runs beside them.
idle=
if command -v chrt >/dev/null 2>&1 && chrt --idle 0 true 2>/dev/null; then
	idle="chrt --idle 0"
fi
FUZZ_BUILD=$top_builddir/_fuzz FUZZ_CONFIG_DIR=$top_builddir \
	$idle nice -n 19 "$top_srcdir/ci/fuzz.sh" "$secs"
rc=$?
case $rc in
0 | 1 | 77) exit $rc ;;
*) exit 99 ;; # the harnesses did not build: a hard error, not a finding
esac
