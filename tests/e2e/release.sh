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
# snippets name: doc_tags.sh); the .deb holds what a user needs and its
# perfab runs an experiment from a scratch root. A tag that names another
# version, and an OUTDIR that exists, are refused before anything is
# built. Slow: two builds of perfab.
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

# The package holds the program, the workload programs, the man page, the
# documentation, the example workflows, the bash completion and the
# licence; its perfab runs a short experiment on its own workload program
# and looks for the workloads where the package put them.
dpkg-deb -c "$deb" >contents
for f in ./usr/bin/perfab ./usr/libexec/perfab/perfab-alloc ./usr/libexec/perfab/perfab-spin \
	./usr/share/man/man1/perfab.1.gz ./usr/share/doc/perfab/ci.md ./usr/share/doc/perfab/method.md \
	./usr/share/doc/perfab/copyright ./usr/share/doc/perfab/README \
	./usr/share/doc/perfab/examples/sharded.yml ./usr/share/doc/perfab/examples/hashbench/perfab.yml \
	./usr/share/doc/perfab/examples/action.yml \
	./usr/share/bash-completion/completions/perfab; do
	# Debian compresses documentation (not the examples).
	grep -qE " $f(\.gz)?\$" contents || fail "the package lacks $f"
done
dpkg-deb -f "$deb" Depends | grep -q 'libgsl' || fail "no shared-library dependencies: $(dpkg-deb -f "$deb" Depends)"

root=$T/root
expect_rc 0 "$root/usr/bin/perfab" --version
grep_out '^perfab [0-9]'
grep_out '^License GPL-3.0-or-later'
grep_out '^Features: .*libpfm4'
# Arms without a command run the built-in workload programs, which the
# packaged perfab looks for in /usr/libexec/perfab ...
cat >arms.json <<'JSON'
{"arms": [{"name": "base"}, {"name": "head"}],
 "rows": [{"name": "spin", "workload": "spin", "argv": ["work=1000", "drain_ms=10", "release_bound_ms=20"]}]}
JSON
expect_rc 2 env -u PERFAB_WORKLOAD_DIR "$root/usr/bin/perfab" run -q --config arms.json \
	--reps 3 --max-reps 3 --out never.json
grep_err "/usr/libexec/perfab/perfab-spin"
# ... so from the scratch root it is told where they are: one short run.
# Three reps: INCONCLUSIVE, and the ledger says so again.
PERFAB_WORKLOAD_DIR=$root/usr/libexec/perfab expect_rc 3 "$root/usr/bin/perfab" run -q \
	--config arms.json --null-arm --reps 3 --max-reps 3 --out run.json
jq -e '.complete == true and .rows[0].name == "spin" and (.rows[0].reps | length) == 3 and
       (.arms[0].exe | startswith("'"$root"'/usr/libexec/perfab/"))' run.json >/dev/null ||
	fail "the packaged perfab's run: $(jq -c '[.complete, .rows[0].name, (.rows[0].reps | length), .arms[0].exe]' run.json)"
expect_rc 3 "$root/usr/bin/perfab" ledger run.json
grep_out "overall: INCONCLUSIVE"
exit 0
