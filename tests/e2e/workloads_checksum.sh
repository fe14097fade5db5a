#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_checksum.sh — the checksum proves every arm did the same work:
# the same row and seed give the same checksum run after run, under glibc
# or jemalloc, in throughput or latency mode (it hashes the seeded
# operation sequence, never addresses or timing); another seed, another
# thread count or another op count gives another.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

sum() { # sum ROW [key=value...]: checksum of one run, or "error"
	row=$1
	shift
	run_row "$T/c.json" "$ALLOC" "$row" $FAST "$@" &&
		jqr "$T/c.json" .checksum || echo error
}

for row in $ALLOC_ROWS; do
	extra=""
	case $row in *bursty*) extra="pause_ms=5" ;; esac
	a=$(sum "$row" $extra)
	b=$(sum "$row" $extra)
	case $a in [0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ;; *)
		fail "$row: checksum '$a' is not hex"; continue ;;
	esac
	[ "$a" = "$b" ] && pass "$row: same seed, same checksum $a" ||
		fail "$row: same seed gave $a then $b"
	if [ -r "$JEMALLOC" ]; then
		j=$(LD_PRELOAD="$JEMALLOC" sum "$row" $extra)
		[ "$a" = "$j" ] && pass "$row: jemalloc did the same work" ||
			fail "$row: glibc $a, jemalloc $j"
	fi
	l=$(PERFAB_MODE=latency sum "$row" $extra)
	[ "$a" = "$l" ] && pass "$row: latency mode did the same work" ||
		fail "$row: throughput $a, latency $l"
	o=$(PERFAB_SEED=43 sum "$row" $extra)
	[ "$a" != "$o" ] && pass "$row: another seed, another checksum" ||
		fail "$row: seeds 42 and 43 both gave $a"
done

# The shape of the work is in the checksum too.
a=$(sum large-class/8)
[ "$a" != "$(sum large-class/8 threads=4)" ] && pass "threads change it" ||
	fail "threads=4 gave the same checksum as 8"
[ "$a" != "$(sum large-class/8 ops=1000)" ] && pass "ops change it" ||
	fail "ops=1000 gave the same checksum"
[ "$a" != "$(sum large-class/8 max_size=256K)" ] && pass "sizes change it" ||
	fail "max_size=256K gave the same checksum"
# Generations split the same stream over threads: same work, same sum.
[ "$a" = "$(sum large-class-ephemeral/8)" ] &&
	pass "generations run the same stream" ||
	fail "large-class-ephemeral/8 and large-class/8 differ in work"

# A checksum independent of the execution order: many threads on 2 cores
# interleave differently every run.
a=$(sum larson/8 threads=16 ops=20000)
for i in 1 2 3; do
	b=$(sum larson/8 threads=16 ops=20000)
	[ "$a" = "$b" ] || fail "larson with 16 threads: $a then $b"
done
pass "larson/8 with 16 threads is deterministic"

# Spin: the same.
run_row "$T/s1.json" "$SPIN" spin $FAST &&
	run_row "$T/s2.json" "$SPIN" spin $FAST &&
	PERFAB_SEED=7 run_row "$T/s3.json" "$SPIN" spin $FAST ||
	fail "spin did not run"
s1=$(jqr "$T/s1.json" .checksum)
[ "$s1" = "$(jqr "$T/s2.json" .checksum)" ] &&
	[ "$s1" != "$(jqr "$T/s3.json" .checksum)" ] &&
	pass "spin checksum follows the seed" || fail "spin checksum"
exit 0
