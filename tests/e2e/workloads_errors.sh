#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_errors.sh — bad input is refused with one clear error on
# stderr (the program's name, "error:", the subject in quotes) and exit
# status 2, never a crash, a hang or a report.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

# refused TAG SUBJECT PROGRAM ARGS...: the run must exit 2, write no
# report, and name SUBJECT in quotes in an error line.
refused() {
	tag=$1 subject=$2
	shift 2
	rm -f "$T/e.json"
	PERFAB_REPORT="$T/e.json" PERFAB_SCALE="${PERFAB_SCALE:-0.01}" \
		"$@" >"$T/out" 2>"$T/err"
	st=$?
	if [ "$st" -ne 2 ]; then
		fail "$tag: exit status $st, expected 2 ($(cat "$T/err"))"
	elif [ -e "$T/e.json" ] || [ -s "$T/out" ]; then
		fail "$tag: a refused run wrote a report"
	elif ! grep -q "^perfab-[a-z]*: error: .*'$subject'" "$T/err"; then
		fail "$tag: no clear error naming '$subject': $(cat "$T/err")"
	elif [ "$(wc -l <"$T/err")" -ne 1 ]; then
		fail "$tag: more than one line on stderr: $(cat "$T/err")"
	else
		pass "$tag: $(cat "$T/err")"
	fi
}

refused "unknown row" nope "$ALLOC" nope
refused "unknown row in PERFAB_ROW" nope env PERFAB_ROW=nope "$ALLOC"
refused "no row" PERFAB_ROW "$ALLOC" threads=2
refused "row of the other program" large-class/8 "$SPIN" large-class/8
refused "spin row to perfab-alloc" spin "$ALLOC" spin
for bad in threads=abc threads=-1 threads=0 threads=1000000 threads= \
	threads=8x threads=0x8 "threads= 8" ops=0 ops=99999999999999999999 \
	max_size=2G min_size=0 slots=0 sizes=normal pause_ms=-5 \
	release_bound_ms=1e3 generations=0 table_slots=-1; do
	refused "$bad" "${bad%%=*}" "$ALLOC" large-class/8 "$bad"
done
refused "min above max" min_size "$ALLOC" large-class/8 min_size=1M max_size=64K
refused "absurd working set" threads "$ALLOC" random-large/8 threads=1024 \
	slots=100000 max_size=1G
refused "overflowing working set" threads "$ALLOC" random-large/8 \
	threads=1024 slots=1048576 max_size=1G
refused "larson with generations" table_slots "$ALLOC" larson/8 generations=2
refused "unknown key" foo "$ALLOC" large-class/8 foo=1
refused "not key=value" =3 "$ALLOC" large-class/8 =3
refused "unknown key in PERFAB_PARAMS" bogus env PERFAB_ROW=small/8 \
	PERFAB_PARAMS=threads=2,bogus=1 "$ALLOC"
refused "bad value in PERFAB_PARAMS" threads env PERFAB_ROW=small/8 \
	PERFAB_PARAMS=threads=two "$ALLOC"
refused "bad mode" latncy env PERFAB_MODE=latncy "$SPIN"
refused "bad seed" -1 env PERFAB_SEED=-1 "$SPIN"
refused "bad seed junk" 12ab env PERFAB_SEED=12ab "$SPIN"
refused "bad scale" 0 env PERFAB_SCALE=0 "$SPIN"
refused "nan scale" nan env PERFAB_SCALE=nan "$SPIN"
refused "other protocol" perfab-workload/2 \
	env PERFAB_PROTOCOL=perfab-workload/2 "$SPIN"
refused "spin work" work "$SPIN" work=lots
refused "spin slowdown" slowdown_pct "$SPIN" slowdown_pct=-10
refused "spin absurd memory" extra_mib "$SPIN" extra_mib=1048576 \
	leak_mib=1048576
refused "spin chunk" chunk "$SPIN" chunk=0
refused "scale overflow" ops env PERFAB_SCALE=1000000 "$ALLOC" \
	small/8 ops=1000000000000

# A report that cannot be written is a failure (exit 1), with no
# temporary file left behind.
PERFAB_REPORT="$T/no/such/dir/r.json" "$SPIN" work=1000 $FAST \
	2>"$T/err"
st=$?
[ "$st" -eq 1 ] && grep -q "error: cannot create report" "$T/err" &&
	pass "unwritable report: exit 1" ||
	fail "unwritable report: exit $st, $(cat "$T/err")"
exit 0
