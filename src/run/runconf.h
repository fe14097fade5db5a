/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runconf.h — an experiment's arms, rows and settings from a JSON config
 * file (--config), and the parsers of single command-line items the
 * runner's planning shares with it: one --arm spec, one built-in row, one
 * --tolerance item, a duration. The options themselves are applied
 * elsewhere: --arm, --arms, --head-env and the null arm in run/arms.c,
 * --workloads, parameter scans and --shard in run/define.c, --tolerance
 * and --budget in run/plan.c. The config format is documented in
 * doc/perfab.1 (CONFIG).
 *
 *   {
 *     "arms": [ { "name": "base", "argv": ["./old/bench"],
 *                 "env": {"K": "V"}, "revision": "v1.2" }, ... ],
 *     "rows": [ { "name": "sort", "argv": ["--n", "1000"] },
 *               { "workload": "large-class/8", "params": {"ops": "1000"},
 *                 "control": false }, ... ],
 *     "reps": 12, "max_reps": 60, "seed": 42, "timeout": 600,
 *     "tolerance": {"default": 2, "cpu": 3}, "rules": "perfab/1",
 *     "controls": "small", "equivalence_margin": 3, "scale": 1,
 *     "null_arm": true, "budget": "10m", "metrics": "cpu,peak_rss",
 *     "ignore_failure": false, "attribute": "auto"
 *   }
 */
#ifndef PAB_RUNCONF_H
#define PAB_RUNCONF_H

#include "model/experiment.h"

/* Settings a config may carry; NaN / 0 / NULL = not given. */
struct pab_config_settings {
	double reps, max_reps, seed, timeout_s, scale;
	double budget_s; /* whole-run time budget, seconds (NaN: not given) */
	int null_arm;    /* -1 not given, 0 no null arm, 1 a null arm */
	int ignore_failure; /* -1 not given, else the config's true (1) or
			     * false (0) */
	char *controls;  /* selection of control rows */
	char *workloads; /* built-in row selection */
	char *metrics;   /* judged metrics, "cpu,peak_rss" */
	char *require;   /* required cells, "cpu" (the rest guard) */
	char *counts;    /* --counts MODE */
	char *attribute; /* --attribute MODE */
	double count_reps; /* --count-reps (NaN: not given) */
	double guard_tolerance; /* --guard-tolerance (NaN: not given) */
};

/* Largest config file perfab will read (bytes). */
#define PAB_CONFIG_MAX_BYTES ((size_t)16 << 20)

struct pab_option;

/*
 * pab_config_parse: add the arms and rows of the config text[0..len) (not
 * necessarily NUL-terminated) to e and fill *s; name (a path) labels the
 * messages. Read with the checked reader (json_in.h): unknown keys, wrong
 * types and numbers out of range are refused with the path of the value
 * ("config 'c.json': rows[0].control must be true or false"). A number is
 * checked against the range of the `perfab run` option that sets it,
 * looked up by name in opts (the option table: "reps" is --reps,
 * "max_reps" --max-reps, "seed", "timeout", "scale", "equivalence_margin"
 * --equivalence-margin); opts must hold those options. Returns 0, or -1
 * with a reason (caller frees) in *why. On failure e may already hold some
 * of the config's arms and rows and *s some settings: the caller releases
 * both either way.
 */
int pab_config_parse(const char *text, size_t len, const char *name,
		     const struct pab_option *opts, struct pab_experiment *e,
		     struct pab_config_settings *s, char **why);
/* pab_config_load: read the file at path, then pab_config_parse(). */
int pab_config_load(const char *path, const struct pab_option *opts,
		    struct pab_experiment *e, struct pab_config_settings *s,
		    char **why);
void pab_config_settings_release(struct pab_config_settings *s);

/*
 * pab_arm_from_spec: parse "NAME=COMMAND" (COMMAND split by
 * pab_argv_split, never a shell) into a new arm appended to e. Returns 0
 * or -1 with a reason in *why.
 */
int pab_arm_from_spec(struct pab_experiment *e, const char *spec, char **why);

struct pab_row_def;
/* Append the built-in row def to e with its default params. */
struct pab_row *pab_add_builtin_row(struct pab_experiment *e,
				    const struct pab_row_def *def);

/*
 * pab_parse_tolerance: apply one --tolerance item, "PCT" (every metric) or
 * "METRIC=PCT", to e->tolerance. Returns 0 or -1 with a reason.
 */
int pab_parse_tolerance(struct pab_experiment *e, const char *item,
			char **why);

/*
 * pab_parse_duration: "90", "90s", "10m", "1.5h" into seconds (> 0, at
 * most PAB_MAX_DURATION_S, a week). Returns 0 or -1.
 */
#define PAB_MAX_DURATION_S PAB_RUN_BUDGET_MAX_S
int pab_parse_duration(const char *s, double *seconds);

#endif /* PAB_RUNCONF_H */
