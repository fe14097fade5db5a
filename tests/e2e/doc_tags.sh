#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# doc_tags.sh — every `uses: perfab/perfab@REF` a user copies (README,
# doc/, action.yml, examples/) names a tag that ci/release.sh makes for the
# version in configure.ac — vVERSION, or the moving vMAJOR — or pins a
# commit (40 hex digits), so the snippet resolves once that release is
# tagged (doc/release.md, "Tags").
. "${top_srcdir}/tests/lib/test-lib.sh"
cd "$top_srcdir" || hard_error "no source tree"
version=$(sed -n 's/^AC_INIT(\[perfab\], \[\([^]]*\)\].*/\1/p' configure.ac)
[ -n "$version" ] || fail "no version in configure.ac"
major=${version%%.*}
# The tags the release script prints: it must still make both.
grep -q 'git tag -s v\$version ' ci/release.sh || fail "ci/release.sh no longer tags v\$version"
grep -q 'git tag -f -s v\${version%%\.\*} ' ci/release.sh ||
	fail "ci/release.sh no longer moves v\${version%%.*}"
refs=$(grep -rhoE 'perfab/perfab@[A-Za-z0-9._-]+' README doc action.yml examples |
	sed 's/.*@//' | sort -u)
[ -n "$refs" ] || fail "no snippet names the action"
for r in $refs; do
	case $r in
	"v$version" | "v$major") ;;
	*)
		echo "$r" | grep -qE '^[0-9a-f]{40}$' ||
			fail "a snippet uses perfab/perfab@$r: ci/release.sh makes v$version and v$major"
		;;
	esac
done
pass "every snippet names v$version, v$major or a commit: $(echo $refs | tr '\n' ' ')"
