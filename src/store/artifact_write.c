/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact_write.c — the experiment saved as its artifact (artifact_write.h):
 * written by the streaming writer (json_out.h) through the safe file
 * writer (tempfile.h). The key names here are the artifact contract
 * documented in doc/artifact-schema.md; tests and other tools read them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "store/artifact_write.h"
#include "store/attribution_json.h"
#include "store/artifact_rep.h"
#include "store/json_out.h"
#include "store/run_record.h"
#include "store/run_settings.h"
#include "store/tempfile.h"
#include "test_hooks.h"
#include "util.h"

/* The top level up to "run": identity, journal, rules, the run's state. */
static void write_settings(struct jw *w, const struct pab_experiment *e)
{
	FILE *f = w->f;
	int first = 1;
	size_t m;
	cJSON *run;

	jw_key(w, "schema"); jw_str(w, e->schema); fputs(",\n", f);
	jw_key(w, "perfab_version"); jw_str(w, e->perfab_version); fputs(",\n", f);
	jw_key(w, "protocol"); jw_str(w, e->protocol); fputs(",\n", f);
	fprintf(f, "\"complete\":%s,\n", e->complete ? "true" : "false");
	jw_key(w, "seed"); jw_num(w, (double)e->seed); fputs(",\n", f);
	jw_key(w, "journal");
	if (e->journal_id) {
		fputc('{', f);
		jw_key(w, "id"); jw_str(w, e->journal_id);
		fprintf(f, ",\"folded\":%llu}", (unsigned long long)e->journal_folded);
	} else {
		fputs("null", f);
	}
	fputs(",\n", f);
	jw_key(w, "rules"); jw_str(w, pab_rules_name(e->rules)); fputs(",\n", f);
	fputs("\"tolerance\":{", f);
	for (m = 0; m < PAB_M_COUNT; m++)
		if (pab_metrics[m].judged ||
		    e->tolerance[m] != pab_metric_default_tolerance((enum pab_metric_id)m)) {
			if (!first)
				fputc(',', f);
			jw_key(w, pab_metrics[m].name);
			jw_num(w, e->tolerance[m]);
			first = 0;
		}
	fputs("},\n", f);
	jw_key(w, "equivalence_margin"); jw_num(w, e->equivalence_margin); fputs(",\n", f);
	fprintf(f, "\"reps\":%zu,\n\"max_reps\":%zu,\n", e->reps, e->max_reps);
	jw_key(w, "stopped_by");
	jw_str_or_null(w, pab_stop_reason_name(e->stopped_by));
	fputs(",\n", f);
	run = pab_sanity_json(e);
	jw_key(w, "sanity"); jw_cjson(w, run, 0); fputs(",\n", f);
	cJSON_Delete(run);
	run = pab_json_text_parse(e->host_json, 1);
	jw_key(w, "host"); jw_cjson(w, run, 1); fputs(",\n", f);
	cJSON_Delete(run);
	run = pab_run_json(e);
	jw_key(w, "run"); jw_cjson(w, run, 1); fputs(",\n", f);
	cJSON_Delete(run);
}

static void write_arm(struct jw *w, const struct pab_arm *arm)
{
	FILE *f = w->f;

	jw_key(w, "name"); jw_str(w, arm->name);
	fputc(',', f); jw_key(w, "argv"); jw_argv(w, arm->argv, arm->argc);
	fputc(',', f); jw_key(w, "env"); jw_kv(w, arm->env, arm->n_env);
	fputc(',', f); jw_key(w, "revision"); jw_str_or_null(w, arm->revision);
	fputc(',', f); jw_key(w, "exe"); jw_str_or_null(w, arm->exe);
	fputc(',', f); jw_key(w, "sha256"); jw_str_or_null(w, arm->sha256);
	fputc(',', f); jw_key(w, "preserved"); jw_str_or_null(w, arm->preserved);
	if (arm->prepare) {
		fputc(',', f); jw_key(w, "prepare"); jw_str(w, arm->prepare);
	}
}

/* ,"executables":{ARM:{"path":..,"sha256":..},...} of a row that has them. */
static void write_executables(struct jw *w, const struct pab_experiment *e,
			      const struct pab_row *row)
{
	FILE *f = w->f;
	size_t a, k = 0;

	if (!row->exe_sha256)
		return;
	fputc(',', f);
	jw_key(w, "executables");
	fputc('{', f);
	for (a = 0; a < e->n_arms; a++) {
		if (!row->exe_sha256[a])
			continue;
		if (k++)
			fputc(',', f);
		jw_key(w, e->arms[a].name);
		fputc('{', f);
		jw_key(w, "path");
		jw_str_or_null(w, row->exes ? row->exes[a] : NULL);
		fputc(',', f);
		jw_key(w, "sha256");
		jw_str(w, row->exe_sha256[a]);
		if (row->inputs) {
			size_t i;

			fputc(',', f);
			jw_key(w, "inputs");
			fputc('[', f);
			for (i = 0; i < row->n_inputs[a]; i++) {
				const struct pab_input_file *in = &row->inputs[a][i];

				fputs(i ? ",{" : "{", f);
				jw_key(w, "path"); jw_str(w, in->path); fputc(',', f);
				jw_key(w, "role"); jw_str(w, in->role); fputc(',', f);
				jw_key(w, "sha256"); jw_str(w, in->sha256);
				fputc('}', f);
			}
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

static void write_row(struct jw *w, const struct pab_experiment *e,
		      const struct pab_row *row)
{
	FILE *f = w->f;
	size_t r;

	jw_key(w, "name"); jw_str(w, row->name);
	fputc(',', f); jw_key(w, "workload"); jw_str_or_null(w, row->workload);
	fputc(',', f); jw_key(w, "program"); jw_str_or_null(w, row->program);
	fputc(',', f); jw_key(w, "argv"); jw_argv(w, row->argv, row->argc);
	fputc(',', f); jw_key(w, "params"); jw_kv(w, row->params, row->n_params);
	write_executables(w, e, row);
	fprintf(f, ",\"control\":%s,\"failed\":%s,", row->control ? "true" : "false",
		row->failed ? "true" : "false");
	jw_key(w, "fail_reason"); jw_str_or_null(w, row->fail_reason);
	if (row->failed_arm) {
		fputc(',', f); jw_key(w, "failed_arm"); jw_str(w, row->failed_arm);
	}
	if (row->host_json) {
		cJSON *host = pab_json_text_parse(row->host_json, 1);

		fputc(',', f); jw_key(w, "host"); jw_cjson(w, host, 1);
		cJSON_Delete(host);
	}
	fputs(",\"reps\":[\n", f);
	for (r = 0; r < row->n_reps; r++) {
		if (r)
			fputs(",\n", f);
		pab_artifact_write_rep(w, e, &row->reps[r]);
	}
	fputs("]", f);
}

static void write_artifact(FILE *f, const struct pab_experiment *e)
{
	struct jw w = { f };
	size_t i;

	fputs("{\n", f);
	write_settings(&w, e);
	fputs("\"arms\":[\n", f);
	for (i = 0; i < e->n_arms; i++) {
		fputs(i ? ",\n{" : "{", f);
		write_arm(&w, &e->arms[i]);
		fputc('}', f);
	}
	fputs("],\n\"rows\":[\n", f);
	for (i = 0; i < e->n_rows; i++) {
		fputs(i ? ",\n{" : "{", f);
		write_row(&w, e, &e->rows[i]);
		fputc('}', f);
	}
	fputc(']', f);
	pab_attribution_json_write(&w, e);
	fputs("\n}\n", f);
}

static int write_artifact_fn(FILE *f, void *arg)
{
	write_artifact(f, arg);
	return ferror(f) ? -1 : 0;
}

int pab_artifact_save(const struct pab_experiment *e, const char *path,
		      char **why)
{
	struct stat st;
	int ret = pab_write_file_atomic(path, write_artifact_fn, (void *)e, why);

	/* The checkpoint-cost test hook (tests/e2e/reliability_journal.sh): bytes written. */
	if (!ret && pab_test_hook(PAB_TEST_IO_LOG) && !stat(path, &st))
		pab_test_io_log("artifact", (uint64_t)st.st_size);
	return ret;
}
