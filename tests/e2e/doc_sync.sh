#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/e2e/doc_sync.sh — doc/perfab.1 cannot drift from the code it documents.
#
#  1. Commands: every command of `perfab --help` has a section
#     "PERFAB <COMMAND>", and every such section is a command.
#  2. SYNOPSIS: one group per usage form (a line starting "perfab",
#     continued by indented lines) equal, whitespace aside, to the usage
#     forms --help prints, and the other way round; plus the top-level usage.
#  3. Options: in each command's section, the option tags (the line after
#     .TP) are exactly the left column of `perfab CMD --help`, placeholders
#     included ("-n, --reps N") — for a command with subcommands (memgate
#     check, memgate record), of all its subcommands' --help together; and
#     every --option the page mentions anywhere is an option of some command.
#  4. METRICS: the tags are, in order, "\fBNAME\fR (UNIT; higher|lower is
#     better; judged|recorded[; credit])" for each line of the table
#     `perfab help metrics` prints (the binary's metric table).
#  5. EXIT STATUS: the tags are exactly the statuses `perfab help
#     exit-codes` prints.
. "${top_srcdir}/tests/lib/test-lib.sh"

MAN=${top_srcdir}/doc/perfab.1
[ -r "$MAN" ] || { echo "cannot read '$MAN'" >&2; exit 99; }

errors=0
problem() {
	printf 'doc_sync: %s\n' "$*" >&2
	errors=$((errors + 1))
}

# unroff: the text of roff source lines on stdin (font escapes dropped,
# \- \(aq \(dq \& \e undone), one line out per line in.
unroff() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" \
	    -e 's/\\(dq/"/g' -e 's/\\&//g' -e 's/\\e/\\/g'
}

# squeeze: collapse blanks, trim.
squeeze() {
	awk '{ s = s " " $0 } END { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); print s }'
}

# section TITLE: the source lines of the man page section TITLE (.SH line
# excluded, quotes around the title optional), comments dropped.
section() {
	awk -v want="$1" '
	/^\.SH/ { t = $0; sub(/^\.SH[ \t]*/, "", t); gsub(/"/, "", t); on = (t == want); next }
	on && !/^\.\\"/ { print }' "$MAN"
}

# tags TITLE: the tag lines (the line after each .TP) of section TITLE, raw.
tags() {
	section "$1" | awk 'tp { print; tp = 0; next } /^\.TP/ { tp = 1 }'
}

# usage_of CMD...: the usage forms of `perfab CMD --help`, one per line,
# squeezed: a form starts with "perfab", its continuations are indented.
usage_of() {
	"$PERFAB" "$@" --help | awk '
	NR == 1 { sub(/^usage: /, "") }
	/^$/ { exit }
	{ line = $0; sub(/^[ \t]+/, "", line); sub(/^or: /, "", line) }
	line ~ /^perfab/ { if (u != "") print u; u = line; next }
	{ u = u " " line }
	END { if (u != "") print u }' | while IFS= read -r u; do
		printf '%s\n' "$u" | squeeze
	done
}

# help_left CMD...: the left column of each option line of `perfab CMD --help`
# ("-n, --reps N"), one per line. Lines are "  %-28s %s", the help folded
# under its column (31 blanks in); a left column too wide for its field
# stands alone on its line, its help on the next.
help_left() {
	"$PERFAB" "$@" --help | awk '
	/^  (-[^ -], |    )--/ {
		if (substr($0, 31, 1) == " ") {
			l = substr($0, 3, 28)
		} else {
			l = substr($0, 3); sub(/ [a-z(].*$/, "", l)
		}
		sub(/^ +/, "", l); sub(/ +$/, "", l); print l
	}'
}

# --- 1. commands ---------------------------------------------------------
"$PERFAB" --help >"$T/help" || fail "perfab --help failed"
commands=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$T/help")
[ -n "$commands" ] || fail "perfab --help lists no commands"
for c in $commands; do
	title=$(echo "PERFAB $c" | tr '[:lower:]' '[:upper:]')
	[ -n "$(section "$title")" ] || problem "command '$c' has no section \"$title\""
done
grep '^\.SH[ \t]*"*PERFAB ' "$MAN" | sed -e 's/^\.SH[ \t]*//' -e 's/"//g' |
while read -r _ cmd; do
	c=$(echo "$cmd" | tr '[:upper:]' '[:lower:]')
	echo "$commands" | grep -qx -- "$c" ||
		echo "section \"PERFAB $cmd\" documents '$c', which is not a command of perfab --help"
done >"$T/extra_sections"
[ -s "$T/extra_sections" ] && problem "$(cat "$T/extra_sections")"

# --- 2. SYNOPSIS ---------------------------------------------------------
section SYNOPSIS | grep -v '^\.' | unroff | awk '
	/^perfab/ { if (g != "") print g; g = $0; next }
	/^[ \t]/ { g = g " " $0; next }
	/^$/ { next }
	{ print "?" $0 }
	END { if (g != "") print g }' | while IFS= read -r g; do
	printf '%s\n' "$g" | squeeze
done >"$T/synopsis"
[ -s "$T/synopsis" ] || problem "SYNOPSIS has no usage lines"
{
	usage_of
	for c in $commands; do usage_of "$c"; done
} | sort -u >"$T/usages"
while IFS= read -r u; do
	grep -qxF -- "$u" "$T/synopsis" || problem "SYNOPSIS lacks the usage line: $u"
done <"$T/usages"
while IFS= read -r g; do
	grep -qxF -- "$g" "$T/usages" || problem "SYNOPSIS line is no command's usage: $g"
done <"$T/synopsis"

# --- 3. options ----------------------------------------------------------
: >"$T/all_opts"
for c in $commands; do
	title=$(echo "PERFAB $c" | tr '[:lower:]' '[:upper:]')
	help_left "$c" | sort -u >"$T/help_$c"
	if [ ! -s "$T/help_$c" ]; then
		# Subcommands: the third word of each usage form, "perfab CMD SUB ...".
		for sub in $(usage_of "$c" | awk '{ print $3 }' | sort -u); do
			help_left "$c" "$sub"
		done | sort -u >"$T/help_$c"
	fi
	[ -s "$T/help_$c" ] || problem "perfab $c --help lists no options (not even --help)"
	tags "$title" | unroff | sed -e 's/^ *//' -e 's/ *$//' | grep '^-' | sort >"$T/man_$c"
	comm -23 "$T/help_$c" "$T/man_$c" | while IFS= read -r o; do
		echo "perfab $c: option '$o' of --help is not documented in \"$title\""
	done
	comm -13 "$T/help_$c" "$T/man_$c" | while IFS= read -r o; do
		echo "perfab $c: \"$title\" documents '$o', which --help does not have (as written)"
	done
	grep -o -- '--[a-z][a-z0-9-]*' "$T/help_$c" >>"$T/all_opts"
done >"$T/opt_problems"
[ -s "$T/opt_problems" ] && problem "$(cat "$T/opt_problems")"
usage_of | grep -o -- '--[a-z][a-z0-9-]*' >>"$T/all_opts"
# Named exceptions: hyperfine's options perfab run answers with advice (its
# table hyperfine_options in src/cmd_run.c), which the page names as such.
sed -n '/^static const struct pab_foreign_option hyperfine_options/,/^};/p' \
	"$top_srcdir/src/cmd_run.c" | grep -o -- '"-[^"]*"' | tr -d '"' | tr '|' '\n' |
	grep -- '^--' >>"$T/all_opts"
sort -u "$T/all_opts" -o "$T/all_opts"
grep -v '^\.\\"' "$MAN" | unroff | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T/mentioned"
comm -13 "$T/all_opts" "$T/mentioned" >"$T/unknown_opts"
[ -s "$T/unknown_opts" ] &&
	problem "the page mentions options no command has:" $(cat "$T/unknown_opts")

# --- 4. METRICS ----------------------------------------------------------
# The table's lines follow its header "metric unit better default credit ...";
# each metric's source is on the indented line under it.
"$PERFAB" help metrics >"$T/help_metrics" || problem "perfab help metrics failed"
awk 'on && /^[^ ]/ && NF >= 5 {
		better = $3; judged = $4; credit = ($5 == "credit") ? "; credit" : ""
		printf "\\fB%s\\fR (%s; %s is better; %s%s)\n", $1, $2, better, judged, credit
	}
	$1 == "metric" && $2 == "unit" { on = 1 }' "$T/help_metrics" >"$T/metrics_code"
n=$(wc -l <"$T/metrics_code")
[ "$n" -ge 10 ] || problem "could read only $n metrics from perfab help metrics"
tags METRICS >"$T/metrics_man"
if ! cmp -s "$T/metrics_code" "$T/metrics_man"; then
	problem "METRICS differs from perfab help metrics (- binary, + page):
$(diff "$T/metrics_code" "$T/metrics_man" | grep '^[<>]' | sed -e 's/^</-/' -e 's/^>/+/')"
fi

# --- 5. EXIT STATUS ------------------------------------------------------
"$PERFAB" help exit-codes >"$T/help_exit" || problem "perfab help exit-codes failed"
sed -n 's/^  \([0-9][0-9]*\)  .*/\1/p' "$T/help_exit" | sort -n >"$T/exit_code"
[ -s "$T/exit_code" ] || problem "perfab help exit-codes lists no status"
tags "EXIT STATUS" | sed -n 's/^\.B[ \t]*\([0-9][0-9]*\)[ \t]*$/\1/p' | sort -n >"$T/exit_man"
if ! cmp -s "$T/exit_code" "$T/exit_man"; then
	problem "EXIT STATUS documents $(echo $(cat "$T/exit_man")), perfab help exit-codes has $(echo $(cat "$T/exit_code"))"
fi

[ "$errors" = 0 ] || fail "$errors mismatch(es) between $MAN and the code"
echo "doc/perfab.1 agrees with perfab --help, perfab help metrics and perfab help exit-codes"
exit 0
