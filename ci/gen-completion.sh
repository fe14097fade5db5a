#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/gen-completion.sh PERFAB — write perfab's bash completion to stdout,
# generated from the --help of PERFAB and of each of its commands (and
# memgate's and history's subcommands), so it cannot drift from the
# options table. The build runs it (src/completion.mk);
# tests/e2e/completion.sh checks the result.
#
# Completed: the commands; each command's options; an option's argument
# from its placeholder: FILE, OUT, DIR, RUN and SHARD-like names complete
# file names, a|b|c its words, anything else nothing.
set -eu
perfab=${1:?usage: ci/gen-completion.sh PERFAB}

# options CMD...: "name placeholder" per option of `perfab CMD... --help`.
options() {
	# An option's line starts "  -x, --" or "      --"; a description
	# folded under its column starts 31 blanks in, whatever its first word.
	"$perfab" "$@" --help | awk '
	/^  (-[^ -], |    )--/ {
		spec = $0
		sub(/^ +/, "", spec)
		n = split(spec, part, /   +/)   # the spec ends at a wide gap
		spec = part[1]
		m = split(spec, alt, /, /)
		for (i = 1; i <= m; i++) {
			if (alt[i] !~ /^-/)
				continue # a comma in a description glued to the spec
			split(alt[i], w, / /)
			arg = w[2]
			if (arg == "" && m > 1) { split(alt[m], z, / /); arg = z[2] }
			print w[1], arg
		}
	}'
}

commands=$("$perfab" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ -n "$commands" ] || { echo "gen-completion: no commands in '$perfab --help'" >&2; exit 1; }

cat <<'HEAD'
# bash completion for perfab — generated from `perfab --help` and each
# command's --help by ci/gen-completion.sh; do not edit.
# SPDX-License-Identifier: GPL-3.0-or-later

_perfab() {
	local cur prev cmd= sub= i w opts args
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-*) ;;
		*)
			if [[ -z $cmd ]]; then
				cmd=$w
			elif [[ ($cmd == memgate || $cmd == history) && -z $sub ]]; then
				sub=$w
			fi
			;;
		esac
	done
	case "$cmd${sub:+ $sub}" in
HEAD

emit() { # emit KEY CMD...: the case arm of one command
	key=$1
	shift
	opts=$(options "$@" | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')
	printf '\t"%s")\n\t\topts="%s"\n\t\tcase $prev in\n' "$key" "$opts"
	options "$@" | awk '
	$2 == "" { next }
	{
		ph = $2
		gsub(/[\[\]]/, "", ph)
		if (ph ~ /\|/) { gsub(/\|/, " ", ph); words[ph] = words[ph] " " $1 }
		else if (ph ~ /^(FILE|OUT|DIR|RUN|PATH)$/) files = files " " $1
		else none = none " " $1
	}
	END {
		if (files != "") { sub(/^ /, "", files); gsub(/ /, "|", files); printf "\t\t%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", files }
		for (w in words) { o = words[w]; sub(/^ /, "", o); gsub(/ /, "|", o); printf "\t\t%s) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", o, w }
		if (none != "") { sub(/^ /, "", none); gsub(/ /, "|", none); printf "\t\t%s) COMPREPLY=(); return ;;\n", none }
	}'
	printf '\t\tesac\n\t\t;;\n'
}

for c in $commands; do
	if [ "$c" = memgate ]; then
		printf '\tmemgate)\n\t\tCOMPREPLY=($(compgen -W "check record" -- "$cur"))\n\t\treturn\n\t\t;;\n'
		emit "memgate check" memgate check
		emit "memgate record" memgate record
	elif [ "$c" = history ]; then
		printf '\thistory)\n\t\tCOMPREPLY=($(compgen -W "record show drift html" -- "$cur"))\n\t\treturn\n\t\t;;\n'
		for s in record show drift html; do emit "history $s" history "$s"; done
	else
		emit "$c" "$c"
	fi
done

cat <<TAIL
	"")
		COMPREPLY=(\$(compgen -W "$(echo $commands) --help --version" -- "\$cur"))
		return
		;;
	*)
		return
		;;
	esac
	if [[ \$cur == -* ]]; then
		COMPREPLY=(\$(compgen -W "\$opts" -- "\$cur"))
	else
		COMPREPLY=(\$(compgen -f -- "\$cur"))
	fi
}
complete -F _perfab perfab
TAIL
