#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run_progress_tty.sh — what a run tells while it runs (run/progress.h), on
# the default counting path (valgrind here):
#   - in a real terminal (a 100x40 tmux pane): the plan names the counting
#     pass; while perfab runs, every capture ends in a whole status line
#     (row, rep, arm, elapsed) or a whole message, never half of one; the
#     status line names the counting pass while it runs;
#   - in a log (stderr not a terminal): only whole lines, no carriage
#     return, and a line for each counting pass.
. "${top_srcdir}/tests/lib/test-lib.sh"
require valgrind
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
unset PERFAB_COUNTS # the default path: counts auto

# A child that valgrind takes a second or more to count.
cat >work.sh <<'EOF'
#!/bin/sh
i=0
while [ "$i" -lt 20000 ]; do i=$((i + 1)); done
EOF
chmod +x work.sh

# --- a log: whole lines only
# Identical arms, counted exactly: the count PASSes at 3 reps, the cpu
# guard (no interval below 6) holds the row: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run --reps 3 --max-reps 3 --out log.json ./work.sh ./work.sh
grep_err "plan: and a counting pass under valgrind"
grep_err "rep 1/3 · counting under valgrind, about"
if grep -q "$(printf '\r')" "$T/err"; then
	fail "a log got a carriage return"
fi
[ "$(tail -c 1 "$T/err" | od -An -c | tr -d ' ')" = '\n' ] || fail "the log ends in half a line"
pass "a log gets whole lines, the plan and a line per counting pass"

# --- a terminal
sock="$T/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$T"' EXIT
# stderr is the pane; the medians and the ledger (stdout) go to a file.
tmux -S "$sock" new-session -d -x 100 -y 40 -s run \
	"'$PERFAB' run --reps 3 --max-reps 3 --out tty.json ./work.sh ./work.sh >out.txt; \
	 echo done >done.txt; sleep 600" || skip "tmux cannot start a session here"
k=0
while [ ! -f done.txt ]; do
	k=$((k + 1))
	[ "$k" -lt 3000 ] || fail "the run in tmux did not end"
	tmux -S "$sock" capture-pane -p -t run >"cap.$k" 2>/dev/null || break
	sleep 0.1
done
[ -f done.txt ] || fail "tmux went away before the run ended"
shown=0
counting=0
planned=0
for f in cap.*; do
	last=$(grep -v '^[[:space:]]*$' "$f" | tail -n 1)
	[ -n "$last" ] || continue
	grep -q "plan: and a counting pass under valgrind" "$f" && planned=1
	case $last in
	row\ *\ \·\ rep\ *\ \·\ arm\ *elapsed*)
		shown=$((shown + 1))
		case $last in *"(counting under valgrind)"*) counting=$((counting + 1)) ;; esac ;;
	perfab:\ *) ;;
	\ \ [!\ ]*) ;; # the next line of a message folded to 100 columns
	*)
		# the run's end: the medians and the ledger on stdout, or half a line
		grep -q "elapsed" "$f" && ! grep -q "^perfab: note: artifact written" "$f" &&
			! grep -q "(medians)" "$f" &&
			{ cat "$f" >&2; fail "capture $f ends in '$last': not a whole status line"; } ;;
	esac
done
[ "$planned" = 1 ] || fail "no capture shows the plan's counting pass"
[ "$shown" -ge 5 ] || fail "only $shown of $k captures showed a status line"
[ "$counting" -ge 1 ] || fail "no capture showed the counting pass on the status line"
pass "$shown captures of $k show a whole status line; $counting of them the counting pass"
