#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# counts_debug_hidden.sh — a counting child does not read the system's
# detached debug information (/usr/lib/debug: Debian's libc6-dbg, which
# valgrind depends on, costs each counted child ~0.25 s of valgrind's
# start-up; doc/method.md "Exact counts"): where perfab may make a mount
# namespace (as root) the counted children see an empty /usr/lib/debug
# and the timed children the real one; and a count is the same with the
# debug information in view and hidden.
. "${top_srcdir}/tests/lib/test-lib.sh"
require valgrind
[ "$(id -u)" = 0 ] || skip "not root: perfab cannot hide /usr/lib/debug from a counted child"
[ -n "$(ls -A /usr/lib/debug 2>/dev/null)" ] || skip "/usr/lib/debug is empty or missing: nothing to hide"
unshare -m true 2>/dev/null || skip "no mount namespace can be made here"

# Each child writes what it saw of /usr/lib/debug to a file of its own.
cmd="sh -c 'ls -A /usr/lib/debug >seen.\$\$'"
expect_two_of "0|3" "an unchanged pair" "$PERFAB" run -q --counts sim --reps 6 --max-reps 6 \
	--arm "base=$cmd" --arm "head=$cmd" --out seen.json
timed=$(jq '[.rows[0].reps[].results[]] | length' seen.json)
empty=0 full=0
for f in seen.*[0-9]; do
	if [ -s "$f" ]; then full=$((full + 1)); else empty=$((empty + 1)); fi
done
[ "$full" = "$timed" ] || fail "$full children saw /usr/lib/debug, not the $timed timed ones"
[ "$empty" -ge 1 ] || fail "no counted child had /usr/lib/debug hidden ($full saw it)"
pass "$empty counted children saw an empty /usr/lib/debug, the $timed timed ones the real one"
# The hiding stays in the children's namespaces.
[ -n "$(ls -A /usr/lib/debug)" ] || fail "/usr/lib/debug is empty after the run"

# The count does not depend on it: cachegrind by hand counts /bin/true
# the same with the debug information in view and hidden as perfab hides it.
by_hand() { # 0|1: the count of /bin/true, /usr/lib/debug hidden with 1
	# The same shell and namespace both times, so the environment is too.
	# shellcheck disable=SC2016 # the inner shell expands $HIDE
	HIDE=${1:-0} unshare -m sh -c 'mount --make-rprivate / &&
		if [ "$HIDE" = 1 ]; then mount -t tmpfs -o ro,size=4k perfab-hidden /usr/lib/debug; fi &&
		exec valgrind -q --tool=cachegrind --cache-sim=no --cachegrind-out-file=cg.out /bin/true' \
		>/dev/null 2>&1 || hard_error "cachegrind by hand failed"
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' cg.out
}
seen=$(by_hand 0)
hidden=$(by_hand 1)
[ -n "$seen" ] && [ "$seen" = "$hidden" ] ||
	fail "/bin/true: $seen instructions with the debug information, $hidden without"
pass "/bin/true: $seen instructions with the debug information and without"
exit 0
