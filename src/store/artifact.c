/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact.c — experiment <-> JSON, atomic save, validating load
 * (artifact.h). The key names here are the artifact contract documented in
 * doc/artifact-schema.md; tests and other tools read them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/argv_split.h"
#include "store/artifact.h"
#include "store/journal.h"
#include "store/json_in.h"
#include "store/run_settings.h"
#include "model/rotation.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Saving                                                             */

/*
 * Streaming writer: the checkpoint is written straight to the file, so
 * perfab's memory does not grow with the artifact (a cJSON tree of a
 * 1000-rep run costs tens of MiB), and every number is written exactly
 * (cJSON's printer rounds to 15 digits when its loose round-trip check
 * passes, which changes seeds above 1e15). The keys are the contract of
 * doc/artifact-schema.md.
 */
struct jw {
	FILE *f;
};

static void jw_str(struct jw *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', w->f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", w->f); break;
		case '\\': fputs("\\\\", w->f); break;
		case '\n': fputs("\\n", w->f); break;
		case '\t': fputs("\\t", w->f); break;
		case '\r': fputs("\\r", w->f); break;
		default:
			if (*p < 0x20)
				fprintf(w->f, "\\u%04x", *p);
			else
				fputc(*p, w->f);
		}
	}
	fputc('"', w->f);
}

static void jw_str_or_null(struct jw *w, const char *s)
{
	if (s)
		jw_str(w, s);
	else
		fputs("null", w->f);
}

static void jw_num(struct jw *w, double v)
{
	if (!isfinite(v))
		fputs("null", w->f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0) /* exact integers */
		fprintf(w->f, "%.0f", v);
	else
		fprintf(w->f, "%.17g", v);
}

static void jw_key(struct jw *w, const char *k)
{
	jw_str(w, k);
	fputc(':', w->f);
}

/*
 * A cJSON subtree (host, run, sanity) in the same number format as the
 * rest: cJSON's own printer writes integers above 1e15 (seeds) in
 * exponent form, which JSON readers that keep literals compare as text.
 */
static void jw_value(struct jw *w, const cJSON *v)
{
	const cJSON *it;
	int first = 1;

	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		int obj = cJSON_IsObject(v);

		fputc(obj ? '{' : '[', w->f);
		cJSON_ArrayForEach(it, v) {
			if (!first)
				fputc(',', w->f);
			first = 0;
			if (obj)
				jw_key(w, it->string);
			jw_value(w, it);
		}
		fputc(obj ? '}' : ']', w->f);
	} else if (cJSON_IsString(v)) {
		jw_str(w, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		jw_num(w, v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		fputs(cJSON_IsTrue(v) ? "true" : "false", w->f);
	} else {
		fputs("null", w->f);
	}
}

static void jw_cjson(struct jw *w, const cJSON *o, int empty_object)
{
	if (!o)
		fputs(empty_object ? "{}" : "null", w->f);
	else
		jw_value(w, o);
}

static void jw_argv(struct jw *w, char *const *argv, size_t argc)
{
	size_t i;

	fputc('[', w->f);
	for (i = 0; i < argc; i++) {
		if (i)
			fputc(',', w->f);
		jw_str(w, argv[i]);
	}
	fputc(']', w->f);
}

static void jw_kv(struct jw *w, const struct pab_kv *kv, size_t n)
{
	size_t i;

	fputc('{', w->f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', w->f);
		jw_key(w, kv[i].key);
		jw_str(w, kv[i].value);
	}
	fputc('}', w->f);
}

/* "status":{ARM:{exit_code, signal, timed_out, tree_limit, failed[, stderr_tail]}} */
static void jw_rep_status(struct jw *w, const struct pab_experiment *e,
			  const struct pab_rep *rep)
{
	size_t a;

	fputs("\"status\":{", w->f);
	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm_result *r = &rep->result[a];

		if (a)
			fputc(',', w->f);
		jw_key(w, e->arms[a].name);
		fprintf(w->f, "{\"exit_code\":%d,\"signal\":", r->exit_code);
		if (r->term_signal)
			fprintf(w->f, "%d", r->term_signal);
		else
			fputs("null", w->f);
		fprintf(w->f, ",\"timed_out\":%s,\"tree_limit\":%s,\"failed\":%s",
			r->timed_out ? "true" : "false", r->tree_limit ? "true" : "false",
			r->failed ? "true" : "false");
		if (r->stderr_tail) {
			fputc(',', w->f);
			jw_key(w, "stderr_tail");
			jw_str(w, r->stderr_tail);
		}
		fputc('}', w->f);
	}
	fputc('}', w->f);
}

/* "null_reasons":{ARM:{METRIC:why}} for the metrics an arm did not measure. */
static void jw_rep_null_reasons(struct jw *w, const struct pab_experiment *e,
				const struct pab_rep *rep)
{
	size_t a, m;
	int any = 0;

	fputs("\"null_reasons\":{", w->f);
	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm_result *r = &rep->result[a];
		int first = 1;

		for (m = 0; m < PAB_M_COUNT; m++) {
			if (isfinite(r->m[m]) || !r->reason[m])
				continue;
			if (first) {
				if (any)
					fputc(',', w->f);
				jw_key(w, e->arms[a].name);
				fputc('{', w->f);
				first = 0;
				any = 1;
			} else {
				fputc(',', w->f);
			}
			jw_key(w, pab_metrics[m].name);
			jw_str(w, r->reason[m]);
		}
		if (!first)
			fputc('}', w->f);
	}
	fputc('}', w->f);
}

static void jw_rep(struct jw *w, const struct pab_experiment *e,
		   const struct pab_rep *rep)
{
	size_t k, a, m;
	int any = 0;

	fprintf(w->f, "{\"block\":%zu,\"order\":[", rep->block);
	for (k = 0; k < e->n_arms; k++) {
		if (k)
			fputc(',', w->f);
		jw_str(w, e->arms[rep->order[k]].name);
	}
	fputs("],\n\"results\":{", w->f);
	for (a = 0; a < e->n_arms; a++) {
		if (a)
			fputc(',', w->f);
		jw_key(w, e->arms[a].name);
		fputc('{', w->f);
		for (m = 0; m < PAB_M_COUNT; m++) {
			if (m)
				fputc(',', w->f);
			jw_key(w, pab_metrics[m].name);
			jw_num(w, rep->result[a].m[m]);
		}
		fputc('}', w->f);
	}
	fputs("},\n", w->f);
	jw_rep_status(w, e, rep);
	fputs(",\n", w->f);
	jw_rep_null_reasons(w, e, rep);
	for (a = 0; a < e->n_arms; a++) {
		if (!rep->result[a].checksum)
			continue;
		fputs(any ? "," : ",\"checksums\":{", w->f);
		jw_key(w, e->arms[a].name);
		jw_str(w, rep->result[a].checksum);
		any = 1;
	}
	if (any)
		fputc('}', w->f);
	fputc('}', w->f);
}

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
	jw_key(w, "sanity"); jw_cjson(w, e->sanity, 0); fputs(",\n", f);
	jw_key(w, "host"); jw_cjson(w, e->host, 1); fputs(",\n", f);
	run = pab_run_settings_json(&e->settings, e->run);
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
	if (row->host) {
		fputc(',', f); jw_key(w, "host"); jw_cjson(w, row->host, 1);
	}
	fputs(",\"reps\":[\n", f);
	for (r = 0; r < row->n_reps; r++) {
		if (r)
			fputs(",\n", f);
		jw_rep(w, e, &row->reps[r]);
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
	fputs("]\n}\n", f);
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

	/* The checkpoint-cost test hook (tests/cli_journal.sh): bytes written. */
	if (!ret && getenv("PERFAB_TEST_IO_LOG") && !stat(path, &st))
		pab_test_io_log("artifact", (uint64_t)st.st_size);
	return ret;
}

int pab_artifact_load_exit_code(int load_ret)
{
	return load_ret == PAB_ARTIFACT_BAD_PROTOCOL ? PAB_EXIT_REFUSED : PAB_EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */

/*
 * The loader reads through a json_in cursor (json_in.h) in the artifact's
 * message style: fields of a record are quoted ("rows[0] ('sort'): field
 * 'control' must be true or false"), entries of maps and arrays are named
 * by their path ("rows[0] ('sort').reps[3].results.head.cpu must be a
 * finite number or null"). Each function returns 0, or -1 with the
 * problem recorded in the cursor; what it filled in stays for the caller's
 * pab_experiment_release().
 */

/* A string field into new memory (*out), or NULL when absent or null. */
static int dup_string(struct pab_json_in *in, const cJSON *o, const char *key,
		      int flags, char **out)
{
	const char *s;
	int got = pab_json_in_string(in, o, key, flags, &s);

	if (got == 1)
		*out = xstrdup(s);
	return got < 0 ? -1 : 0;
}

/* o.key, an object of strings, into kv. */
static int load_kv(struct pab_json_in *in, const cJSON *o, const char *key,
		   int flags, struct pab_kv **kv, size_t *n)
{
	const cJSON *map, *it;
	const char *s;
	int got = pab_json_in_object(in, o, key, flags, &map);

	if (got <= 0)
		return got;
	pab_json_in_push_key(in, key);
	cJSON_ArrayForEach(it, map) {
		pab_json_in_push_key(in, it->string);
		if (!strcmp(key, "env") && !pab_env_name_valid(it->string))
			pab_json_in_fail(in, NULL, "is not an environment variable name (empty, "
					 "or holds '=')");
		else if (pab_json_in_string(in, it, NULL, 0, &s) == 1)
			pab_kv_set(kv, n, it->string, s);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* o.key, an array of strings, into a NULL-ended argv (allocated either way). */
static int load_argv(struct pab_json_in *in, const cJSON *o, const char *key,
		     int flags, char ***argv, size_t *argc)
{
	return pab_json_in_strings(in, o, key, flags, argv, argc) < 0 ? -1 : 0;
}

/* arms[i], with the cursor at it. */
static int load_arm(struct pab_json_in *in, const cJSON *o, struct pab_arm *arm)
{
	if (!cJSON_IsObject(o))
		return pab_json_in_fail(in, NULL, "must be an object");
	if (dup_string(in, o, "name", PAB_JSON_REQUIRED, &arm->name))
		return -1;
	if (!pab_valid_arm_name(arm->name))
		return pab_json_in_fail_here(in, "arm name '%.100s' is not valid (letters, "
					     "digits, '_', '-', '.', not starting with '.' "
					     "or '-')", pab_term_safe(arm->name));
	if (load_argv(in, o, "argv", PAB_JSON_REQUIRED, &arm->argv, &arm->argc) ||
	    load_kv(in, o, "env", PAB_JSON_REQUIRED, &arm->env, &arm->n_env) ||
	    dup_string(in, o, "revision", PAB_JSON_REQUIRED | PAB_JSON_NULLABLE,
		       &arm->revision) ||
	    dup_string(in, o, "sha256", PAB_JSON_REQUIRED | PAB_JSON_NULLABLE, &arm->sha256) ||
	    dup_string(in, o, "exe", PAB_JSON_NULLABLE, &arm->exe) ||
	    dup_string(in, o, "preserved", PAB_JSON_NULLABLE, &arm->preserved) ||
	    dup_string(in, o, "prepare", PAB_JSON_NULLABLE, &arm->prepare))
		return -1;
	return 0;
}

/* rep.order: each arm's name once, into rep->order. */
static int load_order(struct pab_json_in *in, const struct pab_experiment *e,
		      const cJSON *o, struct pab_rep *rep)
{
	const cJSON *order = pab_json_in_get(in, o, "order", PAB_JSON_REQUIRED), *it;
	unsigned char *seen;
	size_t k = 0;
	int ret = 0;

	if (!order)
		return -1;
	pab_json_in_push_key(in, "order");
	if (!cJSON_IsArray(order) || (size_t)cJSON_GetArraySize(order) != e->n_arms)
		ret = -1;
	seen = xcalloc(e->n_arms, 1);
	cJSON_ArrayForEach(it, order) {
		int idx = cJSON_IsString(it) ?
			pab_experiment_arm_index(e, it->valuestring) : -1;

		if (ret || idx < 0 || seen[idx]) {
			ret = -1;
			break;
		}
		seen[idx] = 1;
		rep->order[k++] = (size_t)idx;
	}
	free(seen);
	if (ret)
		pab_json_in_fail(in, NULL, "must list each of the %zu arms once", e->n_arms);
	pab_json_in_pop(in);
	return ret;
}

/* One arm's results: {"METRIC": number or null, ...}; unknown metrics skipped. */
static int load_arm_results(struct pab_json_in *in, const cJSON *res,
			    struct pab_arm_result *r)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, res) {
		const struct pab_metric *met = pab_metric_find(it->string);

		if (!met)
			continue; /* a metric from a newer perfab: ignored */
		pab_json_in_push_key(in, it->string);
		pab_json_in_finite(in, it, NULL, PAB_JSON_NULLABLE, PAB_METRIC_ABS_MAX,
				   &r->m[met->id]);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			return -1;
	}
	return 0;
}

/* What only informs (exit status, null reasons, checksum): taken when well-formed. */
static void load_arm_status(const cJSON *st, const cJSON *why, const cJSON *sum,
			    struct pab_arm_result *r)
{
	const cJSON *v;
	size_t m;

	for (m = 0; cJSON_IsObject(why) && m < PAB_M_COUNT; m++) {
		v = cJSON_GetObjectItemCaseSensitive(why, pab_metrics[m].name);
		if (cJSON_IsString(v) && !isfinite(r->m[m]))
			r->reason[m] = xstrdup(v->valuestring);
	}
	if (cJSON_IsObject(st)) {
		v = cJSON_GetObjectItemCaseSensitive(st, "exit_code");
		if (cJSON_IsNumber(v) && fabs(v->valuedouble) < 1e6)
			r->exit_code = (int)v->valuedouble;
		v = cJSON_GetObjectItemCaseSensitive(st, "signal");
		if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 256)
			r->term_signal = (int)v->valuedouble;
		r->timed_out = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "timed_out"));
		r->failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "failed"));
		r->tree_limit = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "tree_limit"));
		v = cJSON_GetObjectItemCaseSensitive(st, "stderr_tail");
		if (cJSON_IsString(v))
			r->stderr_tail = xstrdup(v->valuestring);
	}
	if (cJSON_IsString(sum))
		r->checksum = xstrdup(sum->valuestring);
}

/* Look up name in an optional map (NULL when o is absent or not an object). */
static const cJSON *map_get(const cJSON *o, const char *name)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, name) : NULL;
}

/* One rep, with the cursor at it (rows[i].reps[j], or a journal record's data). */
static int load_rep(struct pab_json_in *in, const struct pab_experiment *e,
		    const cJSON *o, struct pab_rep *rep)
{
	const cJSON *results, *status, *reasons, *sums;
	size_t a;

	if (!cJSON_IsObject(o))
		return pab_json_in_fail(in, NULL, "must be an object");
	if (pab_json_in_count(in, o, "block", PAB_JSON_REQUIRED, 1e12, &rep->block) < 0 ||
	    load_order(in, e, o, rep) ||
	    pab_json_in_object(in, o, "results", PAB_JSON_REQUIRED, &results) < 0)
		return -1;
	status = cJSON_GetObjectItemCaseSensitive(o, "status");
	reasons = cJSON_GetObjectItemCaseSensitive(o, "null_reasons");
	sums = cJSON_GetObjectItemCaseSensitive(o, "checksums");
	pab_json_in_push_key(in, "results");
	for (a = 0; a < e->n_arms; a++) {
		const char *name = e->arms[a].name;
		const cJSON *res = cJSON_GetObjectItemCaseSensitive(results, name);

		if (!cJSON_IsObject(res)) {
			pab_json_in_fail_here(in, "missing object for arm '%s'", name);
			break;
		}
		pab_json_in_push_key(in, name);
		load_arm_results(in, res, &rep->result[a]);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
		load_arm_status(map_get(status, name), map_get(reasons, name),
				map_get(sums, name), &rep->result[a]);
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* 1 when s is 64 lowercase hex digits. */
static int is_sha256_hex(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return !s[64];
}

/* ARM.inputs: [{"path": "...", "role": "...", "sha256": "HEX"}, ...] into
 * row's arm a (absent: none recorded, as an empty list). 0 or -1. */
static int load_inputs(struct pab_json_in *in, const cJSON *arm_o, struct pab_row *row,
		       size_t a)
{
	static const char *const roles[] = { "argument", "LD_PRELOAD", "interpreter", NULL };
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(arm_o, "inputs"), *it;
	size_t n = 0, k;

	if (!list)
		return 0;
	if (!cJSON_IsArray(list))
		return pab_json_in_fail(in, "inputs", "must be an array");
	row->inputs[a] = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(**row->inputs));
	cJSON_ArrayForEach(it, list) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "role");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "sha256");

		for (k = 0; roles[k] && cJSON_IsString(r) && strcmp(roles[k], r->valuestring); k++)
			;
		if (!cJSON_IsString(p) || !cJSON_IsString(d) || !is_sha256_hex(d->valuestring) ||
		    !cJSON_IsString(r) || !roles[k])
			return pab_json_in_fail(in, "inputs", "must list {\"path\": STRING, \"role\": "
						"\"argument\", \"LD_PRELOAD\" or \"interpreter\", "
						"\"sha256\": 64 hex digits}");
		row->inputs[a][n].path = xstrdup(p->valuestring);
		row->inputs[a][n].role = xstrdup(r->valuestring);
		row->inputs[a][n].sha256 = xstrdup(d->valuestring);
		row->n_inputs[a] = ++n;
	}
	return 0;
}

/* rows[i].executables: {"ARM": {"path": "...", "sha256": "HEX",
 * "inputs": [...]}, ...}. */
static int load_executables(struct pab_json_in *in, const struct pab_experiment *e,
			    const cJSON *o, struct pab_row *row)
{
	const cJSON *it;

	row->exes = xcalloc(e->n_arms, sizeof(*row->exes));
	row->exe_sha256 = xcalloc(e->n_arms, sizeof(*row->exe_sha256));
	row->inputs = xcalloc(e->n_arms, sizeof(*row->inputs));
	row->n_inputs = xcalloc(e->n_arms, sizeof(*row->n_inputs));
	pab_json_in_push_key(in, "executables");
	cJSON_ArrayForEach(it, o) {
		int a = pab_experiment_arm_index(e, it->string);
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "sha256");

		if (a < 0)
			continue; /* no digest for an arm renamed by hand: resume refuses */
		if (!cJSON_IsObject(it) || !cJSON_IsString(d) ||
		    !is_sha256_hex(d->valuestring) || (p && !cJSON_IsString(p) && !cJSON_IsNull(p))) {
			pab_json_in_push_key(in, it->string);
			pab_json_in_fail(in, NULL, "must be {\"path\": STRING, \"sha256\": 64 "
					 "hex digits}");
			pab_json_in_pop(in);
			break;
		}
		row->exe_sha256[a] = xstrdup(d->valuestring);
		if (cJSON_IsString(p))
			row->exes[a] = xstrdup(p->valuestring);
		pab_json_in_push_key(in, it->string);
		load_inputs(in, it, row, (size_t)a);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* What a row records of itself besides its reps. */
static int load_row_fields(struct pab_json_in *in, const struct pab_experiment *e,
			   const cJSON *o, struct pab_row *row)
{
	const cJSON *exes, *host, *reason;
	const int opt = PAB_JSON_NULLABLE;
	int got_exes, got_host;

	if (dup_string(in, o, "workload", opt, &row->workload) ||
	    dup_string(in, o, "program", opt, &row->program) ||
	    load_argv(in, o, "argv", 0, &row->argv, &row->argc) ||
	    load_kv(in, o, "params", 0, &row->params, &row->n_params) ||
	    pab_json_in_bool(in, o, "control", PAB_JSON_REQUIRED, &row->control) < 0 ||
	    (got_exes = pab_json_in_object(in, o, "executables", 0, &exes)) < 0 ||
	    (got_exes && load_executables(in, e, exes, row)) ||
	    (got_host = pab_json_in_object(in, o, "host", opt, &host)) < 0)
		return -1;
	if (got_host)
		row->host = cJSON_Duplicate(host, 1);
	row->failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "failed"));
	reason = cJSON_GetObjectItemCaseSensitive(o, "fail_reason");
	if (cJSON_IsString(reason))
		row->fail_reason = xstrdup(reason->valuestring);
	return 0;
}

/* rows[i], with the cursor at it. */
static int load_row(struct pab_json_in *in, const struct pab_experiment *e,
		    const cJSON *o, struct pab_row *row)
{
	const cJSON *reps, *it;
	size_t r = 0;

	if (!cJSON_IsObject(o))
		return pab_json_in_fail(in, NULL, "must be an object");
	if (dup_string(in, o, "name", PAB_JSON_REQUIRED, &row->name))
		return -1;
	pab_json_in_name(in, row->name);
	if (load_row_fields(in, e, o, row) ||
	    pab_json_in_array(in, o, "reps", PAB_JSON_REQUIRED, &reps) < 0)
		return -1;
	pab_json_in_push_key(in, "reps");
	cJSON_ArrayForEach(it, reps) {
		struct pab_rep *rep = pab_row_add_rep(row, e->n_arms);

		pab_json_in_push_index(in, r++);
		load_rep(in, e, it, rep);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* A journal id: 32 lowercase hex digits. */
static int valid_journal_id(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return i == 32;
}

/* "journal": {"id": "<32 hex>", "folded": N}, or null. */
static int load_journal_ref(struct pab_json_in *in, const cJSON *root,
			    struct pab_experiment *e)
{
	const cJSON *o;
	const char *id;
	size_t folded;
	int got = pab_json_in_object(in, root, "journal", PAB_JSON_NULLABLE, &o);

	if (got <= 0)
		return got;
	pab_json_in_push_key(in, "journal");
	if (pab_json_in_string(in, o, "id", PAB_JSON_REQUIRED, &id) == 1 &&
	    !valid_journal_id(id))
		pab_json_in_fail(in, "id", "must be 32 lowercase hex digits");
	if (pab_json_in_count(in, o, "folded", PAB_JSON_REQUIRED, 9007199254740991.0,
			      &folded) == 1) {
		e->journal_id = xstrdup(id);
		e->journal_folded = folded;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* schema, perfab_version, protocol: what says how to read the rest. */
static int load_identity(struct pab_json_in *in, const cJSON *root,
			 struct pab_experiment *e)
{
	const char *schema, *version, *protocol;
	const int req = PAB_JSON_REQUIRED;

	if (pab_json_in_string(in, root, "schema", req, &schema) < 0)
		return -1;
	if (strcmp(schema, PAB_SCHEMA))
		return pab_json_in_fail_here(in, "unknown schema '%.100s' (this perfab "
					     "reads '%s')", pab_term_safe(schema), PAB_SCHEMA);
	if (pab_json_in_string(in, root, "perfab_version", req, &version) < 0 ||
	    pab_json_in_string(in, root, "protocol", req, &protocol) < 0)
		return -1;
	if (strcmp(protocol, PAB_PROTOCOL_NAME))
		return pab_json_in_fail_here(in, "unknown protocol '%.100s' (this perfab "
					     "knows '%s')", pab_term_safe(protocol),
					     PAB_PROTOCOL_NAME);
	free(e->perfab_version);
	e->perfab_version = xstrdup(version);
	free(e->protocol);
	e->protocol = xstrdup(protocol);
	return 0;
}

/* complete, seed, journal, rules, tolerance, margin, reps: the run's state and rules. */
static int load_settings(struct pab_json_in *in, const cJSON *root,
			 struct pab_experiment *e)
{
	const cJSON *tol, *it;
	const char *rules;
	enum pab_rules rr;
	double seed;

	if (pab_json_in_bool(in, root, "complete", PAB_JSON_REQUIRED, &e->complete) < 0 ||
	    pab_json_in_whole(in, root, "seed", PAB_JSON_REQUIRED, 0, 9007199254740991.0,
			      NULL, &seed) < 0 ||
	    load_journal_ref(in, root, e) ||
	    pab_json_in_string(in, root, "rules", 0, &rules) < 0)
		return -1;
	e->seed = (uint64_t)seed;
	if (cJSON_GetObjectItemCaseSensitive(root, "rules")) {
		if (pab_rules_parse(rules, &rr))
			return pab_json_in_fail(in, "rules", "must be \"perfab/2\", \"perfab/1\" "
						"or \"rule12\"");
		e->rules = rr;
	}
	tol = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
	if (!cJSON_IsObject(tol))
		tol = NULL; /* as before: only an object of numbers is read */
	pab_json_in_push_key(in, "tolerance");
	cJSON_ArrayForEach(it, tol) {
		const struct pab_metric *met = pab_metric_find(it->string);

		if (!met)
			continue;
		pab_json_in_push_key(in, it->string);
		pab_json_in_number(in, it, NULL, 0, 0, 1000, NULL, &e->tolerance[met->id]);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	if (pab_json_in_failed(in) ||
	    pab_json_in_number(in, root, "equivalence_margin", 0, 0, 1000, NULL,
			       &e->equivalence_margin) < 0 ||
	    pab_json_in_count(in, root, "reps", PAB_JSON_REQUIRED, 1e9, &e->reps) < 0 ||
	    pab_json_in_count(in, root, "max_reps", PAB_JSON_REQUIRED, 1e9, &e->max_reps) < 0)
		return -1;
	return 0;
}

/* stopped_by, sanity, host, run: kept as recorded (the run's own records). */
static void load_records(const cJSON *root, struct pab_experiment *e)
{
	const cJSON *v;

	/* Another string is reserved (section 8): judged as none, as before. */
	v = cJSON_GetObjectItemCaseSensitive(root, "stopped_by");
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "sanity-gate"))
		e->stopped_by = PAB_STOP_SANITY_GATE;
	v = cJSON_GetObjectItemCaseSensitive(root, "sanity");
	if (v && !cJSON_IsNull(v))
		e->sanity = cJSON_Duplicate(v, 1);
	v = cJSON_GetObjectItemCaseSensitive(root, "host");
	e->host = cJSON_IsObject(v) ? cJSON_Duplicate(v, 1) : cJSON_CreateObject();
	v = cJSON_GetObjectItemCaseSensitive(root, "run");
	e->run = cJSON_IsObject(v) ? cJSON_Duplicate(v, 1) : cJSON_CreateObject();
	pab_run_settings_read(e->run, &e->settings);
}

/* arms: 1 to 64 of them, names unique. */
static int load_arms(struct pab_json_in *in, const cJSON *root,
		     struct pab_experiment *e)
{
	const cJSON *arms = pab_json_in_get(in, root, "arms", PAB_JSON_REQUIRED), *it;
	size_t i = 0, n;

	if (!arms)
		return -1;
	if (!cJSON_IsArray(arms) || !cJSON_GetArraySize(arms))
		return pab_json_in_fail(in, "arms", "must be a non-empty array");
	n = (size_t)cJSON_GetArraySize(arms);
	if (n > 64)
		return pab_json_in_fail_here(in, "%zu arms is more than perfab handles (64)",
					     n);
	e->arms = xcalloc(n, sizeof(*e->arms));
	pab_json_in_push_key(in, "arms");
	cJSON_ArrayForEach(it, arms) {
		pab_json_in_push_index(in, i);
		e->n_arms = i + 1;
		if (!load_arm(in, it, &e->arms[i]) &&
		    pab_experiment_arm_index(e, e->arms[i].name) != (int)i)
			pab_json_in_fail_here(in, "duplicate arm name '%.100s'",
					      pab_term_safe(e->arms[i].name));
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
		i++;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* rows: an array, possibly empty. */
static int load_rows(struct pab_json_in *in, const cJSON *root,
		     struct pab_experiment *e)
{
	const cJSON *rows, *it;
	size_t i = 0;

	if (pab_json_in_array(in, root, "rows", PAB_JSON_REQUIRED, &rows) < 0)
		return -1;
	e->rows = xcalloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof(*e->rows));
	pab_json_in_push_key(in, "rows");
	cJSON_ArrayForEach(it, rows) {
		pab_json_in_push_index(in, i);
		e->n_rows = ++i;
		load_row(in, e, it, &e->rows[i - 1]);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

int pab_artifact_parse(const char *text, size_t len,
		       struct pab_experiment *e, char **why)
{
	struct pab_json_in in;
	cJSON *root;
	int ret = -1;

	pab_experiment_init(e);
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	root = pab_json_in_parse(&in, text, len, NULL);
	if (!root)
		goto out_fail;
	if (!cJSON_IsObject(root)) {
		pab_json_in_fail_here(&in, "the top level must be a JSON object");
		goto out_fail;
	}
	if (load_identity(&in, root, e) || load_settings(&in, root, e))
		goto out_fail;
	load_records(root, e);
	if (load_arms(&in, root, e) || load_rows(&in, root, e))
		goto out_fail;
	if (pab_experiment_check_protocol(e, why)) {
		ret = PAB_ARTIFACT_BAD_PROTOCOL;
		goto out_release;
	}
	cJSON_Delete(root);
	pab_json_in_release(&in);
	*why = NULL;
	return 0;

out_fail:
	*why = pab_json_in_take_why(&in);
	if (!*why)
		*why = xstrdup("invalid artifact");
out_release:
	cJSON_Delete(root);
	pab_json_in_release(&in);
	pab_experiment_release(e);
	return ret;
}

static int apply_journal(const char *path, struct pab_experiment *e,
			 struct pab_journal_info *info, char **why);

int pab_artifact_load(const char *path, struct pab_experiment *e, char **why)
{
	return pab_artifact_load_journaled(path, e, NULL, why);
}

int pab_artifact_load_journaled(const char *path, struct pab_experiment *e,
				struct pab_journal_info *info, char **why)
{
	size_t len;
	char *text = NULL;
	char *inner;
	struct stat st;
	size_t max;
	int ret;

	if (info)
		memset(info, 0, sizeof(*info));

	/* Giants are refused before reading a byte; a pipe or device (e.g.
	 * /dev/stdin) is read with a smaller cap, so /dev/zero ends quickly. */
	if (!stat(path, &st) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > PAB_ARTIFACT_MAX_BYTES) {
		pab_experiment_init(e);
		pab_experiment_release(e);
		*why = xasprintf("cannot read '%s': %lld bytes is more than perfab reads (%zu)",
				 path, (long long)st.st_size, PAB_ARTIFACT_MAX_BYTES);
		return -1;
	}
	max = !stat(path, &st) && !S_ISREG(st.st_mode) ? PAB_STREAM_MAX_BYTES
						       : PAB_ARTIFACT_MAX_BYTES;
	text = read_file_max(path, max, &len);
	if (!text) {
		pab_experiment_init(e);
		pab_experiment_release(e);
		*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = pab_artifact_parse(text, len, e, &inner);
	free(text);
	if (ret) {
		*why = xasprintf("'%s': %s", path, inner);
		free(inner);
		return ret;
	}
	/* The journal beside a regular file completes it (journal.h). */
	if (!stat(path, &st) && S_ISREG(st.st_mode)) {
		struct pab_journal_info tmp;

		ret = apply_journal(path, e, info ? info : &tmp, why);
		if (ret)
			pab_experiment_release(e);
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* The checkpoint journal                                             */

char *pab_artifact_journal_path(const char *path)
{
	return xasprintf("%s.journal", path);
}

/* Start writing into a memory buffer (caller: finish_memstream); NULL + why. */
static FILE *start_memstream(char **buf, size_t *len, char **why)
{
	FILE *f = open_memstream(buf, len);

	*why = NULL;
	if (!f)
		*why = xasprintf("cannot start a journal record: %s", strerror(errno));
	return f;
}

/* The record written to f (new memory), or NULL + why. */
static char *finish_memstream(FILE *f, char **buf, size_t *len, char **why)
{
	if (fclose(f)) {
		*why = xasprintf("cannot build a journal record: %s", strerror(errno));
		free(*buf);
		*buf = NULL;
		return NULL;
	}
	return *buf ? *buf : (*len = 0, xstrdup(""));
}

char *pab_artifact_journal_header(const struct pab_experiment *e, size_t *len,
				  char **why)
{
	char *buf = NULL;
	FILE *f = start_memstream(&buf, len, why);
	struct jw w = { f };

	if (!e->journal_id)
		BUG("journal header without a journal id");
	if (!f)
		return NULL;
	fputc('{', f);
	jw_key(&w, "journal"); jw_str(&w, PAB_JOURNAL_SCHEMA); fputc(',', f);
	jw_key(&w, "artifact_schema"); jw_str(&w, e->schema); fputc(',', f);
	jw_key(&w, "id"); jw_str(&w, e->journal_id); fputc(',', f);
	jw_key(&w, "seed"); jw_num(&w, (double)e->seed);
	fputc('}', f);
	return finish_memstream(f, &buf, len, why);
}

char *pab_artifact_rep_record(const struct pab_experiment *e, size_t row,
			      size_t *len, char **why)
{
	const struct pab_row *r = &e->rows[row];
	char *buf = NULL;
	FILE *f = start_memstream(&buf, len, why);
	struct jw w = { f };

	if (!r->n_reps)
		BUG("journal record of row '%s' without a rep", r->name);
	if (!f)
		return NULL;
	fprintf(f, "{\"row\":%zu,", row);
	jw_key(&w, "name"); jw_str(&w, r->name);
	fprintf(f, ",\"rep\":%zu,\"failed\":%s,", r->n_reps - 1,
		r->failed ? "true" : "false");
	jw_key(&w, "fail_reason"); jw_str_or_null(&w, r->fail_reason);
	fputs(",\"data\":", f);
	jw_rep(&w, e, &r->reps[r->n_reps - 1]);
	fputc('}', f);
	return finish_memstream(f, &buf, len, why);
}

/* Check the header (record 0) binds the journal to e; 0 or -1 + why. */
static int check_journal_header(const char *jpath, const char *path,
				const struct pab_experiment *e,
				const struct pab_journal_record *h, char **why)
{
	char *inner;
	cJSON *root = pab_json_parse(h->payload, h->len, &inner);
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(root, "journal");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
	int ret = -1;

	if (!root) {
		*why = xasprintf("'%s': its header: %s", jpath, inner);
		free(inner);
	} else if (!cJSON_IsString(kind) || strcmp(kind->valuestring, PAB_JOURNAL_SCHEMA) ||
	    !cJSON_IsString(id) || !cJSON_IsNumber(seed)) {
		*why = xasprintf("'%s' is not a %s journal (its header lacks the journal "
				 "kind, id or seed): move it away from '%s'", jpath,
				 PAB_JOURNAL_SCHEMA, path);
	} else if (!e->journal_id) {
		*why = xasprintf("'%s' (journal id %.40s) lies beside '%s', which names no "
				 "journal: they do not belong together; move the journal away",
				 jpath, pab_term_safe(id->valuestring), path);
	} else if (strcmp(id->valuestring, e->journal_id) ||
		   seed->valuedouble != (double)e->seed) {
		*why = xasprintf("'%s' belongs to another run (journal id %.40s, seed %.0f) "
				 "than '%s' (journal id %s, seed %llu): move it away or delete it",
				 jpath, pab_term_safe(id->valuestring), seed->valuedouble, path,
				 e->journal_id,
				 (unsigned long long)e->seed);
	} else if (h->seq > e->journal_folded) {
		*why = xasprintf("'%s' starts after record %llu, but '%s' holds the reps of "
				 "records up to %llu only: records are missing",
				 jpath, (unsigned long long)h->seq, path,
				 (unsigned long long)e->journal_folded);
	} else {
		ret = 0;
	}
	cJSON_Delete(root);
	return ret;
}

/*
 * The row of e a journal record names, by index and name, for the rep it
 * holds next; NULL after recording why not in the cursor.
 */
static struct pab_row *record_row(struct pab_json_in *in, struct pab_experiment *e,
				  const cJSON *root)
{
	const double max = 9007199254740991.0;
	const char *name;
	double row, rep;
	struct pab_row *r;

	if (pab_json_in_whole(in, root, "row", PAB_JSON_REQUIRED, 0, max, NULL, &row) < 0 ||
	    pab_json_in_string(in, root, "name", PAB_JSON_REQUIRED, &name) < 0 ||
	    pab_json_in_whole(in, root, "rep", PAB_JSON_REQUIRED, 0, max, NULL, &rep) < 0)
		return NULL;
	if (row >= (double)e->n_rows || strcmp(e->rows[(size_t)row].name, name)) {
		pab_json_in_fail_here(in, "names row %.0f '%.100s', which the artifact does "
				      "not have there", row, pab_term_safe(name));
		return NULL;
	}
	r = &e->rows[(size_t)row];
	if (rep != (double)r->n_reps) {
		pab_json_in_fail_here(in, "holds rep %.0f of row '%.100s', which has %zu: it "
				      "does not continue the artifact", rep + 1,
				      pab_term_safe(r->name), r->n_reps);
		return NULL;
	}
	return r;
}

/* Add the rep of journal record rec to e; 0 or -1 + why. */
static int apply_record(const char *jpath, struct pab_experiment *e,
			const struct pab_journal_record *rec, char **why)
{
	char *prefix = xasprintf("'%s': record %llu", jpath, (unsigned long long)rec->seq);
	struct pab_json_in in;
	const cJSON *data, *reason;
	struct pab_row *r = NULL;
	cJSON *root;

	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, prefix, NULL);
	root = pab_json_in_parse(&in, rec->payload, rec->len, NULL);
	if (root && !cJSON_IsObject(root))
		pab_json_in_fail_here(&in, "not a rep record (not a JSON object)");
	if (root && !pab_json_in_failed(&in))
		r = record_row(&in, e, root);
	if (r && pab_json_in_object(&in, root, "data", PAB_JSON_REQUIRED, &data) == 1) {
		pab_json_in_push_key(&in, "data");
		load_rep(&in, e, data, pab_row_add_rep(r, e->n_arms));
		pab_json_in_pop(&in);
	}
	if (!pab_json_in_failed(&in) &&
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "failed"))) {
		r->failed = 1;
		reason = cJSON_GetObjectItemCaseSensitive(root, "fail_reason");
		if (cJSON_IsString(reason) && !r->fail_reason)
			r->fail_reason = xstrdup(reason->valuestring);
	}
	*why = pab_json_in_take_why(&in);
	cJSON_Delete(root);
	pab_json_in_release(&in);
	free(prefix);
	return *why ? -1 : 0;
}

/*
 * Read path's journal, if any, and add the reps it holds beyond
 * e->journal_folded to e. 0 (info filled) or -1 + why.
 */
static int apply_journal(const char *path, struct pab_experiment *e,
			 struct pab_journal_info *info, char **why)
{
	char *jpath = pab_artifact_journal_path(path), *inner;
	struct pab_journal_contents c;
	size_t i;
	int ret;

	ret = pab_journal_read(jpath, &c, &inner);
	if (ret == 1) {
		free(jpath);
		return 0;
	}
	if (ret < 0) {
		*why = xasprintf("cannot trust the checkpoint journal of '%s': %s", path, inner);
		free(inner);
		free(jpath);
		return -1;
	}
	info->present = 1;
	info->torn = c.torn;
	info->torn_bytes = c.torn_bytes;
	ret = 0;
	if (c.n)
		ret = check_journal_header(jpath, path, e, &c.records[0], why);
	for (i = 1; !ret && i < c.n; i++) {
		if (c.records[i].seq <= e->journal_folded)
			continue; /* its rep is in the artifact already */
		if (e->complete) {
			*why = xasprintf("'%s' holds reps recorded after '%s' was complete: "
					 "they do not belong together; move the journal away",
					 jpath, path);
			ret = -1;
			break;
		}
		ret = apply_record(jpath, e, &c.records[i], why);
		if (!ret) {
			e->journal_folded = c.records[i].seq;
			info->applied++;
		}
	}
	/* The journal's reps are data like the artifact's: the same protocol
	 * check (orders, blocks, balance) holds for the whole. */
	if (!ret && info->applied && pab_experiment_check_protocol(e, &inner)) {
		*why = xasprintf("'%s' with its journal '%s': %s", path, jpath, inner);
		free(inner);
		ret = PAB_ARTIFACT_BAD_PROTOCOL;
	}
	pab_journal_contents_release(&c);
	free(jpath);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The lock and stale temp files                                      */

/*
 * The locks this process holds, so that every way out of it removes
 * their files: pab_artifact_unlock(), or exit() (die() included) through
 * the atexit handler, in the process that holds them last: the guard's
 * start forks perfab on into a new process, and only the parent of that
 * fork ends with _exit(). A signal that kills perfab leaves the file;
 * the flock went with the process, so the next writer takes it anyway.
 */
static struct held_lock {
	char *lock_path;
	int fd;
} held[4];
static pid_t held_pid;

static void unlock_all_at_exit(void)
{
	size_t i;

	if (getpid() != held_pid)
		return;
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held[i].lock_path) {
			unlink(held[i].lock_path);
			close(held[i].fd);
			free(held[i].lock_path);
			held[i].lock_path = NULL;
		}
}

/* In a forked child: the locks are its to remove now (the guard's start
 * forks perfab on, guard.h); children that exec or _exit never do. */
static void hold_in_child(void)
{
	held_pid = getpid();
}

static void hold(const char *lock, int fd)
{
	static int registered;
	size_t i;

	if (!registered) {
		registered = 1;
		atexit(unlock_all_at_exit);
		pthread_atfork(NULL, NULL, hold_in_child);
	}
	held_pid = getpid();
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (!held[i].lock_path) {
			held[i].lock_path = xstrdup(lock);
			held[i].fd = fd;
			return;
		}
	BUG("more than %zu artifact locks held", sizeof(held) / sizeof(held[0]));
}

int pab_artifact_lock(const char *path, char **why)
{
	char *lock = xasprintf("%s.lock", path);
	struct stat a, b;
	int fd = -1, tries, err = 0;

	*why = NULL;
	for (tries = 0; tries < 16; tries++) {
		fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
		if (fd < 0) {
			err = errno;
			*why = xasprintf("cannot open the lock file '%s': %s", lock,
					 strerror(err));
			break;
		}
		if (fstat(fd, &a) || !S_ISREG(a.st_mode)) {
			err = EEXIST;
			*why = xasprintf("'%s' is not a regular file: perfab uses it as the "
					 "lock of '%s'; remove it", lock, path);
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			err = errno;
			if (err == EWOULDBLOCK)
				*why = xasprintf("'%s' is in use: another perfab run writes it "
						 "(it holds '%s'); wait for it to finish, or "
						 "choose another --out", path, lock);
			else
				*why = xasprintf("cannot lock '%s': %s", lock, strerror(err));
			break;
		}
		/* Locked: but is it still the file at that name? A holder that
		 * finished unlinks it; then lock the new one. */
		if (!stat(lock, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			hold(lock, fd);
			free(lock);
			return fd;
		}
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	if (!*why) {
		err = EAGAIN;
		*why = xasprintf("cannot lock '%s': it keeps being replaced", lock);
	}
	free(lock);
	errno = err;
	return -1;
}

void pab_artifact_unlock(const char *path, int fd)
{
	char *lock;
	size_t i;

	if (fd < 0)
		return;
	lock = xasprintf("%s.lock", path);
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held[i].lock_path && held[i].fd == fd) {
			free(held[i].lock_path);
			held[i].lock_path = NULL;
		}
	unlink(lock);
	close(fd);
	free(lock);
}

size_t pab_artifact_clean_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = pab_dir_of(path);
	const char *base = slash ? slash + 1 : path;
	size_t removed = 0;
	struct dirent *de;
	DIR *d;
	int dfd;

	d = opendir(dir);
	dfd = d ? dirfd(d) : -1;
	while (d && (de = readdir(d))) {
		struct stat st;
		long pid;

		if (!pab_is_own_temp(base, de->d_name, &pid))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (pid == (long)getpid() || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue; /* its writer may still be at work */
		if (!unlinkat(dfd, de->d_name, 0))
			removed++;
	}
	if (d)
		closedir(d);
	free(dir);
	return removed;
}
