#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/release.sh (doc/release.md) on a scratch repository made from this
# tree and tagged with configure.ac's version: from a clean clone it builds
# perfab-VERSION.tar.gz (make distcheck, TESTS= empty: the programs and
# test programs built, installed, uninstalled and cleaned, no test run),
# the .deb from that tarball (DEB_BUILD_OPTIONS=nocheck) and SHA256SUMS;
# an untracked file never reaches the tarball; the sums check; the
# unpacked .deb's `perfab --version` prints the release's version; the
# tag commands it prints name the tags `--tags` lists (those the docs'
# snippets name: doc_tags.sh). A tag that names another version, and an
# OUTDIR that exists, are refused before anything is built. Slow: two
# builds of perfab.
. "${top_srcdir}/tests/lib/test-lib.sh"
# Inside ci/release.sh --full-check, whose own distcheck runs this suite.
[ -z "${PERFAB_RELEASE_BUILD:-}" ] || skip "inside a release build (ci/release.sh --full-check)"
for t in dpkg-buildpackage dh dpkg-deb fakeroot; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (ci/setup-test.sh)"
done
command -v git >/dev/null 2>&1 || fail "git is not installed"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$T

version=$(sed -n 's/^AC_INIT(\[perfab\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
[ -n "$version" ] || fail "no version in configure.ac"

mkdir repo
if git -C "$top_srcdir" ls-files >files.txt 2>/dev/null && [ -s files.txt ]; then
	(cd "$top_srcdir" && tar cf - -T "$T/files.txt") | (cd repo && tar xf -)
else
	(cd "$top_srcdir" && tar cf - --exclude='./_*' --exclude=./.git --exclude=./autom4te.cache .) |
		(cd repo && tar xf -)
fi
git -C repo init -q -b main
git -C repo add -A
git -C repo commit -qm "release $version"
git -C repo tag "v$version"
git -C repo tag v0.0.1-not-this
git -C repo tag v9.9.9
echo "not committed" >repo/UNTRACKED-FILE
echo "/* not committed */" >>repo/src/perfab.c

# Refusals, before anything is built.
expect_rc 1 repo/ci/release.sh --tags rel
grep_err "builds nothing"
expect_rc 1 repo/ci/release.sh --ref v9.9.9 rel
grep_err "tag v9.9.9 does not name configure.ac's version $version"
mkdir exists
expect_rc 1 repo/ci/release.sh --ref "v$version" exists
grep_err "exists already"
expect_rc 1 repo/ci/release.sh --ref --upload-pack=x rel
grep_err "starts with '-'"

# The release.
expect_rc 0 repo/ci/release.sh --ref "v$version" rel
grep_out "perfab $version from $(git -C repo rev-parse HEAD)"
grep_out "git tag -f -s v${version%%.*} "
cp "$T/out" release.out
# The tags it prints are those --tags names (which doc_tags.sh holds the
# docs to), and no others.
expect_rc 0 repo/ci/release.sh --tags --ref "v$version"
[ "$(tr '\n' ' ' <"$T/out")" = "v$version v${version%%.*} " ] ||
	fail "--tags printed '$(tr '\n' ' ' <"$T/out")', not 'v$version v${version%%.*}'"
sed -n 's/^  git tag .*-s \([^ ]*\) -m .*/\1/p' release.out >made
cmp -s made "$T/out" || fail "the release tags $(tr '\n' ' ' <made), --tags says $(tr '\n' ' ' <"$T/out")"
[ -f "rel/perfab-$version.tar.gz" ] || fail "no tarball: $(ls rel)"
set -- rel/perfab_"$version"_*.deb
[ -f "$1" ] || fail "no .deb: $(ls rel)"
deb=$1
(cd rel && sha256sum -c SHA256SUMS) >sums.out 2>&1 || fail "SHA256SUMS: $(cat sums.out)"
[ "$(wc -l <rel/SHA256SUMS)" = 2 ] || fail "SHA256SUMS: $(cat rel/SHA256SUMS)"
tar tzf "rel/perfab-$version.tar.gz" >tarball.txt
grep -q "^perfab-$version/configure$" tarball.txt || fail "the tarball has no configure"
grep -q "^perfab-$version/debian/rules$" tarball.txt || fail "the tarball has no debian/"
if grep -q UNTRACKED-FILE tarball.txt; then fail "an untracked file reached the tarball"; fi
tar xzf "rel/perfab-$version.tar.gz" "perfab-$version/src/perfab.c"
cmp -s "perfab-$version/src/perfab.c" "$top_srcdir/src/perfab.c" || fail "an uncommitted change reached the tarball"
dpkg -x "$deb" root
expect_rc 0 root/usr/bin/perfab --version
[ "$(head -1 "$T/out")" = "perfab $version" ] || fail "the packaged perfab says '$(head -1 "$T/out")', not 'perfab $version'"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's version is $(dpkg-deb -f "$deb" Version)"
exit 0
