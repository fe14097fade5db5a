#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/e2e/gh_emulator.py — run a GitHub Actions workflow here, offline, with
the runner semantics perfab's action (action.yml) and examples use.

usage: gh_emulator.py WORKFLOW.yml --repo DIR --state DIR
                      [--event NAME] [--event-file FILE] [--sha SHA]
                      [--job JOB]... [--run-id N] [--cancel-at JOB]
                      [--matrix-env KEY=VALUE:VAR=VALUE]...

Emulated for real: the trigger (event name, types, push branches,
workflow_run workflows), jobs in `needs` order, a job-level `if`, the
matrix (lists; one job per combination, each on a fresh "runner": its own
workspace and temp directory), workflow/job/step `env`, `${{ }}`
expressions (contexts github, env, inputs, steps, runner, matrix, needs,
job, secrets, vars; operators ! == != < <= > >= && || with GitHub's
coercions and case-insensitive string equality; always(), success(),
failure(), cancelled(), contains(), startsWith(), endsWith(), format(),
join(), toJSON(), fromJSON()), step `if`, `continue-on-error`, `run`
steps in bash (`bash --noprofile --norc -eo pipefail`, GitHub's default
shell), `working-directory`, the files GITHUB_OUTPUT (key=value and
key<<DELIM), GITHUB_ENV, GITHUB_PATH and GITHUB_STEP_SUMMARY, and local
composite actions (`uses: ./` or `./path`, resolved in the workspace):
their inputs with defaults, `github.action_path` / GITHUB_ACTION_PATH,
their own steps context, `shell` required on each run step, outputs.
github.ref, head_ref and base_ref are those GitHub gives pull_request
(refs/pull/N/merge), push, merge_group (its queue branch) and
workflow_run (the default branch, from repository.default_branch or
main) events. --cancel-at JOB cancels the run as JOB would start: from
there on cancelled() is true and a job runs only if its `if` says so
(always() does, !cancelled() does not).

Stubbed, recording the inputs they were given: actions/checkout (clones
--repo, shallow unless fetch-depth is 0), the cache — a store in
--state/cache scoped by branch as GitHub scopes it: a run restores from
its own ref, a pull request's base branch or the default branch, never a
sibling's, and saves into its own ref; a saved key is immutable (a
second save warns) — as actions/cache (restore, then save at the end of
the job on a miss only if the job succeeded: its post-if success()),
actions/cache/restore (key, restore-keys) and actions/cache/save;
actions/upload-artifact (a store per run id; a second upload of one name
fails as GitHub's 409 does unless overwrite is true; outputs artifact-id
and artifact-url), actions/download-artifact (name, or pattern, path,
merge-multiple; run-id with github-token: another run's artifacts).
`gh` on PATH is a stub that logs its argv and any `-F body=@FILE` body
to --state/gh.jsonl and answers `gh api` from --state/gh-state.json:
{"comments": [{"id", "issue", "user": {"login"}, "body"}], "pulls":
{"N": {...}}, "login": L} — listing, creating (as the token's login:
L, else github-actions[bot]) and editing comments, a pull request, and
`user` (403 without L, as for a GITHUB_TOKEN); `--jq` through jq.
--matrix-env sets VAR for the matrix combinations with KEY=VALUE (a
runner of another kind). Not emulated: services, containers, secrets,
reusable workflows, hashFiles().

Writes --state/record.json: whether the event triggered the workflow,
the cache operations (restore, miss, save with their scope), per job
instance its result, outputs, matrix, concurrency (group,
cancel-in-progress), summary, every step's outcome, outputs and (for
stubs) inputs. Exit 0 when every job succeeded, 1 when one failed, 2 on
an unsupported workflow.
"""
import argparse
import fnmatch
import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


class Unsupported(Exception):
    pass


# ---------------------------------------------------------------- expressions

TOKEN = re.compile(r"""\s*(?:
    (?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+)
  | (?P<str>'(?:[^']|'')*')
  | (?P<op>==|!=|<=|>=|&&|\|\||[!<>()\[\].,*])
  | (?P<id>[A-Za-z_][A-Za-z0-9_-]*)
)""", re.X)


def tokenize(s):
    out, i = [], 0
    while i < len(s):
        if s[i:].strip() == "":
            break
        m = TOKEN.match(s, i)
        if not m:
            raise Unsupported("cannot parse expression %r at %r" % (s, s[i:]))
        i = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


def truthy(v):
    if v is None or v is False:
        return False
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v == v and v != 0
    if isinstance(v, str):
        return v != ""
    return True


def to_number(v):
    if v is None:
        return 0
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str):
        t = v.strip()
        if t == "":
            return 0
        try:
            return int(t, 16) if t.lower().startswith("0x") else float(t)
        except ValueError:
            return float("nan")
    return float("nan")


def to_str(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    if isinstance(v, (dict, list)):
        return json.dumps(v, indent=2)
    return str(v)


def compare(a, b, op):
    if isinstance(a, str) and isinstance(b, str):
        x, y = a.casefold(), b.casefold()
    elif type(a) is type(b) and isinstance(a, (dict, list)):
        x, y = id(a), id(b)
        if op not in ("==", "!="):
            return False
    else:
        x, y = to_number(a), to_number(b)
        if x != x or y != y:
            return op == "!="
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y,
            ">": x > y, ">=": x >= y}[op]


class Expr:
    """A recursive-descent evaluator of one expression over contexts."""

    def __init__(self, text, ctx, status):
        self.t = tokenize(text)
        self.i = 0
        self.ctx = ctx
        self.status = status  # "success" | "failure" | "cancelled"
        self.used_status = False

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self, val=None):
        tok = self.peek()
        if val is not None and tok[1] != val:
            raise Unsupported("expected %r, found %r" % (val, tok[1]))
        self.i += 1
        return tok

    def parse(self):
        v = self.or_()
        if self.i != len(self.t):
            raise Unsupported("trailing tokens in expression: %r" % (self.t[self.i:],))
        return v

    def or_(self):
        v = self.and_()
        while self.peek()[1] == "||":
            self.take()
            r = self.and_()
            v = v if truthy(v) else r
        return v

    def and_(self):
        v = self.cmp()
        while self.peek()[1] == "&&":
            self.take()
            r = self.cmp()
            v = r if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        while self.peek()[1] in ("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            v = compare(v, self.unary(), op)
        return v

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.postfix(self.primary())

    def postfix(self, v):
        while True:
            tok = self.peek()
            if tok[1] == ".":
                self.take()
                kind, name = self.take()
                if kind != "id":
                    raise Unsupported("expected a property name after '.'")
                v = v.get(name) if isinstance(v, dict) else None
            elif tok[1] == "[":
                self.take()
                k = self.or_()
                self.take("]")
                if isinstance(v, dict):
                    v = v.get(to_str(k))
                elif isinstance(v, list):
                    n = to_number(k)
                    v = v[int(n)] if n == n and 0 <= n < len(v) else None
                else:
                    v = None
            else:
                return v

    def primary(self):
        kind, val = self.take()
        if kind == "num":
            return float(int(val, 16)) if val.lower().startswith("0x") else float(val)
        if kind == "str":
            return val[1:-1].replace("''", "'")
        if val == "(":
            v = self.or_()
            self.take(")")
            return v
        if kind != "id":
            raise Unsupported("unexpected %r in expression" % val)
        if val == "true":
            return True
        if val == "false":
            return False
        if val == "null":
            return None
        if self.peek()[1] == "(":
            self.take()
            args = []
            while self.peek()[1] != ")":
                args.append(self.or_())
                if self.peek()[1] == ",":
                    self.take()
            self.take(")")
            return self.call(val, args)
        if val not in self.ctx:
            raise Unsupported("unknown context %r" % val)
        return self.ctx[val]

    def call(self, name, args):
        name = name.lower()
        if name in ("always", "success", "failure", "cancelled"):
            self.used_status = True
            return {"always": True, "success": self.status == "success",
                    "failure": self.status == "failure",
                    "cancelled": self.status == "cancelled"}[name]
        if name == "contains":
            hay, needle = args
            if isinstance(hay, list):
                return any(compare(x, needle, "==") for x in hay)
            return to_str(needle).casefold() in to_str(hay).casefold()
        if name == "startswith":
            return to_str(args[0]).casefold().startswith(to_str(args[1]).casefold())
        if name == "endswith":
            return to_str(args[0]).casefold().endswith(to_str(args[1]).casefold())
        if name == "format":
            fmt = to_str(args[0])
            return re.sub(r"\{(\d+)\}", lambda m: to_str(args[1 + int(m.group(1))]), fmt)
        if name == "join":
            sep = to_str(args[1]) if len(args) > 1 else ","
            return sep.join(to_str(x) for x in args[0]) if isinstance(args[0], list) else to_str(args[0])
        if name == "tojson":
            return json.dumps(args[0], indent=2)
        if name == "fromjson":
            return json.loads(to_str(args[0]))
        raise Unsupported("function %s() is not emulated" % name)


EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def evaluate(text, ctx, status="success"):
    """The value of a `${{ }}` string: one whole expression keeps its type."""
    if not isinstance(text, str):
        return text
    m = EXPR.fullmatch(text.strip())
    if m and text.strip().count("${{") == 1:
        return Expr(m.group(1), ctx, status).parse()
    return EXPR.sub(lambda m: to_str(Expr(m.group(1), ctx, status).parse()), text)


def interpolate(text, ctx):
    return to_str(evaluate(text, ctx)) if isinstance(text, str) else to_str(text)


def condition(text, ctx, status):
    """A step's or job's `if:`: success() is implied without a status call."""
    if text is None or text == "":
        return status == "success"
    if isinstance(text, bool):
        return text and status == "success"
    s = str(text).strip()
    m = EXPR.fullmatch(s)
    if m:
        s = m.group(1)
    e = Expr(s, ctx, status)
    v = truthy(e.parse())
    return v if e.used_status else (v and status == "success")


# ---------------------------------------------------------------- the runner

def read_outputs(path):
    """GITHUB_OUTPUT / GITHUB_ENV: key=value lines and key<<DELIM blocks."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if not ln:
            continue
        if "<<" in ln and ("=" not in ln or ln.index("<<") < ln.index("=")):
            key, delim = ln.split("<<", 1)
            val = []
            while i < len(lines) and lines[i] != delim:
                val.append(lines[i])
                i += 1
            if i >= len(lines):
                raise Unsupported("%s: no closing %s for %s" % (path, delim, key))
            i += 1
            out[key] = "\n".join(val)
        elif "=" in ln:
            key, val = ln.split("=", 1)
            out[key] = val
        else:
            raise Unsupported("%s: malformed line %r" % (path, ln))
    return out


class Job:
    def __init__(self, em, name, spec, matrix, index):
        self.em, self.name, self.spec, self.matrix = em, name, spec, matrix
        # Every runner has the same paths (GitHub's /home/runner/work/R/R):
        # a fresh directory at one path per job, so builds on two runners
        # can be bit-identical, as on GitHub.
        base = os.path.join(em.state, "runner")
        shutil.rmtree(base, ignore_errors=True)
        self.workspace = os.path.join(base, "workspace")
        self.temp = os.path.join(base, "temp")
        self.files = os.path.join(base, "files")
        for d in (self.workspace, self.temp, self.files):
            os.makedirs(d)
        self.env = {}       # GITHUB_ENV additions
        self.path = []      # GITHUB_PATH additions, newest first
        self.status = "success"
        self.summary = ""
        self.steps_record = []
        self.post = []      # (callable) run at the end of the job
        self.n = 0
        self.extra_env = {}
        for spec_ in em.matrix_env:
            k, v, var, val = spec_
            if k in matrix and str(matrix[k]) == v:
                self.extra_env[var] = val

    def context(self, steps, inputs=None, action_path=None):
        gh = dict(self.em.github)
        gh["workspace"] = self.workspace
        gh["job"] = self.name
        if action_path:
            gh["action_path"] = action_path
        env = dict(self.em.wf_env)
        env.update(self.job_env)
        env.update(self.env)
        return {"github": gh, "env": env, "inputs": inputs if inputs is not None else self.em.inputs,
                "steps": steps, "runner": {"os": "Linux", "arch": "X64", "temp": self.temp,
                                           "tool_cache": os.path.join(self.em.state, "toolcache"),
                                           "name": "emulated"},
                "matrix": self.matrix, "needs": self.needs_ctx, "job": {"status": self.status},
                "secrets": {"GITHUB_TOKEN": "emulated-token"}, "vars": {},
                "strategy": {"fail-fast": True}}

    def base_env(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "INPUT_"))}
        env.update(self.extra_env)
        env["PATH"] = ":".join(self.path + [self.em.bin, os.environ.get("PATH", "/usr/bin:/bin")])
        gh = self.em.github
        env.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": self.workspace,
            "GITHUB_EVENT_NAME": gh["event_name"], "GITHUB_EVENT_PATH": self.em.event_path,
            "GITHUB_SHA": gh["sha"], "GITHUB_REF": gh["ref"], "GITHUB_REPOSITORY": gh["repository"],
            "GITHUB_RUN_ID": gh["run_id"], "GITHUB_RUN_ATTEMPT": "1",
            "GITHUB_SERVER_URL": gh["server_url"], "GITHUB_API_URL": gh["api_url"],
            "GITHUB_JOB": self.name, "RUNNER_TEMP": self.temp, "RUNNER_OS": "Linux",
            "RUNNER_ARCH": "X64", "EMU_STATE": self.em.state,
        })
        for k, v in list(self.em.wf_env.items()) + list(self.job_env.items()):
            env[k] = v
        env.update(self.env)
        return env

    def run(self, needs_ctx):
        self.needs_ctx = needs_ctx
        self.job_env = {}
        ctx = self.context({})
        rec = {"job": self.name, "matrix": self.matrix, "steps": self.steps_record}
        for k, v in (self.spec.get("env") or {}).items():
            self.job_env[k] = interpolate(v, ctx)
        conc = self.spec.get("concurrency", self.em.wf.get("concurrency"))
        if conc is not None:
            ctx = self.context({})
            if isinstance(conc, str):
                rec["concurrency"] = {"group": interpolate(conc, ctx), "cancel-in-progress": False}
            else:
                rec["concurrency"] = {"group": interpolate(conc.get("group", ""), ctx),
                                      "cancel-in-progress": truthy(evaluate(conc.get("cancel-in-progress", False), ctx))}
        status = "success" if all(n["result"] == "success" for n in needs_ctx.values()) else "failure"
        if self.em.cancelled:
            status = "cancelled"
        if not condition(self.spec.get("if"), self.context({}), status):
            rec["result"] = "skipped"
            rec["outputs"] = {}
            return rec
        steps = {}
        for step in self.spec.get("steps") or []:
            self.step(step, steps, self.em.inputs, None, rec)
        for fn in self.post:
            fn()
        rec["result"] = self.status
        ctx = self.context(steps)
        rec["outputs"] = {k: interpolate(v, ctx) for k, v in (self.spec.get("outputs") or {}).items()}
        rec["summary"] = self.summary
        return rec

    def step(self, step, steps, inputs, action_path, rec, composite=False):
        """Run one step; update steps[id] and self.status."""
        ctx = self.context(steps, inputs, action_path)
        sid = step.get("id") or "__step%d" % self.n
        self.n += 1
        name = step.get("name") or step.get("uses") or (step.get("run") or "").split("\n")[0]
        name = interpolate(name, ctx)
        srec = {"name": name, "id": sid, "composite": composite}
        if "uses" in step:
            srec["uses"] = str(step["uses"])
        self.steps_record.append(srec)
        if not condition(step.get("if"), ctx, self.status):
            steps[sid] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
            srec["outcome"] = "skipped"
            return
        env = self.base_env()
        senv = {k: interpolate(v, ctx) for k, v in (step.get("env") or {}).items()}
        env.update(senv)
        if action_path:
            env["GITHUB_ACTION_PATH"] = action_path
        n = self.n
        files = {k: os.path.join(self.files, "%s.%d" % (k, n)) for k in ("output", "env", "path", "summary")}
        for f in files.values():
            open(f, "w").close()
        env.update({"GITHUB_OUTPUT": files["output"], "GITHUB_ENV": files["env"],
                    "GITHUB_PATH": files["path"], "GITHUB_STEP_SUMMARY": files["summary"]})
        outputs, ok = {}, True
        if "run" in step:
            shell = step.get("shell") or (self.em.wf.get("defaults", {}).get("run", {}).get("shell"))
            if composite and not step.get("shell"):
                raise Unsupported("a composite action's run step needs shell: (%s)" % name)
            if shell not in (None, "bash"):
                raise Unsupported("shell %r is not emulated" % shell)
            script = os.path.join(self.files, "script.%d.sh" % n)
            with open(script, "w") as f:
                f.write(interpolate(step["run"], ctx))
            cwd = self.workspace
            if step.get("working-directory"):
                cwd = os.path.join(self.workspace, interpolate(step["working-directory"], ctx))
            r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                               cwd=cwd, env=env)
            ok = r.returncode == 0
            srec["exit"] = r.returncode
            outputs = read_outputs(files["output"])
        elif "uses" in step:
            uses = interpolate(step["uses"], ctx)
            with_ = {k: interpolate(v, ctx) for k, v in (step.get("with") or {}).items()}
            srec["uses"] = uses
            srec["with"] = with_
            if uses.startswith("./"):
                ok, outputs = self.composite(os.path.normpath(os.path.join(self.workspace, uses)),
                                             with_, env, rec)
            else:
                stub = STUBS.get(uses.split("@")[0])
                if not stub:
                    raise Unsupported("action %s is not emulated" % uses)
                try:
                    outputs = stub(self, with_, env) or {}
                except StubFailure as e:
                    print("::error::%s: %s" % (uses, e), file=sys.stderr)
                    srec["error"] = str(e)
                    ok = False
        else:
            raise Unsupported("a step with neither run nor uses")
        self.env.update(read_outputs(files["env"]))
        for p in open(files["path"]).read().split("\n"):
            if p.strip():
                self.path.insert(0, p.strip())
        self.summary += open(files["summary"]).read()
        outcome = "success" if ok else "failure"
        conclusion = outcome
        if not ok and truthy(evaluate(step.get("continue-on-error", False), ctx)):
            conclusion = "success"
        steps[sid] = {"outputs": outputs, "outcome": outcome, "conclusion": conclusion}
        srec["outcome"] = outcome
        srec["outputs"] = outputs
        if conclusion != "success":
            self.status = "failure"

    def composite(self, path, with_, env, rec):
        f = os.path.join(path, "action.yml")
        if not os.path.exists(f):
            f = os.path.join(path, "action.yaml")
        if not os.path.exists(f):
            raise Unsupported("no action.yml in %s" % path)
        action = yaml.safe_load(open(f))
        if (action.get("runs") or {}).get("using") != "composite":
            raise Unsupported("%s is not a composite action" % f)
        declared = action.get("inputs") or {}
        for k in with_:
            if k not in declared:
                raise Unsupported("input %r is not declared by %s" % (k, f))
        inputs = {}
        ctx = self.context({}, {}, path)
        for k, spec in declared.items():
            if k in with_:
                inputs[k] = with_[k]
            else:
                if (spec or {}).get("required") and "default" not in (spec or {}):
                    print("::warning::input %s is required" % k, file=sys.stderr)
                inputs[k] = interpolate((spec or {}).get("default", ""), ctx)
        steps = {}
        outer = self.status
        self.status = "success"
        for step in action["runs"]["steps"]:
            self.step(step, steps, inputs, path, rec, composite=True)
        ok = self.status == "success"
        ctx = self.context(steps, inputs, path)
        outputs = {k: interpolate((v or {}).get("value", ""), ctx)
                   for k, v in (action.get("outputs") or {}).items()}
        self.status = outer
        return ok, outputs


# ---------------------------------------------------------------- stubs

class StubFailure(Exception):
    pass


def git(*args, cwd=None):
    r = subprocess.run(["git"] + list(args), cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        raise StubFailure("git %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout.strip()


def stub_checkout(job, w, env):
    known = {"repository", "ref", "path", "fetch-depth", "persist-credentials", "token", "clean",
             "submodules", "lfs", "fetch-tags"}
    for k in w:
        if k not in known:
            raise Unsupported("actions/checkout input %r is not emulated" % k)
    dest = os.path.join(job.workspace, w.get("path", ""))
    ref = w.get("ref") or job.em.github["sha"]
    depth = int(w.get("fetch-depth", "1") or "1")
    url = "file://" + os.path.abspath(job.em.repo)
    if os.path.exists(dest) and os.listdir(dest):
        tmp = tempfile.mkdtemp(dir=job.temp)
    else:
        tmp = None
    target = tmp or dest
    if depth == 0:
        git("clone", "-q", "--no-checkout", url, target)
        git("checkout", "-q", "--detach", ref, cwd=target)
    else:
        git("init", "-q", target)
        git("remote", "add", "origin", url, cwd=target)
        git("fetch", "-q", "--depth", str(depth), "origin", ref, cwd=target)
        git("checkout", "-q", "--detach", "FETCH_HEAD", cwd=target)
    if tmp:
        for name in os.listdir(tmp):
            shutil.move(os.path.join(tmp, name), os.path.join(dest, name))
    return {"ref": ref, "commit": git("rev-parse", "HEAD", cwd=dest)}


def cache_scopes(em):
    """The branch scopes a run may restore from, its own first (GitHub:
    the current branch, a pull request's base branch, the default branch;
    never a sibling or child branch)."""
    gh = em.github
    scopes = [gh["ref"]]
    if gh.get("base_ref"):
        scopes.append("refs/heads/" + gh["base_ref"])
    scopes.append("refs/heads/" + em.default_branch)
    out = []
    for s in scopes:
        if s not in out:
            out.append(s)
    return out


def cache_dir(em, scope, key=None):
    d = os.path.join(em.state, "cache", scope.replace("/", "%"))
    return os.path.join(d, key) if key is not None else d


def cache_restore(job, w):
    key = w.get("key") or ""
    path = w.get("path") or ""
    if not key or not path:
        raise StubFailure("actions/cache needs key and path")
    if "\n" in path.strip():
        raise Unsupported("several cache paths are not emulated")
    path = os.path.join(job.workspace, path.strip())
    prefixes = [k.strip() for k in (w.get("restore-keys") or "").split("\n") if k.strip()]
    for scope in cache_scopes(job.em):
        hit = None
        if os.path.isdir(cache_dir(job.em, scope, key)):
            hit = key
        else:
            have = sorted(os.listdir(cache_dir(job.em, scope))) if os.path.isdir(cache_dir(job.em, scope)) else []
            for p in prefixes:
                m = [k for k in have if k.startswith(p)]
                if m:
                    hit = m[-1]
                    break
        if hit:
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(cache_dir(job.em, scope, hit), path, symlinks=True)
            job.em.cache_log.append({"op": "restore", "key": hit, "scope": scope})
            return path, {"cache-hit": "true" if hit == key else "false",
                          "cache-primary-key": key, "cache-matched-key": hit}
    job.em.cache_log.append({"op": "miss", "key": key, "scopes": cache_scopes(job.em)})
    return path, {"cache-hit": "false", "cache-primary-key": key, "cache-matched-key": ""}


def cache_save(job, path, key):
    """Save into the run's own branch scope; a key already there is kept
    (GitHub's caches are immutable: a warning, not a failure)."""
    store = cache_dir(job.em, job.em.github["ref"], key)
    if os.path.isdir(store):
        print("::warning::Failed to save: cache entry %s already exists" % key, file=sys.stderr)
        return
    if not os.path.isdir(path):
        print("::warning::Path does not exist: %s; no cache saved" % path, file=sys.stderr)
        return
    os.makedirs(os.path.dirname(store), exist_ok=True)
    shutil.copytree(path, store, symlinks=True)
    job.em.cache_log.append({"op": "save", "key": key, "scope": job.em.github["ref"]})


def stub_cache(job, w, env):
    """actions/cache: restore now, save in the post step, which runs only
    when the job succeeded (its post-if: success())."""
    path, out = cache_restore(job, w)
    if out["cache-hit"] != "true":
        def save():
            if job.status == "success":
                cache_save(job, path, w["key"])
        job.post.append(save)
    return out


def stub_cache_restore(job, w, env):
    for k in w:
        if k not in ("path", "key", "restore-keys", "fail-on-cache-miss", "lookup-only",
                     "enableCrossOsArchive"):
            raise Unsupported("actions/cache/restore input %r is not emulated" % k)
    return cache_restore(job, w)[1]


def stub_cache_save(job, w, env):
    for k in w:
        if k not in ("path", "key", "upload-chunk-size", "enableCrossOsArchive"):
            raise Unsupported("actions/cache/save input %r is not emulated" % k)
    if not w.get("key") or not w.get("path"):
        raise StubFailure("actions/cache/save needs key and path")
    cache_save(job, os.path.join(job.workspace, w["path"].strip()), w["key"])
    return {}


def upload_root(paths):
    """The directory an upload's paths are relative to (their common parent)."""
    parents = [p if os.path.isdir(p) else os.path.dirname(p) for p in paths]
    return os.path.commonpath(parents) if parents else None


def stub_upload(job, w, env):
    for k in w:
        if k not in ("name", "path", "if-no-files-found", "overwrite", "retention-days",
                     "compression-level", "include-hidden-files"):
            raise Unsupported("actions/upload-artifact input %r is not emulated" % k)
    name = w.get("name") or "artifact"
    store = os.path.join(job.em.state, "artifacts", job.em.github["run_id"], name)
    if os.path.exists(store):
        if w.get("overwrite", "false") != "true":
            raise StubFailure("Failed to CreateArtifact: (409) Conflict: an artifact with this name "
                              "already exists on the workflow run")
        shutil.rmtree(store)
    files = []
    for pat in (w.get("path") or "").split("\n"):
        pat = pat.strip()
        if not pat:
            continue
        for p in glob.glob(os.path.join(job.workspace, pat), recursive=True):
            if os.path.isdir(p):
                for d, _, fs in os.walk(p):
                    files += [os.path.join(d, f) for f in fs]
            else:
                files.append(p)
    if not files:
        mode = w.get("if-no-files-found", "warn")
        if mode == "error":
            raise StubFailure("no files found at %r" % w.get("path"))
        return {}
    roots = [os.path.join(job.workspace, p.strip()) for p in (w.get("path") or "").split("\n")
             if p.strip() and "*" not in p]
    root = upload_root([r for r in roots if os.path.exists(r)] or files)
    for f in files:
        rel = os.path.relpath(f, root)
        os.makedirs(os.path.dirname(os.path.join(store, rel)), exist_ok=True)
        shutil.copy2(f, os.path.join(store, rel))
    job.em.artifact_id += 1
    gh = job.em.github
    return {"artifact-id": str(job.em.artifact_id),
            "artifact-url": "%s/%s/actions/runs/%s/artifacts/%d" % (gh["server_url"], gh["repository"],
                                                                   gh["run_id"], job.em.artifact_id)}


def stub_download(job, w, env):
    for k in w:
        if k not in ("name", "pattern", "path", "merge-multiple", "run-id", "github-token",
                     "repository", "artifact-ids"):
            raise Unsupported("actions/download-artifact input %r is not emulated" % k)
    run_id = w.get("run-id") or job.em.github["run_id"]
    if run_id != job.em.github["run_id"] and not w.get("github-token"):
        raise StubFailure("downloading from another run (%s) needs github-token" % run_id)
    root = os.path.join(job.em.state, "artifacts", run_id)
    names = sorted(os.listdir(root)) if os.path.isdir(root) else []
    if w.get("name"):
        names = [n for n in names if n == w["name"]]
        if not names:
            raise StubFailure("artifact %r not found" % w["name"])
    elif w.get("pattern"):
        names = [n for n in names if fnmatch.fnmatchcase(n, w["pattern"])]
    dest = os.path.join(job.workspace, w.get("path", ""))
    single = bool(w.get("name"))
    for n in names:
        d = dest if single or w.get("merge-multiple") == "true" else os.path.join(dest, n)
        shutil.copytree(os.path.join(root, n), d, dirs_exist_ok=True)
    return {"download-path": dest}


STUBS = {"actions/checkout": stub_checkout, "actions/cache": stub_cache,
         "actions/cache/restore": stub_cache_restore, "actions/cache/save": stub_cache_save,
         "actions/upload-artifact": stub_upload, "actions/download-artifact": stub_download}

GH_STUB = r"""#!/bin/sh
# gh stub of tests/e2e/gh_emulator.py: log argv and the body to gh.jsonl;
# answer from gh-state.json (comments, pulls, the token's login).
python3 - "$@" <<'PY'
import json, os, re, subprocess, sys
st_dir = os.environ["EMU_STATE"]
args = sys.argv[1:]
rec = {"argv": args}
for i, a in enumerate(args):
    if a in ("-F", "-f", "--field", "--raw-field") and i + 1 < len(args) and args[i + 1].startswith("body=@"):
        rec["body"] = open(args[i + 1][len("body=@"):], encoding="utf-8").read()
with open(os.path.join(st_dir, "gh.jsonl"), "a") as f:
    f.write(json.dumps(rec) + "\n")
sf = os.path.join(st_dir, "gh-state.json")
state = json.load(open(sf)) if os.path.exists(sf) else {}
state.setdefault("comments", [])
me = state.get("login") or "github-actions[bot]"
if not args or args[0] != "api":
    sys.exit("gh stub: only gh api is emulated")
method, jq, path, i = "GET", None, None, 1
while i < len(args):
    a = args[i]
    if a in ("--method", "-X"):
        method = args[i + 1]; i += 2; continue
    if a in ("--jq", "-q"):
        jq = args[i + 1]; i += 2; continue
    if a in ("-F", "-f", "--field", "--raw-field", "-H", "--header"):
        i += 2; continue
    if a.startswith("-"):
        i += 1; continue
    path = a; i += 1

def answer(v):
    if jq is None:
        print(json.dumps(v))
        return
    r = subprocess.run(["jq", "-r", jq], input=json.dumps(v), capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    if r.returncode:
        sys.exit(r.returncode)

def save():
    json.dump(state, open(sf, "w"), indent=1)

if path == "user":
    if not state.get("login"):
        print("gh: Resource not accessible by integration (HTTP 403)", file=sys.stderr)
        sys.exit(1)
    answer({"login": state["login"]})
elif re.fullmatch(r"repos/[^/]+/[^/]+/issues/\d+/comments", path or "") and method == "GET":
    n = int(path.split("/")[-2])
    answer([c for c in state["comments"] if c.get("issue") == n])
elif re.fullmatch(r"repos/[^/]+/[^/]+/issues/\d+/comments", path or "") and method == "POST":
    n = int(path.split("/")[-2])
    cid = max([c["id"] for c in state["comments"]] + [1000]) + 1
    state["comments"].append({"id": cid, "issue": n, "user": {"login": me}, "body": rec.get("body", "")})
    save()
    answer({"id": cid})
elif re.fullmatch(r"repos/[^/]+/[^/]+/issues/comments/\d+", path or "") and method == "PATCH":
    cid = int(path.split("/")[-1])
    for c in state["comments"]:
        if c["id"] == cid:
            c["body"] = rec.get("body", "")
            c["edited_by"] = me
            save()
            answer({"id": cid})
            break
    else:
        print("gh: Not Found (HTTP 404)", file=sys.stderr)
        sys.exit(1)
elif re.fullmatch(r"repos/[^/]+/[^/]+/pulls/\d+", path or ""):
    p = (state.get("pulls") or {}).get(path.split("/")[-1])
    if not p:
        print("gh: Not Found (HTTP 404)", file=sys.stderr)
        sys.exit(1)
    answer(p)
else:
    sys.exit("gh stub: %s %s is not emulated" % (method, path))
PY
"""


class Emulator:
    def __init__(self, a):
        self.state = os.path.abspath(a.state)
        os.makedirs(self.state, exist_ok=True)
        self.repo = a.repo
        self.wf = yaml.safe_load(open(a.workflow))
        # YAML 1.1 reads the key `on` as True.
        self.on = self.wf.get("on", self.wf.get(True))
        event = json.load(open(a.event_file)) if a.event_file else {}
        self.event_path = os.path.join(self.state, "event.json")
        json.dump(event, open(self.event_path, "w"))
        sha = a.sha or git("rev-parse", "HEAD", cwd=a.repo)
        repo = (event.get("repository") or {}).get("full_name", "owner/project")
        self.default_branch = (event.get("repository") or {}).get("default_branch", "main")
        ref, head_ref, base_ref = self.event_refs(a.event, event)
        self.github = {"event_name": a.event, "event": event, "sha": sha, "ref": ref,
                       "ref_name": ref.split("/", 2)[-1],
                       "repository": repo, "repository_owner": repo.split("/")[0],
                       "run_id": a.run_id, "run_number": "1", "run_attempt": "1",
                       "server_url": "https://github.com", "api_url": "https://api.github.com",
                       "token": "emulated-token", "actor": "emulated", "workflow": self.wf.get("name", ""),
                       "action_ref": "", "head_ref": head_ref, "base_ref": base_ref}
        self.cache_log = []
        self.cancel_at = a.cancel_at
        self.cancelled = False
        self.inputs = dict(event.get("inputs") or {})
        self.bin = os.path.join(self.state, "bin")
        os.makedirs(self.bin, exist_ok=True)
        with open(os.path.join(self.bin, "gh"), "w") as f:
            f.write(GH_STUB)
        os.chmod(os.path.join(self.bin, "gh"), 0o755)
        self.matrix_env = []
        for m in a.matrix_env:
            kv, var = m.split(":", 1)
            self.matrix_env.append(tuple(kv.split("=", 1)) + tuple(var.split("=", 1)))
        self.artifact_id = 0
        self.only = a.job

    def event_refs(self, name, event):
        """github.ref, head_ref and base_ref of an event, as GitHub sets them."""
        if name in ("pull_request", "pull_request_target"):
            pr = event.get("pull_request") or {}
            ref = ("refs/pull/%s/merge" % pr.get("number") if name == "pull_request"
                   else "refs/heads/" + self.default_branch)
            return ref, (pr.get("head") or {}).get("ref", ""), (pr.get("base") or {}).get("ref", "")
        if name == "push":
            return event.get("ref", "refs/heads/" + self.default_branch), "", ""
        if name == "merge_group":
            mg = event.get("merge_group") or {}
            base = mg.get("base_ref", "refs/heads/" + self.default_branch)
            return mg.get("head_ref", ""), "", base[len("refs/heads/"):] if base.startswith("refs/heads/") else base
        # workflow_run, workflow_dispatch, schedule: the default branch.
        return event.get("ref", "refs/heads/" + self.default_branch), "", ""

    def triggered(self):
        on = self.on
        ev = self.github["event_name"]
        if isinstance(on, str):
            return on == ev
        if isinstance(on, list):
            return ev in on
        if ev not in on:
            return False
        spec = on[ev] if isinstance(on[ev], dict) else {}
        types = spec.get("types")
        if types and self.github["event"].get("action") not in types:
            return False
        if ev == "push" and spec.get("branches"):
            branch = self.github["ref"][len("refs/heads/"):]
            if not any(fnmatch.fnmatchcase(branch, b) for b in spec["branches"]):
                return False
        if ev == "workflow_run":
            wr = self.github["event"].get("workflow_run") or {}
            if wr.get("name") not in (spec.get("workflows") or []):
                return False
        return True

    def run(self):
        ctx = {"github": self.github, "inputs": self.inputs, "vars": {}, "secrets": {},
               "env": {}, "runner": {}, "matrix": {}, "needs": {}, "steps": {}, "job": {}}
        self.wf_env = {k: interpolate(v, ctx) for k, v in (self.wf.get("env") or {}).items()}
        record = {"triggered": self.triggered(), "jobs": [], "cache": self.cache_log}
        if not record["triggered"]:
            return record
        jobs = self.wf["jobs"]
        done, results = set(), {}
        order = []
        while len(order) < len(jobs):
            ready = [j for j in jobs if j not in done and all(
                n in done for n in _list(jobs[j].get("needs")))]
            if not ready:
                raise Unsupported("a cycle in needs")
            order += ready
            done |= set(ready)
        for name in order:
            if self.only and name not in self.only:
                continue
            spec = jobs[name]
            if name == self.cancel_at:
                # The run is cancelled (a newer push, concurrency's
                # cancel-in-progress) as this job would start: from here
                # on, cancelled() is true and success() false.
                print("== the run is cancelled", file=sys.stderr, flush=True)
                self.cancelled = True
            needs = {n: results.get(n, {"result": "skipped", "outputs": {}}) for n in _list(spec.get("needs"))}
            combos = [{}]
            matrix = (spec.get("strategy") or {}).get("matrix")
            if matrix:
                if isinstance(matrix, str) or any(k in matrix for k in ("include", "exclude")):
                    raise Unsupported("matrix include/exclude or an expression matrix")
                keys = list(matrix)
                combos = [dict(zip(keys, vals)) for vals in itertools.product(*(matrix[k] for k in keys))]
            result = {"result": "success", "outputs": {}}
            for i, combo in enumerate(combos):
                ctx = {"github": self.github, "inputs": self.inputs, "vars": {}, "secrets": {},
                       "env": self.wf_env, "matrix": combo, "needs": needs}
                print("== job %s %s" % (name, json.dumps(combo) if combo else ""), file=sys.stderr, flush=True)
                job = Job(self, name, spec, combo, i)
                rec = job.run(needs)
                record["jobs"].append(rec)
                print("== job %s %s: %s" % (name, json.dumps(combo) if combo else "", rec["result"]),
                      file=sys.stderr, flush=True)
                if rec["result"] == "failure":
                    result["result"] = "failure"
                elif rec["result"] == "skipped" and len(combos) == 1:
                    result["result"] = "skipped"
                result["outputs"].update(rec["outputs"])
            results[name] = result
        return record


def _list(v):
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workflow")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--state", required=True)
    ap.add_argument("--event", default="pull_request")
    ap.add_argument("--event-file")
    ap.add_argument("--sha")
    ap.add_argument("--job", action="append")
    ap.add_argument("--run-id", default="1000")
    ap.add_argument("--matrix-env", action="append", default=[])
    ap.add_argument("--cancel-at")
    a = ap.parse_args()
    try:
        em = Emulator(a)
        record = em.run()
    except Unsupported as e:
        print("gh_emulator: unsupported: %s" % e, file=sys.stderr)
        return 2
    with open(os.path.join(em.state, "record.json"), "w") as f:
        json.dump(record, f, indent=1)
    if not record["triggered"]:
        print("gh_emulator: the workflow is not triggered by this event", file=sys.stderr)
        return 0
    return 1 if any(j["result"] == "failure" for j in record["jobs"]) else 0


if __name__ == "__main__":
    sys.exit(main())
