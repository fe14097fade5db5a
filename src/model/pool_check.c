/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pool_check.c — whether artifacts measured one experiment, so that pool.c
 * may merge them (pool_check.h): the host, protocol, arms and settings,
 * each shared row's job and the metrics rows of one program measured.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/pool_check.h"
#include "term.h"
#include "util.h"

static int str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static const char *or_none(const char *s)
{
	return s ? s : "(none)";
}

static int argv_eq(char *const *a, size_t na, char *const *b, size_t nb,
		   size_t from)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = from; i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

/* Same keys with the same values, in any order. */
static int kv_eq(const struct pab_kv *a, size_t na, const struct pab_kv *b,
		 size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (!str_eq(a[i].value, pab_kv_get(b, nb, a[i].key)))
			return 0;
	return 1;
}

/* Bit m set when metric m has a value in some rep of some arm of row. */
static uint64_t row_metric_mask(const struct pab_row *row, size_t n_arms)
{
	uint64_t mask = 0;
	size_t r, a, m;

	for (r = 0; r < row->n_reps; r++)
		for (a = 0; a < n_arms; a++)
			for (m = 0; m < PAB_M_COUNT; m++)
				if (isfinite(row->reps[r].result[a].m[m]))
					mask |= (uint64_t)1 << m;
	return mask;
}

/* The first metric in a but not in b, or NULL. */
static const char *mask_extra(uint64_t a, uint64_t b)
{
	size_t m;

	for (m = 0; m < PAB_M_COUNT; m++)
		if ((a & ~b) & ((uint64_t)1 << m))
			return pab_metrics[m].name;
	return NULL;
}

/* What to do when one revision was built into different programs: CI
 * shards on runners of two image versions (a roll-out) get two compilers. */
#define POOL_BUILD_ADVICE "; one revision built into different programs (shards on runners of " \
	"different image versions or compilers?): pin runs-on to one image version, or build " \
	"once and give every shard job the same executables (doc/ci.md)"

/* Arm i of two inputs (labels la, lb): name, revision, executable,
 * command and environment. Returns 0 or -1 with *why. */
static int same_arm(const struct pab_arm *x, const char *la, const struct pab_arm *y,
		    const char *lb, size_t i, char **why)
{
	if (strcmp(x->name, y->name)) {
		*why = xasprintf("arms differ: arm %zu is '%s' in '%s' and '%s' in '%s' "
				 "(names and order must match)", i + 1, x->name, la,
				 y->name, lb);
		return -1;
	}
	if (!str_eq(x->revision, y->revision)) {
		/* Labels of one commit with different builds ("COMMIT files:...",
		 * as perfab's GitHub Action writes them): the builds differ. */
		size_t c = x->revision ? strcspn(x->revision, " ") : 0;
		int same_commit = c && y->revision && !strncmp(x->revision, y->revision, c) &&
				  (y->revision[c] == ' ' || !y->revision[c]);

		*why = xasprintf("arm '%s': revision differs: '%s' in '%s', '%s' in '%s'%s",
				 x->name, pab_term_safe(or_none(x->revision)), la,
				 pab_term_safe(or_none(y->revision)), lb,
				 same_commit ? POOL_BUILD_ADVICE : "");
		return -1;
	}
	if (!str_eq(x->sha256, y->sha256)) {
		*why = xasprintf("arm '%s': executable differs: sha256 %s in '%s', %s in '%s'%s",
				 x->name, or_none(x->sha256), la, or_none(y->sha256), lb,
				 POOL_BUILD_ADVICE);
		return -1;
	}
	/* The digest identifies the executable wherever it was checked
	 * out; without one, its path has to. */
	if (!argv_eq(x->argv, x->argc, y->argv, y->argc, x->sha256 ? 1 : 0)) {
		*why = xasprintf("arm '%s': command differs between '%s' and '%s'",
				 x->name, la, lb);
		return -1;
	}
	if (!kv_eq(x->env, x->n_env, y->env, y->n_env)) {
		*why = xasprintf("arm '%s': environment additions differ between '%s' and '%s'",
				 x->name, la, lb);
		return -1;
	}
	if (!str_eq(x->prepare, y->prepare)) {
		*why = xasprintf("arm '%s': prepare differs between '%s' and '%s'", x->name, la, lb);
		return -1;
	}
	return 0;
}

/* What runs beside the children and what they read: warmup, prepare,
 * setup, cleanup, input; and whether their non-zero exits were ignored.
 * Returns 0 or -1 with *why. */
static int same_hooks(const struct pab_run_settings *a, const char *la,
		      const struct pab_run_settings *b, const char *lb, char **why)
{
	const char *names[4] = { "prepare", "setup", "cleanup", "input" };
	const char *x[4] = { a->prepare, a->setup, a->cleanup, a->input };
	const char *y[4] = { b->prepare, b->setup, b->cleanup, b->input };
	size_t i;

	if (a->warmup != b->warmup) {
		*why = xasprintf("warmup differs: %llu runs in '%s', %llu in '%s'",
				 (unsigned long long)a->warmup, la, (unsigned long long)b->warmup, lb);
		return -1;
	}
	if (a->ignore_failure != b->ignore_failure) {
		*why = xasprintf("ignore_failure differs: %s in '%s', %s in '%s' (a non-zero exit "
				 "status is a measured run in one, a failure in the other)",
				 a->ignore_failure ? "true" : "false", la,
				 b->ignore_failure ? "true" : "false", lb);
		return -1;
	}
	for (i = 0; i < 4; i++)
		if (!str_eq(x[i], y[i])) {
			*why = xasprintf("%s differs: '%s' in '%s', '%s' in '%s'", names[i],
					 pab_term_safe(or_none(x[i])), la,
					 pab_term_safe(or_none(y[i])), lb);
			return -1;
		}
	return 0;
}

int pab_pool_same_experiment(const struct pab_experiment *a, const char *la,
			     const struct pab_experiment *b, const char *lb, char **why)
{
	const char *ca = a->cpu_model, *cb = b->cpu_model;
	size_t i, m;

	if (!ca || !cb) {
		*why = xasprintf("'%s' records no CPU model (host.cpu_model): cannot prove it ran "
				 "on the same machine type as the others", !ca ? la : lb);
		return -1;
	}
	/* Different CPU models are fine for disjoint rows (shards on a
	 * mixed fleet: each row has its base, head and null arm from one
	 * machine); blocks of one row must share one (same_row). */
	if (strcmp(a->protocol, b->protocol)) {
		*why = xasprintf("protocol differs: '%s' used %s, '%s' used %s", la, a->protocol,
				 lb, b->protocol);
		return -1;
	}
	if (a->n_arms != b->n_arms) {
		*why = xasprintf("arms differ: '%s' has %zu arms, '%s' has %zu", la, a->n_arms,
				 lb, b->n_arms);
		return -1;
	}
	for (i = 0; i < a->n_arms; i++)
		if (same_arm(&a->arms[i], la, &b->arms[i], lb, i, why))
			return -1;
	if (same_hooks(&a->settings, la, &b->settings, lb, why))
		return -1;
	if (a->settings.scale != b->settings.scale) {
		*why = xasprintf("workload scale differs: %g in '%s', %g in '%s'",
				 a->settings.scale, la, b->settings.scale, lb);
		return -1;
	}
	if (a->rules != b->rules) {
		*why = xasprintf("rules differ: %s in '%s', %s in '%s'", pab_rules_name(a->rules),
				 la, pab_rules_name(b->rules), lb);
		return -1;
	}
	for (m = 0; m < PAB_M_COUNT; m++)
		if (a->tolerance[m] != b->tolerance[m]) {
			*why = xasprintf("tolerance for %s differs: %g%% in '%s', %g%% in '%s' "
					 "(a tolerance is declared before the run, not chosen after)",
					 pab_metrics[m].name, a->tolerance[m], la,
					 b->tolerance[m], lb);
			return -1;
		}
	if ((a->settings.given & b->settings.given & PAB_RUN_COUNTS) &&
	    a->settings.count_source != b->settings.count_source) {
		const char *sa = pab_count_source_name(a->settings.count_source);
		const char *sb = pab_count_source_name(b->settings.count_source);

		*why = xasprintf("instruction counts differ in source: %s in '%s', %s in '%s' "
				 "(a simulated count and a hardware count are not one metric)",
				 sa ? sa : "none", la, sb ? sb : "none", lb);
		return -1;
	}
	if (a->equivalence_margin != b->equivalence_margin) {
		*why = xasprintf("equivalence margin differs: %g%% in '%s', %g%% in '%s'",
				 a->equivalence_margin, la, b->equivalence_margin, lb);
		return -1;
	}
	return 0;
}

int pab_pool_same_row(const struct pab_experiment *ea, const struct pab_row *x,
		      const char *la, const struct pab_experiment *eb,
		      const struct pab_row *y, const char *lb, size_t n_arms,
		      char **why)
{
	const char *extra, *ca = pab_row_cpu_model(ea, x), *cb = pab_row_cpu_model(eb, y);
	uint64_t mx, my;

	if (!ca || !cb || strcmp(ca, cb)) {
		*why = xasprintf("CPU model differs: row '%s' ran on \"%s\" in '%s' and on \"%s\" "
				 "in '%s'; blocks of one row from different machine types are "
				 "not one experiment (disjoint rows, shards, may differ)",
				 pab_term_safe(x->name), pab_term_safe(or_none(ca)), la,
				 pab_term_safe(or_none(cb)), lb);
		return -1;
	}

	if (!kv_eq(x->params, x->n_params, y->params, y->n_params)) {
		*why = xasprintf("row '%s': parameters differ between '%s' and '%s'",
				 pab_term_safe(x->name), la, lb);
		return -1;
	}
	if (x->control != y->control) {
		*why = xasprintf("row '%s': a control in '%s' but not in '%s'", pab_term_safe(x->name),
				 x->control ? la : lb, x->control ? lb : la);
		return -1;
	}
	if (!str_eq(x->workload, y->workload) || !str_eq(x->program, y->program) ||
	    !argv_eq(x->argv, x->argc, y->argv, y->argc, 0)) {
		*why = xasprintf("row '%s': its workload or arguments differ between '%s' and '%s'",
				 pab_term_safe(x->name), la, lb);
		return -1;
	}
	mx = row_metric_mask(x, n_arms);
	my = row_metric_mask(y, n_arms);
	if (mx != my) {
		int in_x = mask_extra(mx, my) != NULL;

		extra = in_x ? mask_extra(mx, my) : mask_extra(my, mx);
		*why = xasprintf("metric set differs: row '%s' measured %s in '%s' and never in '%s' "
				 "(a probe missing on one runner is not noise to average over)",
				 pab_term_safe(x->name), extra, in_x ? la : lb, in_x ? lb : la);
		return -1;
	}
	return 0;
}

int pab_pool_same_probes(const struct pab_experiment *a, const char *la,
			 const struct pab_experiment *b, const char *lb, char **why)
{
	size_t i, j;

	for (i = 0; i < a->n_rows; i++) {
		uint64_t ma = 0, mb = 0;
		int seen = 0;
		const char *extra, *prog = a->rows[i].program;

		for (j = 0; j < a->n_rows; j++)
			if (str_eq(a->rows[j].program, prog))
				ma |= row_metric_mask(&a->rows[j], a->n_arms);
		for (j = 0; j < b->n_rows; j++)
			if (str_eq(b->rows[j].program, prog)) {
				mb |= row_metric_mask(&b->rows[j], b->n_arms);
				seen = 1;
			}
		if (!seen || ma == mb)
			continue;
		extra = mask_extra(ma, mb);
		*why = xasprintf("metric set differs: %s rows measured %s in '%s' and never in '%s' "
				 "(a probe missing on one runner is not noise to average over)",
				 prog ? prog : "plain-command", extra ? extra : mask_extra(mb, ma),
				 extra ? la : lb, extra ? lb : la);
		return -1;
	}
	return 0;
}
