#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/lib/timed.sh PROGRAM [ARGS...] — run one test and end its log with
# its wall time and the CPU time of its processes. Makefile.am makes it
# the log compiler of every test (the Check programs and the shell tests
# alike), so each tests/**/*.log ends in
#
#   test-time: 12.3 s (cpu 4.1 s)
#
# which ci/test.sh reads to print the slowest tests. Wall time is what a
# run waits for; CPU time (user and system, of every process the test
# waited for) is what it costs a machine, and moves far less with the
# load. The test's exit status is passed on unchanged (0 pass, 77 skip,
# 99 hard error, else fail).
t0=$(date +%s.%N)
"$@"
rc=$?
t1=$(date +%s.%N)
# times (in this shell: a pipe or $(...) would ask a subshell): the
# shell's own user and system time, then its children's, "0m1.250s 0m0.310s".
tf=$(mktemp "${TMPDIR:-/tmp}/perfab-times.XXXXXX") && times >"$tf"
sed -n 2p "$tf" 2>/dev/null | awk -v a="$t0" -v b="$t1" '
	function secs(s) { sub(/s$/, "", s); split(s, p, "m"); return p[1] * 60 + p[2] }
	{ cpu = sprintf(" (cpu %.1f s)", secs($1) + secs($2)) }
	END { printf "test-time: %.1f s%s\n", b - a, cpu }'
rm -f "$tf"
exit "$rc"
