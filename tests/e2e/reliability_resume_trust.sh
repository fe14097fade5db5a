#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --resume trusts nothing in the artifact it cannot check: a forged
# artifact that runs another command (its digest forged to match) is
# refused when the arms are given again, and shown before anything runs;
# a changed program of a second row is refused by its own recorded digest;
# so is a changed script argument or LD_PRELOAD library, with its digest;
# a program swapped during a fresh run, or an input changed after its
# last exec, stops the run; settings outside their options' ranges are
# refused with exit 2.
. "${top_srcdir}/tests/lib/test-lib.sh"

cp /bin/true ./mytrue
arms="--arm base=./mytrue --arm head=./mytrue"
# 3 reps (one block of base, head, null): fewer than 6 pairs, INCONCLUSIVE.
# shellcheck disable=SC2086 # $arms is a list of options
expect_rc 3 "$PERFAB" run -q $arms --reps 3 --max-reps 3 --out done.json
jq '.complete = false | .rows[0].reps |= .[0:2]' done.json >part.json

# Forged: head runs sh -c '...' and its digest says /bin/sh.
shsum=$(sha256sum /bin/sh | cut -d' ' -f1)
jq --arg s "$shsum" --arg p "$T/pwned" \
	'.arms[1].argv = ["/bin/sh", "-c", ("touch " + $p + "; printf \"\u001b]0;owned\u0007\"")] |
	 .arms[1].exe = "/bin/sh" | .arms[1].sha256 = $s |
	 .rows[0].executables.head = {"path": "/bin/sh", "sha256": $s}' part.json >forged.json
# shellcheck disable=SC2086
expect_rc 4 "$PERFAB" run -q --resume forged.json $arms
grep_err "does not match the arms and rows given again: arm 'head' runs another command"
[ ! -e pwned ] || fail "the forged command ran"
# What it would run is shown first, terminal-safe.
grep_err "arm head: '/bin/sh' '-c' 'touch"
grep -q "$(printf '\033')" "$T/err" && fail "an ESC of the artifact reached stderr"
grep_err 'printf "\\x1b\]0;owned\\x07"'
# Neither the arms again nor --trust-artifact: refused, nothing run.
expect_rc 2 "$PERFAB" run -q --resume forged.json
grep_err "trust-artifact"
[ ! -e pwned ] || fail "the forged command ran"
# The genuine one resumes with its own arms, to its 3 reps: INCONCLUSIVE.
# shellcheck disable=SC2086
expect_rc 3 "$PERFAB" run -q --resume part.json $arms
jq -e '.complete' part.json >/dev/null || fail "the genuine resume did not complete"

# Two built-in rows with different programs: the second row's program
# changed after the start is refused, though the first row's did not.
mkdir wl
cp "$WL/perfab-alloc" "$WL/perfab-spin" wl/
cat >rows.json <<'CFG'
{ "arms": [ { "name": "base" }, { "name": "head" } ],
  "workloads": "=small/8|=spin", "reps": 2, "max_reps": 2, "scale": 0.001 }
CFG
# 2 reps a row, rounded up to one block of 3 (base, head, null): fewer
# than 6 pairs, INCONCLUSIVE.
PERFAB_WORKLOAD_DIR=$T/wl expect_rc 3 "$PERFAB" run -q --no-sanity-gate --config rows.json \
	--out rows-done.json
[ "$(jq -r '[.rows[].program] | join(",")' rows-done.json)" = "perfab-alloc,perfab-spin" ] ||
	fail "expected rows small/8 (perfab-alloc) then spin (perfab-spin)"
jq -e '[.rows[1].executables[].path | test("perfab-spin$")] | all' rows-done.json >/dev/null ||
	fail "the second row's executables are not recorded"
jq '.complete = false | .rows[1].reps = []' rows-done.json >rows-part.json
printf '\n' >>wl/perfab-spin
export PERFAB_WORKLOAD_DIR="$T/wl"
expect_rc 4 "$PERFAB" run -q --resume rows-part.json --config rows.json
grep_err "executable '$T/wl/perfab-spin' (row 'spin') changed since the run started"
expect_rc 4 "$PERFAB" run -q --resume rows-part.json --trust-artifact
grep_err "(row 'spin') changed since the run started"
export PERFAB_WORKLOAD_DIR="$WL"

# A script given as an argument (/bin/sh ./bench.sh) is digested like the
# program: changed, the resume is refused with the new and the old digest.
printf '#!/bin/sh\nexit 0\n' >bench.sh
# srun OPTION...: perfab run with the script arms.
srun() { "$PERFAB" run -q --arm "base=/bin/sh ./bench.sh" --arm "head=/bin/sh ./bench.sh" --no-null-arm "$@"; }
# 4 reps (two blocks): fewer than 6 pairs, INCONCLUSIVE.
expect_rc 3 srun --reps 4 --max-reps 4 --out script.json
old=$(sha256sum bench.sh | cut -d' ' -f1)
jq -e --arg s "$old" '.rows[0].executables.head.inputs == [{"path": "./bench.sh", "role": "argument", "sha256": $s}]' \
	script.json >/dev/null || fail "the script argument is not recorded: $(jq -c .rows[0].executables.head script.json)"
jq '.complete = false | .rows[0].reps |= .[0:2]' script.json >script-part.json
cp script-part.json script-part2.json
printf '#!/bin/sh\nexit 0 # changed\n' >bench.sh
new=$(sha256sum bench.sh | cut -d' ' -f1)
expect_rc 4 srun --resume script-part.json
grep_err "'./bench.sh' (argument of arm 'base', row 'command') changed since the run started (sha256 $new, recorded $old)"
expect_rc 4 "$PERFAB" run -q --resume script-part.json --trust-artifact
grep_err "(sha256 $new, recorded $old)"
# Restored, it resumes, to its 4 reps: INCONCLUSIVE.
printf '#!/bin/sh\nexit 0\n' >bench.sh
expect_rc 3 srun --resume script-part2.json
jq -e '.complete' script-part2.json >/dev/null || fail "the restored script did not resume to the end"

# An LD_PRELOAD library (a copy of libm, harmless to preload) rebuilt.
lib=
for l in /lib/x86_64-linux-gnu/libm.so.6 /usr/lib/x86_64-linux-gnu/libm.so.6 \
	/lib/aarch64-linux-gnu/libm.so.6 /lib64/libm.so.6 /usr/lib64/libm.so.6; do
	[ -f "$l" ] && { lib=$l; break; }
done
if [ -n "$lib" ]; then
	cp "$lib" libpre.so
	cat >pre.json <<CFG
{ "arms": [ { "name": "base", "argv": ["./mytrue"], "env": { "LD_PRELOAD": "$T/libpre.so" } },
            { "name": "head", "argv": ["./mytrue"], "env": { "LD_PRELOAD": "$T/libpre.so" } } ] }
CFG
	# 4 reps (two blocks): fewer than 6 pairs, INCONCLUSIVE.
	expect_rc 3 "$PERFAB" run -q --config pre.json --no-null-arm --reps 4 --max-reps 4 --out pre-done.json
	old=$(sha256sum libpre.so | cut -d' ' -f1)
	jq -e --arg s "$old" '.rows[0].executables.base.inputs[0] | .role == "LD_PRELOAD" and .sha256 == $s' \
		pre-done.json >/dev/null || fail "the LD_PRELOAD library is not recorded"
	jq '.complete = false | .rows[0].reps |= .[0:2]' pre-done.json >pre-part.json
	printf 'rebuilt' >>libpre.so
	new=$(sha256sum libpre.so | cut -d' ' -f1)
	expect_rc 4 "$PERFAB" run -q --resume pre-part.json --config pre.json --no-null-arm
	grep_err "'$T/libpre.so' (LD_PRELOAD of arm 'base', row 'command') changed since the run started (sha256 $new, recorded $old)"
else
	echo "no libm.so.6 found: the LD_PRELOAD case is not run"
fi

# A program swapped during a fresh run: the next exec of it stops the run,
# naming it and both digests; the swapped program never runs.
printf '#!/bin/sh\nexit 0\n' >swapme
printf '#!/bin/sh\n[ -e swapped ] && exit 0\ntouch swapped\nprintf "#!/bin/sh\\ntouch ran-swapped\\n" >swapme.new\nchmod +x swapme.new\nmv swapme.new swapme\n' >swapit
chmod +x swapme swapit
old=$(sha256sum swapme | cut -d' ' -f1)
expect_rc 4 "$PERFAB" run -q --arm base=./swapme --arm head=./swapit --no-null-arm --reps 6 \
	--max-reps 6 --no-sanity-gate --out swap.json
[ -e swapped ] || fail "the swap never happened"
new=$(sha256sum swapme | cut -d' ' -f1)
grep_err "arm 'base' of row 'command': program './swapme' is not the file checked when the run started (sha256 $old then, $new before its next exec): the run stops"
[ ! -e ran-swapped ] || fail "the swapped program ran"
[ "$(jq -r .complete swap.json)" = false ] || fail "the stopped run's artifact says complete"

# An input changed after its last exec (row r1's head rewrites row r0's
# argument in the run's very last child): the check at the end stops it.
printf 'in0\n' >in0.txt
printf 'in1\n' >in1.txt
cat >late.sh <<'SH'
#!/bin/sh
[ "$1" = in1.txt ] || exit 0
n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo $n >count
[ $n -lt 4 ] || echo changed >>in0.txt
SH
chmod +x late.sh
cat >late.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["./late.sh"] }, { "name": "head", "argv": ["./late.sh"] } ],
  "rows": [ { "name": "r0", "argv": ["in0.txt"] }, { "name": "r1", "argv": ["in1.txt"] } ],
  "reps": 2, "max_reps": 2 }
CFG
old=$(sha256sum in0.txt | cut -d' ' -f1)
expect_rc 4 "$PERFAB" run -q --config late.json --no-null-arm --no-sanity-gate --out late-run.json
new=$(sha256sum in0.txt | cut -d' ' -f1)
[ "$old" != "$new" ] || fail "the last child did not change in0.txt"
grep_err "row 'r0': argument 'in0.txt' is not the file checked when the run started (sha256 $old then, $new at the end of the run)"
[ "$(jq -r .complete late-run.json)" = false ] || fail "the run was finished as complete"

# Settings read back are range-checked like the options, before any cast.
for bad in '.run.max_procs = 1e300' '.run.timeout_s = 1e300' '.run.sample_interval_ms = -1' \
	'.run.scale = "big"' '.run.max_procs = 2.5' '.run.cgroup = 7'; do
	jq "$bad" done.json | jq '.complete = false | .rows[0].reps |= .[0:2]' >range.json
	# shellcheck disable=SC2086
	expect_rc 2 "$PERFAB" run -q --resume range.json $arms
	grep_err "cannot resume 'range.json': run\."
done
exit 0
