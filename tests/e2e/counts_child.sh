#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# counts_child.sh — the counted child is the timed child (doc/method.md,
# "Exact counts"), on the default counting path (counts auto: valgrind here,
# where no PMU counts), as a user runs perfab:
#   - gzip -1 vs -9 through --input FAILs on instructions with the change
#     valgrind gives by hand for the same stdin (to 0.1 points), and an
#     identical stdin-fed pair is an exact PASS on it (the row waits for
#     its cpu guard);
#   - what the timed child gets, the counted child gets: an arm's
#     environment, perfab's working directory, a file --setup made, a file
#     --prepare made before each measured run (the head consumes it);
#   - a counted child that hangs only under valgrind is stopped by its
#     limit (--timeout x 20) and the cell says so;
#   - a budget that cannot cover a count: the count is not started, the
#     cell names the budget and so does the ledger;
#   - a command that replaces itself with exec after work has no exact
#     count (valgrind would count only the last program) and says why.
. "${top_srcdir}/tests/lib/test-lib.sh"
require valgrind gzip
unset PERFAB_COUNTS # the default path: counts auto

# The instructions cell of artifact $1 (row 0 × head) as JSON.
count_cell() {
	"$PERFAB" ledger --format json "$1" >cell.json
	jq -c '[.rows[0].cells[] | select(.metric == "instructions")][0]' cell.json
}

# Instructions valgrind counts for "$@" with stdin from in.txt, by hand.
by_hand() {
	valgrind -q --tool=cachegrind --cache-sim=no --branch-sim=no \
		--cachegrind-out-file="$T/hand.out" "$@" <in.txt >/dev/null 2>&1 ||
		hard_error "valgrind by hand failed: $*"
	awk '/^summary:/ { print $2 }' "$T/hand.out"
}

# --- gzip through --input: counted on the input, as timed
awk 'BEGIN { x = 7; for (i = 0; i < 30000; i++) { x = (x * 7919 + 13) % 10007; print i, x } }' \
	>in.txt
expect_rc 1 "$PERFAB" run -q --reps 2 --max-reps 2 --no-null-arm --input in.txt \
	--out gz.json 'gzip -1 -c' 'gzip -9 -c'
[ "$(jq -r '.run.counts.source' gz.json)" = sim ] || fail "the default did not count with valgrind"
c=$(count_cell gz.json)
echo "$c" | jq -e '.verdict == "FAIL" and .exact == true and .role == "required"' >/dev/null ||
	fail "gzip -9 against -1 on the input is not an exact FAIL: $c"
h1=$(by_hand gzip -1 -c)
h9=$(by_hand gzip -9 -c)
want=$(echo "$h1 $h9" | awk '{ printf "%.6f", ($2 - $1) / $1 * 100 }')
got=$(echo "$c" | jq '.change.median')
echo "$got $want" | awk '{ d = $1 - $2; exit !(d < 0.1 && d > -0.1) }' ||
	fail "counted change $got% is not valgrind's by hand $want% (gzip -1: $h1, -9: $h9)"
pass "gzip -9 vs -1 through --input: exact FAIL at $got% (by hand $want%)"

# An identical pair: the count is an exact PASS at 2 reps, but the row
# waits for its cpu guard, which has no interval below 6 reps
# (doc/method.md 8a, 13): INCONCLUSIVE, and the ledger says why.
expect_rc 3 "$PERFAB" run --reps 2 --max-reps 2 --no-null-arm --input in.txt \
	--out same.json 'gzip -6 -c' 'gzip -6 -c'
grep_out "only 2 paired reps: the counts are exact, but a time guard needs 6"
c=$(count_cell same.json)
echo "$c" | jq -e '.verdict == "PASS" and .exact == true and .change.lo == 0 and
	.change.hi == 0' >/dev/null || fail "an identical stdin-fed pair is not an exact PASS: $c"
jq -e '.rows[0].verdict == "INCONCLUSIVE"' cell.json >/dev/null ||
	fail "a row whose cpu guard has no interval was not held: $(jq -c '.rows[0].verdict' cell.json)"
# The same count as by hand, to 0.1% (perfab's child has its own argv[0]
# and environment, which move a count by a few thousand instructions).
b=$(jq '.rows[0].reps[0].results.base.instructions' same.json)
h=$(by_hand gzip -6 -c)
echo "$b $h" | awk '{ d = ($1 - $2) / $2; exit !(d < 0.001 && d > -0.001) }' ||
	fail "gzip -6's count $b is not valgrind's by hand ($h)"
pass "an identical stdin-fed pair is an exact PASS of instructions, equal to valgrind's by hand"

# --- the environment, the working directory, --setup and --prepare
# work.sh loops WORK_N (default 2000) times, plus the number in file $1
# when it can read it; with --consume it removes that file.
cat >work.sh <<'EOF'
#!/bin/sh
n=${WORK_N:-2000}
if [ -n "${1:-}" ] && [ -r "$1" ]; then
	n=$((n + $(cat "$1")))
	[ "${2:-}" != --consume ] || rm -f "$1"
fi
i=0
while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
EOF
chmod +x work.sh
echo 0 >a.len
echo 6000 >b.len
# Each head differs from its base only through one thing the child gets;
# a counted child without it would count the base's work: an exact PASS.
fails_on_count() {
	what=$1
	shift
	expect_rc 1 "$PERFAB" run -q --reps 2 --max-reps 2 --no-null-arm --out "$what.json" "$@"
	c=$(count_cell "$what.json")
	echo "$c" | jq -e '.verdict == "FAIL" and .exact == true' >/dev/null ||
		fail "$what: the counted child did not get it: $c"
	pass "the counted child gets $what"
}
fails_on_count "the arm's environment" --head-env 'WORK_N=8000' ./work.sh ./work.sh
fails_on_count "perfab's working directory" './work.sh a.len' './work.sh b.len'
fails_on_count "a file --setup made" --setup "sh -c 'echo 6000 >s.len'" \
	'./work.sh none.len' './work.sh s.len'
fails_on_count "a file --prepare made before each run" --prepare "sh -c 'echo 6000 >t.len'" \
	'./work.sh none.len' './work.sh t.len --consume'
# env only execs its command (as the action's arms do: env -C DIR -- PROG):
# the command's count is the count, exact.
fails_on_count "its command through env" 'env -C . -- ./work.sh' \
	'env -C . WORK_N=8000 ./work.sh'

# --- one count per program and rep: arms whose child is the same program
# (same digest, argv, environment; the null arm is base's) share it; and
# once a program's counts in two reps agree, later reps reuse that count
# and start no valgrind. 3 reps of A/A: one program, counted in reps 1
# and 2 (2 children; 3 before counts were reused). A/B: base (with the
# null arm) and head, each counted twice (4; it was 6).
cat >vg.sh <<EOF
#!/bin/sh
echo x >>"$T/vg.calls"
exec valgrind "\$@"
EOF
chmod +x vg.sh
: >vg.calls
# 3 reps: the count PASSes, the cpu guard holds the row (INCONCLUSIVE).
PERFAB_VALGRIND=$T/vg.sh expect_rc 3 "$PERFAB" run -q --reps 3 --max-reps 3 --out aa.json \
	./work.sh ./work.sh
[ "$(wc -l <vg.calls)" = 2 ] || fail "an A/A run of 3 reps started $(wc -l <vg.calls) valgrinds, not 2"
jq -e '[.rows[0].reps[].results[].instructions] | length == 9 and all(. != null) and
	(unique | length == 1)' aa.json >/dev/null ||
	fail "an arm that shared or reused a count has none, or another, in the artifact"
jq -e '(.rows[0].reps[0:2] | all(.count_origin == null)) and
	.rows[0].reps[2].count_origin == {"base": "reused", "head": "reused", "null": "reused"}' \
	aa.json >/dev/null || fail "the third rep's counts are not recorded as reused:" \
	"$(jq -c '[.rows[0].reps[].count_origin]' aa.json)"
c=$(count_cell aa.json)
echo "$c" | jq -e '.verdict == "PASS" and .exact == true and .change.n == 3' >/dev/null ||
	fail "reused counts are not judged as exact counts: $c"
: >vg.calls
PERFAB_VALGRIND=$T/vg.sh expect_rc 1 "$PERFAB" run -q --reps 3 --max-reps 3 --out ab.json \
	--head-env 'WORK_N=8000' ./work.sh ./work.sh
[ "$(wc -l <vg.calls)" = 4 ] || fail "an A/B run of 3 reps started $(wc -l <vg.calls) valgrinds, not 4"
c=$(count_cell ab.json)
echo "$c" | jq -e '.verdict == "FAIL" and .exact == true and .change.n == 3' >/dev/null ||
	fail "an A/B run with reused counts is not an exact FAIL on 3 pairs: $c"
pass "a count per program and rep until two agree: A/A 2 valgrind children, A/B 4"
# Counts that move are counted in every rep: a program whose work
# depends on the workload seed (another in every rep) is never reused.
cat >seeded.sh <<'EOF'
#!/bin/sh
n=$((2000 + (${PERFAB_SEED:-0} % 7) * 500))
i=0
while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
EOF
chmod +x seeded.sh
: >vg.calls
# Not exact: the sign test judges them, and 3 pairs are too few for it.
PERFAB_VALGRIND=$T/vg.sh expect_rc 3 "$PERFAB" run -q --reps 3 --max-reps 3 --out moved.json \
	./seeded.sh ./seeded.sh
[ "$(wc -l <vg.calls)" = 3 ] ||
	fail "a program whose counts moved was counted $(wc -l <vg.calls) times in 3 reps, not 3"
jq -e '[.rows[0].reps[].count_origin] | all(. == null)' moved.json >/dev/null ||
	fail "a count that moved was reused: $(jq -c '[.rows[0].reps[].count_origin]' moved.json)"
pass "counts that move are counted in every rep, never reused"
# Arms with the same command but their own prepare are not the same
# program: each is counted.
cat >own.json <<'EOF'
{ "arms": [ { "name": "base", "argv": ["./work.sh", "p.len"], "prepare": "sh -c 'echo 0 >p.len'" },
            { "name": "head", "argv": ["./work.sh", "p.len"], "prepare": "sh -c 'echo 6000 >p.len'" } ],
  "null_arm": false, "reps": 2, "max_reps": 2 }
EOF
fails_on_count "its own arm's prepare" --config own.json

# --- a counted child that hangs only under valgrind: --timeout x 20
cat >hang.sh <<'EOF'
#!/bin/sh
case "${LD_PRELOAD:-}" in *vgpreload*) exec sleep 1000 ;; esac
exit 0
EOF
chmod +x hang.sh
# Three reps of time alone decide nothing: INCONCLUSIVE.
expect_rc 3 "$PERFAB" run --reps 3 --max-reps 3 --timeout 1 --out hang.json ./hang.sh ./hang.sh
grep_out "the counting run passed its limit of 20 s (--timeout x 20) and was stopped"
n=$(jq '[.rows[0].reps[].results[].instructions] | map(select(. != null)) | length' hang.json)
[ "$n" = 0 ] || fail "a row whose count hung kept $n counts"
pass "a counted child that hangs is stopped by --timeout x 20, and the ledger says so"

# --- a budget that cannot cover the count: not started, and said
cat >slow.sh <<'EOF'
#!/bin/sh
i=0
while [ "$i" -lt 150000 ]; do i=$((i + 1)); done
EOF
chmod +x slow.sh
expect_rc 3 "$PERFAB" run --budget 1s --out budget.json ./slow.sh ./slow.sh
grep_out "not counted: the run's budget of 1 s had"
grep_out "the budget, not the noise, left"
[ "$(jq -r '.run.stop_reason' budget.json)" = budget ] ||
	fail "stop_reason is $(jq -r '.run.stop_reason' budget.json), not budget"
pass "a count the budget cannot cover is not started; the cell and the ledger name the budget"

# --- an exec after work: valgrind would count only the last program
expect_rc 3 "$PERFAB" run --reps 3 --max-reps 3 --out exec.json \
	"sh -c 'i=0; while [ \$i -lt 3000 ]; do i=\$((i+1)); done; exec /bin/true'" /bin/true
grep_out "not exact: the program replaced itself with exec"
n=$(jq '[.rows[0].reps[].results[].instructions] | map(select(. != null)) | length' exec.json)
[ "$n" = 0 ] || fail "a row with an exec after work kept $n counts"
"$PERFAB" ledger --format json exec.json >exl.json
jq -e '[.rows[0].cells[] | select(.role == "required") | .metric] | index("cpu") != null' \
	exl.json >/dev/null || fail "a row without exact counts is not judged by time"
pass "an exec after work has no exact count, says why, and is judged by time"
