#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/mutate-gen.py — the mutants of ci/mutate.sh. `list FILE...` prints one
# mutant a line (FILE<TAB>LINE<TAB>OP<TAB>NTH<TAB>ORIGINAL<TAB>MUTATED, the
# text trimmed of leading white space); `apply SRC LINE OP NTH` rewrites one
# line of SRC in place. The operators, each applied to one occurrence at a
# time, on code lines only (not comments, preprocessor lines or string
# literals):
#
#   lt-le   <  -> <=        le-lt   <= -> <
#   gt-ge   >  -> >=        ge-gt   >= -> >
#   eq-ne   == -> !=        ne-eq   != -> ==
#   and-or  && -> ||        or-and  || -> &&
#   neg-if  if (C) -> if (!(C))
#   add-sub binary + -> -   sub-add binary - -> +
#   int+1   an integer constant N -> N + 1 (0 -> 1, 1 -> 2, ...)
#   int-1   an integer constant N > 0 -> N - 1
#   flt+eps a floating constant x -> x * (1 + 1e-6) (the edge of a tolerance)
#   flt-eps a floating constant x -> x * (1 - 1e-6)
#   ret-err return -1; / return -E...; -> return 0; (an error return dropped)
#
# A mutant is named by FILE, OP, NTH (which occurrence on the line) and the
# ORIGINAL line text, so ci/mutate-equivalent.txt matches it across line
# moves.
import re
import sys

OPS = ["lt-le", "le-lt", "gt-ge", "ge-gt", "eq-ne", "ne-eq", "and-or",
       "or-and", "neg-if", "add-sub", "sub-add", "int+1", "int-1",
       "flt+eps", "flt-eps", "ret-err"]


def code_mask(lines):
    """For each line, a copy with comments and string/char literals blanked
    (same length), or None for a preprocessor line."""
    out = []
    in_comment = False
    for line in lines:
        if not in_comment and line.lstrip().startswith("#"):
            out.append(None)
            continue
        m = []
        i = 0
        n = len(line)
        while i < n:
            if in_comment:
                if line.startswith("*/", i):
                    in_comment = False
                    m.append("  ")
                    i += 2
                else:
                    m.append(" ")
                    i += 1
                continue
            c = line[i]
            if line.startswith("/*", i):
                in_comment = True
                m.append("  ")
                i += 2
            elif line.startswith("//", i):
                m.append(" " * (n - i))
                break
            elif c in "\"'":
                j = i + 1
                while j < n and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                m.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
                i = j + 1
            else:
                m.append(c)
                i += 1
        out.append("".join(m)[:n])
    return out


INT = re.compile(r"(?<![\w.])(\d+)([uUlL]*)(?![\w.])")
FLT = re.compile(r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\d*\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")


def sites(op, code, line):
    """(start, end, replacement) for each place OP applies in CODE, the
    masked copy of LINE (a replacement keeps LINE's own string literals)."""
    res = []

    def lit(pat, rep, ok=None):
        for m in re.finditer(pat, code):
            if ok is None or ok(m):
                res.append((m.start(), m.end(), rep))

    if op == "lt-le":
        lit(r"(?<![<-])<(?![<=])", "<=")
    elif op == "le-lt":
        lit(r"(?<!<)<=", "<")
    elif op == "gt-ge":
        lit(r"(?<![>-])>(?![>=])", ">=")
    elif op == "ge-gt":
        lit(r"(?<!>)>=", ">")
    elif op == "eq-ne":
        lit(r"(?<![=!<>])==(?!=)", "!=")
    elif op == "ne-eq":
        lit(r"!=", "==")
    elif op == "and-or":
        lit(r"&&", "||")
    elif op == "or-and":
        lit(r"\|\|", "&&")
    elif op == "neg-if":
        for m in re.finditer(r"\bif \(", code):
            depth = 0
            for j in range(m.end() - 1, len(code)):
                if code[j] == "(":
                    depth += 1
                elif code[j] == ")":
                    depth -= 1
                    if depth == 0:
                        res.append((m.start(), j + 1, "if (!(" + line[m.end():j] + "))"))
                        break
    elif op in ("add-sub", "sub-add"):
        sym, rep = ("+", "-") if op == "add-sub" else ("-", "+")
        pat = r"(?<=[\w)\]]) \%s (?=[\w(])" % sym
        lit(pat, " %s " % rep)
    elif op in ("int+1", "int-1"):
        for m in INT.finditer(code):
            if re.match(r"\s*[\])]?\s*;?$", code[m.end():]) and "[" in code[:m.start()] and code.rstrip().endswith("];"):
                continue  # an array size in a declaration
            v = int(m.group(1))
            if op == "int-1" and v == 0:
                continue
            nv = v + 1 if op == "int+1" else v - 1
            res.append((m.start(), m.end(), str(nv) + m.group(2)))
    elif op in ("flt+eps", "flt-eps"):
        f = "(1 + 1e-6)" if op == "flt+eps" else "(1 - 1e-6)"
        for m in FLT.finditer(code):
            if float(m.group(1)) == 0.0:
                continue
            res.append((m.start(), m.end(), "(%s * %s)" % (m.group(1), f)))
    elif op == "ret-err":
        lit(r"\breturn -(1|E[A-Z]+)\s*;", "return 0;")
    return res


def mutants(path):
    with open(path) as fh:
        lines = fh.read().split("\n")
    masks = code_mask(lines)
    for no, (line, code) in enumerate(zip(lines, masks), 1):
        if code is None or not code.strip():
            continue
        if re.match(r"\s*(static\s+)?(const\s+)?(struct|enum|union)\s+\w+\s*\{", code):
            continue
        for op in OPS:
            for nth, (s, e, rep) in enumerate(sites(op, code, line)):
                new = line[:s] + rep + line[e:]
                yield no, op, nth, line, new


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        for path in sys.argv[2:]:
            for no, op, nth, old, new in mutants(path):
                print("\t".join([path, str(no), op, str(nth), old.strip(), new.strip()]))
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "apply":
        path, no, op, nth = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
        with open(path) as fh:
            lines = fh.read().split("\n")
        for n, o, k, old, new in mutants(path):
            if n == no and o == op and k == nth:
                lines[no - 1] = new
                with open(path, "w") as fh:
                    fh.write("\n".join(lines))
                return 0
        print("mutate-gen: no mutant %s:%d %s #%d" % (path, no, op, nth), file=sys.stderr)
        return 1
    print("usage: mutate-gen.py list FILE... | apply FILE LINE OP NTH", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
