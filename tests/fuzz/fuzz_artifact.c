/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_artifact.c — libFuzzer harness for the artifact loader: what
 * `perfab ledger FILE` does to untrusted bytes, minus the file read.
 *
 * Each input goes through pab_artifact_parse(); when it loads, the rest of
 * the ledger path runs on it too (balance check, pab_ledger_build, every
 * rendering), and the loaded experiment must survive a round trip through
 * the checkpoint writer behind pab_artifact_save() bit for bit: what
 * perfab writes, perfab must read back as it was. Everything is released, so
 * LeakSanitizer sees any leak on any path. Deterministic: no clocks, no
 * randomness, no state kept between inputs (/dev/null and a private save
 * directory, on tmpfs when there is one, are set up once).
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "store/artifact_read.h"
#include "store/artifact_write.h"
#include "judge/ledger.h"
#include "report/report.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

/* Judge and render e like cmd_ledger.c does; the output is discarded. */
static void judge(const struct pab_experiment *e)
{
	struct pab_ledger_opts lo;
	struct pab_report_opts ro;
	struct pab_ledger l;
	char *why = NULL;
	int fmt;

	if (pab_experiment_check_balanced(e, &why)) {
		free(why);
		return;
	}
	pab_ledger_opts_init(&lo, e);
	if (pab_ledger_build(e, &lo, &l, &why)) {
		free(why);
		return;
	}
	for (fmt = PAB_REPORT_TEXT; fmt <= PAB_REPORT_MARKDOWN; fmt++) {
		pab_report_opts_init(&ro, (enum pab_report_format)fmt);
		pab_report_print(devnull, e, &l, &ro);
	}
	pab_ledger_release(&l);
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * Same doubles, NaN (not measured) equal to NaN. Exact for the checkpoint
 * writer (%.17g); within 2 ulp for cJSON, whose printer keeps 15 digits
 * when they compare equal within DBL_EPSILON (cJSON 1.7 print_number).
 */
static int same_num(double a, double b, int exact)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (exact)
		return a == b;
	return fabs(a - b) <= 2 * DBL_EPSILON * fmax(fabs(a), fabs(b));
}

/* Abort with a message: a property of the loader or writers is broken. */
static void broken(const char *what, const char *text)
{
	fprintf(stderr, "round trip: %s\n", what);
	if (text)
		fprintf(stderr, "%.4000s\n", text);
	abort();
}

/* b must hold everything of a that the artifact carries. */
static void compare(const struct pab_experiment *a,
		    const struct pab_experiment *b, const char *text, int exact)
{
	size_t i, r, k, m;

	if (a->complete != b->complete || a->seed != b->seed ||
	    a->reps != b->reps || a->max_reps != b->max_reps ||
	    a->rules != b->rules || a->stopped_by != b->stopped_by ||
	    !same_num(a->equivalence_margin, b->equivalence_margin, exact))
		broken("top-level fields changed", text);
	for (m = 0; m < PAB_M_COUNT; m++)
		if (!same_num(a->tolerance[m], b->tolerance[m], exact))
			broken("a tolerance changed", text);
	if (a->n_arms != b->n_arms || a->n_rows != b->n_rows)
		broken("the number of arms or rows changed", text);
	for (i = 0; i < a->n_arms; i++) {
		const struct pab_arm *x = &a->arms[i], *y = &b->arms[i];

		if (!same_str(x->name, y->name) || x->argc != y->argc ||
		    x->n_env != y->n_env || !same_str(x->revision, y->revision) ||
		    !same_str(x->sha256, y->sha256))
			broken("an arm changed", text);
		for (k = 0; k < x->argc; k++)
			if (!same_str(x->argv[k], y->argv[k]))
				broken("an arm's argv changed", text);
		for (k = 0; k < x->n_env; k++)
			if (!same_str(pab_kv_get(y->env, y->n_env, x->env[k].key),
				      x->env[k].value))
				broken("an arm's env changed", text);
	}
	for (i = 0; i < a->n_rows; i++) {
		const struct pab_row *x = &a->rows[i], *y = &b->rows[i];

		if (!same_str(x->name, y->name) || !same_str(x->workload, y->workload) ||
		    !same_str(x->program, y->program) || x->argc != y->argc ||
		    x->n_params != y->n_params || x->control != y->control ||
		    x->failed != y->failed || !same_str(x->fail_reason, y->fail_reason) ||
		    x->n_reps != y->n_reps)
			broken("a row changed", text);
		for (r = 0; r < x->n_reps; r++) {
			const struct pab_rep *p = &x->reps[r], *q = &y->reps[r];

			if (p->block != q->block)
				broken("a rep's block changed", text);
			for (k = 0; k < a->n_arms; k++) {
				const struct pab_arm_result *u = &p->result[k], *v = &q->result[k];

				if (p->order[k] != q->order[k] || u->exit_code != v->exit_code ||
				    u->term_signal != v->term_signal ||
				    u->timed_out != v->timed_out || u->failed != v->failed ||
				    !same_str(u->checksum, v->checksum))
					broken("a rep's order or status changed", text);
				for (m = 0; m < PAB_M_COUNT; m++)
					if (!same_num(u->m[m], v->m[m], exact) ||
					    !same_str(u->reason[m], v->reason[m]))
						broken("a measurement changed", text);
			}
		}
	}
}

/* Reload text (written by perfab) and compare it with e. */
static void reload(const struct pab_experiment *e, const char *text,
		   size_t len, const char *writer, int exact)
{
	struct pab_experiment back;
	char *why = NULL;

	if (pab_artifact_parse(text, len, &back, &why)) {
		fprintf(stderr, "round trip: what %s wrote does not load: %s\n",
			writer, why);
		broken("unloadable", text);
	}
	compare(e, &back, text, exact);
	pab_experiment_release(&back);
}

/* A private directory for the checkpoint writer (tmpfs when there is one). */
static char savedir[256], savepath[300];

static void remove_savedir(void)
{
	unlink(savepath);
	rmdir(savedir);
}

/* What perfab writes from e (pab_artifact_save) must load again, unchanged. */
static void round_trip(const struct pab_experiment *e)
{
	char *why = NULL, *saved;
	size_t len;

	if (!savedir[0]) {
		const char *base = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";

		snprintf(savedir, sizeof(savedir), "%s/perfab-fuzz.XXXXXX",
			 base ? base : "/tmp");
		if (!mkdtemp(savedir))
			abort();
		snprintf(savepath, sizeof(savepath), "%s/a.json", savedir);
		atexit(remove_savedir);
	}
	if (pab_artifact_save(e, savepath, &why)) {
		fprintf(stderr, "round trip: pab_artifact_save: %s\n", why);
		abort(); /* tmpfs full? not the input's fault, but say so */
	}
	saved = read_file_max(savepath, PAB_ARTIFACT_MAX_BYTES, &len);
	if (!saved)
		abort();
	reload(e, saved, len, "pab_artifact_save", 1);
	free(saved);
	unlink(savepath);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pab_experiment e;
	char *why = NULL;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
	}
	if (pab_artifact_parse((const char *)data, size, &e, &why)) {
		/* Contract: a reason, and e released (nothing left to free). */
		if (!why || !*why)
			abort();
		free(why);
		return 0;
	}
	if (why)
		abort(); /* success leaves *why NULL */
	round_trip(&e);
	judge(&e);
	pab_experiment_release(&e);
	return 0;
}
