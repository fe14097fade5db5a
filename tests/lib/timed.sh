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
# A test sees the stop signals as a terminal's user would: a suite started
# in the background (`nohup make check &`, or an asynchronous list of a
# script, which POSIX shells start with SIGINT and SIGQUIT ignored) would
# pass its ignored signals on, a shell cannot undo that, and perfab keeps
# a stop signal ignored that its caller ignores (the tests of SIGINT
# would see a run that never stops).
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status 2>/dev/null)
case $ign in
'' | *[!0-9a-fA-F]*) ign=0 ;;
esac
if [ $((0x$ign & 0x4007)) != 0 ] && command -v python3 >/dev/null 2>&1; then
	python3 -c 'import os, signal, sys
for s in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
else
	"$@"
fi
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
