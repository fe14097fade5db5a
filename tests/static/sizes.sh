#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The size ratchet (doc/hacking.md, "Where code lives"), after tor's
# practracker: in every .c and .h under common/, stats/, workloads/ and
# src/ (the tests and ci/ are not held),
#
#   a .c file         at most 700 lines
#   a .h file         at most 300 lines
#   a function        at most 80 lines
#
# except what tests/static/sizes-exceptions.txt lists, each at most at its
# listed size. The list began as the offenders of the day it was made and
# may only shrink: a new offender fails, a listed one that grows past its
# number fails, and one that shrank (or left the list's reasons: within
# the limit, renamed, removed) passes with a note that says to lower its
# number or remove its line, so that the ground gained is kept.
#
# A file's size is its number of lines (wc -l). A function is found the
# way this tree writes them (kernel style): its body's "{" alone on a line
# at column 0, its signature the lines just above it (from the first line
# after a blank line, a comment, a preprocessor line or the end of
# something else), its end the next "}" at column 0; its size counts the
# signature and the body, both braces included. Its name is the last
# identifier before a "(" at the signature's top level that is not an
# upper-case macro (PAB_PRINTF) nor __attribute__. Two definitions of one
# name in one file (the branches of an #ifdef) count as the larger.
#
# The list holds one entry a line, "PATH LINES" for a file and
# "PATH:FUNCTION LINES" for a function; "#" starts a comment.
#
# SIZES_ROOT checks another tree and SIZES_EXCEPTIONS another list (the
# test checks its own rules on scratch copies, each with one planted
# violation); SIZES_LIST=1 prints the tree's offenders in the list's form.
. "${top_srcdir}/tests/lib/test-lib.sh"

require python3

MAX_C=700
MAX_H=300
MAX_FN=80

check_tree() { # ROOT LIST: prints the violations, exits 1 when there are any
	MAX_C=$MAX_C MAX_H=$MAX_H MAX_FN=$MAX_FN SIZES_LIST=${SIZES_LIST:-} \
		python3 - "$1" "$2" <<'PY'
import os, re, sys

root, list_path = sys.argv[1], sys.argv[2]
max_c, max_h, max_fn = (int(os.environ[k]) for k in ("MAX_C", "MAX_H", "MAX_FN"))
tops = ("common", "stats", "workloads", "src")

call_re = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")

def signature_name(sig):
    """The function's name: the last identifier before a "(" at paren
    depth 0 that is no upper-case macro nor an attribute."""
    name, depth, i = None, 0, 0
    while i < len(sig):
        c = sig[i]
        if c == "(":
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", sig[:i])
            if depth == 0 and m:
                ident = m.group(1)
                if ident != "__attribute__" and not re.fullmatch(r"[A-Z0-9_]+", ident):
                    name = ident
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return name

def ends_signature(line):
    """A line that cannot be part of a signature above a body's "{"."""
    s = line.rstrip()
    return (not s or s.startswith(("#", "/*", " *", "}")) or
            s.endswith((";", "*/", "}", "{")))

def functions(lines):
    """(name, first line, size) of each function of a file."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        start = i
        while start > 0 and not ends_signature(lines[start - 1]):
            start -= 1
        sig = " ".join(l.strip() for l in lines[start:i])
        end = i + 1
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        name = signature_name(sig) if "=" not in sig else None
        if start < i and name:
            out.append((name, start + 1, end - start + 1))
        i = end + 1
    return out

sizes = {}   # entry -> (size, limit, what)
for top in tops:
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames.sort()
        for f in sorted(filenames):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if f.endswith(".c"):
                sizes[rel] = (len(lines), max_c, "a .c file")
            else:
                sizes[rel] = (len(lines), max_h, "a .h file")
            for name, first, size in functions(lines):
                key = rel + ":" + name
                if key not in sizes or sizes[key][0] < size:
                    sizes[key] = (size, max_fn, "a function")

if os.environ.get("SIZES_LIST"):
    for key in sorted(k for k in sizes if ":" not in k):
        for k in [key] + sorted(k for k in sizes if k.startswith(key + ":")):
            size, limit, _ = sizes[k]
            if size > limit:
                print("%s %d" % (k, size))
    sys.exit(0)

listed = {}
with open(list_path, encoding="utf-8") as fh:
    for n, line in enumerate(fh, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            print("%s:%d: not \"PATH[:FUNCTION] LINES\": %s" % (list_path, n, line))
            sys.exit(2)
        if parts[0] in listed:
            print("%s:%d: %s is listed twice" % (list_path, n, parts[0]))
            sys.exit(2)
        listed[parts[0]] = int(parts[1])

bad = []
notes = []
lst = "tests/static/sizes-exceptions.txt"
for key in sorted(sizes):
    size, limit, what = sizes[key]
    if key in listed:
        cap = listed[key]
        if size > cap:
            bad.append("%s: %d lines, grown past its listed %d (%s); shrink it "
                       "back, the list only shrinks" % (key, size, cap, lst))
        elif size <= limit:
            notes.append("%s: %d lines, within the limit of %d for %s now; "
                         "remove its line from %s" % (key, size, limit, what, lst))
        elif size < cap:
            notes.append("%s: %d lines, listed at %d; lower its number in %s"
                         % (key, size, cap, lst))
    elif size > limit:
        bad.append("%s: %d lines, over the limit of %d for %s; split it (only "
                   "the offenders listed in %s may be larger, and no new one "
                   "is listed)" % (key, size, limit, what, lst))
for key in sorted(set(listed) - set(sizes)):
    notes.append("%s: listed but not found; remove its line from %s" % (key, lst))

for b in bad:
    print(b)
for n in notes:
    print("note: " + n, file=sys.stderr)
print("sizes: %d files, %d functions, %d listed, %d violations"
      % (sum(1 for k in sizes if ":" not in k), sum(1 for k in sizes if ":" in k),
         len(listed), len(bad)), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

LIST=${SIZES_EXCEPTIONS:-$top_srcdir/tests/static/sizes-exceptions.txt}

if [ -n "${SIZES_ROOT:-}" ] || [ -n "${SIZES_LIST:-}" ]; then
	check_tree "${SIZES_ROOT:-$top_srcdir}" "$LIST"
	exit
fi

# The tree keeps within its limits and its list ...
out=$(check_tree "$top_srcdir" "$LIST") || fail "the size ratchet is broken:
$out"
pass "the tree is within its limits and its exceptions"

# ... and each rule can fail: a fresh scratch copy per case, one violation
# planted, and the check must name it (or, at a limit exactly, pass).
fresh() {
	rm -rf "$T/tree"
	mkdir "$T/tree"
	cp -R "$top_srcdir/common" "$top_srcdir/stats" "$top_srcdir/workloads" \
		"$top_srcdir/src" "$T/tree/"
}
lines() { # N: N lines of a statement, one a line
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '\tx++;\n'
		i=$((i + 1))
	done
}
plant_file() { # FILE N: FILE in the copy, N lines long
	lines "$2" >"$T/tree/$1"
}
plant_fn() { # FILE NAME N: append a function NAME of N lines to the copy's FILE
	{
		printf '\nstatic void PAB_PRINTF(1, 2) %s(const char *fmt,\n' "$2"
		printf '\t\tint x)\n{\n'
		lines $(($3 - 4))
		printf '}\n'
	} >>"$T/tree/$1"
}
grow() { # FILE N: append N lines to the copy's FILE
	lines "$2" >>"$T/tree/$1"
}
expect_bad() { # WHAT PATTERN: the check fails on the copy, naming PATTERN
	out=$(check_tree "$T/tree" "$LIST" 2>/dev/null) && fail "$1 passed"
	case $out in
	*$2*) pass "$1 fails" ;;
	*) fail "$1 was not named ($2): $out" ;;
	esac
}
expect_good() { # WHAT PATTERN: the check passes on the copy, noting PATTERN
	out=$(check_tree "$T/tree" "$LIST" 2>&1) || fail "$1 failed: $out"
	case $out in
	*$2*) pass "$1 passes" ;;
	*) fail "$1 gave no note ($2): $out" ;;
	esac
}

fresh; plant_file src/model/big.c 701
expect_bad "a new .c file of 701 lines" \
	"src/model/big.c: 701 lines, over the limit of 700 for a .c file"
fresh; plant_file src/model/big.c 700
expect_good "a new .c file of 700 lines" "0 violations"

fresh; plant_file src/model/big.h 301
expect_bad "a new .h file of 301 lines" \
	"src/model/big.h: 301 lines, over the limit of 300 for a .h file"

fresh; plant_fn common/numparse.c planted 81
expect_bad "a new function of 81 lines (an attribute macro, two-line signature)" \
	"common/numparse.c:planted: 81 lines, over the limit of 80 for a function"
fresh; plant_fn common/numparse.c planted 80
expect_good "a new function of 80 lines" "0 violations"

# The first listed file and the first listed function, each one line more
# than listed, and one line less.
file_entry=$(sed -e 's/#.*//' "$LIST" | awk 'NF == 2 && $1 !~ /:/ { print; exit }')
fn_entry=$(sed -e 's/#.*//' "$LIST" | awk 'NF == 2 && $1 ~ /:/ { print; exit }')
[ -n "$file_entry" ] && [ -n "$fn_entry" ] ||
	hard_error "the list names no file or no function to check the ratchet on"
set -- $file_entry
file=$1 file_cap=$2
fresh; grow "$file" 1
expect_bad "a listed file one line longer" \
	"$file: $((file_cap + 1)) lines, grown past its listed $file_cap"
fresh; head -n $((file_cap - 1)) "$top_srcdir/$file" >"$T/tree/$file"
expect_good "a listed file one line shorter" "lower its number"

set -- $fn_entry
fn_file=${1%%:*} fn=${1#*:} fn_cap=$2
fresh
# One statement more just after the function's "{": the first "{" alone
# at column 0 after a line at column 0 with "NAME(", unless a ";" ends the
# declaration first (a prototype).
awk -v fn="$fn" '
	{ print }
	seen == 1 && /;[ \t]*$/ { seen = 0 }
	/^[^ \t]/ && index($0, fn "(") && !/;[ \t]*$/ && !seen { seen = 1 }
	seen == 1 && $0 == "{" { print "\tx++;"; seen = 2 }
' "$top_srcdir/$fn_file" >"$T/tree/$fn_file"
expect_bad "a listed function one line longer" \
	"$fn_file:$fn: $((fn_cap + 1)) lines, grown past its listed $fn_cap"

fresh; rm "$T/tree/$file"
expect_good "a listed file removed" "$file: listed but not found"
