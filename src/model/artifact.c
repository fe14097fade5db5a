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
#include "model/artifact.h"
#include "model/journal.h"
#include "model/run_settings.h"
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

static void jw_rep(struct jw *w, const struct pab_experiment *e,
		   const struct pab_rep *rep)
{
	size_t k, a, m;
	int any;

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
	fputs("},\n\"status\":{", w->f);
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
	fputs("},\n\"null_reasons\":{", w->f);
	any = 0;
	for (a = 0; a < e->n_arms; a++) {
		int first = 1;

		for (m = 0; m < PAB_M_COUNT; m++) {
			const struct pab_arm_result *r = &rep->result[a];

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
	any = 0;
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

static void write_artifact(FILE *f, const struct pab_experiment *e)
{
	struct jw w = { f };
	size_t i, r, m;
	int first = 1;
	cJSON *run;

	fputs("{\n", f);
	jw_key(&w, "schema"); jw_str(&w, e->schema); fputs(",\n", f);
	jw_key(&w, "perfab_version"); jw_str(&w, e->perfab_version); fputs(",\n", f);
	jw_key(&w, "protocol"); jw_str(&w, e->protocol); fputs(",\n", f);
	fprintf(f, "\"complete\":%s,\n", e->complete ? "true" : "false");
	jw_key(&w, "seed"); jw_num(&w, (double)e->seed); fputs(",\n", f);
	jw_key(&w, "journal");
	if (e->journal_id) {
		fputc('{', f);
		jw_key(&w, "id"); jw_str(&w, e->journal_id);
		fprintf(f, ",\"folded\":%llu}", (unsigned long long)e->journal_folded);
	} else {
		fputs("null", f);
	}
	fputs(",\n", f);
	jw_key(&w, "rules"); jw_str(&w, e->rules); fputs(",\n", f);
	fputs("\"tolerance\":{", f);
	for (m = 0; m < PAB_M_COUNT; m++)
		if (pab_metrics[m].judged || e->tolerance[m] != 2.0) {
			if (!first)
				fputc(',', f);
			jw_key(&w, pab_metrics[m].name);
			jw_num(&w, e->tolerance[m]);
			first = 0;
		}
	fputs("},\n", f);
	jw_key(&w, "equivalence_margin"); jw_num(&w, e->equivalence_margin); fputs(",\n", f);
	fprintf(f, "\"reps\":%zu,\n\"max_reps\":%zu,\n", e->reps, e->max_reps);
	jw_key(&w, "stopped_by");
	jw_str_or_null(&w, pab_stop_reason_name(e->stopped_by));
	fputs(",\n", f);
	jw_key(&w, "sanity"); jw_cjson(&w, e->sanity, 0); fputs(",\n", f);
	jw_key(&w, "host"); jw_cjson(&w, e->host, 1); fputs(",\n", f);
	run = pab_run_settings_json(&e->settings, e->run);
	jw_key(&w, "run"); jw_cjson(&w, run, 1); fputs(",\n", f);
	cJSON_Delete(run);
	fputs("\"arms\":[\n", f);
	for (i = 0; i < e->n_arms; i++) {
		const struct pab_arm *arm = &e->arms[i];

		fputs(i ? ",\n{" : "{", f);
		jw_key(&w, "name"); jw_str(&w, arm->name);
		fputc(',', f); jw_key(&w, "argv"); jw_argv(&w, arm->argv, arm->argc);
		fputc(',', f); jw_key(&w, "env"); jw_kv(&w, arm->env, arm->n_env);
		fputc(',', f); jw_key(&w, "revision"); jw_str_or_null(&w, arm->revision);
		fputc(',', f); jw_key(&w, "exe"); jw_str_or_null(&w, arm->exe);
		fputc(',', f); jw_key(&w, "sha256"); jw_str_or_null(&w, arm->sha256);
		fputc(',', f); jw_key(&w, "preserved"); jw_str_or_null(&w, arm->preserved);
		fputc('}', f);
	}
	fputs("],\n\"rows\":[\n", f);
	for (i = 0; i < e->n_rows; i++) {
		const struct pab_row *row = &e->rows[i];

		fputs(i ? ",\n{" : "{", f);
		jw_key(&w, "name"); jw_str(&w, row->name);
		fputc(',', f); jw_key(&w, "workload"); jw_str_or_null(&w, row->workload);
		fputc(',', f); jw_key(&w, "program"); jw_str_or_null(&w, row->program);
		fputc(',', f); jw_key(&w, "argv"); jw_argv(&w, row->argv, row->argc);
		fputc(',', f); jw_key(&w, "params"); jw_kv(&w, row->params, row->n_params);
		if (row->exe_sha256) {
			size_t a, k = 0;

			fputc(',', f);
			jw_key(&w, "executables");
			fputc('{', f);
			for (a = 0; a < e->n_arms; a++) {
				if (!row->exe_sha256[a])
					continue;
				if (k++)
					fputc(',', f);
				jw_key(&w, e->arms[a].name);
				fputc('{', f);
				jw_key(&w, "path");
				jw_str_or_null(&w, row->exes ? row->exes[a] : NULL);
				fputc(',', f);
				jw_key(&w, "sha256");
				jw_str(&w, row->exe_sha256[a]);
				fputc('}', f);
			}
			fputc('}', f);
		}
		fprintf(f, ",\"control\":%s,\"failed\":%s,", row->control ? "true" : "false",
			row->failed ? "true" : "false");
		jw_key(&w, "fail_reason"); jw_str_or_null(&w, row->fail_reason);
		if (row->host) {
			fputc(',', f); jw_key(&w, "host"); jw_cjson(&w, row->host, 1);
		}
		fputs(",\"reps\":[\n", f);
		for (r = 0; r < row->n_reps; r++) {
			if (r)
				fputs(",\n", f);
			jw_rep(&w, e, &row->reps[r]);
		}
		fputs("]}", f);
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

/* ------------------------------------------------------------------ */
/* The checked JSON reader                                            */

/* Byte offset of the first "\u0000" inside a string, or -1. */
static long find_nul_escape(const char *text, size_t len)
{
	size_t i;
	int in_string = 0;

	for (i = 0; i < len; i++) {
		if (!in_string) {
			if (text[i] == '"')
				in_string = 1;
			continue;
		}
		if (text[i] == '"') {
			in_string = 0;
		} else if (text[i] == '\\' && i + 1 < len) {
			if (text[i + 1] == 'u' && i + 5 < len && !memcmp(text + i + 2, "0000", 4))
				return (long)i;
			i++; /* the escaped character */
		}
	}
	return -1;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first key some object under v holds twice, or NULL. */
static const char *find_duplicate_key(const cJSON *v)
{
	const cJSON *it;
	const char *dup = NULL;

	if (cJSON_IsObject(v) && v->child && v->child->next) {
		size_t n = 0, i;
		const char **keys;

		cJSON_ArrayForEach(it, v)
			n++;
		keys = xcalloc(n, sizeof(*keys));
		n = 0;
		cJSON_ArrayForEach(it, v)
			keys[n++] = it->string ? it->string : "";
		qsort(keys, n, sizeof(*keys), cmp_key);
		for (i = 1; i < n && !dup; i++)
			if (!strcmp(keys[i - 1], keys[i]))
				dup = keys[i];
		free(keys);
	}
	for (it = v ? v->child : NULL; it && !dup; it = it->next)
		dup = find_duplicate_key(it);
	return dup;
}

cJSON *pab_json_parse(const char *text, size_t len, char **why)
{
	const char *end = NULL, *dup;
	cJSON *root;
	long nul;

	*why = NULL;
	nul = find_nul_escape(text, len);
	if (nul >= 0) {
		*why = xasprintf("a string holds \\u0000 (at byte %ld): NUL is not allowed "
				 "in perfab's JSON", nul);
		return NULL;
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= text && at <= text + len ?
			(size_t)(at - text) : 0;

		*why = xasprintf("not valid JSON (error near byte %zu)", off);
		return NULL;
	}
	/* cJSON stops after the first value: refuse what follows it (two
	 * documents concatenated, or junk appended), as a JSON reader must. */
	while (end < text + len && *end && strchr(" \t\n\r", *end))
		end++;
	if (end != text + len) {
		*why = xasprintf("not valid JSON (data after the top-level value, at byte %zu)",
				 (size_t)(end - text));
		cJSON_Delete(root);
		return NULL;
	}
	dup = find_duplicate_key(root);
	if (dup) {
		*why = xasprintf("an object holds the key '%s' twice: JSON readers disagree "
				 "on which one counts", pab_term_safe(dup));
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int pab_artifact_load_exit_code(int load_ret)
{
	return load_ret == PAB_ARTIFACT_BAD_PROTOCOL ? PAB_EXIT_REFUSED : PAB_EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */

struct loader {
	char *why;
};

static int fail(struct loader *ld, const char *fmt, ...) PAB_PRINTF(2, 3);
static int fail(struct loader *ld, const char *fmt, ...)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	va_list ap;
	char tmp[512];

	if (ld->why)
		return -1;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	pab_strbuf_addstr(&sb, tmp);
	ld->why = pab_strbuf_detach(&sb);
	return -1;
}

static const cJSON *get(struct loader *ld, const cJSON *o, const char *key,
			const char *ctx)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v)
		fail(ld, "%s: missing field '%s'", ctx, key);
	return v;
}

static char *get_string(struct loader *ld, const cJSON *o, const char *key,
			const char *ctx, int nullable)
{
	const cJSON *v = get(ld, o, key, ctx);

	if (!v)
		return NULL;
	if (nullable && cJSON_IsNull(v))
		return NULL;
	if (!cJSON_IsString(v)) {
		fail(ld, "%s: field '%s' must be a string", ctx, key);
		return NULL;
	}
	return xstrdup(v->valuestring);
}

static int get_count(struct loader *ld, const cJSON *o, const char *key,
		     const char *ctx, double max, size_t *out)
{
	const cJSON *v = get(ld, o, key, ctx);

	if (!v)
		return -1;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble < 0 || v->valuedouble > max ||
	    v->valuedouble != floor(v->valuedouble))
		return fail(ld, "%s: field '%s' must be a whole number in [0, %.0f]",
			    ctx, key, max);
	*out = (size_t)v->valuedouble;
	return 0;
}

static int get_bool(struct loader *ld, const cJSON *o, const char *key,
		    const char *ctx, int *out)
{
	const cJSON *v = get(ld, o, key, ctx);

	if (!v)
		return -1;
	if (!cJSON_IsBool(v))
		return fail(ld, "%s: field '%s' must be true or false", ctx, key);
	*out = cJSON_IsTrue(v);
	return 0;
}

static int load_kv(struct loader *ld, const cJSON *o, const char *ctx,
		   struct pab_kv **kv, size_t *n)
{
	const cJSON *it;

	if (!cJSON_IsObject(o))
		return fail(ld, "%s must be an object of strings", ctx);
	cJSON_ArrayForEach(it, o) {
		if (!cJSON_IsString(it))
			return fail(ld, "%s.%s must be a string", ctx, it->string);
		pab_kv_set(kv, n, it->string, it->valuestring);
	}
	return 0;
}

static int load_argv(struct loader *ld, const cJSON *a, const char *ctx,
		     char ***argv, size_t *argc)
{
	size_t n, i = 0;
	const cJSON *it;

	if (!cJSON_IsArray(a))
		return fail(ld, "%s must be an array of strings", ctx);
	n = (size_t)cJSON_GetArraySize(a);
	*argv = xcalloc(n + 1, sizeof(**argv));
	*argc = n;
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it))
			return fail(ld, "%s[%zu] must be a string", ctx, i);
		(*argv)[i++] = xstrdup(it->valuestring);
	}
	return 0;
}

static int load_arm(struct loader *ld, const cJSON *o, size_t i,
		    struct pab_arm *arm)
{
	char ctx[64], path[80];

	snprintf(ctx, sizeof(ctx), "arms[%zu]", i);
	if (!cJSON_IsObject(o))
		return fail(ld, "%s must be an object", ctx);
	arm->name = get_string(ld, o, "name", ctx, 0);
	if (!arm->name)
		return -1;
	if (!pab_valid_arm_name(arm->name))
		return fail(ld, "%s: arm name '%.100s' is not valid (letters, digits, '_', "
			    "'-', '.', not starting with '.' or '-')", ctx,
			    pab_term_safe(arm->name));
	snprintf(path, sizeof(path), "%s.argv", ctx);
	if (load_argv(ld, get(ld, o, "argv", ctx), path, &arm->argv, &arm->argc))
		return -1;
	snprintf(path, sizeof(path), "%s.env", ctx);
	if (load_kv(ld, get(ld, o, "env", ctx), path, &arm->env, &arm->n_env))
		return -1;
	arm->revision = get_string(ld, o, "revision", ctx, 1);
	arm->sha256 = get_string(ld, o, "sha256", ctx, 1);
	if (cJSON_GetObjectItemCaseSensitive(o, "exe"))
		arm->exe = get_string(ld, o, "exe", ctx, 1);
	if (cJSON_GetObjectItemCaseSensitive(o, "preserved"))
		arm->preserved = get_string(ld, o, "preserved", ctx, 1);
	return ld->why ? -1 : 0;
}

static int load_rep(struct loader *ld, const struct pab_experiment *e,
		    const cJSON *o, const char *rowctx, size_t ri,
		    struct pab_rep *rep)
{
	char ctx[512];
	const cJSON *order, *results, *status, *reasons, *sums, *it;
	size_t k = 0, a, m;
	unsigned char *seen;

	snprintf(ctx, sizeof(ctx), "%s.reps[%zu]", rowctx, ri);
	if (!cJSON_IsObject(o))
		return fail(ld, "%s must be an object", ctx);
	if (get_count(ld, o, "block", ctx, 1e12, &rep->block))
		return -1;
	order = get(ld, o, "order", ctx);
	if (!order)
		return -1;
	if (!cJSON_IsArray(order) ||
	    (size_t)cJSON_GetArraySize(order) != e->n_arms)
		return fail(ld, "%s.order must list each of the %zu arms once", ctx,
			    e->n_arms);
	seen = xcalloc(e->n_arms, 1);
	cJSON_ArrayForEach(it, order) {
		int idx = cJSON_IsString(it) ?
			pab_experiment_arm_index(e, it->valuestring) : -1;

		if (idx < 0 || seen[idx]) {
			free(seen);
			return fail(ld, "%s.order must list each of the %zu arms once",
				    ctx, e->n_arms);
		}
		seen[idx] = 1;
		rep->order[k++] = (size_t)idx;
	}
	free(seen);
	results = get(ld, o, "results", ctx);
	if (!results)
		return -1;
	if (!cJSON_IsObject(results))
		return fail(ld, "%s.results must be an object", ctx);
	status = cJSON_GetObjectItemCaseSensitive(o, "status");
	reasons = cJSON_GetObjectItemCaseSensitive(o, "null_reasons");
	sums = cJSON_GetObjectItemCaseSensitive(o, "checksums");
	for (a = 0; a < e->n_arms; a++) {
		const char *name = e->arms[a].name;
		const cJSON *res = cJSON_GetObjectItemCaseSensitive(results, name);
		const cJSON *why = reasons ?
			cJSON_GetObjectItemCaseSensitive(reasons, name) : NULL;
		const cJSON *st = status ?
			cJSON_GetObjectItemCaseSensitive(status, name) : NULL;
		const cJSON *sum = sums ?
			cJSON_GetObjectItemCaseSensitive(sums, name) : NULL;
		struct pab_arm_result *r = &rep->result[a];

		if (!cJSON_IsObject(res))
			return fail(ld, "%s.results: missing object for arm '%s'",
				    ctx, name);
		cJSON_ArrayForEach(it, res) {
			const struct pab_metric *met = pab_metric_find(it->string);

			if (!met)
				continue; /* a metric from a newer perfab: ignored */
			if (cJSON_IsNull(it))
				continue;
			if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) ||
			    fabs(it->valuedouble) > PAB_METRIC_ABS_MAX)
				return fail(ld, "%s.results.%s.%s must be a finite number or null",
					    ctx, name, it->string);
			r->m[met->id] = it->valuedouble;
		}
		for (m = 0; why && cJSON_IsObject(why) && m < PAB_M_COUNT; m++) {
			const cJSON *w = cJSON_GetObjectItemCaseSensitive(
				why, pab_metrics[m].name);

			if (cJSON_IsString(w) && !isfinite(r->m[m]))
				r->reason[m] = xstrdup(w->valuestring);
		}
		if (st && cJSON_IsObject(st)) {
			const cJSON *v;

			v = cJSON_GetObjectItemCaseSensitive(st, "exit_code");
			if (cJSON_IsNumber(v) && fabs(v->valuedouble) < 1e6)
				r->exit_code = (int)v->valuedouble;
			v = cJSON_GetObjectItemCaseSensitive(st, "signal");
			if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
			    v->valuedouble < 256)
				r->term_signal = (int)v->valuedouble;
			r->timed_out = cJSON_IsTrue(
				cJSON_GetObjectItemCaseSensitive(st, "timed_out"));
			r->failed = cJSON_IsTrue(
				cJSON_GetObjectItemCaseSensitive(st, "failed"));
			r->tree_limit = cJSON_IsTrue(
				cJSON_GetObjectItemCaseSensitive(st, "tree_limit"));
			v = cJSON_GetObjectItemCaseSensitive(st, "stderr_tail");
			if (cJSON_IsString(v))
				r->stderr_tail = xstrdup(v->valuestring);
		}
		if (cJSON_IsString(sum))
			r->checksum = xstrdup(sum->valuestring);
	}
	return 0;
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

/* rows[i].executables: {"ARM": {"path": "...", "sha256": "HEX"}, ...}. */
static int load_executables(struct loader *ld, const struct pab_experiment *e,
			    const cJSON *o, const char *ctx, struct pab_row *row)
{
	const cJSON *it;

	if (!cJSON_IsObject(o))
		return fail(ld, "%s.executables must be an object", ctx);
	row->exes = xcalloc(e->n_arms, sizeof(*row->exes));
	row->exe_sha256 = xcalloc(e->n_arms, sizeof(*row->exe_sha256));
	cJSON_ArrayForEach(it, o) {
		int a = pab_experiment_arm_index(e, it->string);
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "sha256");

		if (a < 0)
			continue; /* no digest for an arm renamed by hand: resume refuses */
		if (!cJSON_IsObject(it) || !cJSON_IsString(d) ||
		    !is_sha256_hex(d->valuestring) || (p && !cJSON_IsString(p) && !cJSON_IsNull(p)))
			return fail(ld, "%s.executables.%s must be {\"path\": STRING, "
				    "\"sha256\": 64 hex digits}", ctx, it->string);
		row->exe_sha256[a] = xstrdup(d->valuestring);
		if (cJSON_IsString(p))
			row->exes[a] = xstrdup(p->valuestring);
	}
	return 0;
}

static int load_row(struct loader *ld, const struct pab_experiment *e,
		    const cJSON *o, size_t i, struct pab_row *row)
{
	char ctx[320], path[340];
	const cJSON *reps, *it, *v;
	size_t r = 0;

	snprintf(ctx, sizeof(ctx), "rows[%zu]", i);
	if (!cJSON_IsObject(o))
		return fail(ld, "%s must be an object", ctx);
	row->name = get_string(ld, o, "name", ctx, 0);
	if (!row->name)
		return -1;
	snprintf(ctx, sizeof(ctx), "rows[%zu] ('%.200s')", i, pab_term_safe(row->name));
	v = cJSON_GetObjectItemCaseSensitive(o, "workload");
	if (v && !cJSON_IsNull(v))
		row->workload = get_string(ld, o, "workload", ctx, 1);
	v = cJSON_GetObjectItemCaseSensitive(o, "program");
	if (v && !cJSON_IsNull(v))
		row->program = get_string(ld, o, "program", ctx, 1);
	if (ld->why)
		return -1; /* "workload" or "program" is not a string */
	v = cJSON_GetObjectItemCaseSensitive(o, "argv");
	if (v) {
		snprintf(path, sizeof(path), "%s.argv", ctx);
		if (load_argv(ld, v, path, &row->argv, &row->argc))
			return -1;
	} else {
		row->argv = xcalloc(1, sizeof(*row->argv));
	}
	snprintf(path, sizeof(path), "%s.params", ctx);
	v = cJSON_GetObjectItemCaseSensitive(o, "params");
	if (v && load_kv(ld, v, path, &row->params, &row->n_params))
		return -1;
	if (get_bool(ld, o, "control", ctx, &row->control))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(o, "executables");
	if (v && load_executables(ld, e, v, ctx, row))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(o, "failed");
	row->failed = cJSON_IsTrue(v);
	v = cJSON_GetObjectItemCaseSensitive(o, "fail_reason");
	if (cJSON_IsString(v))
		row->fail_reason = xstrdup(v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(o, "host");
	if (v && !cJSON_IsNull(v)) {
		if (!cJSON_IsObject(v))
			return fail(ld, "%s.host must be an object or null", ctx);
		row->host = cJSON_Duplicate(v, 1);
	}
	reps = get(ld, o, "reps", ctx);
	if (!reps)
		return -1;
	if (!cJSON_IsArray(reps))
		return fail(ld, "%s.reps must be an array", ctx);
	cJSON_ArrayForEach(it, reps) {
		struct pab_rep *rep = pab_row_add_rep(row, e->n_arms);

		if (load_rep(ld, e, it, ctx, r++, rep))
			return -1;
	}
	return 0;
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

/* "journal": {"id": "<32 hex>", "folded": N}. */
static int load_journal_ref(struct loader *ld, const cJSON *o,
			    struct pab_experiment *e)
{
	const cJSON *id;
	size_t folded;

	if (!cJSON_IsObject(o))
		return fail(ld, "artifact: 'journal' must be an object or null");
	id = get(ld, o, "id", "artifact.journal");
	if (!id)
		return -1;
	if (!cJSON_IsString(id) || !valid_journal_id(id->valuestring))
		return fail(ld, "artifact.journal: 'id' must be 32 lowercase hex digits");
	if (get_count(ld, o, "folded", "artifact.journal", 9007199254740991.0, &folded))
		return -1;
	e->journal_id = xstrdup(id->valuestring);
	e->journal_folded = folded;
	return 0;
}

int pab_artifact_parse(const char *text, size_t len,
		       struct pab_experiment *e, char **why)
{
	struct loader ld = { NULL };
	cJSON *root = pab_json_parse(text, len, &ld.why);
	const cJSON *v, *it;
	char *schema;
	size_t i, n;
	double seed;
	int ret = -1;

	pab_experiment_init(e);
	if (!root)
		goto out_fail;
	if (!cJSON_IsObject(root)) {
		fail(&ld, "the top level must be a JSON object");
		goto out_fail;
	}
	schema = get_string(&ld, root, "schema", "artifact", 0);
	if (!schema)
		goto out_fail;
	if (strcmp(schema, PAB_SCHEMA)) {
		fail(&ld, "unknown schema '%.100s' (this perfab reads '%s')", schema,
		     PAB_SCHEMA);
		free(schema);
		goto out_fail;
	}
	free(schema);
	free(e->perfab_version);
	e->perfab_version = get_string(&ld, root, "perfab_version", "artifact", 0);
	free(e->protocol);
	e->protocol = get_string(&ld, root, "protocol", "artifact", 0);
	if (ld.why)
		goto out_fail;
	if (strcmp(e->protocol, PAB_PROTOCOL_NAME)) {
		fail(&ld, "unknown protocol '%.100s' (this perfab knows '%s')",
		     e->protocol, PAB_PROTOCOL_NAME);
		goto out_fail;
	}
	if (get_bool(&ld, root, "complete", "artifact", &e->complete))
		goto out_fail;
	v = get(&ld, root, "seed", "artifact");
	if (!v)
		goto out_fail;
	seed = cJSON_IsNumber(v) ? v->valuedouble : -1;
	if (!(seed >= 0 && seed <= 9007199254740991.0) || seed != floor(seed)) {
		fail(&ld, "artifact: field 'seed' must be a whole number in [0, 2^53)");
		goto out_fail;
	}
	e->seed = (uint64_t)seed;
	v = cJSON_GetObjectItemCaseSensitive(root, "journal");
	if (v && !cJSON_IsNull(v) && load_journal_ref(&ld, v, e))
		goto out_fail;
	v = cJSON_GetObjectItemCaseSensitive(root, "rules");
	if (v) {
		enum pab_rules rr;

		if (!cJSON_IsString(v) || pab_rules_parse(v->valuestring, &rr)) {
			fail(&ld, "artifact: field 'rules' must be \"perfab/2\", \"perfab/1\" or \"rule12\"");
			goto out_fail;
		}
		free(e->rules);
		e->rules = xstrdup(v->valuestring);
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
	if (cJSON_IsObject(v)) {
		cJSON_ArrayForEach(it, v) {
			const struct pab_metric *met = pab_metric_find(it->string);

			if (!met)
				continue;
			if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) ||
			    it->valuedouble > 1000) {
				fail(&ld, "artifact: tolerance.%s must be a number in [0, 1000]",
				     it->string);
				goto out_fail;
			}
			e->tolerance[met->id] = it->valuedouble;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "equivalence_margin");
	if (v) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
		    v->valuedouble > 1000) {
			fail(&ld, "artifact: 'equivalence_margin' must be a number in [0, 1000]");
			goto out_fail;
		}
		e->equivalence_margin = v->valuedouble;
	}
	if (get_count(&ld, root, "reps", "artifact", 1e9, &e->reps) ||
	    get_count(&ld, root, "max_reps", "artifact", 1e9, &e->max_reps))
		goto out_fail;
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

	v = get(&ld, root, "arms", "artifact");
	if (!v)
		goto out_fail;
	if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v)) {
		fail(&ld, "artifact: 'arms' must be a non-empty array");
		goto out_fail;
	}
	n = (size_t)cJSON_GetArraySize(v);
	if (n > 64) {
		fail(&ld, "artifact: %zu arms is more than perfab handles (64)", n);
		goto out_fail;
	}
	e->arms = xcalloc(n, sizeof(*e->arms));
	i = 0;
	cJSON_ArrayForEach(it, v) {
		e->n_arms = i + 1;
		if (load_arm(&ld, it, i, &e->arms[i]))
			goto out_fail;
		if (pab_experiment_arm_index(e, e->arms[i].name) != (int)i) {
			fail(&ld, "arms[%zu]: duplicate arm name '%.100s'", i,
			     e->arms[i].name);
			goto out_fail;
		}
		i++;
	}
	v = get(&ld, root, "rows", "artifact");
	if (!v)
		goto out_fail;
	if (!cJSON_IsArray(v)) {
		fail(&ld, "artifact: 'rows' must be an array");
		goto out_fail;
	}
	n = (size_t)cJSON_GetArraySize(v);
	e->rows = xcalloc(n ? n : 1, sizeof(*e->rows));
	i = 0;
	cJSON_ArrayForEach(it, v) {
		e->n_rows = i + 1;
		if (load_row(&ld, e, it, i, &e->rows[i]))
			goto out_fail;
		i++;
	}
	if (ld.why)
		goto out_fail; /* a problem recorded on a path that went on */
	if (pab_experiment_check_protocol(e, &ld.why)) {
		ret = PAB_ARTIFACT_BAD_PROTOCOL;
		goto out_fail;
	}
	cJSON_Delete(root);
	*why = NULL;
	return 0;

out_fail:
	cJSON_Delete(root);
	pab_experiment_release(e);
	*why = ld.why ? ld.why : xstrdup("invalid artifact");
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

/* Start writing into a memory buffer (caller: finish_memstream). */
static FILE *start_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		die(PAB_EXIT_RUNTIME, "out of memory starting a journal record");
	return f;
}

static char *finish_memstream(FILE *f, char **buf, size_t *len)
{
	if (fclose(f))
		die(PAB_EXIT_RUNTIME, "out of memory writing a journal record");
	return *buf ? *buf : (*len = 0, xstrdup(""));
}

char *pab_artifact_journal_header(const struct pab_experiment *e, size_t *len)
{
	char *buf = NULL;
	FILE *f = start_memstream(&buf, len);
	struct jw w = { f };

	if (!e->journal_id)
		BUG("journal header without a journal id");
	fputc('{', f);
	jw_key(&w, "journal"); jw_str(&w, PAB_JOURNAL_SCHEMA); fputc(',', f);
	jw_key(&w, "artifact_schema"); jw_str(&w, e->schema); fputc(',', f);
	jw_key(&w, "id"); jw_str(&w, e->journal_id); fputc(',', f);
	jw_key(&w, "seed"); jw_num(&w, (double)e->seed);
	fputc('}', f);
	return finish_memstream(f, &buf, len);
}

char *pab_artifact_rep_record(const struct pab_experiment *e, size_t row,
			      size_t *len)
{
	const struct pab_row *r = &e->rows[row];
	char *buf = NULL;
	FILE *f = start_memstream(&buf, len);
	struct jw w = { f };

	if (!r->n_reps)
		BUG("journal record of row '%s' without a rep", r->name);
	fprintf(f, "{\"row\":%zu,", row);
	jw_key(&w, "name"); jw_str(&w, r->name);
	fprintf(f, ",\"rep\":%zu,\"failed\":%s,", r->n_reps - 1,
		r->failed ? "true" : "false");
	jw_key(&w, "fail_reason"); jw_str_or_null(&w, r->fail_reason);
	fputs(",\"data\":", f);
	jw_rep(&w, e, &r->reps[r->n_reps - 1]);
	fputc('}', f);
	return finish_memstream(f, &buf, len);
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

/* Add the rep of journal record rec to e; 0 or -1 + why. */
static int apply_record(const char *jpath, struct pab_experiment *e,
			const struct pab_journal_record *rec, char **why)
{
	struct loader ld = { NULL };
	char *inner;
	cJSON *root = pab_json_parse(rec->payload, rec->len, &inner);
	const cJSON *row = cJSON_GetObjectItemCaseSensitive(root, "row");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	const cJSON *rep = cJSON_GetObjectItemCaseSensitive(root, "rep");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(root, "fail_reason");
	struct pab_row *r;
	char ctx[64];
	size_t ri;

	if (!root) {
		fail(&ld, "record %llu: %s", (unsigned long long)rec->seq, inner);
		free(inner);
		goto out;
	}
	if (!cJSON_IsNumber(row) || !cJSON_IsString(name) || !cJSON_IsNumber(rep) ||
	    !cJSON_IsObject(data)) {
		fail(&ld, "record %llu is not a rep record", (unsigned long long)rec->seq);
		goto out;
	}
	ri = row->valuedouble >= 0 && row->valuedouble < (double)e->n_rows ?
		(size_t)row->valuedouble : e->n_rows;
	if (ri == e->n_rows || strcmp(e->rows[ri].name, name->valuestring)) {
		fail(&ld, "record %llu names row %.0f '%.100s', which the artifact does "
		     "not have there", (unsigned long long)rec->seq, row->valuedouble,
		     pab_term_safe(name->valuestring));
		goto out;
	}
	r = &e->rows[ri];
	if (rep->valuedouble != (double)r->n_reps) {
		fail(&ld, "record %llu holds rep %.0f of row '%.100s', which has %zu: "
		     "it does not continue the artifact", (unsigned long long)rec->seq,
		     rep->valuedouble + 1, pab_term_safe(r->name), r->n_reps);
		goto out;
	}
	snprintf(ctx, sizeof(ctx), "record %llu", (unsigned long long)rec->seq);
	if (load_rep(&ld, e, data, ctx, r->n_reps, pab_row_add_rep(r, e->n_arms)))
		goto out;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "failed"))) {
		r->failed = 1;
		if (cJSON_IsString(reason) && !r->fail_reason)
			r->fail_reason = xstrdup(reason->valuestring);
	}
out:
	cJSON_Delete(root);
	if (ld.why) {
		*why = xasprintf("'%s': %s", jpath, ld.why);
		free(ld.why);
		return -1;
	}
	return 0;
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

	if (fd < 0)
		return;
	lock = xasprintf("%s.lock", path);
	unlink(lock);
	close(fd);
	free(lock);
}

size_t pab_artifact_clean_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	const char *base = slash ? slash + 1 : path;
	size_t removed = 0;
	struct dirent *de;
	DIR *d;
	int dfd;

	d = opendir(*dir ? dir : "/");
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
