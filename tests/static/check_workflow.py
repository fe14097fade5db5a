#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/static/check_workflow.py — line-based checks of a GitHub Actions workflow
or action.yml (no yaml module needed).

usage: check_workflow.py WORKFLOW.yml [--syntax]

Finds every `run:` value — inline, quoted, or a block scalar (| or >)
with the lines indented below it — and fails (exit 1) when any of them
contains `${{`: an expression interpolated into a script is code injection
waiting for a hostile branch name or input; values belong in env:. With
--syntax, each run block is also checked with `bash -n` (GitHub's default
shell). Prints one line per problem; exit 0 when there is none.
"""
import re
import subprocess
import sys

RUN = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?run:(?P<rest>.*)$")


def run_blocks(lines):
    """Yield the value of each run: key as a list of (line number, text)."""
    i = 0
    while i < len(lines):
        m = RUN.match(lines[i])
        if not m:
            i += 1
            continue
        key_indent = len(m.group("indent")) + len(m.group("dash") or "")
        rest = m.group("rest").strip()
        body = [] if rest[:1] in ("|", ">") else [(i + 1, rest)]
        j = i + 1
        while j < len(lines):
            ln = lines[j]
            if ln.strip() and len(ln) - len(ln.lstrip()) <= key_indent:
                break
            body.append((j + 1, ln))
            j += 1
        yield body
        i = j


def main():
    args = sys.argv[1:]
    syntax = "--syntax" in args
    args = [a for a in args if a != "--syntax"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        lines = f.read().split("\n")
    problems, n = [], 0
    for body in run_blocks(lines):
        n += 1
        for lineno, text in body:
            if "${{" in text:
                problems.append("%s:%d: ${{ }} inside a run: script (pass it through env:): %s"
                                % (args[0], lineno, text.strip()))
        if syntax and body:
            script = "\n".join(text for _, text in body)
            r = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
            if r.returncode:
                problems.append("%s:%d: bash -n: %s" % (args[0], body[0][0], r.stderr.strip()))
    if n == 0 and not any(re.match(r"^\s*(-\s+)?uses:", ln) for ln in lines):
        problems.append("%s: no run: or uses: step found (is this a workflow?)" % args[0])
    for p in problems:
        print(p)
    print("%d run: blocks checked" % n, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
