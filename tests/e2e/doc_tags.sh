#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# doc_tags.sh — every tag a user copies names one that ci/release.sh makes
# for the version in configure.ac, as the script itself prints them
# (ci/release.sh --tags: vVERSION, then the moving vMAJOR): each
# `uses: perfab/perfab@REF` in the README, doc/, action.yml and examples/
# names one of them or pins a commit (40 hex digits), and so does every
# other `@vN` and every "vN moves" those files say, so a first release
# can be cut from this tree and the snippets resolve (doc/release.md,
# "Tags"). The release itself prints the same tags (tests/e2e/release.sh).
. "${top_srcdir}/tests/lib/test-lib.sh"
cd "$top_srcdir" || hard_error "no source tree" # read only: files go to $T
version=$(sed -n 's/^AC_INIT(\[perfab\], \[\([^]]*\)\].*/\1/p' configure.ac)
[ -n "$version" ] || fail "no version in configure.ac"
expect_rc 0 sh ci/release.sh --tags
tags=$(tr '\n' ' ' <"$T/out" | sed 's/ $//')
[ "$tags" = "v$version v${version%%.*}" ] ||
	fail "ci/release.sh --tags prints '$tags' for $version, not 'v$version v${version%%.*}'"

files="README action.yml $(find doc examples -type f \( -name '*.md' -o -name '*.yml' -o -name README \) | sort)"
# shellcheck disable=SC2086
{
	grep -HnoE 'perfab/perfab@[A-Za-z0-9._-]+' $files | sed 's/perfab\/perfab@//'
	grep -HnoE '(^|[ `(])@v[0-9][0-9.]*' $files | sed 's/:[ `(]*@/:/'
	# "v1 moves" may be wrapped: each file as one line.
	for f in $files; do
		# shellcheck disable=SC2016 # the backquotes are Markdown's
		tr '\n' ' ' <"$f" | grep -oE '(^|[ `(])v[0-9][0-9.]*`? +(moves|follows)' |
			sed -e 's/^[ `(]*//' -e 's/`* .*//' -e "s|^|$f:|"
	done
} | sort -u >"$T/refs"
[ -s "$T/refs" ] || fail "no snippet names the action"
while IFS= read -r line; do
	r=${line##*:}
	case " $tags " in *" $r "*) continue ;; esac
	echo "$r" | grep -qE '^[0-9a-f]{40}$' && continue
	echo "${line%:*}: names $r"
done <"$T/refs" >"$T/bad"
[ ! -s "$T/bad" ] || fail "ci/release.sh makes $tags for $version; these name other tags:
$(cat "$T/bad")"
pass "every snippet names $tags or a commit: $(sed 's/.*://' "$T/refs" | sort -u | tr '\n' ' ')"
