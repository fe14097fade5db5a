#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# workloads_floor.sh — the RSS floor of every allocator row is captured
# while the blocks are live (the seed summed them after freeing: 0):
# live_bytes > 0, rss_floor = pre_rss + live_bytes, the RSS read at the
# live moment is at least the floor, and the floor is not above the peak.
# With glibc malloc and, when installed, jemalloc.
. "${top_srcdir}/tests/lib/test-lib.sh"
need_workloads

slack=$(rss_slack_bytes)
preloads="none"
[ -r "$JEMALLOC" ] && preloads="none $JEMALLOC"

for pre in $preloads; do
	name=glibc
	[ "$pre" != none ] && name=jemalloc
	for row in $ALLOC_ROWS; do
		r="$T/floor.json"
		extra=""
		case $row in *bursty*) extra="pause_ms=5" ;; esac
		if [ "$pre" = none ]; then
			run_row "$r" "$ALLOC" "$row" $FAST $extra
		else
			LD_PRELOAD="$pre" run_row "$r" "$ALLOC" "$row" $FAST $extra
		fi || { fail "$name $row: exit status $?"; continue; }
		live=$(jqr "$r" .live_bytes)
		pre_rss=$(jqr "$r" .pre_rss_bytes)
		floor=$(jqr "$r" .rss_floor_bytes)
		hwm=$(jqr "$r" .vmhwm_bytes)
		live_rss=$(jqr "$r" .live_rss_bytes)
		tag="$name $row (live $live, pre $pre_rss, floor $floor, live rss $live_rss, hwm $hwm)"
		[ "$live" -gt 0 ] 2>/dev/null || { fail "$tag: live_bytes not > 0"; continue; }
		# floor - pre within 5% of live (it is their sum by definition;
		# this catches a floor computed from anything else).
		d=$((floor - pre_rss - live))
		[ "${d#-}" -le $((live / 20)) ] || fail "$tag: floor - pre != live"
		[ $((live_rss + slack)) -ge "$floor" ] ||
			fail "$tag: RSS at the live moment below the floor"
		[ "$floor" -le $((hwm + slack)) ] ||
			fail "$tag: floor above the peak"
		pass "$tag"
	done
done
exit 0
