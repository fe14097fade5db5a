/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plan_data.h — the data a plan is made of, shared by the three files that
 * make it: the fresh plan (plan.c), the arms (arms.c) and the resume plan
 * (resume.c). The options of `perfab run` as parsed, struct pab_plan, and
 * the messages a plan collects for the command to tell (plan.h says why
 * nothing here prints).
 */
#ifndef PAB_RUN_PLAN_DATA_H
#define PAB_RUN_PLAN_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "model/attribution.h"
#include "model/experiment.h"
#include "model/metrics.h"
#include "options.h"

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
	const char *count_cache;          /* --count-cache FILE */
	const char *attribute;            /* --attribute MODE */
	int no_count_cache;               /* --no-count-cache */
	uint64_t count_reps;              /* --count-reps N; 0: not given */
	struct pab_strlist arm_specs, tolerances, head_env;
	/* --parameter-scan NAME MIN MAX: 3 words each; --parameter-list
	 * NAME V1,V2,...: 2 words each. */
	struct pab_strlist param_scans, param_lists;
	double param_step;  /* --parameter-step-size; <= 0: not given (1) */
	int null_arm, no_null_arm, no_sanity, quiet, no_cgroup, literal_argv, trust;
	int show_output;
	int ignore_failure; /* --ignore-failure */
	uint64_t reps, max_reps, max_procs, warmup;
	uint64_t seed;      /* UINT64_MAX: not given */
	double timeout_s;   /* < 0: not given */
	double interval_ms, scale;
	double margin;      /* < 0: not given */
	double guard_tolerance; /* --guard-tolerance PCT; < 0: not given */
	/* The option table that filled these: its ranges bound the same
	 * settings in a config (pab_config_load). */
	const struct pab_option *table;
};

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
	/* The count cache's file (owned), NULL: none; 1 when it is the
	 * default one, whose directory perfab may make. */
	char *count_cache;
	int count_cache_mkdir;
	/* --attribute, else the config's, else auto (run/attribute.h) */
	enum pab_attr_mode attribute;
	struct pab_plan_msg *msgs;   /* to tell, in order */
	size_t n_msgs;
};

/* Every option "not given". */
void pab_run_opts_init(struct pab_run_opts *o);

/* Add a message to what the command tells, after those already there:
 * text is taken (pab_plan_msg_take) or formatted (pab_plan_msg). */
void pab_plan_msg_take(struct pab_plan *p, enum pab_plan_msg_kind kind, char *text);
void pab_plan_msg(struct pab_plan *p, enum pab_plan_msg_kind kind, const char *fmt, ...)
	PAB_PRINTF(3, 4);

/* Free everything p owns. */
void pab_plan_release(struct pab_plan *p);

#endif /* PAB_RUN_PLAN_DATA_H */
