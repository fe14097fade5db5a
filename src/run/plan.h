/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plan.h — the experiment `perfab run` is about to carry out, from its
 * options, the --config file and, with --resume, the interrupted run's
 * artifact: arms (argv, env, executables and their digests), rows, reps
 * and looks, seed, rules, tolerances, and the settings the run records
 * (struct pab_run_settings) and runs with.
 *
 * Nothing here prints or exits: a plan that cannot be made returns -1 with
 * a struct pab_failure (run/failure.h) the command reports, and what the
 * command should tell on the way (notes, warnings, the --resume listing of
 * what will run) is collected in the plan's messages, in order.
 *
 * The plan's data (the options, struct pab_plan, its messages and its
 * release) is in run/plan_data.h; plan.c makes a fresh plan and picks it
 * or the resume plan (run/resume.h); both define the experiment through
 * run/define.h and its arms through run/arms.h.
 */
#ifndef PAB_RUN_PLAN_H
#define PAB_RUN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "run/failure.h"
#include "run/plan_data.h"

/* Adaptive by default: the first look, the cap, the whole run's budget. */
#define PAB_DEFAULT_FIRST_LOOK 12
#define PAB_DEFAULT_MAX_REPS 96
#define PAB_DEFAULT_BUDGET_S 600.0
#define PAB_DEFAULT_OUT "perfab-run.json"

/*
 * pab_plan_make: plan what o asks for into p (initialised by the call): a
 * fresh experiment from the options and --config, or with o->resume the
 * artifact's own experiment, checked against the arms and rows the options
 * define again (or taken as recorded with --trust-artifact), its every
 * executable against the digest recorded at the start, its settings
 * against their options' ranges. Returns 0, or -1 with f filled:
 * PAB_FAIL_USAGE for bad options, a bad definition or a damaged artifact,
 * PAB_FAIL_REFUSED when the artifact does not match or a program changed,
 * PAB_FAIL_SYSTEM when a program cannot be read or copied, PAB_FAIL_LOAD
 * when the artifact does not load. Either way p's messages hold what to
 * tell first, and the caller releases p. Digests the executables, takes
 * the host's fingerprint and copies --preserve-builds; runs nothing.
 */
int pab_plan_make(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f);

/*
 * pab_plan_recheck: at the end of a run, every program and input file of
 * every (row, arm) of p->e digested again against its digest at the start
 * (pab_child_check_files). 0, or -1 with f filled (PAB_FAIL_REFUSED)
 * naming the first that changed: then the run must not be finished as if
 * all its reps ran what was checked.
 */
int pab_plan_recheck(const struct pab_plan *p, struct pab_failure *f);

#endif /* PAB_RUN_PLAN_H */
