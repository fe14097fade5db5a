#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The fuzz smoke run of `make check`: ci/fuzz.sh builds the
# libFuzzer harnesses of tests/fuzz/ (artifact loader, config parser, argv
# splitter, workload-report reader, resume settings, journal reader,
# calibration reader, history database reader; ci/fuzz.sh's list) with
# clang + ASan + UBSan in $top_builddir/_fuzz and runs each for
# FUZZ_SECONDS (default 10: under two minutes for the eight) from the
# seed corpus, plus whatever earlier
# runs there added. Any crash, leak, sanitizer report or timeout fails the
# test; the reproducer is named in the log. Skips (77) without clang's
# fuzzer runtime, or with FUZZ_SECONDS=0. Longer runs: doc/fuzzing.md.
. "${top_srcdir}/tests/lib/test-lib.sh"
secs=${FUZZ_SECONDS:-10}
[ "$secs" != 0 ] || skip "fuzz smoke (FUZZ_SECONDS=0)"
# At normal priority. At idle priority (SCHED_IDLE, or nice 19) a machine
# busy on every CPU gave the harnesses no CPU at all, and the smoke never
# finished; no test beside it depends on timing.
FUZZ_BUILD=$top_builddir/_fuzz FUZZ_CONFIG_DIR=$top_builddir \
	"$top_srcdir/ci/fuzz.sh" "$secs"
rc=$?
case $rc in
0 | 1 | 77) exit $rc ;;
*) hard_error "the harnesses did not build (exit $rc)" ;; # not a finding
esac
