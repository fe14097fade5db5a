/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_settings.c — the typed settings of a run to and from the artifact's
 * "run" object (run_settings.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "store/run_settings.h"
#include "util.h"

/* The settings' keys, in the order of the schema (section 3). */
static const struct run_key {
	unsigned bit;
	const char *name;
} keys[] = {
	{ PAB_RUN_INTERVAL, "sample_interval_ms" },
	{ PAB_RUN_TIMEOUT, "timeout_s" },
	{ PAB_RUN_SCALE, "scale" },
	{ PAB_RUN_MAX_PROCS, "max_procs" },
	{ PAB_RUN_CGROUP, "cgroup" },
	{ PAB_RUN_SANITY_GATE, "sanity_gate" },
	{ PAB_RUN_SHARD, "shard" },
	{ PAB_RUN_COUNTERS, "counters" },
	{ PAB_RUN_CPUS, "cpus" },
	{ PAB_RUN_BUDGET, "budget_s" },
	{ PAB_RUN_LOOKS, "looks" },
	{ PAB_RUN_STOP, "stop_reason" },
	{ PAB_RUN_ELAPSED, "elapsed_s" },
	{ PAB_RUN_WARMUP, "warmup" },
	{ PAB_RUN_PREPARE, "prepare" },
	{ PAB_RUN_SETUP, "setup" },
	{ PAB_RUN_CLEANUP, "cleanup" },
	{ PAB_RUN_INPUT, "input" },
	{ PAB_RUN_OUTPUT, "output" },
	{ PAB_RUN_COUNTS, "counts" },
	{ PAB_RUN_CALIBRATION, "calibration" },
	{ PAB_RUN_GUARD_TOLERANCE, "guard_tolerance" },
	{ PAB_RUN_IGNORE_FAILURE, "ignore_failure" },
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

/* ------------------------------------------------------------------ */
/* Reading                                                            */

/* The numbers --resume relies on, with the ranges of their options. */
static const struct number_key {
	unsigned bit;
	const char *name, *option;
	double min, max;
	int whole;
} numbers[] = {
	{ PAB_RUN_INTERVAL, "sample_interval_ms", "sample-interval",
	  PAB_RUN_INTERVAL_MIN_MS, PAB_RUN_INTERVAL_MAX_MS, 0 },
	{ PAB_RUN_TIMEOUT, "timeout_s", "timeout", 0, PAB_RUN_TIMEOUT_MAX_S, 0 },
	{ PAB_RUN_SCALE, "scale", "scale", PAB_RUN_SCALE_MIN, PAB_RUN_SCALE_MAX, 0 },
	{ PAB_RUN_MAX_PROCS, "max_procs", "max-procs", 1, PAB_RUN_MAX_PROCS_MAX, 1 },
	/* --budget takes a duration (at most a week); 0 or absent, as
	 * artifacts before budgets have it: none. */
	{ PAB_RUN_BUDGET, "budget_s", "budget", 0, PAB_RUN_BUDGET_MAX_S, 0 },
	{ PAB_RUN_WARMUP, "warmup", "warmup", 0, PAB_RUN_WARMUP_MAX, 1 },
	{ PAB_RUN_GUARD_TOLERANCE, "guard_tolerance", "guard-tolerance", 0,
	  PAB_RUN_GUARD_TOLERANCE_MAX, 0 },
};

/* The command lines and paths: a string, or null for none. */
static const struct string_key {
	unsigned bit;
	const char *name;
} strings[] = {
	{ PAB_RUN_COUNTERS, "counters" },
	{ PAB_RUN_CPUS, "cpus" },
	{ PAB_RUN_PREPARE, "prepare" },
	{ PAB_RUN_SETUP, "setup" },
	{ PAB_RUN_CLEANUP, "cleanup" },
	{ PAB_RUN_INPUT, "input" },
	{ PAB_RUN_OUTPUT, "output" },
};

static char **string_field(struct pab_run_settings *s, unsigned bit)
{
	switch (bit) {
	case PAB_RUN_COUNTERS: return &s->counters;
	case PAB_RUN_CPUS: return &s->cpus;
	case PAB_RUN_PREPARE: return &s->prepare;
	case PAB_RUN_SETUP: return &s->setup;
	case PAB_RUN_CLEANUP: return &s->cleanup;
	case PAB_RUN_INPUT: return &s->input;
	case PAB_RUN_OUTPUT: return &s->output;
	default: BUG("no string setting %#x", bit);
	}
}

static double *number_field(struct pab_run_settings *s, unsigned bit)
{
	switch (bit) {
	case PAB_RUN_INTERVAL: return &s->sample_interval_ms;
	case PAB_RUN_TIMEOUT: return &s->timeout_s;
	case PAB_RUN_SCALE: return &s->scale;
	case PAB_RUN_BUDGET: return &s->budget_s;
	case PAB_RUN_GUARD_TOLERANCE: return &s->guard_tolerance_pct;
	default: return NULL;
	}
}

static int *flag_field(struct pab_run_settings *s, unsigned bit)
{
	switch (bit) {
	case PAB_RUN_CGROUP: return &s->cgroup;
	case PAB_RUN_SANITY_GATE: return &s->sanity_gate;
	case PAB_RUN_IGNORE_FAILURE: return &s->ignore_failure;
	default: BUG("no flag setting %#x", bit);
	}
}

static int absent(const cJSON *v)
{
	return !v || cJSON_IsNull(v);
}

/*
 * The range-checked settings of run into s, given bits set. Returns 0, or
 * -1 with the first problem in *why (new string); s may then hold some.
 */
static int read_checked(const cJSON *run, struct pab_run_settings *s, char **why)
{
	static const struct {
		unsigned bit;
		const char *name;
	} flags[] = {
		{ PAB_RUN_CGROUP, "cgroup" },
		{ PAB_RUN_SANITY_GATE, "sanity_gate" },
		{ PAB_RUN_IGNORE_FAILURE, "ignore_failure" },
	};
	size_t i;

	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		const struct number_key *k = &numbers[i];
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, k->name);
		double x;

		if (absent(v))
			continue;
		x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		if (!isfinite(x) || x < k->min || x > k->max || (k->whole && x != floor(x))) {
			*why = xasprintf("run.%s must be %s in [%g, %g] (the range of --%s)", k->name,
					 k->whole ? "a whole number" : "a number", k->min, k->max,
					 k->option);
			return -1;
		}
		if (k->bit == PAB_RUN_MAX_PROCS)
			s->max_procs = (uint64_t)x;
		else if (k->bit == PAB_RUN_WARMUP)
			s->warmup = (uint64_t)x;
		else
			*number_field(s, k->bit) = x;
		s->given |= k->bit;
	}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const char *name = flags[i].name;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, name);

		if (absent(v))
			continue;
		if (!cJSON_IsBool(v)) {
			*why = xasprintf("run.%s must be true or false", name);
			return -1;
		}
		*flag_field(s, flags[i].bit) = cJSON_IsTrue(v);
		s->given |= flags[i].bit;
	}
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		const char *name = strings[i].name;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, name);

		if (v && !cJSON_IsString(v) && !cJSON_IsNull(v)) {
			*why = xasprintf("run.%s must be a string or null", name);
			return -1;
		}
		if (!v)
			continue;
		if (cJSON_IsString(v))
			*string_field(s, strings[i].bit) = xstrdup(v->valuestring);
		s->given |= strings[i].bit;
	}
	return 0;
}

/* counts: {"mode", "source", "reps"}, what --resume runs the counting
 * pass with. */
static int read_counts(const cJSON *run, struct pab_run_settings *s, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, "counts");
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(v, "mode");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(v, "source");
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(v, "reps");

	if (absent(v))
		return 0;
	if (!cJSON_IsObject(v) || !cJSON_IsString(mode) ||
	    pab_counts_mode_parse(mode->valuestring, &s->counts_mode)) {
		*why = xstrdup("run.counts.mode must be \"auto\", \"pmu\", \"sim\" or \"off\"");
		return -1;
	}
	if (cJSON_IsString(src) && !strcmp(src->valuestring, "pmu")) {
		s->count_source = PAB_COUNT_PMU;
	} else if (cJSON_IsString(src) && !strcmp(src->valuestring, "sim")) {
		s->count_source = PAB_COUNT_SIM;
	} else if (!absent(src)) {
		*why = xstrdup("run.counts.source must be \"pmu\", \"sim\" or null");
		return -1;
	}
	if (!cJSON_IsNumber(reps) || !(reps->valuedouble >= 0) ||
	    reps->valuedouble > PAB_RUN_COUNT_REPS_MAX ||
	    reps->valuedouble != floor(reps->valuedouble)) {
		*why = xasprintf("run.counts.reps must be a whole number in [0, %d] (the range "
				 "of --count-reps)", PAB_RUN_COUNT_REPS_MAX);
		return -1;
	}
	s->count_reps = (size_t)reps->valuedouble;
	s->given |= PAB_RUN_COUNTS;
	return 0;
}

/* The declared tolerances of run.calibration, when all read cleanly. */
static void read_declared(const cJSON *d, struct pab_run_settings *s)
{
	const cJSON *it;

	if (!cJSON_IsObject(d))
		return;
	cJSON_ArrayForEach(it, d) {
		const struct pab_metric *m = pab_metric_find(it->string);

		if (!m || !cJSON_IsNumber(it) || !(it->valuedouble >= 0) ||
		    it->valuedouble > 1000)
			return;
	}
	cJSON_ArrayForEach(it, d)
		s->calibration_declared[pab_metric_find(it->string)->id] = it->valuedouble;
}

/* calibration: {"file", "sha256", "cpu_model", "tolerance": {METRIC: PCT},
 * "declared": {METRIC: PCT}}: what the run took from a calibration file
 * (its tolerances are in the artifact's "tolerance" already) and what it
 * declared before; "declared" is optional (earlier artifacts lack it). */
static void read_calibration(const cJSON *run, struct pab_run_settings *s)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, "calibration"), *it;
	const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "file"));
	const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "sha256"));
	const char *cpu = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "cpu_model"));
	const cJSON *tol = cJSON_GetObjectItemCaseSensitive(v, "tolerance");

	if (!cJSON_IsObject(v) || !file || !sha || !cpu || !cJSON_IsObject(tol))
		return;
	cJSON_ArrayForEach(it, tol) {
		const struct pab_metric *m = pab_metric_find(it->string);

		if (!m || !cJSON_IsNumber(it) || !(it->valuedouble >= 0) ||
		    it->valuedouble > 1000)
			return;
	}
	cJSON_ArrayForEach(it, tol)
		s->calibration_tol[pab_metric_find(it->string)->id] = it->valuedouble;
	read_declared(cJSON_GetObjectItemCaseSensitive(v, "declared"), s);
	s->calibration_file = xstrdup(file);
	s->calibration_sha256 = xstrdup(sha);
	s->calibration_cpu = xstrdup(cpu);
	s->given |= PAB_RUN_CALIBRATION;
}

/* shard, looks, stop_reason, elapsed_s: typed when they read cleanly. */
static void read_plain(const cJSON *run, struct pab_run_settings *s)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, "shard"), *it;
	size_t n = 0;

	if (cJSON_IsNull(v) ||
	    (cJSON_IsString(v) && !pab_shard_parse(v->valuestring, &s->shard_index,
						   &s->shard_count)))
		s->given |= PAB_RUN_SHARD;
	v = cJSON_GetObjectItemCaseSensitive(run, "looks");
	if (cJSON_IsArray(v) && cJSON_GetArraySize(v) <= PAB_MAX_LOOKS) {
		cJSON_ArrayForEach(it, v) {
			if (!cJSON_IsNumber(it) || !(it->valuedouble >= 1) ||
			    it->valuedouble > 1e9 || it->valuedouble != floor(it->valuedouble))
				break;
			s->looks[n++] = (size_t)it->valuedouble;
		}
		if (!it) {
			s->n_looks = n;
			s->given |= PAB_RUN_LOOKS;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(run, "stop_reason");
	if (cJSON_IsString(v) && !pab_stop_reason_parse(v->valuestring, &s->stop_reason))
		s->given |= PAB_RUN_STOP;
	v = cJSON_GetObjectItemCaseSensitive(run, "elapsed_s");
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0) {
		s->elapsed_s = v->valuedouble;
		s->given |= PAB_RUN_ELAPSED;
	}
}

void pab_run_settings_read(const cJSON *run, struct pab_run_settings *s)
{
	char *why = NULL;

	pab_run_settings_init(s);
	if (!cJSON_IsObject(run))
		return;
	if (read_checked(run, s, &why) || read_counts(run, s, &why)) {
		pab_run_settings_release(s); /* none of them */
		s->invalid = why;
	}
	read_plain(run, s);
	read_calibration(run, s);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */

static cJSON *string_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* The JSON value of the setting bit of s. */
static cJSON *setting_json(const struct pab_run_settings *s, unsigned bit)
{
	cJSON *arr;
	char *shard;
	size_t i;

	switch (bit) {
	case PAB_RUN_INTERVAL: return cJSON_CreateNumber(s->sample_interval_ms);
	case PAB_RUN_TIMEOUT: return cJSON_CreateNumber(s->timeout_s);
	case PAB_RUN_SCALE: return cJSON_CreateNumber(s->scale);
	case PAB_RUN_MAX_PROCS: return cJSON_CreateNumber((double)s->max_procs);
	case PAB_RUN_CGROUP: return cJSON_CreateBool(s->cgroup);
	case PAB_RUN_SANITY_GATE: return cJSON_CreateBool(s->sanity_gate);
	case PAB_RUN_COUNTERS: return string_or_null(s->counters);
	case PAB_RUN_CPUS: return string_or_null(s->cpus);
	case PAB_RUN_BUDGET: return cJSON_CreateNumber(s->budget_s);
	case PAB_RUN_GUARD_TOLERANCE: return cJSON_CreateNumber(s->guard_tolerance_pct);
	case PAB_RUN_IGNORE_FAILURE: return cJSON_CreateBool(s->ignore_failure);
	case PAB_RUN_STOP: return string_or_null(pab_stop_reason_name(s->stop_reason));
	case PAB_RUN_ELAPSED: return cJSON_CreateNumber(s->elapsed_s);
	case PAB_RUN_WARMUP: return cJSON_CreateNumber((double)s->warmup);
	case PAB_RUN_PREPARE: return string_or_null(s->prepare);
	case PAB_RUN_SETUP: return string_or_null(s->setup);
	case PAB_RUN_CLEANUP: return string_or_null(s->cleanup);
	case PAB_RUN_INPUT: return string_or_null(s->input);
	case PAB_RUN_OUTPUT: return string_or_null(s->output);
	case PAB_RUN_SHARD:
		if (!s->shard_count)
			return cJSON_CreateNull();
		shard = xasprintf("%u/%u", s->shard_index, s->shard_count);
		arr = cJSON_CreateString(shard);
		free(shard);
		return arr;
	case PAB_RUN_COUNTS:
		arr = cJSON_CreateObject();
		cJSON_AddStringToObject(arr, "mode", pab_counts_mode_name(s->counts_mode));
		cJSON_AddItemToObject(arr, "source",
				      string_or_null(pab_count_source_name(s->count_source)));
		cJSON_AddNumberToObject(arr, "reps", (double)s->count_reps);
		return arr;
	case PAB_RUN_CALIBRATION: {
		cJSON *tol;

		arr = cJSON_CreateObject();
		cJSON_AddItemToObject(arr, "file", string_or_null(s->calibration_file));
		cJSON_AddItemToObject(arr, "sha256", string_or_null(s->calibration_sha256));
		cJSON_AddItemToObject(arr, "cpu_model", string_or_null(s->calibration_cpu));
		tol = cJSON_AddObjectToObject(arr, "tolerance");
		for (i = 0; i < PAB_M_COUNT; i++)
			if (isfinite(s->calibration_tol[i]))
				cJSON_AddNumberToObject(tol, pab_metrics[i].name,
							s->calibration_tol[i]);
		tol = cJSON_CreateObject();
		for (i = 0; i < PAB_M_COUNT; i++)
			if (isfinite(s->calibration_declared[i]))
				cJSON_AddNumberToObject(tol, pab_metrics[i].name,
							s->calibration_declared[i]);
		if (cJSON_GetArraySize(tol))
			cJSON_AddItemToObject(arr, "declared", tol);
		else
			cJSON_Delete(tol);
		return arr;
	}
	case PAB_RUN_LOOKS:
		arr = cJSON_CreateArray();
		for (i = 0; i < s->n_looks; i++)
			cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)s->looks[i]));
		return arr;
	default:
		BUG("no run setting %#x", bit);
	}
}

/* The bit of the setting called name, or 0 when it is none. */
static unsigned key_bit(const char *name)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (!strcmp(keys[i].name, name))
			return keys[i].bit;
	return 0;
}

cJSON *pab_run_settings_json(const struct pab_run_settings *s,
			     const cJSON *rest)
{
	cJSON *out = cJSON_CreateObject();
	const cJSON *it;
	size_t i;

	if (!out)
		BUG("out of memory");
	if (!cJSON_IsObject(rest))
		rest = NULL;
	for (i = 0; i < N_KEYS; i++)
		if ((s->given & keys[i].bit) &&
		    !cJSON_GetObjectItemCaseSensitive(rest, keys[i].name))
			cJSON_AddItemToObject(out, keys[i].name, setting_json(s, keys[i].bit));
	cJSON_ArrayForEach(it, rest) {
		unsigned bit = key_bit(it->string);

		cJSON_AddItemToObject(out, it->string, bit & s->given ? setting_json(s, bit) :
				      cJSON_Duplicate(it, 1));
	}
	return out;
}
