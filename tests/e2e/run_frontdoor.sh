#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The front door: perfab run CMD_BASE CMD_HEAD (arms base and head), perfab
# help CMD, perfab -v, "did you mean" for commands and options; shell
# syntax in an arm's command refused with a hint unless --literal-argv;
# progress on stderr (a plan line, one line per completed rep without a
# terminal); on SIGINT/SIGTERM a last line with the resume command (the
# run's own arms given again, as --resume requires), and the run still dies
# of the signal (130/143 in a shell).
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
spin="$WL/perfab-spin work=300 drain_ms=1 release_bound_ms=2"

# Positional arms: twice the work FAILs and its cpu reads "slower".
expect_rc 1 "$PERFAB" run --reps 6 --max-reps 6 --scale 0.1 --no-sanity-gate --out pos.json \
	"$WL/perfab-spin drain_ms=1 release_bound_ms=2" "$WL/perfab-spin drain_ms=1 release_bound_ms=2 slowdown_pct=100"
jq -e '[.arms[].name] == ["base", "head", "null"] and .arms[1].argv[-1] == "slowdown_pct=100"' pos.json >/dev/null ||
	fail "positional commands are not arms base and head: $(jq -c '.arms' pos.json)"
# Where counts are exact they fix the FAIL in the first block and the row
# stops there (doc/method.md §8): cpu has its range, not yet an interval.
if first_block_fail pos.json; then
	want='^  cpu .* [0-9.]+x slower \(range [0-9.]+\.\.[0-9.]+, no CI\) +INCONCLUSIVE$'
else
	want='^  cpu .* [0-9.]+x slower \[[0-9.]+, [0-9.]+\] +FAIL$'
fi
grep -Eq "$want" "$T/out" || { cat "$T/out" >&2; fail "the slowdown does not read 'Nx slower'"; }
# Progress: the plan, one line per rep (6, or the 3 before exact counts
# stopped the row), not one per child.
grep_err 'perfab: plan: 1 row × 3 arms × 6 reps = 18 children'
n=6
! first_block_fail pos.json || n=3
[ "$(grep -c 'rep [0-9]*/6 done' "$T/err")" = "$n" ] || { cat "$T/err" >&2; fail "not one progress line per rep"; }
if grep -q 'arm base' "$T/err"; then fail "a progress line per child without a terminal"; fi
grep_err 'the first block took'
expect_rc 2 "$PERFAB" run "$spin"
grep_err 'give two commands, base then head'
expect_rc 2 "$PERFAB" run "$spin" "$spin" --arm "x=$spin"
grep_err 'do not also give --arm'

# help CMD, -v, did you mean.
expect_rc 0 "$PERFAB" help run
grep_out '^usage: perfab run \[OPTIONS\] CMD_BASE CMD_HEAD'
expect_rc 0 "$PERFAB" -v
grep_out '^perfab [0-9]'
expect_rc 2 "$PERFAB" rnu
grep_err "unknown command 'rnu'; did you mean 'run'?"
expect_rc 2 "$PERFAB" help legder
grep_err "did you mean 'ledger'?"
expect_rc 2 "$PERFAB" compare a b
grep_err 'perfab run CMD_BASE CMD_HEAD'
expect_rc 2 "$PERFAB" ledger --fromat json pos.json
grep_err "unknown option '--fromat'; did you mean '--format'?"
expect_rc 2 "$PERFAB" run --null-armm "$spin" "$spin"
grep_err "did you mean '--null-arm'?"

# Shell syntax is refused, with a hint, before anything runs.
for cmd in "$spin | wc -l" "$spin || true" "$spin && true" "$spin ;" "$spin > out" \
	   "$spin >> out" "$spin < in" "$spin 2>&1" "$spin &" "FOO=1 $spin" "$spin \$HOME" \
	   "$spin ~/x" "$spin x\$(id)" "$spin \`id\`"; do
	expect_rc 2 "$PERFAB" run --out no.json "$spin" "$cmd"
	grep_err "arm 'head': '.*' is shell syntax"
	grep -Eq "sh -c|\"env\"|full path" "$T/err" || fail "no hint for '$cmd': $(cat "$T/err")"
	[ ! -e no.json ] || fail "'$cmd' ran before it was refused"
done
expect_rc 2 "$PERFAB" run --arm "base=$spin > /dev/null" --arm "head=$spin"
grep_err "arm 'base': '>' is shell syntax"
grep_err "sh -c '...'"
# A quoted word inside one argument is fine, and --literal-argv passes them on.
# (The pipeline is three times the work of the exit: an exact FAIL where
# counts are exact, else too few reps for a verdict.)
expect_rc "$(if_exact 1 3)" "$PERFAB" run -q --reps 2 --max-reps 2 --out sh.json "sh -c 'exit 0'" "sh -c 'true | true'"
expect_rc 3 "$PERFAB" run -q --reps 2 --max-reps 2 --literal-argv --out lit.json "/bin/echo '|'" "/bin/echo '>'"
jq -e '.arms[0].argv == ["/bin/echo", "|"]' lit.json >/dev/null || fail "--literal-argv did not keep the word"

# On a terminal: one status line rewritten in place, with the ETA.
if command -v script >/dev/null 2>&1; then
	script -qec "NO_COLOR=1 '$PERFAB' run --reps 6 --max-reps 6 --out tty.json '$spin' '$spin'" /dev/null >tty.txt 2>&1 || true
	grep -q "$(printf '\r\033\\[K')row 1/1 command · rep 1/6 · arm " tty.txt || fail "no status line rewritten in place"
	grep -q ' · ETA [0-9]*:[0-9][0-9]' tty.txt || fail "no ETA on the status line"
	if grep -q 'rep [0-9]*/6 done' tty.txt; then fail "per-rep log lines on a terminal"; fi
fi

# SIGINT and SIGTERM: a last line saying where it stopped and how to
# resume; the exit is still death by that signal; resuming finishes it.
for sig in INT TERM; do
	python3 - "$PERFAB" "$sig" "$spin" >sig.json <<'PY' || fail "SIG$sig: the interrupted run"
import json, os, signal, subprocess, sys, time
perfab, name, spin = sys.argv[1:4]
sig = getattr(signal, "SIG" + name)
out = "int-%s.json" % name
# (--counts off: the head's 4 MiB are more work too, and exact counts
# would end the run at its third rep, before the signal.)
p = subprocess.Popen([perfab, "run", "--counts", "off", "--reps", "42", "--max-reps", "42", "--out", out,
                      spin, spin + " extra_mib=4"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        if json.load(open(out))["rows"][0]["reps"]:
            break
    except (OSError, ValueError, KeyError, IndexError):
        pass
    time.sleep(0.05)
p.send_signal(sig)
err = p.stderr.read().decode()
p.wait()
art = json.load(open(out))
saved = len(art["rows"][0]["reps"])
# Reps the journal beside it holds beyond the artifact (see journal.h):
# "@SEQ LEN SHA256\n" then LEN bytes and "\n"; record 0 is the header.
folded = (art.get("journal") or {}).get("folded", 0)
try:
    data, i, first = open(out + ".journal", "rb").read(), 0, True
    while i < len(data):
        nl = data.index(b"\n", i)
        seq, ln = (int(w) for w in data[i + 1:nl].split()[:2])
        if not first and seq > folded:
            saved += 1
        first, i = False, nl + 1 + ln + 1
except FileNotFoundError:
    pass
print(json.dumps({"rc": p.returncode, "err": err, "saved": saved}))
PY
	jq -e '.rc == -(if "'$sig'" == "INT" then 2 else 15 end)' sig.json >/dev/null ||
		fail "SIG$sig: exit is not death by the signal: $(jq -c .rc sig.json)"
	saved=$(jq .saved sig.json)
	case $sig in INT) num=2 ;; TERM) num=15 ;; esac
	jq -r .err sig.json | grep -Eq "^perfab: interrupted by signal $num \([A-Za-z ]+\) (at row 1/1 'command', rep $((saved + 1))/42, arm [a-z]+( \([a-z ]+\))?|after rep $saved/42 of row 1/1 'command'); 'int-$sig.json' keeps the $saved reps completed before it; resume with: perfab run --resume int-$sig.json " ||
		fail "SIG$sig: no last line with the resume command (saved $saved): $(jq -r .err sig.json | tail -3)"
	# --resume needs the arms again: the command given names them.
	cmd=$(jq -r .err sig.json | sed -n 's/^perfab: interrupted .*; resume with: perfab run //p')
	[ "$cmd" = "--resume int-$sig.json --arm 'base=$spin' --arm 'head=$spin extra_mib=4'" ] ||
		fail "SIG$sig: the resume command does not give the run's arms: $cmd"
	[ "$sig" = INT ] && int_cmd=$cmd
done
# The command printed, run as printed (a shell's words), finishes the run.
# Head holds 4 MiB more (its peak RSS and faults far beyond base's and
# null's in every rep, below the sanity gate): the finished run FAILs.
eval "set -- $int_cmd"
expect_rc 1 "$PERFAB" run -q "$@"
jq -e '.complete == true' int-INT.json >/dev/null || fail "the resume command did not finish the run"
exit 0
