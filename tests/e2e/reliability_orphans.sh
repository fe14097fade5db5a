#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Children never outlive the run. Each child here starts a grandchild in
# its process group and a setsid(1) daemon, and writes their PIDs down.
# After a normal run, and after perfab is stopped by SIGTERM, SIGINT or
# SIGKILL mid-child, every one of those PIDs must be gone (or a zombie,
# which runs nothing), and perfab's scratch directory and cgroups removed.
# Then the cases only the guard (its own session, a child subreaper) can
# handle: SIGKILL to the whole process group of a perfab started under
# setsid, with and without cgroups, and (root only) a child that moves
# itself out of its cgroups: nothing of the run is alive 2 s after
# perfab ends. Polls; no timing of perfab itself is asserted.
. "${top_srcdir}/tests/lib/test-lib.sh"

cat >tree.sh <<'SH'
#!/bin/sh
# The measured child: a grandchild, a setsid daemon, then (HOLD=1) wait.
own=$PIDS.$$
echo $$ >>"$own"
echo $PPID >"$PIDS.perfab"
sleep 1000 &
echo $! >>"$own"
# ESCAPE=1 (root): the daemon moves itself out of its cgroups first.
setsid sh -c '
	if [ "${ESCAPE:-0}" = 1 ]; then
		for f in /sys/fs/cgroup/*/cgroup.procs /sys/fs/cgroup/cgroup.procs; do
			[ -w "$f" ] && echo $$ >"$f" 2>/dev/null
		done
		if grep -q perfab- /proc/$$/cgroup || ! grep -q perfab- /proc/$PPID/cgroup; then
			touch "$1.noescape"
		fi
	fi
	echo $$ >>"$1"; exec sleep 1000' sh "$own" &
# The daemon's PID is written by the daemon: wait for it to be there.
i=0
while [ "$(wc -l <"$own")" -lt 3 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
cat "$own" >>"$PIDS"
touch "$PIDS.started"
[ "${HOLD:-0}" = 1 ] && exec sleep 1000
exit 0
SH
chmod +x tree.sh

# alive PID: running (not gone, not a zombie).
alive() {
	st=$(sed -n 's/^[0-9]* (.*) \([A-Z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# gone FILE TICKS WHAT: poll (TICKS x 0.1 s) until no PID in FILE is
# alive; kill what is left and fail naming it.
gone() {
	i=0
	while [ $i -lt "$2" ]; do
		left=
		for p in $(cat "$1"); do alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	for p in $left; do ps -o pid,ppid,pgid,sid,args -p "$p" >&2; kill -9 "$p"; done
	fail "$3: processes of the child's tree still alive after $(($2 / 10)) s:$left"
}
# all_gone FILE WHAT: gone within 30 s (perfab may still be cleaning up).
all_gone() { gone "$1" 300 "$2"; }
# no_leftovers DIR PID WHAT: poll until perfab's scratch directory in DIR
# and cgroups named for PID are gone.
no_leftovers() {
	i=0
	while [ $i -lt 300 ]; do
		s=$(find "$1" -maxdepth 1 -name 'perfab-*')
		c=$(find /sys/fs/cgroup -maxdepth 8 -type d -name "perfab-$2-*" 2>/dev/null || true)
		[ -z "$s$c" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "$3: left behind: $s $c"
}

# A normal run: the setsid daemons of every child die with it.
mkdir tmp0
: >pids0
export PIDS="$T/pids0" TMPDIR="$T/tmp0"
# 3 reps (one block of base, head, null): fewer than 6 pairs, INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --arm base=./tree.sh --arm head=./tree.sh --reps 3 --max-reps 3 \
	--out normal.json
[ "$(wc -l <pids0)" -ge 12 ] || fail "the children did not record their trees"
all_gone pids0 "after a normal run"
no_leftovers tmp0 0 "after a normal run"

# interrupt NAME SIG GROUP ESCAPE PERFAB-OPTION...: a run of tree.sh
# children that hold (HOLD=1), given SIG once its first child runs: to
# perfab alone (GROUP 0; SIGINT set to default first, as POSIX shells
# ignore it in a background job), or (GROUP 1) to perfab's whole process
# group, perfab a session leader as under setsid(1). perfab must die of
# the signal; nothing of the run may be left behind.
interrupt() {
	name=$1 sig=$2 group=$3 esc=$4
	shift 4
	mkdir "tmp$name"
	: >"pids$name"
	PIDS=$T/pids$name HOLD=1 ESCAPE=$esc TMPDIR=$T/tmp$name python3 -c '
import os, signal, sys
if sys.argv[1] == "1":
    os.setsid()
else:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[2], sys.argv[2:])' "$group" "$PERFAB" run -q --arm base=./tree.sh \
		--arm head=./tree.sh --reps 3 --max-reps 3 --out "$name.json" "$@" >/dev/null 2>"$name.err" &
	pid=$!
	i=0
	while [ ! -e "pids$name.started" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "pids$name.started" ] || { cat "$name.err" >&2; fail "$name: the child never started"; }
	if [ "$group" = 1 ]; then
		[ "$(sed 's/^.*) . [0-9]* \([0-9]*\) .*/\1/' "/proc/$pid/stat")" = "$pid" ] ||
			fail "$name: perfab does not lead its own process group"
		kill -s "$sig" -- "-$pid"
	else
		kill -s "$sig" "$pid"
	fi
	wait "$pid"
	rc=$?
	case $sig in TERM) want=143 ;; INT) want=130 ;; KILL) want=137 ;; esac
	[ "$rc" = "$want" ] || { cat "$name.err" >&2; fail "$name: perfab exited $rc, not $want"; }
	if [ "$group" = 1 ]; then
		# The guard, in a session of its own, kills what is left at once.
		gone "pids$name" 20 "$name (perfab has ended)"
		no_leftovers "tmp$name" "$(cat "pids$name.perfab")" "$name"
	else
		all_gone "pids$name" "after SIG$sig of perfab"
		no_leftovers "tmp$name" "$pid" "after SIG$sig of perfab"
	fi
}

# A signal mid-child, to perfab: the checkpoint stays intact.
for sig in TERM INT KILL; do
	interrupt "sig$sig" "$sig" 0 0
	jq -e '.complete == false' "sig$sig.json" >/dev/null || fail "SIG$sig: the checkpoint is not intact"
	echo "SIG$sig: nothing of the child's tree alive, nothing left behind"
done
# SIGKILL to perfab's whole process group: perfab and anything in its
# group die at once; the guard kills what is left.
group_kill() { # NAME ESCAPE PERFAB-OPTION...
	name=$1 esc=$2
	shift 2
	interrupt "$name" KILL 1 "$esc" "$@"
	echo "$name: nothing of the run alive after SIGKILL to perfab's process group"
}
group_kill groupkill 0
group_kill groupkill_nocg 0 --no-cgroup
if [ "$(id -u)" = 0 ] && { [ -w /sys/fs/cgroup/memory/cgroup.procs ] ||
	[ -w /sys/fs/cgroup/cgroup.procs ]; }; then
	group_kill escaped 1
	ls pidsescaped.*.noescape >/dev/null 2>&1 &&
		fail "escaped: the daemon was not in a cgroup of perfab's, or could not leave it"
	escaped_rc=0
else
	escaped_rc=77
	echo "a child leaving its cgroups: skipped (needs root and a writable root cgroup)"
fi

grep -q "interrupted by signal 15" sigTERM.err || { cat sigTERM.err >&2; fail "no note of the signal"; }
# What the signal interrupted resumes.
export PIDS="$T/pidsR" TMPDIR="$T/tmp0"
# It keeps its 3 reps: fewer than 6 pairs, INCONCLUSIVE.
expect_rc 3 "$PERFAB" run -q --resume sigTERM.json --arm base=./tree.sh --arm head=./tree.sh
all_gone pidsR "after the resumed run"
[ "$escaped_rc" = 0 ] || skip "a child that leaves its cgroups needs root and a writable root cgroup (the rest passed)"
exit 0
