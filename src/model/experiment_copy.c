/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * experiment_copy.c — deep copies of an experiment and of its parts
 * (experiment_copy.h): every string and array duplicated, nothing shared.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "model/attribution.h"
#include "model/experiment_copy.h"
#include "model/sanity.h"
#include "util.h"

static char *strdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct pab_kv *kv_dup(const struct pab_kv *kv, size_t n)
{
	struct pab_kv *out;
	size_t i;

	if (!n)
		return NULL;
	out = xcalloc(n, sizeof(*out));
	for (i = 0; i < n; i++) {
		out[i].key = xstrdup(kv[i].key);
		out[i].value = xstrdup(kv[i].value);
	}
	return out;
}

static void arm_copy(struct pab_arm *dst, const struct pab_arm *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->name = xstrdup(src->name);
	dst->argv = pab_argv_dup(src->argv, src->argc);
	dst->argc = src->argc;
	dst->env = kv_dup(src->env, src->n_env);
	dst->n_env = src->n_env;
	dst->revision = strdup_or_null(src->revision);
	dst->exe = strdup_or_null(src->exe);
	dst->sha256 = strdup_or_null(src->sha256);
	dst->preserved = strdup_or_null(src->preserved);
	dst->prepare = strdup_or_null(src->prepare);
}

static void result_copy(struct pab_arm_result *dst,
			const struct pab_arm_result *src)
{
	*dst = *src; /* the reasons are pooled: shared */
	dst->checksum = strdup_or_null(src->checksum);
	dst->stderr_tail = strdup_or_null(src->stderr_tail);
}

void pab_row_add_rep_copy(struct pab_row *row, const struct pab_rep *rep,
			  size_t n_arms, size_t block)
{
	struct pab_rep *r = pab_row_add_rep(row, n_arms);
	size_t a;

	r->block = block;
	memcpy(r->order, rep->order, n_arms * sizeof(*r->order));
	for (a = 0; a < n_arms; a++) {
		pab_arm_result_release(&r->result[a]);
		result_copy(&r->result[a], &rep->result[a]);
	}
}

void pab_row_copy_def(struct pab_row *dst, const struct pab_row *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->name = xstrdup(src->name);
	dst->workload = strdup_or_null(src->workload);
	dst->program = strdup_or_null(src->program);
	dst->argv = pab_argv_dup(src->argv, src->argc);
	dst->argc = src->argc;
	dst->params = kv_dup(src->params, src->n_params);
	dst->n_params = src->n_params;
	dst->control = src->control;
	dst->failed = src->failed;
	dst->fail_reason = strdup_or_null(src->fail_reason);
	dst->failed_arm = strdup_or_null(src->failed_arm);
	pab_row_set_host(dst, src->host_json, src->cpu_model);
}

void pab_experiment_copy_without_rows(struct pab_experiment *dst,
				      const struct pab_experiment *src)
{
	size_t i;

	pab_experiment_init(dst);
	free(dst->schema);
	free(dst->perfab_version);
	free(dst->protocol);
	dst->schema = xstrdup(src->schema);
	dst->perfab_version = xstrdup(src->perfab_version);
	dst->protocol = xstrdup(src->protocol);
	dst->rules = src->rules;
	dst->complete = src->complete;
	dst->seed = src->seed;
	dst->host_json = strdup_or_null(src->host_json);
	dst->cpu_model = strdup_or_null(src->cpu_model);
	pab_run_settings_release(&dst->settings);
	pab_run_settings_copy(&dst->settings, &src->settings);
	dst->judged = src->judged;
	pab_pool_record_copy(&dst->pool, &src->pool);
	pab_run_costs_release(&dst->costs);
	pab_run_costs_copy(&dst->costs, &src->costs);
	dst->run_json = strdup_or_null(src->run_json);
	dst->reps = src->reps;
	dst->max_reps = src->max_reps;
	memcpy(dst->tolerance, src->tolerance, sizeof(dst->tolerance));
	dst->equivalence_margin = src->equivalence_margin;
	dst->stopped_by = src->stopped_by;
	for (i = 0; i < src->n_sanity; i++)
		pab_experiment_add_sanity(dst, src->sanity[i].row, src->sanity[i].arm,
					  src->sanity[i].metric, src->sanity[i].base,
					  src->sanity[i].head);
	dst->has_sanity = src->has_sanity;
	dst->arms = xcalloc(src->n_arms ? src->n_arms : 1, sizeof(*dst->arms));
	for (i = 0; i < src->n_arms; i++)
		arm_copy(&dst->arms[i], &src->arms[i]);
	dst->n_arms = src->n_arms;
	for (i = 0; i < src->n_attr; i++)
		pab_attribution_append(&dst->attr, &dst->n_attr, &src->attr[i]);
}

void pab_experiment_copy(struct pab_experiment *dst, const struct pab_experiment *src)
{
	size_t i, r;

	pab_experiment_copy_without_rows(dst, src);
	dst->rows = xcalloc(src->n_rows ? src->n_rows : 1, sizeof(*dst->rows));
	for (i = 0; i < src->n_rows; i++) {
		pab_row_copy_def(&dst->rows[i], &src->rows[i]);
		for (r = 0; r < src->rows[i].n_reps; r++)
			pab_row_add_rep_copy(&dst->rows[i], &src->rows[i].reps[r],
					     src->n_arms, src->rows[i].reps[r].block);
		dst->n_rows = i + 1;
	}
}

void pab_attributions_pool(struct pab_experiment *out, const struct pab_experiment *const *in,
			   const char *const *labels, size_t n)
{
	size_t i, k;

	pab_attributions_free(out->attr, out->n_attr);
	out->attr = NULL;
	out->n_attr = 0;
	for (i = 0; i < n; i++)
		for (k = 0; k < in[i]->n_attr; k++) {
			struct pab_attribution *a;

			pab_attribution_append(&out->attr, &out->n_attr, &in[i]->attr[k]);
			a = &out->attr[out->n_attr - 1];
			if (!a->input)
				a->input = labels && labels[i] ? xstrdup(labels[i]) :
					xasprintf("artifact %zu", i + 1);
		}
}
