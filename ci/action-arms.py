#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""ci/action-arms.py — the config perfab's GitHub Action runs (ci/action.sh
arms; doc/ci.md).

usage: action-arms.py OUT.json   (environment: WORK, PAB_BENCH, PAB_CFG_FILE,
                                  PAB_CONFIG)

Writes OUT.json: the config's rows and settings (PAB_CFG_FILE, already
chosen from the base or the head checkout), plus, with a bench command, the
arms base and head. Each arm's command is PAB_BENCH split into words by
perfab's own rules (perfab(1) ARMS AND QUOTING: blanks, '...', "..." with
\\" and \\\\, a backslash outside quotes), run as `env -C CHECKOUT -- WORDS`
so its working directory is its own checkout ($WORK/base or $WORK/head);
a word that names a path in either checkout (or the PATH of --opt=PATH)
becomes that checkout's absolute path, so base and head each read their
own file and an interpreter (python3 x.py) runs each checkout's script.
The program perfab digests is then env; each arm's revision label carries
its commit and a digest of its checkout's files among the words, so the
artifact keeps the benchmark's identity and pooled shards must agree on it.
Exit 0, or 2 with a ::error:: line.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys


def die(msg):
    print("::error::perfab action: " + msg, file=sys.stderr)
    sys.exit(2)


def split(cmd):
    """The words of cmd, split as perfab splits an arm's command."""
    words, cur, have, i, n = [], [], False, 0, len(cmd)
    while i < n:
        c = cmd[i]
        if c in " \t\n\r":
            if have:
                words.append("".join(cur))
            cur, have = [], False
        elif c == "'":
            j = cmd.find("'", i + 1)
            if j < 0:
                die("bench has an unclosed ' quote")
            cur.append(cmd[i + 1:j])
            have, i = True, j
        elif c == '"':
            i += 1
            have = True
            while i < n and cmd[i] != '"':
                if cmd[i] == "\\" and i + 1 < n and cmd[i + 1] in '"\\':
                    i += 1
                cur.append(cmd[i])
                i += 1
            if i >= n:
                die('bench has an unclosed " quote')
        elif c == "\\" and i + 1 < n:
            cur.append(cmd[i + 1])
            have = True
            i += 1
        else:
            cur.append(c)
            have = True
        i += 1
    if have:
        words.append("".join(cur))
    return words


def main():
    out = sys.argv[1]
    work = os.environ["WORK"]
    bench = os.environ.get("PAB_BENCH", "")
    cfg_file = os.environ.get("PAB_CFG_FILE", "")
    name = os.environ.get("PAB_CONFIG", cfg_file)
    cfg = {}
    if cfg_file:
        try:
            with open(cfg_file, encoding="utf-8") as f:
                cfg = json.load(f)
        except (OSError, ValueError) as e:
            die("config '%s': %s" % (name, e))
        if not isinstance(cfg, dict):
            die("config '%s' is not a JSON object" % name)
    if not bench.strip():
        if not cfg.get("arms"):
            die("set bench (the benchmark command) or config (a perfab JSON config with arms)")
        with open(out, "w", encoding="utf-8") as f:
            json.dump(cfg, f, indent=1)
        return 0
    if cfg.get("arms"):
        die("bench and a config with arms of its own: give one of them")
    words = split(bench)
    if not words:
        die("bench is empty")
    if "=" in words[0]:
        die("bench's first word '%s' holds '=': give the program first "
            "(environment additions go in a config's arms)" % words[0])
    sides = [("base", os.path.join(work, "base")), ("head", os.path.join(work, "head"))]

    def in_checkout(w):
        """The part of word w that names a path in a checkout, or None."""
        if w.startswith("-"):
            if "=" not in w:
                return None
            w = w.split("=", 1)[1]
        if not w or w.startswith("/"):
            return None
        if any(os.path.lexists(os.path.join(d, w)) for _, d in sides):
            return w
        return None

    arms = []
    for side, co in sides:
        argv, digests = [], []
        for k, w in enumerate(words):
            p = in_checkout(w)
            if p is None:
                if k == 0:
                    if "/" in w and not w.startswith("/"):
                        die("the build made no executable '%s' in the %s checkout" % (w, side))
                    if not shutil.which(w):
                        die("bench's program '%s' is neither in the checkouts nor on PATH" % w)
                argv.append(w)
                continue
            full = os.path.join(co, p)
            if k == 0 and not (os.path.isfile(full) and os.access(full, os.X_OK)):
                die("the build made no executable '%s' in the %s checkout" % (p, side))
            if os.path.isfile(full):
                with open(full, "rb") as f:
                    digests.append("%d:%s" % (k, hashlib.sha256(f.read()).hexdigest()))
            argv.append(w[:len(w) - len(p)] + full)
        r = subprocess.run(["git", "-C", co, "rev-parse", "HEAD"], capture_output=True, text=True)
        commit = r.stdout.strip()[:12] or side
        files = hashlib.sha256("\n".join(digests).encode()).hexdigest()[:16]
        arms.append({"name": side, "argv": ["env", "-C", co, "--"] + argv,
                     "revision": "%s files:%s" % (commit, files)})
    cfg["arms"] = arms
    with open(out, "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=1)
    for a in arms:
        print("arm %s: %s (%s)" % (a["name"], " ".join(a["argv"]), a["revision"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
