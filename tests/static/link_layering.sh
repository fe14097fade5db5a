#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The layering at link level (doc/hacking.md, "Where code lives"): what
# tests/static/layering.sh holds of the includes, held of the built
# objects. nm lists what each object of the build tree (src/, stats/,
# common/, workloads/; not the tests') defines and what it leaves
# undefined; a symbol an object of one wing uses must be defined in its own
# module or in a wing that wing may include, by layering.sh's own table
# (read from it, not copied). So a local prototype cannot hide a call the
# include check would refuse: a probe/ file that declares a report/
# function itself and calls it fails here.
#
# Needs the objects: run it from the build tree's make check (or set
# top_builddir); without them it skips. The test checks its own rule too:
# the build's objects plus one planted violation must fail.
. "${top_srcdir}/tests/lib/test-lib.sh"

require python3
require nm

check_objs() { # FILE: the list of objects; prints the violations, exits 1 when there are any
	LAYERING_SH="$top_srcdir/tests/static/layering.sh" python3 - "$1" <<'PY'
import os, re, subprocess, sys

# The wings and what each may reach: layering.sh's table and wing(), run
# from its text so the two tests cannot disagree.
text = open(os.environ["LAYERING_SH"], encoding="utf-8").read()
start = text.index("\nsearch = [")
end = text.index("\ndef label(w):")
table = {}
exec(text[start:end], table)
wing, allowed = table["wing"], table["allowed"]

def source_of(obj):
    """The source an object was built from: src/run/libperfab_a-runner.o
    is src/run/runner.c, common/src_libperfab_a-suite.o common/suite.c."""
    d, base = os.path.split(obj)
    base = base[:-2]
    if "-" in base:
        base = base.rsplit("-", 1)[1]
    return os.path.join(d, base + ".c")

objs = [l.strip() for l in open(sys.argv[1]) if l.strip()]
src_of = {}
for rel in objs:
    path, _, shown = rel.partition("=")  # PATH[=NAME-IN-THE-TREE]
    src_of[path] = source_of(shown or path)
# One nm for all the objects (-A: each line starts "PATH: "); one per
# object cost 20 s of CPU.
out = subprocess.run(["nm", "-A", "-P"] + list(src_of), capture_output=True, text=True,
                     check=True).stdout
defs, uses = {}, {}
for line in out.splitlines():
    path, sep, rest = line.partition(": ")
    f = rest.split()
    if not sep or path not in src_of or len(f) < 2:
        continue
    src = src_of[path]
    name, kind = f[0], f[1]
    if kind == "U":
        uses.setdefault(src, set()).add(name)
    elif kind in "TDBRCGSVW" and kind.isupper():
        defs.setdefault(name, set()).add(src)

bad = []
for src in sorted(uses):
    w = wing(src)
    if w is None or allowed.get(w, ()) is None:
        continue  # outside the wings, or a command: anything
    for name in sorted(uses[src]):
        where = defs.get(name)
        if not where:
            continue  # libc and the libraries
        ok = [d for d in where if os.path.splitext(d)[0] == os.path.splitext(src)[0]
              or wing(d) in allowed[w]]
        if not ok:
            d = sorted(where)[0]
            bad.append("%s: uses %s, defined in %s: %s may not call into %s"
                       % (src, name, d, w + "/" if w != "src" else "the src/ libraries",
                          wing(d) + "/" if wing(d) != "src" else "the src/ libraries"))
for b in bad:
    print(b)
print("link layering: %d objects, %d violations" % (len(objs), len(bad)), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

B=${top_builddir:-$top_srcdir}
(cd "$B" && find src stats common workloads -name '*.o' ! -name 'tests_*' 2>/dev/null | sort) >objs.list
grep -q '^src/probe/' objs.list || skip "no objects of src/probe/ under '$B': build first"
while read -r o; do
	echo "$B/$o=$o" # the object, and where it is in the tree
done <objs.list >objs.abs

# The build keeps the layering at link level ...
out=$(check_objs objs.abs) || fail "an object calls into a wing it may not:
$out"
pass "every object of the build calls only into the wings it may include"

# ... and the check can fail: one planted object of probe/ that declares
# a report/ function itself and calls it.
command -v "${CC:-cc}" >/dev/null 2>&1 || skip "no C compiler to plant a violation with"
cat >planted.c <<'EOF'
#include <stdio.h>
void pab_fmt_name(FILE *f, const char *s);
void planted(void) { pab_fmt_name(stdout, "x"); }
EOF
"${CC:-cc}" -c planted.c -o planted.o || hard_error "cannot compile the planted object"
{ cat objs.abs; echo "$T/planted.o=src/probe/libperfab_a-planted.o"; } >planted.list
if out=$(check_objs planted.list); then
	fail "a probe/ object calling report/'s pab_fmt_name passed"
fi
case $out in
*"src/probe/planted.c: uses pab_fmt_name, defined in src/report/format.c: probe/ may not call into report/"*) ;;
*) fail "the planted violation is not named: $out" ;;
esac
pass "a probe/ object that calls into report/ is refused"
