#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Per-PU locks perfab cannot trust never block a run and never count as
# free. A FIFO, symbolic link, device, directory or another user's file
# at perfab-pu-N.lock, a lock directory of another user, or one others
# can write without the sticky bit: that PU's lock is unknown, the
# automatic placement passes it over as it passes over a PU another run
# holds, `perfab env` lists it with the reason, and a run placed on such
# a PU records pu_lock "unknown" and why in run.binding. A sticky
# directory others can write is trusted (as /tmp is).
#
# The runs take seconds; `timeout 600` only turns a run blocked in
# open() on a FIFO into a failure instead of a hang.
. "${top_srcdir}/tests/lib/test-lib.sh"

require timeout
[ "$(nproc)" -ge 2 ] || skip "one usable PU: nothing is pinned, no lock is taken"
n=$(getconf _NPROCESSORS_CONF)
PERFAB_PU_LOCK_DIR=$T/locks
export PERFAB_PU_LOCK_DIR

# plant KIND FROM: a fresh lock directory with KIND at the lock path of
# every PU from FROM on.
plant() {
	rm -rf "$PERFAB_PU_LOCK_DIR"
	mkdir "$PERFAB_PU_LOCK_DIR"
	pu=$2
	while [ "$pu" -lt "$n" ]; do
		f=$PERFAB_PU_LOCK_DIR/perfab-pu-$pu.lock
		case $1 in
		fifo) mkfifo "$f" ;;
		symlink) ln -s "$T/elsewhere-$pu" "$f" ;;
		dir) mkdir "$f" ;;
		device) mknod "$f" c 1 3 ;;
		foreign) : >"$f" && chown 65534 "$f" ;;
		esac
		pu=$((pu + 1))
	done
}

# run_on OUT: a short A/A run with the automatic placement.
run_on() {
	expect_rc 3 timeout 600 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true \
		--no-null-arm --counts off --reps 2 --max-reps 2 --out "$1"
}

kinds="fifo symlink dir"
if [ "$(id -u)" = 0 ]; then
	kinds="$kinds device foreign"
else
	echo "not root: no device node or file of another user is planted"
fi

# Every PU but CPU 0 untrusted: the children go to CPU 0, whose lock the
# run holds, and perfab env says why the others are unknown.
for kind in $kinds; do
	plant "$kind" 1
	expect_rc 0 timeout 600 "$PERFAB" env --format json
	jq -e '.placement.children_cpus == "0" and .placement.pu_lock == "held"' out >/dev/null ||
		{ jq .placement out >&2; fail "$kind: perfab env places a run on a PU whose lock is unknown"; }
	jq -e '[.placement.lock_unknown[].pu] | index(1)' out >/dev/null ||
		{ jq .placement out >&2; fail "$kind: perfab env does not list PU 1's lock as unknown"; }
	why=$(jq -r '.placement.lock_unknown[] | select(.pu == 1) | .why' out)
	case $kind in
	fifo) want="is a FIFO, not a lock file" ;;
	symlink) want="is a symbolic link, not a lock file" ;;
	dir) want="is a directory, not a lock file" ;;
	device) want="is a device, not a lock file" ;;
	foreign) want="belongs to another user (uid 65534), who can remove it while a run holds it" ;;
	esac
	case $why in
	"'$PERFAB_PU_LOCK_DIR/perfab-pu-1.lock' $want") ;;
	*) fail "$kind: PU 1's lock is unknown for another reason: $why" ;;
	esac
	run_on "$kind.json"
	jq -e '.run.binding | .children_cpus == "0" and .pu_lock == "held" and
		(.choice | test("no other PU.s lock could be taken"))' "$kind.json" >/dev/null ||
		{ jq .run.binding "$kind.json" >&2; fail "$kind: the run's binding is not CPU 0, held"; }
	[ ! -e "$T/elsewhere-1" ] || fail "$kind: a lock was created through a symbolic link"
done
# perfab env's text says so too (a value folds under its column, 25
# columns in: joined again here).
plant fifo 1
expect_rc 0 timeout 600 "$PERFAB" env
awk '/^                         [^ ]/ { sub(/^ +/, " "); line = line $0; next } NR > 1 { print line } { line = $0 }
	END { print line }' "$T/out" |
	grep -q "lock unknown  *PU 1: '$PERFAB_PU_LOCK_DIR/perfab-pu-1.lock' is a FIFO, not a lock file" ||
	fail "perfab env does not name PU 1's lock as unknown: $(cat "$T/out")"

# Every PU untrusted: shared, and the binding says the lock is unknown.
plant fifo 0
run_on all.json
jq -e '.run.binding | .pu_lock == "unknown" and (.pu_lock_note | test("is a FIFO, not a lock file")) and
	(.choice | test("^PU [0-9]+, shared: no PU.s lock could be taken"))' all.json >/dev/null ||
	{ jq .run.binding all.json >&2; fail "a run on a PU whose lock is a FIFO does not say so"; }

# A lock directory others can write without the sticky bit: every lock
# unknown. With the sticky bit (as /tmp): trusted.
plant none 0
chmod 0777 "$PERFAB_PU_LOCK_DIR"
run_on open.json
jq -e '.run.binding | .pu_lock == "unknown" and
	(.pu_lock_note | test("is writable by other users and not sticky"))' open.json >/dev/null ||
	{ jq .run.binding open.json >&2; fail "a world-writable, non-sticky lock directory is trusted"; }
chmod 1777 "$PERFAB_PU_LOCK_DIR"
run_on sticky.json
jq -e '.run.binding | .pu_lock == "held" and .children_cpus != "0" and
	(.choice | test("not held by another perfab run"))' sticky.json >/dev/null ||
	{ jq .run.binding sticky.json >&2; fail "a sticky lock directory is not trusted"; }
if [ "$(id -u)" = 0 ]; then
	plant none 0
	chown 65534 "$PERFAB_PU_LOCK_DIR"
	run_on theirs.json
	jq -e '.run.binding | .pu_lock == "unknown" and
		(.pu_lock_note | test("belongs to another user \\(uid 65534\\)"))' theirs.json >/dev/null ||
		{ jq .run.binding theirs.json >&2; fail "another user's lock directory is trusted"; }
fi
exit 0
