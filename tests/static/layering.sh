#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The source tree's layering (doc/hacking.md, "Where code lives"): every
# #include "..." and every #include <...> that names a file of the tree,
# in every .c and .h under common/, stats/, workloads/ and src/, resolves
# to a file of a wing, runs one way between the wings, and no module (a .c
# and its .h) reaches itself through includes.
#
#   common/, workloads/  only common/, stats/ and their own files
#   stats/               only its own headers
#   src/ libraries       every src/ top-level file but the commands (util,
#                        options, ...): only common/, stats/ and src/
#                        libraries, so a new top-level header cannot
#                        re-export a wing
#   src/probe/           common/, stats/, src/ libraries, probe/
#   src/model/           common/, stats/, src/ libraries, model/
#   src/store/           common/, stats/, src/ libraries, model/, store/
#   src/judge/           common/, stats/, src/ libraries, model/, judge/
#   src/report/          the same and report/ (never run/ or store/)
#   src/run/             everything but the commands
#   commands             perfab.c, cmd_*.[ch] and builtin.h: anything;
#                        only commands include them (builtin.h included)
#   a header outside the wings (the repo's top) is included by nobody
#   <cjson/cJSON.h>      only src/store/, src/probe/, src/run/runconf.c,
#                        src/report/json.c and src/report/env.c
#
# and every function a header declares is defined in that header's own .c
# (static inline functions and macros are no declarations), so a call
# between files always shows as an include: builtin.h declares only the
# commands' cmd_NAME, each defined in a src/cmd_*.c, and stats/pab_stats.h,
# the statistics library's one contract (README), declares functions of
# the stats/*.c (DECL_UMBRELLA, below).
#
# LAYERING_ROOT overrides the tree checked (the test checks its own rules
# on scratch copies, each with one forbidden include or declaration).
. "${top_srcdir}/tests/lib/test-lib.sh"

require python3

# Headers that declare the functions of a whole wing, by design: HEADER=DIR.
DECL_UMBRELLA="
	stats/pab_stats.h=stats
"

check_tree() { # ROOT: prints the violations, exits 1 when there are any
	DECL_UMBRELLA=$DECL_UMBRELLA python3 - "$1" <<'PY'
import os, re, sys

root = sys.argv[1]
decl_umbrella = dict(e.split("=", 1) for e in os.environ["DECL_UMBRELLA"].split())

# Where an include is looked for, in order: the includer's directory (for
# "..." only), then the -I directories of Makefile.am (stats, src, the top).
search = ["stats", "src", "."]
tops = ("common", "stats", "workloads", "src")
# What each wing may include (by the wing of the included file); "src" is
# the src/ libraries, "cmd" the commands.
lib = {"common", "stats", "src"}
allowed = {
    "common":    {"common", "stats"},
    "workloads": {"common", "stats", "workloads"},
    "stats":     {"stats"},
    "src":       lib,
    "probe":     lib | {"probe"},
    "model":     lib | {"model"},
    "store":     lib | {"model", "store"},
    "judge":     lib | {"model", "judge"},
    "report":    lib | {"model", "judge", "report"},
    "run":       lib | {"probe", "model", "store", "judge", "report", "run"},
    "cmd":       None,  # anything
}
cjson_ok = lambda f: (f.startswith(("src/store/", "src/probe/")) or
                      f in ("src/run/runconf.c", "src/report/json.c", "src/report/env.c"))

def wing(path):
    parts = path.split("/")
    if parts[0] not in tops or len(parts) < 2:
        return None  # outside the wings
    if parts[0] != "src":
        return parts[0]
    if len(parts) > 2:
        return parts[1]
    n = parts[1]
    return "cmd" if n == "perfab.c" or n == "builtin.h" or n.startswith("cmd_") else "src"

def label(w):
    return {"src": "the src/ libraries", "cmd": "the commands"}.get(w, w + "/")

def module(path):
    return os.path.splitext(path)[0]

def strip(text):
    """The C text with comments, strings and preprocessor lines blanked
    (newlines kept, so line numbers hold)."""
    out, i, n, bol = [], 0, len(text), True
    while i < n:
        if bol:
            j = i
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "#":  # a directive, with continuations
                while j < n and text[j] != "\n":
                    if text.startswith("\\\n", j):
                        out.append("\n"); j += 2; continue
                    if text.startswith("/*", j):
                        k = text.find("*/", j + 2); k = n if k < 0 else k + 2
                        out.append("\n" * text.count("\n", j, k)); j = k; continue
                    j += 1
                i, bol = j, False
                continue
        bol = False
        c = text[i]
        if text.startswith("/*", i):
            k = text.find("*/", i + 2); k = n if k < 0 else k + 2
            out.append(" " + "\n" * text.count("\n", i, k)); i = k; continue
        if text.startswith("//", i):
            k = text.find("\n", i); i = n if k < 0 else k; continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c); i = j + 1; continue
        bol = c == "\n"
        out.append(c); i += 1
    return "".join(out)

def pieces(code):
    """The file-scope pieces: (text, ender, line) with ender ';' or '{'."""
    res, buf, depth, paren, line, at = [], [], 0, 0, 1, 1
    for c in code:
        if c == "\n":
            line += 1
        if depth:
            depth += {"{": 1, "}": -1}.get(c, 0)
            continue
        if not "".join(buf).strip():
            at = line
        if c in "()":
            paren += 1 if c == "(" else -1
        if (c == ";" and not paren) or c == "{":
            res.append(("".join(buf), c, at))
            buf = []
            depth = 1 if c == "{" else 0
            continue
        buf.append(c)
    return res

attr = re.compile(r"__attribute__\s*\(\(")
def drop_attrs(s):
    while True:
        m = attr.search(s)
        if not m:
            return s
        j, d = m.end(), 2
        while j < len(s) and d:
            d += {"(": 1, ")": -1}.get(s[j], 0)
            j += 1
        s = s[:m.start()] + " " + s[j:]

def function(piece):
    """(name, is_static) when the piece declares or defines a function."""
    s = " ".join(drop_attrs(piece).split())
    if not s or re.match(r"(typedef|extern\s+\w+\s*\(\s*\*)\b", s):
        return None
    m = re.search(r"([A-Za-z_]\w*)\s*\(", s)
    if not m or "=" in s[:m.start()] or re.search(r"\(\s*\*", s):
        return None  # a variable, a function pointer, a struct
    if m.group(1) in ("sizeof", "__typeof__"):
        return None
    return m.group(1), re.match(r"static\b", s) is not None

files = []
for top in tops:
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(d, n), root))
if not files:
    sys.exit("layering: no sources under " + root)

bad = []
edges = {}
defined = {}   # function name -> the .c files defining it
declared = []  # (header, line, function name)
for f in sorted(files):
    here = os.path.dirname(f)
    w = wing(f)
    text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
    for lineno, line in enumerate(text.splitlines(), 1):
        m = re.match(r'\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', line)
        if not m:
            continue
        quoted = m.group(1) is not None
        name = m.group(1) or m.group(2)
        shown = '"%s"' % name if quoted else "<%s>" % name
        if name == "cjson/cJSON.h":
            if not cjson_ok(f):
                bad.append("%s:%d: #include %s: only src/store/, src/probe/, "
                           "src/run/runconf.c, src/report/json.c and src/report/env.c include cJSON"
                           % (f, lineno, shown))
            continue
        if name == "config.h":
            continue  # generated by configure: no layer
        target = None
        for d in ([here] if quoted else []) + search:
            cand = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(os.path.join(root, cand)):
                target = cand
                break
        if target is None:
            if quoted:
                bad.append("%s:%d: #include %s names no file of the tree" % (f, lineno, shown))
            continue  # <...>: a system header
        if ".." in name.split("/"):
            bad.append("%s:%d: #include %s climbs out with '..': name the wing" % (f, lineno, shown))
        tw = wing(target)
        if tw is None:
            bad.append("%s:%d: #include %s names %s, outside the wings: "
                       "put it in the wing it belongs to" % (f, lineno, shown, target))
            continue
        ok = allowed[w] is None or tw in allowed[w]
        if not ok and os.path.basename(target) == "builtin.h":
            bad.append("%s:%d: #include %s: only the commands include builtin.h"
                       % (f, lineno, shown))
        elif not ok:
            bad.append("%s:%d: #include %s: %s may not include from %s"
                       % (f, lineno, shown, label(w), label(tw)))
        a, b = module(f), module(target)
        if a != b:
            edges.setdefault(a, set()).add(b)
    for piece, end, lineno in pieces(strip(text)):
        fn = function(piece)
        if not fn or fn[1]:
            continue  # not a function, or static (inline)
        if end == "{" and f.endswith(".c"):
            defined.setdefault(fn[0], []).append(f)
        elif end == ";" and f.endswith(".h"):
            declared.append((f, lineno, fn[0]))

# Every function a header declares is defined in the header's own .c.
for h, lineno, name in declared:
    where = defined.get(name, [])
    own = module(h) + ".c"
    if h == "src/builtin.h":
        if name.startswith("cmd_") and any(wing(d) == "cmd" for d in where):
            continue
        why = "builtin.h declares only the commands' cmd_NAME"
    elif h in decl_umbrella:
        if any(os.path.dirname(d) == decl_umbrella[h] for d in where):
            continue
        why = "not in %s/: it declares the functions of %s/*.c" % ((decl_umbrella[h],) * 2)
    elif own in where:
        continue
    else:
        why = "not in %s: a header declares only its own .c's functions" % own
    bad.append("%s:%d: declares %s(), defined in %s, %s"
               % (h, lineno, name, ", ".join(where) or "no file of the tree", why))

# A circle among modules (a .c and its .h are one module).
state, stack = {}, []
def visit(m):
    state[m] = 1
    stack.append(m)
    for n in sorted(edges.get(m, ())):
        if state.get(n) == 1:
            cyc = stack[stack.index(n):] + [n]
            bad.append("include circle: " + " -> ".join(cyc))
        elif n not in state:
            visit(n)
    stack.pop()
    state[m] = 2
sys.setrecursionlimit(10000)
for m in sorted(edges):
    if m not in state:
        visit(m)

for b in bad:
    print(b)
print("layering: %d files, %d module edges, %d function declarations, %d problems" %
      (len(files), sum(len(v) for v in edges.values()), len(declared), len(bad)),
      file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

if [ -n "${LAYERING_ROOT:-}" ]; then
	check_tree "$LAYERING_ROOT"
	exit
fi

# The rules hold for the tree ...
out=$(check_tree "$top_srcdir") || fail "the layering is broken:
$out"

# ... and each can fail: a fresh scratch copy per case, one forbidden
# include or declaration added, and the check must name it.
fresh() {
	rm -rf "$T/tree"
	mkdir "$T/tree"
	cp -R "$top_srcdir/common" "$top_srcdir/stats" "$top_srcdir/workloads" \
		"$top_srcdir/src" "$T/tree/"
}
add() { # FILE LINE: append LINE to the scratch copy's FILE
	printf '%s\n' "$2" >>"$T/tree/$1"
}
expect_bad() { # WHAT PATTERN: the check fails on the copy, naming PATTERN
	out=$(check_tree "$T/tree" 2>/dev/null) && fail "$1 passed"
	case $out in
	*$2*) ;;
	*) fail "$1 was not named ($2): $out" ;;
	esac
}

fresh; add src/model/metrics.c '#include "report/format.h"'
expect_bad "a model/ file including report/" \
	"src/model/metrics.c:"*"model/ may not include from report/"

fresh; add src/model/metrics.c '#include <report/format.h>'
expect_bad "an angle-bracket include of report/ from model/" \
	"src/model/metrics.c:"*"<report/format.h>: model/ may not include from report/"

fresh; add src/shortcut.h '#include "report/format.h"'
add src/model/metrics.c '#include "shortcut.h"'
expect_bad "a new src/ header re-exporting report/" \
	"src/shortcut.h:1: "*"the src/ libraries may not include from report/"

fresh; printf '#include "report/format.h"\n' >"$T/tree/shortcut.h"
add src/model/metrics.c '#include "shortcut.h"'
expect_bad "a header at the top re-exporting report/" \
	"src/model/metrics.c:"*"names shortcut.h, outside the wings"

fresh; add src/util.c '#include "builtin.h"'
expect_bad "util.c including builtin.h" \
	"src/util.c:"*"only the commands include builtin.h"

fresh; add src/model/metrics.h 'int pab_rotation_bogus(void);'
add src/model/rotation.c 'int pab_rotation_bogus(void) { return 0; }'
expect_bad "a header declaring another file's function" \
	"src/model/metrics.h:"*"declares pab_rotation_bogus(), defined in src/model/rotation.c, not in src/model/metrics.c"

fresh; add src/builtin.h 'int pab_rotation_bogus(void);'
add src/model/rotation.c 'int pab_rotation_bogus(void) { return 0; }'
expect_bad "builtin.h declaring a library function" \
	"src/builtin.h:"*"declares pab_rotation_bogus(), defined in src/model/rotation.c, builtin.h declares only the commands"

fresh; add src/model/metrics.c '#include "store/history_db.h"'
expect_bad "a model/ file including store/" \
	"src/model/metrics.c:"*"model/ may not include from store/"

fresh; add src/judge/ledger.c '#include "store/history_db.h"'
expect_bad "a judge/ file including store/" \
	"src/judge/ledger.c:"*"judge/ may not include from store/"

fresh; add src/store/history_db.c '#include "judge/ledger.h"'
expect_bad "a store/ file including judge/" \
	"src/store/history_db.c:"*"store/ may not include from judge/"

fresh; add src/judge/ledger.c '#include <cjson/cJSON.h>'
expect_bad "a judge/ file including cJSON" \
	"src/judge/ledger.c:"*"<cjson/cJSON.h>: only src/store/"

fresh; add src/report/format.h '#include "judge/ledger.h"'
add src/judge/ledger.c '#include "report/format.h"'
expect_bad "an include circle" "include circle:"
exit 0
