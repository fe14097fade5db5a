/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * experiment.c — lifetime and queries of the in-memory experiment
 * (experiment.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "model/attribution.h"
#include "model/experiment.h"
#include "model/reasons.h"
#include "model/rotation.h"
#include "model/sanity.h"
#include "util.h"

void pab_experiment_init(struct pab_experiment *e)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->schema = xstrdup(PAB_SCHEMA);
	e->perfab_version = xstrdup(PACKAGE_VERSION);
	e->protocol = xstrdup(PAB_PROTOCOL_NAME);
	e->rules = PAB_RULES_DEFAULT;
	for (i = 0; i < PAB_M_COUNT; i++)
		e->tolerance[i] = pab_metric_default_tolerance((enum pab_metric_id)i);
	e->equivalence_margin = 3.0;
	pab_run_settings_init(&e->settings);
	pab_run_costs_init(&e->costs);
	e->pool.artifacts = NAN;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void pab_pool_record_release(struct pab_pool_record *pool)
{
	size_t i;

	free(pool->seeds);
	for (i = 0; i < pool->n_runs; i++)
		free(pool->runs[i].journal);
	free(pool->runs);
	free(pool->mode);
	for (i = 0; i < pool->n_sources; i++) {
		free(pool->sources[i].name);
		free(pool->sources[i].shard);
	}
	free(pool->sources);
	memset(pool, 0, sizeof(*pool));
	pool->artifacts = NAN;
}

void pab_pool_record_copy(struct pab_pool_record *dst, const struct pab_pool_record *src)
{
	size_t i;

	*dst = *src;
	dst->seeds = src->n_seeds ? xcalloc(src->n_seeds, sizeof(*dst->seeds)) : NULL;
	if (src->n_seeds)
		memcpy(dst->seeds, src->seeds, src->n_seeds * sizeof(*dst->seeds));
	dst->runs = src->n_runs ? xcalloc(src->n_runs, sizeof(*dst->runs)) : NULL;
	for (i = 0; i < src->n_runs; i++) {
		dst->runs[i].journal = dup_or_null(src->runs[i].journal);
		dst->runs[i].seed = src->runs[i].seed;
	}
	dst->mode = dup_or_null(src->mode);
	dst->sources = src->n_sources ? xcalloc(src->n_sources, sizeof(*dst->sources)) : NULL;
	for (i = 0; i < src->n_sources; i++) {
		dst->sources[i] = src->sources[i];
		dst->sources[i].name = dup_or_null(src->sources[i].name);
		dst->sources[i].shard = dup_or_null(src->sources[i].shard);
	}
}

void pab_experiment_add_sanity(struct pab_experiment *e, const char *row, const char *arm,
			       const char *metric, double base, double head)
{
	struct pab_sanity_cell *c;

	e->sanity = xrealloc(e->sanity, (e->n_sanity + 1) * sizeof(*e->sanity));
	c = &e->sanity[e->n_sanity++];
	c->row = dup_or_null(row);
	c->arm = dup_or_null(arm);
	c->metric = dup_or_null(metric);
	c->base = base;
	c->head = head;
	e->has_sanity = 1;
}

void pab_row_set_host(struct pab_row *row, const char *host_json, const char *cpu_model)
{
	free(row->host_json);
	free(row->cpu_model);
	row->host_json = dup_or_null(host_json);
	row->cpu_model = host_json ? dup_or_null(cpu_model) : NULL;
}

void pab_run_settings_init(struct pab_run_settings *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->sample_interval_ms = PAB_RUN_INTERVAL_DEFAULT_MS;
	s->timeout_s = PAB_RUN_TIMEOUT_DEFAULT_S;
	s->scale = 1.0;
	s->max_procs = PAB_RUN_MAX_PROCS_DEFAULT;
	s->cgroup = 1;
	s->sanity_gate = 1;
	s->guard_tolerance_pct = PAB_RUN_GUARD_TOLERANCE_DEFAULT;
	for (i = 0; i < PAB_M_COUNT; i++)
		s->calibration_tol[i] = s->calibration_declared[i] = NAN;
}

void pab_run_settings_release(struct pab_run_settings *s)
{
	free(s->counters);
	free(s->cpus);
	free(s->calibration_file);
	free(s->calibration_sha256);
	free(s->calibration_cpu);
	free(s->invalid);
	free(s->prepare);
	free(s->setup);
	free(s->cleanup);
	free(s->input);
	free(s->output);
	pab_run_settings_init(s);
}

static char *str_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void pab_run_settings_copy(struct pab_run_settings *dst,
			   const struct pab_run_settings *src)
{
	*dst = *src;
	dst->counters = str_or_null(src->counters);
	dst->cpus = str_or_null(src->cpus);
	dst->calibration_file = str_or_null(src->calibration_file);
	dst->calibration_sha256 = str_or_null(src->calibration_sha256);
	dst->calibration_cpu = str_or_null(src->calibration_cpu);
	dst->invalid = str_or_null(src->invalid);
	dst->prepare = str_or_null(src->prepare);
	dst->setup = str_or_null(src->setup);
	dst->cleanup = str_or_null(src->cleanup);
	dst->input = str_or_null(src->input);
	dst->output = str_or_null(src->output);
}

static const char *const counts_names[] = {
	[PAB_COUNTS_AUTO] = "auto",
	[PAB_COUNTS_PMU] = "pmu",
	[PAB_COUNTS_SIM] = "sim",
	[PAB_COUNTS_OFF] = "off",
};

const char *pab_counts_mode_name(enum pab_counts_mode m)
{
	return (unsigned)m < sizeof(counts_names) / sizeof(counts_names[0]) ?
		counts_names[m] : "invalid";
}

int pab_counts_mode_parse(const char *s, enum pab_counts_mode *m)
{
	size_t i;

	for (i = 0; i < sizeof(counts_names) / sizeof(counts_names[0]); i++)
		if (!strcmp(s, counts_names[i])) {
			*m = (enum pab_counts_mode)i;
			return 0;
		}
	return -1;
}

const char *pab_count_source_name(enum pab_count_source s)
{
	return s == PAB_COUNT_PMU ? "pmu" : s == PAB_COUNT_SIM ? "sim" : NULL;
}

static const char *const stop_names[] = {
	[PAB_STOP_DECIDED] = "decided",
	[PAB_STOP_MAX_REPS] = "max-reps",
	[PAB_STOP_BUDGET] = "budget",
	[PAB_STOP_SANITY_GATE] = "sanity-gate",
	[PAB_STOP_UNDECIDABLE] = "undecidable",
};

const char *pab_stop_reason_name(enum pab_stop_reason r)
{
	return (size_t)r < sizeof(stop_names) / sizeof(stop_names[0]) ? stop_names[r] : NULL;
}

int pab_stop_reason_parse(const char *s, enum pab_stop_reason *r)
{
	size_t i;

	for (i = 0; i < sizeof(stop_names) / sizeof(stop_names[0]); i++)
		if (stop_names[i] && !strcmp(s, stop_names[i])) {
			*r = (enum pab_stop_reason)i;
			return 0;
		}
	return -1;
}

static const char *const origin_names[] = {
	[PAB_COUNT_COUNTED] = "counted",
	[PAB_COUNT_REUSED] = "reused",
	[PAB_COUNT_CACHED] = "cached",
};

const char *pab_count_origin_name(enum pab_count_origin o)
{
	return (size_t)o < sizeof(origin_names) / sizeof(origin_names[0]) ? origin_names[o] : NULL;
}

int pab_count_origin_parse(const char *s, enum pab_count_origin *o)
{
	size_t i;

	for (i = 0; i < sizeof(origin_names) / sizeof(origin_names[0]); i++)
		if (!strcmp(s, origin_names[i])) {
			*o = (enum pab_count_origin)i;
			return 0;
		}
	return -1;
}

void pab_kv_release(struct pab_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

const char *pab_kv_get(const struct pab_kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

void pab_kv_set(struct pab_kv **kv, size_t *n, const char *key,
		const char *value)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*kv)[i].key, key)) {
			free((*kv)[i].value);
			(*kv)[i].value = xstrdup(value);
			return;
		}
	*kv = xrealloc(*kv, (*n + 1) * sizeof(**kv));
	(*kv)[*n].key = xstrdup(key);
	(*kv)[*n].value = xstrdup(value);
	(*n)++;
}

void pab_arm_result_init(struct pab_arm_result *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < PAB_M_COUNT; i++)
		r->m[i] = NAN;
}

void pab_arm_result_release(struct pab_arm_result *r)
{
	free(r->checksum);
	free(r->stderr_tail);
	pab_arm_result_init(r);
}

void pab_arm_result_null(struct pab_arm_result *r, enum pab_metric_id id,
			 const char *reason)
{
	r->m[id] = NAN;
	r->reason[id] = pab_reason_intern(reason);
}

int pab_arm_result_exit_ignored(const struct pab_arm_result *r)
{
	return r->exit_code > 0 && !r->failed && !r->term_signal && !r->timed_out;
}

struct pab_rep *pab_row_add_rep(struct pab_row *row, size_t n_arms)
{
	struct pab_rep *rep;
	size_t i;

	ALLOC_GROW(row->reps, row->n_reps + 1, row->reps_alloc);
	rep = &row->reps[row->n_reps++];
	rep->block = 0;
	rep->order = xcalloc(n_arms, sizeof(*rep->order));
	rep->result = xcalloc(n_arms, sizeof(*rep->result));
	for (i = 0; i < n_arms; i++)
		pab_arm_result_init(&rep->result[i]);
	return rep;
}

void pab_arm_release(struct pab_arm *arm)
{
	free(arm->name);
	pab_argv_free(arm->argv);
	pab_kv_release(arm->env, arm->n_env);
	free(arm->revision);
	free(arm->exe);
	free(arm->sha256);
	free(arm->preserved);
	free(arm->prepare);
	memset(arm, 0, sizeof(*arm));
}

void pab_input_files_free(struct pab_input_file *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].role);
		free(v[i].sha256);
	}
	free(v);
}

void pab_row_release(struct pab_row *row, size_t n_arms)
{
	size_t r, a;

	free(row->name);
	free(row->workload);
	free(row->program);
	pab_argv_free(row->argv);
	pab_kv_release(row->params, row->n_params);
	for (a = 0; row->exes && a < n_arms; a++)
		free(row->exes[a]);
	for (a = 0; row->exe_sha256 && a < n_arms; a++)
		free(row->exe_sha256[a]);
	free(row->exes);
	free(row->exe_sha256);
	free(row->exe_id);
	for (a = 0; row->inputs && a < n_arms; a++)
		pab_input_files_free(row->inputs[a], row->n_inputs[a]);
	free(row->inputs);
	free(row->n_inputs);
	for (r = 0; r < row->n_reps; r++) {
		for (a = 0; a < n_arms; a++)
			pab_arm_result_release(&row->reps[r].result[a]);
		free(row->reps[r].result);
		free(row->reps[r].order);
	}
	free(row->reps);
	free(row->failed_arm);
	free(row->fail_reason);
	free(row->host_json);
	free(row->cpu_model);
}

const char *pab_row_cpu_model(const struct pab_experiment *e,
			      const struct pab_row *row)
{
	return row->host_json ? row->cpu_model : e->cpu_model;
}

void pab_experiment_release(struct pab_experiment *e)
{
	size_t i;

	for (i = 0; i < e->n_rows; i++)
		pab_row_release(&e->rows[i], e->n_arms);
	free(e->rows);
	for (i = 0; i < e->n_arms; i++)
		pab_arm_release(&e->arms[i]);
	free(e->arms);
	free(e->schema);
	free(e->perfab_version);
	free(e->protocol);
	free(e->journal_id);
	pab_run_settings_release(&e->settings);
	free(e->host_json);
	free(e->cpu_model);
	free(e->run_json);
	pab_pool_record_release(&e->pool);
	pab_run_costs_release(&e->costs);
	for (i = 0; i < e->n_sanity; i++) {
		free(e->sanity[i].row);
		free(e->sanity[i].arm);
		free(e->sanity[i].metric);
	}
	free(e->sanity);
	pab_attributions_free(e->attr, e->n_attr);
	memset(e, 0, sizeof(*e));
}

int pab_experiment_arm_index(const struct pab_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->n_arms; i++)
		if (!strcmp(e->arms[i].name, name))
			return (int)i;
	return -1;
}

int pab_experiment_null_index(const struct pab_experiment *e)
{
	return pab_experiment_arm_index(e, "null");
}

int pab_experiment_check_balanced(const struct pab_experiment *e, char **why)
{
	size_t n = e->n_arms, r, k, i;
	size_t *count;
	int ret = 0;

	*why = NULL;
	if (!n || !e->n_rows) {
		*why = xstrdup("the artifact has no arms or no rows");
		return -1;
	}
	count = xcalloc(n * n, sizeof(*count));
	for (i = 0; i < e->n_rows && !ret; i++) {
		const struct pab_row *row = &e->rows[i];

		/* A failed row stopped mid-block on purpose (or before its first
		 * rep, when a setup or prepare failed); it is judged from what it
		 * has and who failed it, not refused. */
		if (row->failed)
			continue;
		if (!row->n_reps || row->n_reps % n) {
			*why = xasprintf("row '%s' has %zu reps, not a whole number of %zu-rep blocks",
					 row->name, row->n_reps, n);
			ret = -1;
			break;
		}
		memset(count, 0, n * n * sizeof(*count));
		for (r = 0; r < row->n_reps; r++)
			for (k = 0; k < n; k++) {
				size_t arm = row->reps[r].order[k];

				if (arm >= n) {
					*why = xasprintf("row '%s' rep %zu names an unknown arm",
							 row->name, r);
					ret = -1;
					goto out_free_count;
				}
				count[arm * n + k]++;
			}
		for (k = 0; k < n * n; k++)
			if (count[k] != row->n_reps / n) {
				*why = xasprintf("row '%s': arm '%s' ran %zu times in position %zu, not %zu",
						 row->name, e->arms[k / n].name, count[k],
						 k % n + 1, row->n_reps / n);
				ret = -1;
				break;
			}
	}
out_free_count:
	free(count);
	return ret;
}

/* 1 when rep r of a row matches rotation rep `as` (same place in a block). */
static int order_is(const size_t *order, size_t n, size_t as, size_t *want)
{
	pab_rotation_order(n, as, want);
	return !memcmp(order, want, n * sizeof(*want));
}

int pab_experiment_check_protocol(const struct pab_experiment *e, char **why)
{
	size_t n = e->n_arms, i, r;
	size_t *want;
	int pooled = e->pool.recorded;
	int ret = 0;

	*why = NULL;
	if (!n)
		return 0;
	want = xcalloc(n, sizeof(*want));
	for (i = 0; i < e->n_rows && !ret; i++) {
		const struct pab_row *row = &e->rows[i];

		for (r = 0; r < row->n_reps; r++) {
			const struct pab_rep *rep = &row->reps[r];
			size_t block = pab_rotation_block(n, r), j = r % n;
			/* Rep j of an even block, or of an odd one. */
			int plain = order_is(rep->order, n, j, want);
			int reversed = order_is(rep->order, n, n + j, want);

			if (rep->block != block) {
				*why = xasprintf("row '%s' rep %zu is in block %zu, not %zu: blocks "
						 "must be consecutive and complete (a rep is missing "
						 "or was added)", row->name, r + 1, rep->block, block);
				ret = -1;
				break;
			}
			if (!(block % 2 ? reversed : plain) && !(pooled && (plain || reversed))) {
				*why = xasprintf("row '%s' rep %zu: the arm order is not the %s "
						 "order of its place in block %zu", row->name, r + 1,
						 PAB_PROTOCOL_NAME, block);
				ret = -1;
				break;
			}
			/* A pooled block is plain or reversed as a whole. */
			if (pooled && j && plain != order_is(row->reps[r - 1].order, n,
							     j - 1, want)) {
				*why = xasprintf("row '%s' rep %zu: block %zu mixes plain and "
						 "reversed %s orders", row->name, r + 1, block,
						 PAB_PROTOCOL_NAME);
				ret = -1;
				break;
			}
		}
	}
	free(want);
	return ret;
}

int pab_valid_arm_name(const char *name)
{
	size_t n = strlen(name), i;

	/* Arm names become directory names (--preserve-builds DIR/NAME):
	 * never ".", "..", a hidden name or one that reads as an option. */
	if (!n || n > 64 || name[0] == '.' || name[0] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return 1;
}

int pab_counts_default_require(const struct pab_run_settings *s, int required[PAB_M_COUNT])
{
	size_t i;

	if (!(s->given & PAB_RUN_COUNTS) || s->count_source == PAB_COUNT_NONE)
		return 0;
	for (i = 0; i < PAB_M_COUNT; i++)
		required[i] = 0;
	required[PAB_M_INSTRUCTIONS] = 1;
	return 1;
}

int pab_shard_parse(const char *spec, unsigned *index, unsigned *count)
{
	const char *slash = strchr(spec, '/');
	uint64_t k, n;
	char *left;
	int bad;

	if (!slash)
		return -1;
	left = xstrndup(spec, (size_t)(slash - spec));
	bad = parse_u64(left, 1, PAB_RUN_SHARD_MAX, &k) ||
		parse_u64(slash + 1, 1, PAB_RUN_SHARD_MAX, &n) || k > n;
	free(left);
	if (bad)
		return -1;
	*index = (unsigned)k;
	*count = (unsigned)n;
	return 0;
}
