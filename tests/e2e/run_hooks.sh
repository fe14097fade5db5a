#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --warmup, --prepare, --setup, --cleanup and an arm's "prepare": what
# runs, how often, in what order, what the artifact records, and that a
# prepare's time stays out of the child's wall. Every child and hook
# appends a word to one log, so the log is the order they ran in.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3
# Every check here counts the runs of children and hooks in a log. The
# counting pass runs each child once more under valgrind, with its hooks
# (counts_child.sh checks what that child gets), so it is off here.
PERFAB_COUNTS=off
export PERFAB_COUNTS

count() { # count WORD FILE: lines equal to WORD
	grep -cx -- "$1" "$2" || true
}

# Warmup: 3 unmeasured runs of each arm, then the 2 measured reps; only
# the reps are in the artifact, the setting is recorded.
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --warmup 3 \
	"sh -c 'echo base >>log1'" "sh -c 'echo head >>log1'" --out warm.json
[ "$(count base log1)" = 5 ] && [ "$(count head log1)" = 5 ] ||
	fail "--warmup 3 --reps 2: each arm should run 5 times, ran: $(sort log1 | uniq -c | tr '\n' ' ')"
jq -e '(.rows[0].reps | length) == 2 and .run.warmup == 3' warm.json >/dev/null ||
	fail "the artifact holds the warmup runs or lacks run.warmup: $(jq -c '[(.rows[0].reps | length), .run.warmup]' warm.json)"

# Prepare: exactly once before each measured run, and before each warmup
# run: the log alternates p, arm. The arm's own prepare runs after it.
cat >conf.json <<'EOF'
{ "arms": [ { "name": "base", "argv": "sh -c 'echo base >>log2'" },
            { "name": "head", "argv": "sh -c 'echo head >>log2'", "prepare": "sh -c 'echo q >>log2'" } ] }
EOF
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 4 --max-reps 4 --warmup 1 --config conf.json \
	--prepare "sh -c 'echo p >>log2'" --out prep.json
python3 - log2 <<'PY' || fail "prepare did not run exactly once before each run: $(tr '\n' ' ' <log2)"
import sys
words = open(sys.argv[1]).read().split()
i, runs = 0, {"base": 0, "head": 0}
while i < len(words):
    assert words[i] == "p", (i, words[i])
    if words[i + 1] == "q":
        i += 1
        assert words[i + 1] == "head", (i, words[i + 1])
    assert words[i + 1] in runs, (i, words[i + 1])
    runs[words[i + 1]] += 1
    i += 2
assert runs == {"base": 5, "head": 5}, runs
PY
jq -e '.run.prepare == "sh -c '\''echo p >>log2'\''" and .arms[1].prepare == "sh -c '\''echo q >>log2'\''" and (.arms[0] | has("prepare") | not)' prep.json >/dev/null ||
	fail "the artifact does not record the prepares: $(jq -c '[.run.prepare, .arms[].prepare]' prep.json)"

# A prepare that sleeps 300 ms beside a 10 ms child: were the prepare in
# the child's window, every wall would be at least 0.31 s.
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --prepare "sleep 0.3" \
	"sleep 0.01" "sleep 0.01" --out slow.json
jq -e '[.rows[0].reps[].results[].wall] | length == 4 and all(. < 0.3)' slow.json >/dev/null ||
	fail "the prepare's sleep is in the child's wall: $(jq -c '[.rows[0].reps[].results[].wall]' slow.json)"

# Setup and cleanup: once per row, setup before the row's first run,
# cleanup after its last; {n} is the row's parameter.
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --warmup 1 \
	--parameter-list n 1,2 --setup "sh -c 'echo s{n} >>log3'" --cleanup "sh -c 'echo c{n} >>log3'" \
	"sh -c 'echo r{n} >>log3'" "sh -c 'echo r{n} >>log3'" --out rows.json
python3 - log3 <<'PY' || fail "setup/cleanup not once per row around its runs: $(tr '\n' ' ' <log3)"
import sys
w = open(sys.argv[1]).read().split()
for n in "12":
    assert w.count("s" + n) == 1 and w.count("c" + n) == 1, n
    runs = [i for i, x in enumerate(w) if x == "r" + n]
    assert len(runs) == 6, (n, len(runs))  # 1 warmup + 2 reps, 2 arms
    assert w.index("s" + n) < runs[0] and w.index("c" + n) > runs[-1], n
PY
jq -e '.run.setup == "sh -c '\''echo s{n} >>log3'\''" and (.run.cleanup | test("c[{]n[}]"))' rows.json >/dev/null ||
	fail "the artifact does not record setup and cleanup"

# A failing prepare stops the row: exit status and stderr in its reason,
# no rep of it kept; the environment failed, not the head: no verdict
# (exit 8). Cleanup still runs.
expect_rc 8 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 \
	--prepare "sh -c 'echo boom-from-prepare >&2; exit 3'" --cleanup "sh -c 'echo c >>log4'" \
	/bin/true /bin/true --out pfail.json
jq -e '.rows[0].failed and (.rows[0].fail_reason | test("prepare .* exited with status 3: boom-from-prepare")) and (.rows[0].reps | length) == 0' pfail.json >/dev/null ||
	fail "a failing prepare: $(jq -c '.rows[0] | [.failed, .fail_reason, (.reps | length)]' pfail.json)"
grep_err "boom-from-prepare"
[ "$(count c log4)" = 1 ] || fail "no cleanup after the row failed"

# A failing setup fails the row the same way (no verdict); a failing
# warmup run of the head is the head's failure (FAIL).
expect_rc 8 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --setup "sh -c 'exit 5'" \
	/bin/true /bin/true --out sfail.json
jq -e '.rows[0].fail_reason | test("setup .* exited with status 5")' sfail.json >/dev/null ||
	fail "a failing setup: $(jq -c .rows[0].fail_reason sfail.json)"
expect_rc 1 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --warmup 1 \
	/bin/true "sh -c 'exit 4'" --out wfail.json
jq -e '(.rows[0].fail_reason | test("warmup run 1 of arm .head. exited with status 4")) and (.rows[0].reps | length) == 0 and .rows[0].failed_arm == "head"' wfail.json >/dev/null ||
	fail "a failing warmup run: $(jq -c .rows[0].fail_reason wfail.json)"

# SIGINT: the row's cleanup still runs, then perfab dies of the signal;
# --resume runs setup and warmup again, with the recorded settings. The
# run is A/A with the null arm, which guards FAIL: resumed, it does not FAIL.
python3 - "$PERFAB" >sig.txt <<'PY' || fail "the interrupted run: $(cat sig.txt)"
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "run", "--null-arm", "--reps", "20", "--max-reps", "20",
                      "--warmup", "1", "--setup", "sh -c 'echo s >>log5'",
                      "--cleanup", "sh -c 'echo c >>log5'", "--prepare", "sh -c 'echo p >>log5'",
                      "--out", "int.json", "sh -c 'echo r >>log5; sleep 0.02'", "sh -c 'echo r >>log5; sleep 0.02'"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    if os.path.exists("log5") and open("log5").read().split().count("r") >= 8:
        break
    time.sleep(0.05)
p.send_signal(signal.SIGINT)
err = p.stderr.read().decode()
p.wait()
print(p.returncode)
open("sig-err.txt", "w").write(err)
PY
[ "$(cat sig.txt)" = -2 ] || fail "perfab did not die of SIGINT: $(cat sig.txt)"
[ "$(count s log5)" = 1 ] && [ "$(count c log5)" = 1 ] || fail "after SIGINT: $(sort log5 | uniq -c | tr '\n' ' ')"
[ "$(tail -n 1 log5)" = c ] || fail "the cleanup did not run last"
: >log5
base="base=sh -c 'echo r >>log5; sleep 0.02'" head="head=sh -c 'echo r >>log5; sleep 0.02'"
expect_rc 2 "$PERFAB" run -q --resume int.json --warmup 2 --null-arm --arm "$base" --arm "$head"
grep_err "with its own settings"
# The hooks are executed: like the arms, --resume checks them against the
# command line (or runs them as recorded with --trust-artifact, listed).
expect_rc 4 "$PERFAB" run -q --resume int.json --null-arm --arm "$base" --arm "$head"
grep_err "records --prepare 'sh -c 'echo p >>log5'', the command line gives none"
expect_rc 4 "$PERFAB" run -q --resume int.json --null-arm --arm "$base" --arm "$head" \
	--prepare "sh -c 'echo p >>log5'" --setup "sh -c 'echo s >>log5'" --cleanup "sh -c 'echo C >>log5'"
grep_err "records --cleanup"
[ ! -s log5 ] || fail "a refused resume ran something: $(cat log5)"
cmd=$(sed -n 's/^perfab: interrupted .*; resume with: perfab run //p' sig-err.txt)
case $cmd in *--prepare*--setup*--cleanup*) ;; *) fail "the resume command lacks the hooks: $cmd" ;; esac
eval "set -- $cmd"
expect_not_fail "an A/A run does not FAIL" "$PERFAB" run "$@"
grep_err "before every run: 'sh -c 'echo p >>log5''"
grep_err "after each row: 'sh -c 'echo c >>log5''"
jq -e '.complete and .run.warmup == 1 and (.run.cleanup | test("echo c"))' int.json >/dev/null ||
	fail "the resumed run lost its settings: $(jq -c '[.complete, .run.warmup, .run.cleanup]' int.json)"
[ "$(head -n 1 log5)" = s ] && [ "$(sed -n 2p log5)" = p ] && [ "$(tail -n 1 log5)" = c ] ||
	fail "resume did not set up, prepare and clean up again: $(head -3 log5 | tr '\n' ' ')"
[ "$(count p log5)" = "$(count r log5)" ] || fail "resumed: $(count p log5) prepares for $(count r log5) runs"

# Runs whose children ran beside other commands are not one experiment:
# pooling them is refused; the same hooks pool.
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --prepare /bin/true \
	/bin/true /bin/true --out pool1.json
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --prepare /bin/true --seed 9 \
	/bin/true /bin/true --out pool2.json
expect_rc 3 "$PERFAB" run -q --no-null-arm --reps 2 --max-reps 2 --warmup 1 --prepare /bin/true \
	/bin/true /bin/true --out pool3.json
expect_rc 0 "$PERFAB" pool pool1.json pool2.json -o pooled.json
expect_rc 4 "$PERFAB" pool pool1.json pool3.json -o pooled3.json
grep_err "warmup differs"
expect_rc 4 "$PERFAB" pool pool1.json warm.json -o pooled4.json

# SIGINT while a prepare runs: it is killed, the row cleaned up, and
# perfab dies of the signal as when a measured child is interrupted.
python3 - "$PERFAB" >sig2.txt <<'PY' || fail "the run interrupted in a prepare: $(cat sig2.txt)"
import signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "run", "-q", "--no-null-arm", "--reps", "2", "--max-reps", "2",
                      "--prepare", "sh -c 'echo p >>log6; exec sleep 30'", "--cleanup", "sh -c 'echo c >>log6'",
                      "--out", "int2.json", "/bin/true", "/bin/true"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        if open("log6").read():
            break
    except OSError:
        pass
    time.sleep(0.05)
time.sleep(0.2)
p.send_signal(signal.SIGINT)
err = p.stderr.read().decode()
p.wait(timeout=20)
print(p.returncode, err.strip().splitlines()[-1:])
PY
case $(cat sig2.txt) in "-2 "*"perfab: interrupted by signal 2 "*) ;; *) fail "interrupted in a prepare: $(cat sig2.txt)" ;; esac
[ "$(tr '\n' ' ' <log6)" = "p c " ] || fail "after SIGINT in a prepare: $(tr '\n' ' ' <log6)"
exit 0
