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
 */
#ifndef PAB_RUN_PLAN_H
#define PAB_RUN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "model/experiment.h"
#include "model/metrics.h"
#include "options.h"
#include "run/failure.h"

/* Adaptive by default: the first look, the cap, the whole run's budget. */
#define PAB_DEFAULT_FIRST_LOOK 12
#define PAB_DEFAULT_MAX_REPS 96
#define PAB_DEFAULT_BUDGET_S 600.0
#define PAB_DEFAULT_OUT "perfab-run.json"
/* Most rows parameter scans may make. */
#define PAB_PARAM_MAX_VALUES 10000

/*
 * The options of `perfab run` as parsed (cmd_run.c's option table fills
 * them). Zero, NULL or negative means "not given" (pab_run_opts_init()),
 * so --resume can refuse what it would ignore. Strings are borrowed.
 */
struct pab_run_opts {
	const char *config, *arms, *workloads, *cpus, *out, *rules, *controls;
	const char *counters, *resume, *shard, *preserve, *budget, *metrics, *require;
	const char *prepare, *setup, *cleanup, *input, *output;
	const char *export_markdown, *export_csv, *export_json;
	const char *counts, *calibration; /* --counts MODE, --calibration FILE */
	uint64_t count_reps;              /* --count-reps N; 0: not given */
	struct pab_strlist arm_specs, tolerances, head_env;
	/* --parameter-scan NAME MIN MAX: 3 words each; --parameter-list
	 * NAME V1,V2,...: 2 words each. */
	struct pab_strlist param_scans, param_lists;
	double param_step;  /* --parameter-step-size; <= 0: not given (1) */
	int null_arm, no_null_arm, no_sanity, quiet, no_cgroup, literal_argv, trust;
	int show_output;
	uint64_t reps, max_reps, max_procs, warmup;
	uint64_t seed;      /* UINT64_MAX: not given */
	double timeout_s;   /* < 0: not given */
	double interval_ms, scale;
	double margin;      /* < 0: not given */
	/* The option table that filled these: its ranges bound the same
	 * settings in a config (pab_config_load). */
	const struct pab_option *table;
};

/* Every option "not given". */
void pab_run_opts_init(struct pab_run_opts *o);

enum pab_plan_msg_kind {
	PAB_PLAN_NOTE,    /* "perfab: note: TEXT" */
	PAB_PLAN_WARNING, /* "perfab: warning: TEXT" */
	PAB_PLAN_TEXT,    /* TEXT as it is (whole lines) */
};

struct pab_plan_msg {
	enum pab_plan_msg_kind kind;
	char *text;       /* owned */
};

struct pab_plan {
	struct pab_experiment e;     /* the experiment to run (owned) */
	const char *out;             /* the artifact's path (borrowed) */
	int resumed;                 /* e was read back from out (--resume) */
	/* What this invocation runs with: e's settings, and on --resume
	 * --timeout and --cpus from the command line over the artifact's
	 * (which e keeps as they were). */
	struct pab_run_settings use;
	char **events;               /* use.counters split and checked, or NULL */
	size_t n_events;
	int quiet;
	int show_output;             /* --show-output (this invocation's) */
	struct pab_plan_msg *msgs;   /* to tell, in order */
	size_t n_msgs;
};

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
 * (pab_measure_check_files). 0, or -1 with f filled (PAB_FAIL_REFUSED)
 * naming the first that changed: then the run must not be finished as if
 * all its reps ran what was checked.
 */
int pab_plan_recheck(const struct pab_plan *p, struct pab_failure *f);

/* Free everything p owns. */
void pab_plan_release(struct pab_plan *p);

/*
 * pab_plan_resume_command: the arguments of `perfab run` that continue
 * this run: --resume out and the options that defined its arms and rows,
 * as given, or --trust-artifact where that is how it was resumed. Each
 * word terminal-safe, the whole quoted for a shell (new string).
 */
char *pab_plan_resume_command(const struct pab_run_opts *o, const char *out);

#endif /* PAB_RUN_PLAN_H */
