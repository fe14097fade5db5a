#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package: `dpkg-buildpackage -us -uc -b` on a copy of this
# tree builds perfab_*.deb (DEB_BUILD_OPTIONS=nocheck: the suite runs
# here anyway) holding the program, the workload programs, the man page,
# the documentation, the example workflows, the bash completion and the
# licence; unpacked into a scratch root with `dpkg -x`, its perfab prints
# its version and licence and runs a short experiment on its own workload
# program, and it looks for the workloads where the package put them.
. "${top_srcdir}/tests/lib/test-lib.sh"
for t in dpkg-buildpackage dh dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (ci/setup-test.sh)"
done
# The package is built without sanitizers: under ci/sanitize.sh's build it
# would test nothing new, at the cost of another build.
if grep -q '^CFLAGS = .*-fsanitize' "${top_builddir}/Makefile"; then
	skip "a sanitizer build; the package is tested by the plain build"
fi

mkdir src
if git -C "$top_srcdir" ls-files >files.txt 2>/dev/null && [ -s files.txt ]; then
	(cd "$top_srcdir" && tar cf - -T "$T/files.txt") | (cd src && tar xf -)
else
	(cd "$top_srcdir" && tar cf - --exclude='./_*' --exclude=./.git --exclude=./autom4te.cache .) |
		(cd src && tar xf -)
fi
[ -x src/debian/rules ] || fail "no debian/rules in the tree"
(cd src && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >build.log 2>&1 ||
	{ tail -40 build.log >&2; fail "dpkg-buildpackage failed"; }
set -- perfab_*.deb
[ -f "$1" ] || fail "no perfab_*.deb was built: $(ls)"
deb=$1
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

dpkg -x "$deb" root
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
