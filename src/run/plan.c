/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plan.c — the fresh plan: options and config into the experiment to
 * run, and pab_plan_make, which makes it or the resume plan (resume.c)
 * (plan.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "common/suite.h"
#include "judge/ledger.h"
#include "model/argv_split.h"
#include "store/artifact_read.h"
#include "store/digest.h"
#include "model/rotation.h"
#include "store/run_settings.h"
#include "store/tempfile.h"
#include "pab_stats.h"
#include "store/calibration.h"
#include "probe/counters.h"
#include "probe/simcount.h"
#include "probe/hostinfo.h"
#include "run/arms.h"
#include "run/child_cmd.h"
#include "run/define.h"
#include "run/measure.h"
#include "run/plan.h"
#include "store/count_cache.h"
#include "run/resume.h"
#include "run/runconf.h"
#include "term.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* A fresh run                                                        */

static uint64_t random_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = (uint64_t)now_monotonic_ns() ^ ((uint64_t)getpid() << 32);
	return s & ((1ULL << 53) - 1);
}

/* Control rows, tolerances, rules and the equivalence margin. */
static int apply_verdict_options(struct pab_experiment *e, const struct pab_run_opts *o,
				 const struct pab_config_settings *cs, struct pab_failure *f)
{
	const char *controls = o->controls ? o->controls : cs->controls;
	size_t i;
	char *why;

	if (controls)
		for (i = 0; i < e->n_rows; i++)
			if (pab_suite_select(controls, e->rows[i].name))
				e->rows[i].control = 1;
	for (i = 0; i < o->tolerances.n; i++)
		if (pab_parse_tolerance(e, o->tolerances.v[i], &why)) {
			pab_fail(f, PAB_FAIL_USAGE, "%s", why);
			free(why);
			return -1;
		}
	if (o->rules) {
		enum pab_rules rr;

		if (pab_rules_parse(o->rules, &rr))
			return pab_fail(f, PAB_FAIL_USAGE, "--rules '%s': use perfab/2, perfab/1 or "
					"rule12", o->rules);
		e->rules = rr;
	}
	if (o->margin >= 0)
		e->equivalence_margin = o->margin;
	return 0;
}

/* Reps (first look), max reps (the cap) and the looks: CLI over config
 * over defaults, in whole blocks. */
static int plan_reps(struct pab_plan *p, const struct pab_run_opts *o,
		     const struct pab_config_settings *cs, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	uint64_t reps = o->reps, max_reps = o->max_reps;

	if (!reps)
		reps = isfinite(cs->reps) ? (uint64_t)cs->reps : PAB_DEFAULT_FIRST_LOOK;
	if (!max_reps)
		max_reps = isfinite(cs->max_reps) ? (uint64_t)cs->max_reps :
			reps > PAB_DEFAULT_MAX_REPS ? reps : PAB_DEFAULT_MAX_REPS;
	if (max_reps < reps)
		return pab_fail(f, PAB_FAIL_USAGE, "--max-reps %llu is below --reps %llu",
				(unsigned long long)max_reps, (unsigned long long)reps);
	e->reps = pab_rotation_round_up(e->n_arms, reps);
	e->max_reps = pab_rotation_round_up(e->n_arms, max_reps);
	if (e->reps != reps)
		pab_plan_msg(p, PAB_PLAN_NOTE, "--reps %llu rounded up to %zu: complete blocks of %zu arms",
			     (unsigned long long)reps, e->reps, e->n_arms);
	e->settings.n_looks = pab_looks_plan(e->reps, e->max_reps, e->n_arms, e->settings.looks,
					     PAB_MAX_LOOKS);
	return 0;
}

/* A command line of --prepare, --setup, --cleanup or an arm's prepare
 * (what names it): it must split. */
static int check_hook(const char *what, const char *cmd, struct pab_failure *f)
{
	const char *why;
	char **argv;
	size_t argc;

	if (pab_argv_split(cmd, &argv, &argc, &why))
		return pab_fail(f, PAB_FAIL_USAGE, "%s '%s': %s (the command is split into "
				"words, never given to a shell: write sh -c '...' for one)",
				what, pab_term_safe(cmd), why);
	pab_argv_free(argv);
	return 0;
}

/* --warmup, the hooks, --input and --output into the settings; the
 * arms' own prepare commands checked too. */
static int plan_hooks(struct pab_experiment *e, const struct pab_run_opts *o,
		      struct pab_failure *f)
{
	struct pab_run_settings *s = &e->settings;
	size_t a;

	for (a = 0; a < e->n_arms; a++) {
		char *what = xasprintf("arm '%s': prepare", e->arms[a].name);
		int bad = e->arms[a].prepare && check_hook(what, e->arms[a].prepare, f);

		free(what);
		if (bad)
			return -1;
	}
	if ((o->prepare && check_hook("--prepare", o->prepare, f)) ||
	    (o->setup && check_hook("--setup", o->setup, f)) ||
	    (o->cleanup && check_hook("--cleanup", o->cleanup, f)))
		return -1;
	if (o->input && access(o->input, R_OK))
		return pab_fail(f, PAB_FAIL_USAGE, "--input '%s': cannot read it: %s",
				pab_term_safe(o->input), strerror(errno));
	if (o->output && !*o->output)
		return pab_fail(f, PAB_FAIL_USAGE, "--output: give null, inherit or a file");
	if (o->show_output && o->output && strcmp(o->output, "null"))
		return pab_fail(f, PAB_FAIL_USAGE, "--show-output shows the children's output "
				"on stderr: do not also give --output %s", pab_term_safe(o->output));
	s->warmup = o->warmup;
	s->prepare = o->prepare ? xstrdup(o->prepare) : NULL;
	s->setup = o->setup ? xstrdup(o->setup) : NULL;
	s->cleanup = o->cleanup ? xstrdup(o->cleanup) : NULL;
	s->input = o->input ? xstrdup(o->input) : NULL;
	s->output = o->output && strcmp(o->output, "null") ? xstrdup(o->output) : NULL;
	return 0;
}

/*
 * --counts: the mode (CLI over config over $PERFAB_COUNTS over auto) and
 * the source it resolves to on this machine; --count-reps (default one
 * block, at least 2). auto falls back to off with a note; pmu without a
 * PMU and sim without valgrind are usage errors.
 */
static int plan_counts(struct pab_plan *p, const struct pab_run_opts *o,
		       const struct pab_config_settings *cs, struct pab_failure *f)
{
	struct pab_run_settings *s = &p->e.settings;
	const char *env = getenv("PERFAB_COUNTS");
	const char *mode = o->counts ? o->counts : cs->counts ? cs->counts :
		env && *env ? env : "auto";
	const char *pmu_why = NULL;
	char *tool, *sim_why = NULL;
	int pmu;

	if (pab_counts_mode_parse(mode, &s->counts_mode))
		return pab_fail(f, PAB_FAIL_USAGE, "--counts '%s'%s: use auto, pmu, sim or off",
				mode, o->counts || cs->counts ? "" : " (from PERFAB_COUNTS)");
	s->count_source = PAB_COUNT_NONE;
	if (s->counts_mode == PAB_COUNTS_OFF)
		return 0;
	pmu = s->counts_mode == PAB_COUNTS_SIM ? 0 : pab_counters_pmu_probe(&pmu_why) == 1;
	if (pmu) {
		s->count_source = PAB_COUNT_PMU;
		return 0;
	}
	if (s->counts_mode == PAB_COUNTS_PMU)
		return pab_fail(f, PAB_FAIL_USAGE, "--counts pmu: this machine counts no "
				"hardware events (%s): use --counts sim (valgrind) or auto",
				pmu_why ? pmu_why : "no PMU");
	tool = pab_simcount_tool(&sim_why);
	if (tool) {
		s->count_source = PAB_COUNT_SIM;
		s->count_reps = o->count_reps ? o->count_reps : isfinite(cs->count_reps) ?
			(size_t)cs->count_reps : p->e.n_arms > 2 ? p->e.n_arms : 2;
	} else if (s->counts_mode == PAB_COUNTS_SIM) {
		pab_fail(f, PAB_FAIL_USAGE, "--counts sim: %s", sim_why);
	} else {
		pab_plan_msg(p, PAB_PLAN_NOTE, "exact counts are off: no PMU (%s) and %s",
			     pmu_why ? pmu_why : "no hardware counters", sim_why);
	}
	free(tool);
	free(sim_why);
	return s->count_source == PAB_COUNT_NONE && s->counts_mode == PAB_COUNTS_SIM ? -1 : 0;
}

/* --attribute (or the config's "attribute") into p; NULL: $PERFAB_ATTRIBUTE,
 * else auto (doc/attribution.md). */
static int plan_attribute(struct pab_plan *p, const char *mode, struct pab_failure *f)
{
	const char *env = getenv("PERFAB_ATTRIBUTE");
	int from_env = !mode && env && *env;

	if (from_env)
		mode = env;
	if (mode && pab_attr_mode_parse(mode, &p->attribute))
		return pab_fail(f, PAB_FAIL_USAGE, "--attribute '%s'%s: use auto, always or never",
				mode, from_env ? " (from PERFAB_ATTRIBUTE)" : "");
	return 0;
}

/* The run settings a fresh run records: CLI over config over defaults. */
static int plan_settings(struct pab_plan *p, const struct pab_run_opts *o,
			 const struct pab_config_settings *cs, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct pab_run_settings *s = &e->settings;

	s->sample_interval_ms = o->interval_ms > 0 ? o->interval_ms : PAB_RUN_INTERVAL_DEFAULT_MS;
	s->timeout_s = o->timeout_s >= 0 ? o->timeout_s :
		isfinite(cs->timeout_s) ? cs->timeout_s : PAB_RUN_TIMEOUT_DEFAULT_S;
	s->scale = o->scale > 0 ? o->scale : isfinite(cs->scale) ? cs->scale : 1.0;
	s->max_procs = o->max_procs ? o->max_procs : PAB_RUN_MAX_PROCS_DEFAULT;
	s->cgroup = !o->no_cgroup;
	s->sanity_gate = !o->no_sanity;
	s->counters = o->counters ? xstrdup(o->counters) : NULL;
	s->cpus = o->cpus ? xstrdup(o->cpus) : NULL;
	s->guard_tolerance_pct = o->guard_tolerance >= 0 ? o->guard_tolerance :
		isfinite(cs->guard_tolerance) ? cs->guard_tolerance :
		PAB_RUN_GUARD_TOLERANCE_DEFAULT;
	s->ignore_failure = o->ignore_failure || cs->ignore_failure == 1;
	if (plan_hooks(e, o, f))
		return -1;
	if (o->budget) {
		if (pab_parse_duration(o->budget, &s->budget_s))
			return pab_fail(f, PAB_FAIL_USAGE, "--budget '%s': give seconds or a duration "
					"such as 90s, 10m or 1h (more than 0, at most a week)",
					o->budget);
	} else {
		s->budget_s = isfinite(cs->budget_s) ? cs->budget_s : PAB_DEFAULT_BUDGET_S;
	}
	s->given = PAB_RUN_AT_START;
	if (plan_attribute(p, o->attribute ? o->attribute : cs->attribute, f))
		return -1;
	return plan_counts(p, o, cs, f);
}

/*
 * What the ledger needs to judge the run as it was planned, in the
 * artifact's "run" object: the judged metrics (--metrics, the config's,
 * else the default set) and the tolerance floors.
 */
static int record_judged(struct pab_experiment *e, const struct pab_run_opts *o,
			 const struct pab_config_settings *cs, struct pab_failure *f)
{
	const char *list = o->metrics ? o->metrics : cs->metrics;
	const char *require = o->require ? o->require : cs->require;
	struct pab_judged_set *j = &e->judged;
	int judged[PAB_M_COUNT], required[PAB_M_COUNT];
	char *why = NULL;
	size_t i;

	if (list && pab_parse_metrics(list, judged, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--metrics: %s", why ? why : "give at least one metric");
		free(why);
		return -1;
	}
	if (require && pab_parse_metrics(require, required, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--require: %s", why ? why : "give at least one metric");
		free(why);
		return -1;
	}
	for (i = 0; !list && i < PAB_M_COUNT; i++)
		judged[i] = pab_metrics[i].judged;
	/* A required cell is judged: --require names cells of the verdict. */
	for (i = 0; require && i < PAB_M_COUNT; i++)
		judged[i] |= required[i];
	/* Exact counts made are judged (pab_counts_default_require). */
	if (!list && e->settings.count_source != PAB_COUNT_NONE)
		judged[PAB_M_INSTRUCTIONS] = 1;
	memset(j, 0, sizeof(*j));
	memcpy(j->metrics, judged, sizeof(j->metrics));
	j->metrics_given = list != NULL;
	if (require)
		memcpy(j->require, required, sizeof(j->require));
	j->floor_bytes = PAB_FLOOR_BYTES;
	j->floor_count = PAB_FLOOR_COUNT;
	j->recorded = j->given = PAB_JUDGED_METRICS | PAB_JUDGED_METRICS_GIVEN |
		(require ? PAB_JUDGED_REQUIRE : 0) | PAB_JUDGED_FLOORS;
	return 0;
}

/*
 * --calibration FILE: per metric the larger of the declared tolerance and
 * the file's (the declared one recorded beside it); refused when the file
 * was measured on another CPU model.
 */
static int apply_calibration(struct pab_experiment *e, const char *path,
			     struct pab_failure *f)
{
	struct pab_run_settings *s = &e->settings;
	const char *here = e->cpu_model;
	double tol[PAB_M_COUNT];
	char *cpu, *sha, *why;
	size_t m;

	if (pab_calibration_load(path, tol, &cpu, &sha, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--calibration: %s", why);
		free(why);
		return -1;
	}
	if (!here || strcmp(cpu, here)) {
		pab_fail(f, PAB_FAIL_USAGE, "--calibration '%s' was measured on '%s', this machine "
			 "is '%s': its tolerances do not hold here (run perfab calibrate on this "
			 "machine)", path, pab_term_safe(cpu), here ? here : "an unknown CPU model");
		free(cpu);
		free(sha);
		return -1;
	}
	for (m = 0; m < PAB_M_COUNT; m++) {
		if (!isfinite(tol[m]))
			continue;
		s->calibration_tol[m] = tol[m];
		s->calibration_declared[m] = e->tolerance[m];
		if (tol[m] > e->tolerance[m])
			e->tolerance[m] = tol[m];
	}
	s->calibration_file = xstrdup(path);
	s->calibration_sha256 = sha;
	s->calibration_cpu = cpu;
	s->given |= PAB_RUN_CALIBRATION;
	return 0;
}

/* Build a fresh experiment from config and options. */
static int plan_fresh(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct pab_config_settings cs;
	int ret = -1;

	p->out = o->out ? o->out : PAB_DEFAULT_OUT;
	if (pab_plan_define(e, o, &cs, f) || apply_verdict_options(e, o, &cs, f) ||
	    plan_reps(p, o, &cs, f))
		goto out;
	e->seed = o->seed != UINT64_MAX ? o->seed :
		isfinite(cs.seed) ? (uint64_t)cs.seed : random_seed();
	if (plan_settings(p, o, &cs, f) || record_judged(e, o, &cs, f))
		goto out;
	if (e->rules == PAB_RULES_RULE12 && pab_experiment_null_index(e) < 0)
		pab_plan_msg(p, PAB_PLAN_WARNING, "rule12 without a null arm judges against a noise of "
			     "0: on a 24-cell run its familywise false-FAIL rate measured 21-39%% (keep "
			     "the null arm, or use perfab/2)");
	if (pab_arms_resolve(p, f) || (o->preserve && pab_arms_preserve_builds(e, o->preserve, f)))
		goto out;
	e->host_json = pab_host_record(&e->cpu_model);
	if (o->calibration && apply_calibration(e, o->calibration, f))
		goto out;
	ret = 0;
out:
	pab_config_settings_release(&cs);
	return ret;
}

/* ------------------------------------------------------------------ */

/* --counters a,b,c: checked up front; only metrics perfab records. */
static int parse_counters(struct pab_plan *p, const char *list, struct pab_failure *f)
{
	char *copy, *s, *comma, *why;
	size_t i;

	if (pab_check_list_items("--counters", list, ',', 0, f))
		return -1;
	copy = xstrdup(list);
	s = copy;
	for (;; s = comma + 1) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (!*s) {
			free(copy);
			return pab_fail(f, PAB_FAIL_USAGE, "--counters '%s' has an empty event name",
					list);
		}
		p->events = xrealloc(p->events, (p->n_events + 1) * sizeof(*p->events));
		p->events[p->n_events++] = xstrdup(s);
		if (!comma)
			break;
	}
	free(copy);
	if (pab_counters_check_events((const char *const *)p->events, p->n_events, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--counters: %s", why);
		free(why);
		return -1;
	}
	for (i = 0; i < p->n_events; i++) {
		char *name = xstrdup(p->events[i]), *colon = strchr(name, ':');
		int known;

		if (colon)
			*colon = '\0';
		known = pab_metric_find(name) != NULL;
		free(name);
		if (!known)
			return pab_fail(f, PAB_FAIL_USAGE, "--counters: '%s' is not a counter perfab "
					"records: hardware events instructions and cycles (task-clock, "
					"page-faults and context-switches are always recorded)",
					p->events[i]);
	}
	return 0;
}

/*
 * The count cache's file: --count-cache FILE, else $PERFAB_COUNT_CACHE (a
 * file, or "off"); none with --no-count-cache or when neither is given.
 * FILE "default" is the default file (store/count_cache.h), whose
 * directory may be made. The cache is asked for, never on by default: its
 * key holds the program's own digest, not those of the shared libraries or
 * modules it loads, so a library rebuilt under an unchanged program would
 * be served its old count (doc/method.md 13).
 */
static int plan_count_cache(struct pab_plan *p, const struct pab_run_opts *o,
			    struct pab_failure *f)
{
	const char *env = getenv("PERFAB_COUNT_CACHE");
	const char *file = o->count_cache ? o->count_cache :
		env && *env && strcmp(env, "off") ? env : NULL;

	if (o->count_cache && o->no_count_cache)
		return pab_fail(f, PAB_FAIL_USAGE, "--count-cache and --no-count-cache "
				"contradict each other: give one");
	if (o->count_cache && !*o->count_cache)
		return pab_fail(f, PAB_FAIL_USAGE, "--count-cache '': give a file");
	if (o->no_count_cache || !file)
		return 0;
	if (!strcmp(file, "default")) {
		p->count_cache = pab_count_cache_default_path();
		p->count_cache_mkdir = 1;
	} else {
		p->count_cache = xstrdup(file);
	}
	return 0;
}

int pab_plan_make(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f)
{
	memset(p, 0, sizeof(*p));
	pab_experiment_init(&p->e);
	pab_run_settings_init(&p->use);
	p->quiet = o->quiet;
	p->show_output = o->show_output;
	if (o->trust && !o->resume)
		return pab_fail(f, PAB_FAIL_USAGE, "--trust-artifact applies to --resume only: "
				"it lets a resumed run skip checking its artifact's programs and "
				"rows; a fresh run has no artifact to trust");
	if (plan_count_cache(p, o, f) || (o->resume ? pab_plan_resume(p, o, f) :
					     plan_fresh(p, o, f)))
		return -1;
	if (o->resume && plan_attribute(p, o->attribute, f))
		return -1;
	pab_run_settings_copy(&p->use, &p->e.settings);
	if (o->resume && o->timeout_s >= 0)
		p->use.timeout_s = o->timeout_s;
	if (o->resume && o->cpus) {
		free(p->use.cpus);
		p->use.cpus = xstrdup(o->cpus);
	}
	return p->use.counters ? parse_counters(p, p->use.counters, f) : 0;
}

int pab_plan_recheck(const struct pab_plan *p, struct pab_failure *f)
{
	size_t ri, a;

	for (ri = 0; ri < p->e.n_rows; ri++)
		for (a = 0; a < p->e.n_arms; a++) {
			const struct pab_row *row = &p->e.rows[ri];

			if (row->exes && row->exes[a] &&
			    pab_child_check_files(row, &p->e.arms[a], a, row->exes[a], 1, f))
				return -1;
		}
	return 0;
}
