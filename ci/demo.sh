#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/demo.sh — the README's demo: glibc malloc (base) against jemalloc
# (head, through LD_PRELOAD) on built-in allocator rows, with a null arm,
# then the ledger, and where to go next: your own two builds, and the
# machine's tolerances. Run from a built tree (./configure && make).
# Usage: ci/demo.sh [BUILD_DIR [RUN_OPTION...]]   (default: the current
# directory; options such as --scale 0.05 go to perfab run after the
# demo's own, so a later one wins)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-.}
[ $# -gt 0 ] && shift
perfab="$build/src/perfab"
[ -x "$perfab" ] || { echo "ci/demo.sh: '$perfab' not built: run ./configure && make first" >&2; exit 2; }
jemalloc=$(ldconfig -p | awk '/libjemalloc\.so\.2 / { print $NF; exit }')
[ -n "$jemalloc" ] || { echo "ci/demo.sh: libjemalloc.so.2 not found: apt-get install libjemalloc2" >&2; exit 2; }
out=${PERFAB_DEMO_OUT:-demo-run.json}
cfg=$(mktemp "${TMPDIR:-/tmp}/perfab-demo.XXXXXX")
trap 'rm -f "$cfg"' EXIT
sed "s|@JEMALLOC@|$jemalloc|" "$top/ci/demo.json" >"$cfg"
export PERFAB_WORKLOAD_DIR="$build/workloads"
echo "perfab demo: glibc malloc (base) vs jemalloc (head), null arm on; artifact $out" >&2
set +e
# Eight-thread allocator rows under valgrind would take longer than the
# whole timed run: the demo judges time and memory (--counts off).
"$perfab" run --config "$cfg" --null-arm --no-sanity-gate --counts off --out "$out" "$@"
rc=$?
set -e
echo >&2
echo "perfab demo: exit $rc (0 PASS, 1 FAIL, 3 INCONCLUSIVE); re-judge with: $perfab ledger $out" >&2
echo "next: your own two builds: perfab run ./build-base/prog ./build-head/prog" >&2
echo "      the tolerances this machine resolves: perfab calibrate ./build-base/prog" >&2
# A verdict either way is a successful demo; anything else is an error.
case $rc in 0|1|3) exit 0 ;; *) exit $rc ;; esac
