#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# report_width.sh — every line perfab prints by default fits 100 columns
# (doc/hacking.md "Output width"), counted in characters (UTF-8 decoded):
#   - perfab --help, perfab help, perfab --version, perfab help CMD for
#     every command (and the subcommands of memgate and history), the
#     help topics;
#   - perfab env, here and from the fingerprint of every stored artifact;
#     perfab workloads;
#   - the ledger, text and --wide, of every case of tests/data/ledger/cases
#     and every artifact of tests/data/ledger, standard output and error,
#     and the reasons perfab gate gives for each;
#   - perfab history show and drift on those artifacts recorded;
#   - a run's plan, progress lines, medians and ledger, in a log and (where
#     script(1) is) on a terminal, each redraw of its status line a line.
# The named exceptions (doc/hacking.md "Output width" gives the reasons):
#   1. a diagnostic, "perfab: error|warning|note|no verdict: ...": one
#      message on one line, whole for a log search, a command in it whole
#      for a copy; the terminal wraps it;
#   2. a line of one word after its indentation: a path, a command or a
#      name that no blank lets fold (folding never cuts a word).
# The third, a long name or command of the user's echoed back, does not
# arise: every name here is short (the corpus's hostile rows included).
. "${top_srcdir}/tests/lib/test-lib.sh"
D=$top_srcdir/tests/data
NO_COLOR=1 TERM=dumb COLUMNS=80
export NO_COLOR TERM COLUMNS

# check LABEL FILE: every line of FILE over 100 characters that no
# exception covers is reported (LABEL:LINE: WIDTH: the line) and counted.
# A character is a byte that does not continue a UTF-8 sequence.
over=0
check() {
	LC_ALL=C tr -d '\200-\277' <"$2" >"$T/chars"
	LC_ALL=C awk -v label="$1" '
	NR == FNR { w[FNR] = length($0); next }
	w[FNR] <= 100 { next }
	/^perfab: (error|warning|note|no verdict): / { next }
	/^ *[^ ]+$/ { next }
	{ printf "%s:%d: %d columns: %s\n", label, FNR, w[FNR], $0 }' "$T/chars" "$2" >"$T/over"
	if [ -s "$T/over" ]; then
		cat "$T/over" >&2
		over=$((over + $(wc -l <"$T/over")))
	fi
	checked=$((checked + 1))
}
checked=0

# both CMD...: standard output and error of CMD, checked as one.
both() {
	label=$1
	shift
	"$@" >"$T/both" 2>&1
	check "$label" "$T/both"
}

# --- help
both "perfab --help" "$PERFAB" --help
both "perfab help" "$PERFAB" help
both "perfab --version" "$PERFAB" --version
"$PERFAB" --help >"$T/top"
commands=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$T/top")
topics=$(awk '/^help topics:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$T/top")
[ -n "$commands" ] && [ -n "$topics" ] || fail "perfab --help lists no commands or no topics"
for c in $commands $topics; do
	both "perfab help $c" "$PERFAB" help "$c"
done
for s in check record; do both "perfab memgate $s --help" "$PERFAB" memgate "$s" --help; done
for s in record show drift html; do both "perfab history $s --help" "$PERFAB" history "$s" --help; done

# --- env, workloads
both "perfab env" "$PERFAB" env
both "perfab workloads" "$PERFAB" workloads
for a in "$D"/ledger/*.json "$D/demo-run.json"; do
	both "perfab env --fingerprint ${a#"$D"/}" "$PERFAB" env --fingerprint "$a"
done

# --- the ledger and the gate's reasons
n=0
while read -r name fmts args; do
	case $name in '' | '#'*) continue ;; esac
	n=$((n + 1))
	# shellcheck disable=SC2086 # ARGS are words by design, as render.sh
	(cd "$D" && set -f && "$PERFAB" ledger $args --format text) >"$T/l" 2>&1
	check "ledger $name" "$T/l"
	(cd "$D" && set -f && "$PERFAB" ledger $args --wide) >"$T/l" 2>&1
	check "ledger --wide $name" "$T/l"
done <"$D/ledger/cases"
[ "$n" -ge 30 ] || fail "only $n cases read from tests/data/ledger/cases"
for a in "$D"/ledger/*.json "$D/demo-run.json" "$D/variants5.json"; do
	both "perfab ledger ${a#"$D"/}" "$PERFAB" ledger "$a"
	both "perfab gate ${a#"$D"/}" "$PERFAB" gate "$a"
done

# --- history
i=0
for a in "$D/demo-run.json" "$D/variants5.json" "$D"/ledger/p2-*.json "$D"/ledger/workloads-*.json \
	"$D/ledger/arms4.json" "$D/ledger/memory-fail.json" "$D/ledger/tolerance-margin.json"; do
	i=$((i + 1))
	"$PERFAB" history record --db h.db "$a" --commit "c$i" --branch main >/dev/null 2>&1 ||
		fail "history record '$a' failed"
done
both "perfab history show" "$PERFAB" history show --db h.db
both "perfab history drift" "$PERFAB" history drift --db h.db

# --- a run: the plan (a counting pass too where valgrind is), a line per
# rep, the medians and the ledger. Both arms the same short program.
spin="$WL/perfab-spin work=300 drain_ms=1 release_bound_ms=2"
"$PERFAB" run --reps 6 --max-reps 12 --scale 0.05 --out log.json "$spin" "$spin" >run.out 2>run.err
grep -q '^perfab: plan: ' run.err || { cat run.err >&2; fail "the run printed no plan"; }
check "perfab run (stderr, a log)" run.err
check "perfab run (stdout)" run.out
if command -v script >/dev/null 2>&1; then
	# On a terminal: each redraw of the status line ("\r\e[K...") a line.
	script -qec "'$PERFAB' run --reps 6 --max-reps 12 --scale 0.05 --out tty.json '$spin' '$spin'" \
		/dev/null >tty.raw 2>&1 </dev/null || true
	tr '\r' '\n' <tty.raw | sed "s/$(printf '\033')\[K//g" >tty.txt
	grep -q 'rep 1/6 · arm ' tty.txt || { cat tty.txt >&2; fail "no status line on a terminal"; }
	check "perfab run (a terminal)" tty.txt
fi

[ "$over" = 0 ] || fail "$over lines over 100 columns (of $checked outputs)"
pass "$checked outputs within 100 columns, but for the named exceptions"
