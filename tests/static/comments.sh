#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The sources' comments name what exists (doc/hacking.md, "Where code
# lives"): in every .c, .h, .sh, .py, .mk and .cjs file under src/,
# stats/, common/, workloads/, tests/ and ci/,
#
#  - every file path a comment names is a file or folder of the repo: a
#    token with a slash and a known extension (doc/method.md,
#    tests/e2e/reliability_journal.sh), or one under a top folder (src/run/plan,
#    ci/spawnloop: a program built from ci/spawnloop.c). It is looked up
#    from the top, from src/ (the include path: run/plan.h) and from the
#    file's own folder; a path with an upper-case placeholder
#    (tests/e2e/NAME.sh) or a glob (stats/*.c) is a pattern, not a path;
#  - every .c and .h starts with the SPDX line and then a comment whose
#    first line names the file, by its name or its path from the top:
#        /* SPDX-License-Identifier: GPL-3.0-or-later */
#        /*
#         * name.c — what it is
#    (or "/* name.c — what it is" on the second line).
#
# COMMENTS_ROOT overrides the tree checked (the test checks its own rules
# on a scratch copy with one bad path and one misnamed file).
. "${top_srcdir}/tests/lib/test-lib.sh"

require python3

# Files that the build generates, named in comments though not in the tree.
GENERATED="
	src/completion/perfab
"

check_tree() { # ROOT: prints the violations, exits 1 when there are any
	GENERATED=$GENERATED python3 - "$1" <<'PY'
import os, re, sys

root = sys.argv[1]
generated = set(os.environ["GENERATED"].split())
tops = ("src", "stats", "common", "workloads", "tests", "ci")
known_dirs = set(tops) | {"doc", "examples", "debian", "m4"}
exts = {"c", "h", "sh", "md", "mk", "py", "json", "txt", "yml", "yaml",
        "am", "ac", "1", "cjs", "tsv", "in"}
spdx = "/* SPDX-License-Identifier: GPL-3.0-or-later */"

def comments(path, text):
    """(line, text) of each comment line of a source file."""
    res = []
    if path.endswith((".c", ".h", ".cjs")):
        i, n = 0, len(text)
        while i < n:
            if text.startswith("/*", i):
                k = text.find("*/", i + 2)
                k = n if k < 0 else k
                ln = text.count("\n", 0, i) + 1
                for j, l in enumerate(text[i + 2:k].split("\n")):
                    res.append((ln + j, l))
                i = k + 2
            elif text.startswith("//", i):
                k = text.find("\n", i)
                k = n if k < 0 else k
                res.append((text.count("\n", 0, i) + 1, text[i + 2:k]))
                i = k
            elif text[i] in "\"'":  # a string or a character: no comment
                j = i + 1
                while j < n and text[j] not in (text[i], "\n"):
                    j += 2 if text[j] == "\\" else 1
                i = j + 1
            else:
                i += 1
    else:  # shell, Python, make: from a '#' that starts a word
        for ln, l in enumerate(text.split("\n"), 1):
            m = re.search(r"(?:^|\s)#(?![!{])(.*)", l)
            if m:
                res.append((ln, m.group(1)))
    return res

def exists(p):
    return os.path.exists(os.path.join(root, p))

def built_from(p):  # a program or module named without its extension
    d, b = os.path.split(p)
    try:
        return any(n.startswith(b + ".") for n in os.listdir(os.path.join(root, d)))
    except OSError:
        return False

token = re.compile(r"[A-Za-z0-9_./+-]+")
files = []
for top in tops:
    for d, dirs, names in os.walk(os.path.join(root, top)):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for n in sorted(names):
            if n.endswith((".c", ".h", ".sh", ".py", ".mk", ".cjs")):
                files.append(os.path.relpath(os.path.join(d, n), root))
if not files:
    sys.exit("comments: no sources under " + root)

bad = []
paths = 0
for f in files:
    text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
    here = os.path.dirname(f)
    for ln, c in comments(f, text):
        for m in token.finditer(c):
            t = m.group(0).rstrip(".,:;-")
            s = m.start()
            if "/" not in t or t.startswith(("/", "./", "../")) or "//" in t:
                continue  # not a path of the repo (absolute, relative to a cwd, a URL)
            if (s and c[s - 1] in "*?{[<$%@~=") or (m.end() < len(c) and c[m.end()] in "*?{}[<$%"):
                continue  # a glob, a placeholder, a variable
            parts = t.rstrip("/").split("/")
            ext = os.path.splitext(parts[-1])[1].lstrip(".")
            if not (ext in exts or parts[0] in known_dirs):
                continue  # not pragmatically a path (base/head, I/N)
            if any(re.fullmatch(r"[A-Z][A-Z0-9_]*", x) or re.search(r"[A-Z]{3,}", x)
                   for x in parts) and not exists(t):
                continue  # tests/e2e/NAME.sh: a pattern
            paths += 1
            cands = [t, os.path.join("src", t), os.path.join(here, t)]
            if t in generated or any(exists(x) for x in cands):
                continue
            if not ext and any(built_from(x) for x in cands):
                continue
            bad.append("%s:%d: names %s, which is not in the repository" % (f, ln, t))
    if f.endswith((".c", ".h")):
        lines = text.split("\n") + ["", "", ""]
        name = os.path.basename(f)
        if lines[0] != spdx:
            bad.append("%s:1: does not start with the SPDX line %s" % (f, spdx))
            continue
        first = lines[2][3:] if lines[1] == "/*" and lines[2].startswith(" * ") else \
            lines[1][3:] if lines[1].startswith("/* ") else None
        if first is None:
            bad.append("%s:2: no comment after the SPDX line (\"/*\" then \" * %s — ...\")"
                       % (f, name))
            continue
        named = first.split(" — ")[0] if " — " in first else first.split()[0] if first.split() else ""
        if named not in (name, f):
            bad.append("%s:%d: the first comment line names %s, not %s: \"%s\""
                       % (f, 2 if lines[1] != "/*" else 3, named or "nothing", name, first))

for b in bad:
    print(b)
print("comments: %d files, %d paths in comments, %d problems" % (len(files), paths, len(bad)),
      file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

if [ -n "${COMMENTS_ROOT:-}" ]; then
	check_tree "$COMMENTS_ROOT"
	exit
fi

# The rules hold for the tree ...
out=$(check_tree "$top_srcdir") || fail "comments name what does not exist:
$out"

# ... and the check can fail: a scratch copy of two files, one naming a
# test that is not there, one whose first comment line names another file.
mkdir -p "$T/tree/src/model" "$T/tree/tests/e2e"
cp "$top_srcdir/src/model/metrics.c" "$top_srcdir/src/model/metrics.h" "$T/tree/src/model/"
: >"$T/tree/tests/e2e/reliability_journal.sh"
printf '/* see tests/e2e/reliability_journal.sh and tests/e2e/cli_nothing.sh */\n' \
	>>"$T/tree/src/model/metrics.c"
sed '3s/metrics\.h/metric_table.h/' "$top_srcdir/src/model/metrics.h" >"$T/tree/src/model/metrics.h"
out=$(check_tree "$T/tree" 2>/dev/null) && fail "a bad path and a misnamed file passed"
case $out in
*"src/model/metrics.c:"*": names tests/e2e/cli_nothing.sh, which is not in the repository"*) ;;
*) fail "the bad path was not named: $out" ;;
esac
case $out in
*"reliability_journal.sh,"*) fail "an existing path was named: $out" ;;
esac
case $out in
*"src/model/metrics.h:3: the first comment line names metric_table.h, not metrics.h"*) ;;
*) fail "the misnamed file was not named: $out" ;;
esac
exit 0
