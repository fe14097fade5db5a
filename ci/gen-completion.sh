#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/gen-completion.sh PERFAB — write perfab's bash completion to stdout,
# generated from the --help of PERFAB and of each of its commands (and
# memgate's and history's subcommands), so it cannot drift from the
# options table. The build runs it (src/completion.mk);
# tests/e2e/completion.sh checks the result.
#
# Completed: the commands, and after `perfab help` the commands and the
# help topics; each command's options; an option's argument, found in this
# order:
#   1. a placeholder a|b|c: its words;
#   2. the command's usage lines give it as "--name a|b|c" (--format of
#      each command its own formats): those words;
#   3. another command's usage lines do, and every command that lists
#      words for it lists the same ("--rules RULES" of ledger as run's):
#      those words;
#   4. a FILE, OUT, DIR, RUN or PATH placeholder: file names;
#   5. its description ends in a list of words, "null (the default),
#      inherit or a file": the words, and file names for "a file";
# anything else nothing.
set -eu
perfab=${1:?usage: ci/gen-completion.sh PERFAB}

# options CMD...: "name<TAB>placeholder<TAB>description" per option of
# `perfab CMD... --help` (the description's first line).
options() {
	# An option's line starts "  -x, --" or "      --"; a description
	# folded under its column starts 31 blanks in, whatever its first word.
	"$perfab" "$@" --help | awk '
	/^  (-[^ -], |    )--/ {
		spec = $0
		sub(/^ +/, "", spec)
		spec_line = spec
		n = split(spec, part, /   +/)   # the spec ends at a wide gap
		spec = part[1]
		desc = n > 1 ? substr(spec_line, index(spec_line, part[2])) : ""
		m = split(spec, alt, /, /)
		for (i = 1; i <= m; i++) {
			if (alt[i] !~ /^-/)
				continue # a comma in a description glued to the spec
			split(alt[i], w, / /)
			arg = w[2]
			if (arg == "" && m > 1) { split(alt[m], z, / /); arg = z[2] }
			printf "%s\t%s\t%s\n", w[1], arg, desc
		}
	}'
}

# usage_lists CMD...: "--name a b c" per option the usage lines of
# `perfab CMD... --help` give with a list of words ("[--counts auto|pmu]").
usage_lists() {
	"$perfab" "$@" --help | awk '/^$/ { exit } { print }' |
		grep -oE -- '--[a-z-]+ [a-z0-9/_.-]+(\|[a-z0-9/_.-]+)+' | tr '|' ' ' | sort -u
}

section() { # section TITLE: the first words of `perfab --help`'s section TITLE
	"$perfab" --help | awk -v t="$1:" '$0 == t { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'
}
commands=$(section commands)
topics=$(section "help topics")
[ -n "$commands" ] || { echo "gen-completion: no commands in '$perfab --help'" >&2; exit 1; }
[ -n "$topics" ] || { echo "gen-completion: no help topics in '$perfab --help'" >&2; exit 1; }

# Every command's usage lists, then those an option has one way only.
for c in $commands; do
	case $c in
	memgate) for s in check record; do usage_lists memgate "$s"; done ;;
	history) for s in record show drift html; do usage_lists history "$s"; done ;;
	*) usage_lists "$c" ;;
	esac
done | sort -u >"${TMPDIR:-/tmp}/gen-completion.$$"
trap 'rm -f "${TMPDIR:-/tmp}/gen-completion.$$"' EXIT
global_lists=$(awk '{ n[$1]++; line[$1] = $0 } END { for (o in n) if (n[o] == 1) print line[o] }' \
	"${TMPDIR:-/tmp}/gen-completion.$$" | sort)

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
	opts=$(options "$@" | cut -f1 | tr '\n' ' ' | sed 's/ $//')
	printf '\t"%s")\n\t\topts="%s"\n\t\tcase $prev in\n' "$key" "$opts"
	{
		usage_lists "$@" | sed 's/^/local /'
		printf '%s\n' "$global_lists" | sed 's/^/global /'
		options "$@" | sed 's/^/option\t/'
	} | awk '
	# the words of a description that ends in a list: "null (the
	# default), inherit or a file" -> "null inherit" and, for "a file",
	# file names (files_too); "" when it does not.
	function desc_words(d,    n, item, i, out, w) {
		gsub(/ \([^)]*\)/, "", d)
		sub(/.*: /, "", d)
		sub(/ or /, ", ", d)
		n = split(d, item, /, /)
		if (n < 2)
			return ""
		out = ""
		files_too = 0
		for (i = 1; i <= n; i++) {
			w = item[i]
			if (w == "a file") { files_too = 1; continue }
			if (w !~ /^[a-z0-9\/_.-]+$/)
				return ""
			out = out " " w
		}
		return substr(out, 2)
	}
	$1 == "local" && !/\t/ { l = $2; sub(/^local --[a-z-]+ /, ""); local[l] = $0; next }
	$1 == "global" && !/\t/ { g = $2; sub(/^global --[a-z-]+ /, ""); global[g] = $0; next }
	{
		split($0, f, /\t/)
		opt = f[2]; ph = f[3]; desc = f[4]
		if (ph == "") next
		# the long name of this option (-f and --format share a list)
		long[opt] = opt
		gsub(/[\[\]]/, "", ph)
		ph_of[opt] = ph; desc_of[opt] = desc
		order[++n] = opt
	}
	END {
		# A short option takes the list of its long one: options() prints
		# "-f" then "--format" for one line, the same placeholder.
		for (i = 1; i <= n; i++) {
			o = order[i]
			if (o ~ /^--/ || i == n || order[i + 1] !~ /^--/)
				continue
			if (ph_of[order[i + 1]] == ph_of[o])
				long[o] = order[i + 1]
		}
		for (i = 1; i <= n; i++) {
			o = order[i]; lo = long[o]; ph = ph_of[o]; w = ""; fl = 0
			if (ph ~ /\|/) { w = ph; gsub(/\|/, " ", w) }
			else if (lo in local) w = local[lo]
			else if (lo in global) w = global[lo]
			else if (ph ~ /^(FILE|OUT|DIR|RUN|PATH)$/) fl = 1
			else { w = desc_words(desc_of[lo]); fl = files_too; files_too = 0 }
			key = w "\t" fl
			if (w == "" && !fl) key = "none"
			if (!(key in group)) keys[++nk] = key
			group[key] = group[key] (group[key] == "" ? "" : "|") o
		}
		for (k = 1; k <= nk; k++) {
			key = keys[k]
			if (key == "none") continue
			split(key, kf, /\t/)
			reply = ""
			if (kf[1] != "") reply = "$(compgen -W \"" kf[1] "\" -- \"$cur\")"
			if (kf[2]) reply = reply (reply == "" ? "" : " ") "$(compgen -f -- \"$cur\")"
			printf "\t\t%s) COMPREPLY=(%s); return ;;\n", group[key], reply
		}
		if ("none" in group)
			printf "\t\t%s) COMPREPLY=(); return ;;\n", group["none"]
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
	help)
		[[ \$COMP_CWORD -eq 2 ]] && COMPREPLY=(\$(compgen -W "$(echo $commands $topics)" -- "\$cur"))
		return
		;;
	"")
		COMPREPLY=(\$(compgen -W "$(echo $commands) help --help --version" -- "\$cur"))
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
