#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# demo_next.sh — the README's demo (ci/demo.sh), cut to two reps of a
# tiny scale and one row, runs the real perfab to a verdict and then says where to go
# next: your own two builds with perfab run, and perfab calibrate for the
# machine's tolerances; its lines fit 100 columns. Skipped without
# jemalloc, which the demo needs.
. "${top_srcdir}/tests/lib/test-lib.sh"
command -v ldconfig >/dev/null 2>&1 && ldconfig -p | grep -q 'libjemalloc\.so\.2 ' ||
	skip "no libjemalloc.so.2 (the demo's head arm)"
# The demo reads the workloads of its build directory; an out-of-tree
# build's is top_builddir.
PERFAB_DEMO_OUT=$T/demo.json expect_rc 0 sh "$top_srcdir/ci/demo.sh" "$top_builddir" \
	--workloads =larson/8 --reps 2 --max-reps 2 --scale 0.02 --quiet
[ -s demo.json ] || fail "the demo wrote no artifact"
tail -3 "$T/err" >end
sed -n 1p end | grep -Eq '^perfab demo: exit [013] ' || { cat "$T/err" >&2; fail "the demo's verdict line is not third from the end"; }
sed -n 2p end | grep -qx 'next: your own two builds: perfab run ./build-base/prog ./build-head/prog' ||
	{ cat end >&2; fail "the demo does not end with how to run your own builds"; }
sed -n 3p end | grep -qx ' *the tolerances this machine resolves: perfab calibrate ./build-base/prog' ||
	{ cat end >&2; fail "the demo does not end with perfab calibrate"; }
tail -2 end | awk 'length > 100 { exit 1 }' || fail "the demo's end is wider than 100 columns"
exit 0
