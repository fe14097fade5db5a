#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gen-artifact.py — write a synthetic, complete, balanced perfab artifact
(schema perfab-artifact/1) for benchmarks and tests of the ledger.

usage: gen-artifact.py OUT [--rows 20] [--reps 1002] [--seed 1] [--shift 0.0]
Three arms (base, head, null); 16 metrics per arm and rep; head is slower
by --shift (0.10 = +10%) on every lower-is-better metric.
"""
import argparse
import json
import random

METRICS = ["throughput", "wall", "cpu", "user", "sys", "minor_faults",
           "major_faults", "voluntary_ctx_switches", "involuntary_ctx_switches",
           "peak_rss", "tree_peak_rss", "tree_peak_pss", "drain_rss",
           "release_bound_rss", "release_ms", "rss_floor"]
ARMS = ["base", "head", "null"]


def order(n_arms, rep):
    block, j = divmod(rep, n_arms)
    o = [(k + j) % n_arms for k in range(n_arms)]
    return o[::-1] if block % 2 else o


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--reps", type=int, default=1002)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shift", type=float, default=0.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    rows = []
    for r in range(a.rows):
        reps = []
        for i in range(a.reps):
            res = {}
            for arm in ARMS:
                f = 1.0 + (a.shift if arm == "head" else 0.0)
                m = {}
                for k, name in enumerate(METRICS):
                    v = (k + 1) * 1000.0 * rng.lognormvariate(0, 0.03)
                    if name == "throughput":
                        v /= f
                    elif name == "rss_floor":
                        v = 100.0
                    else:
                        v *= f
                    m[name] = round(v, 3)
                res[arm] = m
            reps.append({"block": i // len(ARMS),
                         "order": [ARMS[k] for k in order(len(ARMS), i)],
                         "results": res})
        rows.append({"name": "row%02d" % r, "workload": None, "program": None,
                     "argv": [], "params": {}, "control": False,
                     "failed": False, "fail_reason": None, "reps": reps})
    doc = {"schema": "perfab-artifact/1", "perfab_version": "synthetic",
           "protocol": "rotate-reverse/1", "complete": True, "seed": a.seed,
           "rules": "perfab/1", "reps": a.reps, "max_reps": a.reps,
           "host": {"cpu_model": "synthetic"}, "run": {},
           "arms": [{"name": n, "argv": ["/bin/true"], "env": {},
                     "revision": None, "sha256": None} for n in ARMS],
           "rows": rows}
    with open(a.out, "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
