#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/e2e/man_examples.sh — the man page's examples are run, as jq builds tests
# from its manual: a documented command that stops working fails the build.
#
# Every line of every .EX/.EE block in the EXAMPLES section of doc/perfab.1
# is a shell command (a line ending in a backslash continues on the next).
# They run in order, with sh, in one scratch directory, so later examples
# may use the artifacts earlier ones wrote. "perfab" at the start of a
# command means the built binary ($PERFAB); PERFAB_WORKLOAD_DIR is exported.
# Every command ends with "# exit N" (or "# exit N or M", "# exit N, M or
# K"), the statuses it may exit with: an A/A run whose verdict depends on
# the machine's noise says "# exit 0 or 3" (PASS or INCONCLUSIVE, never
# FAIL). A command that states none fails the test. Anywhere in the page,
# an .EX block preceded by the comment line '.\" file: NAME' is written to NAME
# in that directory first (the CONFIG FILE examples), and must be JSON when
# NAME ends in .json.
. "${top_srcdir}/tests/lib/test-lib.sh"

MAN=${top_srcdir}/doc/perfab.1
[ -r "$MAN" ] || hard_error "cannot read '$MAN'"
export PERFAB PERFAB_WORKLOAD_DIR

EX=$T/examples
mkdir "$EX" || hard_error "cannot create '$EX'"

# Extract. Output: "file NAME" records (the file's lines are written by awk
# into $EX) and "cmd WANT COMMAND" records, WANT being a status or "-".
# roff escapes are undone; an escape this script does not know is an error,
# so an example can never run as something other than what the page shows.
awk -v dir="$EX" '
function repl(s, from, to,    out, i) {
	out = ""
	while ((i = index(s, from)) > 0) {
		out = out substr(s, 1, i - 1) to
		s = substr(s, i + length(from))
	}
	return out s
}
function unroff(s,    t) {
	s = repl(s, "\\fB", ""); s = repl(s, "\\fI", "")
	s = repl(s, "\\fR", ""); s = repl(s, "\\fP", "")
	s = repl(s, "\\-", "-"); s = repl(s, "\\(aq", "\047")
	s = repl(s, "\\(dq", "\""); s = repl(s, "\\&", "")
	t = repl(s, "\\e", "")
	if (index(t, "\\") > 0) {
		printf "error line %d: unknown roff escape in: %s\n", NR, s
		bad = 1
	}
	return repl(s, "\\e", "\\")
}
/^\.SH/ {
	sec = $0; sub(/^\.SH[ \t]*/, "", sec); gsub(/"/, "", sec)
	next
}
/^\.\\" file: / { file = $0; sub(/^\.\\" file: /, "", file); next }
/^\.EX/ {
	inex = 1; pending = ""
	if (file != "") {
		if (file ~ /\// || file ~ /^\./) {
			printf "error line %d: bad file name %s\n", NR, file; bad = 1
		}
		out = dir "/" file; print "file " file; writing = 1
		file = ""
	}
	next
}
/^\.EE/ {
	if (pending != "") {
		printf "error line %d: continuation runs off the block\n", NR; bad = 1
	}
	if (writing) close(out)
	inex = 0; writing = 0
	next
}
!inex { next }
/^\./ { printf "error line %d: request inside .EX: %s\n", NR, $0; bad = 1; next }
writing { print unroff($0) > out; next }
sec != "EXAMPLES" { next }
{
	line = unroff($0)
	if (line ~ /\\$/) {
		pending = pending substr(line, 1, length(line) - 1)
		next
	}
	line = pending line; pending = ""
	if (line ~ /^[ \t]*$/) next
	want = "-"
	if (match(line, /[ \t]#[ \t]*exit[ \t]+[0-9]+((, | or )[0-9]+)*[ \t]*$/)) {
		want = substr(line, RSTART)
		sub(/^[ \t]*#[ \t]*exit[ \t]+/, "", want); sub(/[ \t]*$/, "", want)
		gsub(/, | or /, ",", want)
	}
	print "cmd " want " " line
}
END { if (bad) exit 1 }
' "$MAN" >"$T/list" || { grep '^error' "$T/list" >&2; fail "cannot extract the examples from $MAN"; }

n_cmd=$(grep -c '^cmd ' "$T/list")
[ "$n_cmd" -gt 0 ] || fail "no examples found in the EXAMPLES section of $MAN"

# The written files: JSON ones must parse.
grep '^file ' "$T/list" | while read -r _ name; do
	case $name in
	*.json) jq empty "$EX/$name" || fail "example file '$name' is not valid JSON" ;;
	esac
	echo "wrote example file $name"
done || exit 1

i=0
grep '^cmd ' "$T/list" | {
	failed=0
	while IFS= read -r rec; do
		rec=${rec#cmd }
		want=${rec%% *}
		cmd=${rec#* }
		i=$((i + 1))
		case $cmd in
		perfab\ *) run="\"\$PERFAB\" ${cmd#perfab }" ;;
		*) run=$cmd ;;
		esac
		t0=$(date +%s)
		(cd "$EX" && sh -c "$run") >"$T/ex.out" 2>"$T/ex.err" </dev/null
		rc=$?
		secs=$(($(date +%s) - t0))
		case ,$want, in
		*,$rc,*) ok=1 ;;
		*) ok=0 ;;
		esac
		if [ "$ok" = 1 ]; then
			printf 'ok %d (exit %d, %d s): %s\n' "$i" "$rc" "$secs" "$cmd"
		else
			printf 'FAIL %d: %s\n' "$i" "$cmd" >&2
			if [ "$want" = - ]; then
				echo "  states no exit status (# exit N, or # exit N or M): exited $rc" >&2
			else
				echo "  exited $rc, expected one of $want" >&2
			fi
			echo "--- stdout" >&2; tail -n 30 "$T/ex.out" >&2
			echo "--- stderr" >&2; tail -n 30 "$T/ex.err" >&2
			failed=$((failed + 1))
		fi
	done
	[ "$failed" = 0 ] || fail "$failed example(s) of $MAN failed"
	echo "all examples ran"
} || exit 1
exit 0
