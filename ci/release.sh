#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/release.sh — build a release of perfab from a clean clone
# (doc/release.md): the source tarball by `make distcheck`, the Debian
# package from that tarball, and SHA256SUMS of both, in OUTDIR.
#
# usage: ci/release.sh [--ref REF] [--full-check] [OUTDIR]
#        ci/release.sh --tags [--ref REF]
#
#   --ref REF     the revision to release (default HEAD); a tag vN.N.N
#                 must name the version of configure.ac's AC_INIT
#   --tags        print the tags a release of that version makes, one a
#                 line — vMAJOR.MINOR.PATCH, then the moving vMAJOR that
#                 `uses: perfab/perfab@vMAJOR` follows — and build nothing
#                 (without --ref: the version of this tree's configure.ac)
#   --full-check  distcheck runs the whole test suite (default: it builds
#                 every program, the test programs included, installs,
#                 uninstalls and cleans, but runs no test: TESTS= empty —
#                 the suite has run on the commit already, in CI)
#   OUTDIR        where the files go (default ./release-VERSION); it must
#                 not exist yet
#
# The clone is made with `git clone --no-local` into a scratch directory,
# so nothing uncommitted, untracked or ignored reaches the release. The
# .deb is built with DEB_BUILD_OPTIONS=nocheck (dpkg-buildpackage would
# run the suite again: debian/rules runs make check otherwise). Needs the
# build packages (ci/setup-build.sh) and dpkg-buildpackage (debhelper,
# dpkg-dev, fakeroot: ci/setup-test.sh). Prints the tag commands last; it
# creates and pushes no tag itself.
set -eu
# A release is built from its own make variables only: a caller's make
# (e.g. a test run by `make check TESTS=...`) exports its command-line
# variables in MAKEFLAGS, and TEST_LOGS from there would run tests inside
# distcheck.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
# --full-check runs the suite, whose tests/e2e/release.sh would build a
# release inside this one: it skips when it sees this.
export PERFAB_RELEASE_BUILD=1

die() {
	echo "release: $*" >&2
	exit 1
}

top=$(cd "$(dirname "$0")/.." && pwd)
ref=
full=
out=
tags_only=
while [ $# -gt 0 ]; do
	case $1 in
	--ref) [ $# -ge 2 ] || die "--ref takes a revision"; ref=$2; shift 2 ;;
	--full-check) full=1; shift ;;
	--tags) tags_only=1; shift ;;
	-h | --help) sed -n '3,29p' "$0"; exit 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) [ -z "$out" ] || die "one OUTDIR only"; out=$1; shift ;;
	esac
done
case $ref in -*) die "--ref '$ref' starts with '-': not a revision" ;; esac

# version_of [FILE]: the version of a configure.ac's AC_INIT (FILE, or
# standard input).
version_of() {
	sed -n 's/^AC_INIT(\[perfab\], \[\([^]]*\)\].*/\1/p' "$@"
}
# The tags of a release of $version: the one that never moves, and the
# major version's, moved to each release (doc/release.md, "Tags").
set_tags() {
	case $version in
	[0-9]*.[0-9]*.[0-9]*) ;;
	*) die "cannot read the version from configure.ac's AC_INIT ('$version')" ;;
	esac
	tag=v$version
	major_tag=v${version%%.*}
}

if [ -n "$tags_only" ]; then
	[ -z "$full$out" ] || die "--tags builds nothing: no --full-check or OUTDIR"
	if [ -n "$ref" ]; then
		conf=$(git -C "$top" show "$ref:configure.ac" 2>/dev/null) ||
			die "'$ref' names no commit with a configure.ac"
		version=$(printf '%s\n' "$conf" | version_of)
	else
		version=$(version_of "$top/configure.ac")
	fi
	set_tags
	printf '%s\n%s\n' "$tag" "$major_tag"
	exit 0
fi
[ -n "$ref" ] || ref=HEAD
for t in git autoreconf make dpkg-buildpackage sha256sum; do
	command -v "$t" >/dev/null 2>&1 || die "$t is not installed (ci/setup-build.sh, ci/setup-test.sh)"
done
commit=$(git -C "$top" rev-parse -q --verify --end-of-options "$ref^{commit}") ||
	die "'$ref' names no commit of $top"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/perfab-release.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
git clone -q --no-local --no-checkout "$top" "$scratch/clone"
git -C "$scratch/clone" checkout -q --detach "$commit"

# The version is configure.ac's; the package's changelog and a release
# tag must agree with it.
version=$(version_of "$scratch/clone/configure.ac")
set_tags
deb_version=$(sed -n '1s/^perfab (\([^)]*\)).*/\1/p' "$scratch/clone/debian/changelog")
[ "$deb_version" = "$version" ] ||
	die "debian/changelog is at $deb_version, configure.ac at $version: add a changelog entry (dch -v $version)"
case $ref in
v[0-9]*) [ "$ref" = "$tag" ] || die "tag $ref does not name configure.ac's version $version" ;;
esac
[ -n "$out" ] || out=$PWD/release-$version
case $out in /*) ;; *) out=$PWD/$out ;; esac
[ ! -e "$out" ] || die "'$out' exists already"

echo "release: perfab $version from $commit"
jobs=$(nproc 2>/dev/null || echo 2)
(
	cd "$scratch/clone"
	autoreconf -fi
	./configure -q
	if [ -n "$full" ]; then
		make -j"$jobs" distcheck
	else
		# Without tests, distcheck proves that the tarball builds,
		# installs, uninstalls and cleans; it ships no object, so it
		# compiles unoptimized (a quarter of its CPU time). The .deb
		# below is the optimized build.
		make -j"$jobs" distcheck TESTS= DISTCHECK_CONFIGURE_FLAGS='CFLAGS=-O0'
	fi
) >"$scratch/distcheck.log" 2>&1 || { tail -60 "$scratch/distcheck.log" >&2; die "make distcheck failed"; }
tarball=perfab-$version.tar.gz
[ -f "$scratch/clone/$tarball" ] || die "distcheck made no $tarball"

# The package from the tarball, so it is built from what is released.
mkdir "$scratch/deb"
tar -C "$scratch/deb" -xzf "$scratch/clone/$tarball"
(
	cd "$scratch/deb/perfab-$version"
	DEB_BUILD_OPTIONS="nocheck parallel=$jobs" dpkg-buildpackage -us -uc -b
) >"$scratch/deb.log" 2>&1 || { tail -60 "$scratch/deb.log" >&2; die "dpkg-buildpackage failed"; }
set -- "$scratch"/deb/perfab_"$version"_*.deb
[ -f "$1" ] || die "dpkg-buildpackage made no perfab_${version}_*.deb"
deb=$(basename "$1")

mkdir -p "$out"
cp "$scratch/clone/$tarball" "$1" "$out/"
(cd "$out" && sha256sum "$tarball" "$deb" >SHA256SUMS)
echo "release: $out:"
for f in "$tarball" "$deb" SHA256SUMS; do
	printf '  %s (%s bytes)\n' "$f" "$(wc -c <"$out/$f")"
done
cat <<EOF
release: to publish (doc/release.md), tag the commit and move $major_tag:
  git tag -s $tag -m "perfab $version" $commit
  git tag -f -s $major_tag -m "perfab $version" $commit
  git push origin $tag && git push -f origin $major_tag
EOF
