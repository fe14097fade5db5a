#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/spdx.sh [--check] [DIR] — the SPDX licence line of every source file
# of the tree at DIR (default: this one): C and headers, shell, Python,
# make fragments, autoconf/automake input, m4, YAML, the man page, the
# Debian rules. With --check, list the files that lack
# "SPDX-License-Identifier: GPL-3.0-or-later" in their first 5 lines and
# exit 1 if any does; without, add the line to each: a comment in the
# file's own syntax, after a #! line. Files are git's tracked files when
# DIR is a git checkout, else every file but the generated ones.
# Data (JSON, patches, test data) and prose (Markdown, README) carry none.
set -eu
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$dir"
id='SPDX-License-Identifier: GPL-3.0-or-later'

files() {
	if git ls-files >/dev/null 2>&1 && [ -n "$(git ls-files | head -1)" ]; then
		git ls-files
	else
		find . -type f ! -path './.git/*' ! -path './_*' ! -path './autom4te.cache/*' \
			! -path './build-aux/*' ! -path './m4/*' ! -name configure ! -name Makefile.in \
			! -name aclocal.m4 ! -name config.h.in ! -name Makefile ! -name '*.o' | sed 's|^\./||'
	fi | while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		tests/data/* | tests/fuzz/corpus/* | debian/changelog | debian/copyright) continue ;;
		*.c | *.h | *.sh | *.py | *.mk | *.am | *.ac | *.m4 | *.yml | *.yaml | *.1 | \
			*/Makefile | Makefile | debian/rules | .ci/run) echo "$f" ;;
		esac
	done
}

missing=0
for f in $(files); do
	if head -n 5 "$f" | grep -q "$id"; then continue; fi
	if [ -n "$check" ]; then
		echo "$f: no '$id' in its first 5 lines"
		missing=$((missing + 1))
		continue
	fi
	case $f in
	*.c | *.h) line="/* $id */" ;;
	*.1) line=".\\\" $id" ;;
	*) line="# $id" ;;
	esac
	tmp=$f.spdx.$$
	if head -n 1 "$f" | grep -q '^#!'; then
		{ head -n 1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } >"$tmp"
	else
		{ printf '%s\n' "$line"; cat "$f"; } >"$tmp"
	fi
	chmod --reference="$f" "$tmp"
	mv "$tmp" "$f"
	echo "added: $f"
done
[ "$missing" = 0 ] || { echo "$missing files without a licence line" >&2; exit 1; }
