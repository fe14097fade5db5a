/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * resume.h — the resume plan: `perfab run --resume FILE` continues the
 * interrupted run its artifact records, with the run's own arms, rows,
 * seed, protocol and settings. Nothing in the artifact that can be checked
 * is trusted: the arms and rows must be those the options define again
 * (unless --trust-artifact), every executable and input file must have
 * the digest recorded at the start, every setting must be in its option's
 * range. What will run is listed (in the plan's messages) before anything
 * runs. Nothing here prints or exits.
 */
#ifndef PAB_RUN_RESUME_H
#define PAB_RUN_RESUME_H

#include "run/failure.h"
#include "run/plan_data.h"

/*
 * pab_plan_resume: the run o->resume records into p (initialised by the
 * caller, pab_plan_make): p->out is the artifact, p->resumed set, its
 * leftover temp files removed. 0, or -1 with f filled as pab_plan_make
 * says (run/plan.h); p's messages hold what to tell either way.
 */
int pab_plan_resume(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f);

/*
 * pab_plan_resume_command: the arguments of `perfab run` that continue
 * this run: --resume out and the options that defined its arms and rows,
 * as given, or --trust-artifact where that is how it was resumed. Each
 * word terminal-safe, the whole quoted for a shell (new string).
 */
char *pab_plan_resume_command(const struct pab_run_opts *o, const char *out);

#endif /* PAB_RUN_RESUME_H */
