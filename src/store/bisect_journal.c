/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_journal.c — the journal of `perfab bisect`, perfab-bisect-journal/1
 * (bisect_journal.h): its builds and comparisons written and read back.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "model/metrics.h"
#include "store/bisect_journal.h"
#include "store/json_in.h"
#include "store/json_out.h"
#include "store/tempfile.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Copies and releases                                                */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void pab_bisect_build_copy(struct pab_bisect_build *dst, const struct pab_bisect_build *src)
{
	*dst = *src;
	dst->commit = dup_or_null(src->commit);
	dst->command = dup_or_null(src->command);
	dst->digest = dup_or_null(src->digest);
	dst->dir = dup_or_null(src->dir);
	dst->log = dup_or_null(src->log);
}

void pab_bisect_build_release(struct pab_bisect_build *b)
{
	free(b->commit);
	free(b->command);
	free(b->digest);
	free(b->dir);
	free(b->log);
	memset(b, 0, sizeof(*b));
}

void pab_bisect_comparison_copy(struct pab_bisect_comparison *dst,
				const struct pab_bisect_comparison *src)
{
	*dst = *src;
	dst->key = dup_or_null(src->key);
	dst->good = dup_or_null(src->good);
	dst->mid = dup_or_null(src->mid);
	dst->bad = dup_or_null(src->bad);
	dst->artifact = dup_or_null(src->artifact);
	dst->failed = dup_or_null(src->failed);
	dst->failed_why = dup_or_null(src->failed_why);
}

void pab_bisect_comparison_release(struct pab_bisect_comparison *c)
{
	free(c->key);
	free(c->good);
	free(c->mid);
	free(c->bad);
	free(c->artifact);
	free(c->failed);
	free(c->failed_why);
	memset(c, 0, sizeof(*c));
}

void pab_bisect_journal_release(struct pab_bisect_journal *j)
{
	size_t i;

	for (i = 0; i < j->n_builds; i++)
		pab_bisect_build_release(&j->builds[i]);
	for (i = 0; i < j->n_cmps; i++)
		pab_bisect_comparison_release(&j->cmps[i]);
	free(j->builds);
	free(j->cmps);
	memset(j, 0, sizeof(*j));
}

const struct pab_bisect_build *pab_bisect_journal_build(const struct pab_bisect_journal *j,
							const char *commit, const char *command)
{
	size_t i;

	for (i = 0; i < j->n_builds; i++)
		if (!strcmp(j->builds[i].commit, commit) && !strcmp(j->builds[i].command, command))
			return &j->builds[i];
	return NULL;
}

const struct pab_bisect_comparison *pab_bisect_journal_cmp(const struct pab_bisect_journal *j,
							   const char *key)
{
	size_t i;

	for (i = 0; i < j->n_cmps; i++)
		if (!strcmp(j->cmps[i].key, key))
			return &j->cmps[i];
	return NULL;
}

void pab_bisect_journal_put_build(struct pab_bisect_journal *j, const struct pab_bisect_build *b)
{
	struct pab_bisect_build *slot = (struct pab_bisect_build *)
		pab_bisect_journal_build(j, b->commit, b->command);

	if (slot) {
		pab_bisect_build_release(slot);
	} else {
		ALLOC_GROW(j->builds, j->n_builds + 1, j->builds_alloc);
		slot = &j->builds[j->n_builds++];
	}
	pab_bisect_build_copy(slot, b);
}

void pab_bisect_journal_put_cmp(struct pab_bisect_journal *j, const struct pab_bisect_comparison *c)
{
	struct pab_bisect_comparison *slot = (struct pab_bisect_comparison *)
		pab_bisect_journal_cmp(j, c->key);

	if (slot) {
		pab_bisect_comparison_release(slot);
	} else {
		ALLOC_GROW(j->cmps, j->n_cmps + 1, j->cmps_alloc);
		slot = &j->cmps[j->n_cmps++];
	}
	pab_bisect_comparison_copy(slot, c);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */

void pab_bisect_json_side(struct jw *w, const struct pab_bisect_side *s)
{
	fputc('{', w->f);
	jw_key(w, "verdict");
	jw_str(w, pab_verdict_name(s->verdict));
	fputc(',', w->f);
	jw_key(w, "metric");
	jw_str_or_null(w, s->metric >= 0 && s->metric < PAB_M_COUNT ?
		       pab_metrics[s->metric].name : NULL);
	fputs(",", w->f);
	jw_key(w, "change");
	fputc('{', w->f);
	jw_key(w, "n");
	jw_num(w, (double)s->change.n);
	fputc(',', w->f);
	jw_key(w, "median");
	jw_num(w, s->change.median);
	fputc(',', w->f);
	jw_key(w, "lo");
	jw_num(w, s->change.lo);
	fputc(',', w->f);
	jw_key(w, "hi");
	jw_num(w, s->change.hi);
	fputc(',', w->f);
	jw_key(w, "coverage");
	jw_num(w, s->change.coverage);
	fputc(',', w->f);
	jw_key(w, "exists");
	fputs(s->change.exists ? "true" : "false", w->f);
	fputs("},", w->f);
	jw_key(w, "base_median");
	jw_num(w, s->base_median);
	fputc(',', w->f);
	jw_key(w, "head_median");
	jw_num(w, s->head_median);
	fputc(',', w->f);
	jw_key(w, "exact");
	fputs(s->exact ? "true" : "false", w->f);
	fputc('}', w->f);
}

void pab_bisect_json_comparison(struct jw *w, const struct pab_bisect_comparison *c,
				const char *mid_is, int kept)
{
	fputc('{', w->f);
	jw_key(w, "key");
	jw_str(w, c->key);
	fputc(',', w->f);
	jw_key(w, "good");
	jw_str(w, c->good);
	fputc(',', w->f);
	jw_key(w, "mid");
	jw_str_or_null(w, c->mid);
	fputc(',', w->f);
	jw_key(w, "bad");
	jw_str(w, c->bad);
	if (c->mid && !c->failed) {
		fputc(',', w->f);
		jw_key(w, "mid_vs_good");
		pab_bisect_json_side(w, &c->mid_good);
		fputc(',', w->f);
		jw_key(w, "bad_vs_mid");
		pab_bisect_json_side(w, &c->bad_mid);
	}
	if (!c->failed) {
		fputc(',', w->f);
		jw_key(w, "bad_vs_good");
		pab_bisect_json_side(w, &c->bad_good);
	}
	fputc(',', w->f);
	jw_key(w, "runs");
	jw_num(w, (double)c->runs);
	fputc(',', w->f);
	jw_key(w, "reps");
	jw_num(w, (double)c->reps);
	fputc(',', w->f);
	jw_key(w, "seconds");
	jw_num(w, c->seconds);
	fputc(',', w->f);
	jw_key(w, "artifact");
	jw_str_or_null(w, c->artifact);
	fputc(',', w->f);
	jw_key(w, "failed");
	jw_str_or_null(w, c->failed);
	fputc(',', w->f);
	jw_key(w, "failed_why");
	jw_str_or_null(w, c->failed_why);
	if (mid_is) {
		fputc(',', w->f);
		jw_key(w, "mid_is");
		jw_str(w, mid_is);
	}
	if (kept >= 0) {
		fputc(',', w->f);
		jw_key(w, "kept");
		fputs(kept ? "true" : "false", w->f);
	}
	fputc('}', w->f);
}

static void json_build(struct jw *w, const struct pab_bisect_build *b)
{
	fputc('{', w->f);
	jw_key(w, "commit");
	jw_str(w, b->commit);
	fputc(',', w->f);
	jw_key(w, "command");
	jw_str(w, b->command);
	fputc(',', w->f);
	jw_key(w, "ok");
	fputs(b->ok ? "true" : "false", w->f);
	fputc(',', w->f);
	jw_key(w, "exit_code");
	jw_num(w, b->exit_code);
	fputc(',', w->f);
	jw_key(w, "digest");
	jw_str_or_null(w, b->digest);
	fputc(',', w->f);
	jw_key(w, "dir");
	jw_str_or_null(w, b->dir);
	fputc(',', w->f);
	jw_key(w, "log");
	jw_str_or_null(w, b->log);
	fputc('}', w->f);
}

static int write_journal(FILE *f, void *arg)
{
	const struct pab_bisect_journal *j = arg;
	struct jw w = { f };
	size_t i;

	fputc('{', f);
	jw_key(&w, "schema");
	jw_str(&w, PAB_BISECT_JOURNAL_SCHEMA);
	fputs(",\n", f);
	jw_key(&w, "builds");
	fputc('[', f);
	for (i = 0; i < j->n_builds; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_build(&w, &j->builds[i]);
	}
	fputs("],\n", f);
	jw_key(&w, "comparisons");
	fputc('[', f);
	for (i = 0; i < j->n_cmps; i++) {
		fputs(i ? ",\n" : "\n", f);
		pab_bisect_json_comparison(&w, &j->cmps[i], NULL, -1);
	}
	fputs("]}\n", f);
	return ferror(f) ? -1 : 0;
}

int pab_bisect_journal_save(const char *path, const struct pab_bisect_journal *j, char **why)
{
	return pab_write_file_atomic(path, write_journal, (void *)j, why);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */

static int parse_verdict(const char *s, enum pab_verdict *v)
{
	static const enum pab_verdict all[] = {
		PAB_PASS, PAB_INCONCLUSIVE, PAB_FAIL, PAB_NOT_MEASURED,
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, pab_verdict_name(all[i]))) {
			*v = all[i];
			return 0;
		}
	return -1;
}

/* A string field: new copy in *out (NULL when absent or null). */
static int read_str(struct pab_json_in *in, const cJSON *o, const char *key, int flags,
		    char **out)
{
	const char *s = NULL;
	int ret = pab_json_in_string(in, o, key, flags | PAB_JSON_NULLABLE, &s);

	*out = s ? xstrdup(s) : NULL;
	return ret;
}

/* A number field that may be null (NaN). */
static int read_num(struct pab_json_in *in, const cJSON *o, const char *key, double *out)
{
	*out = NAN;
	return pab_json_in_finite(in, o, key, PAB_JSON_NULLABLE, PAB_METRIC_ABS_MAX, out);
}

static int read_side(struct pab_json_in *in, const cJSON *o, const char *key,
		     struct pab_bisect_side *s)
{
	const cJSON *side = NULL, *ch = NULL;
	const char *verdict = NULL, *metric = NULL;
	double n = 0;

	memset(s, 0, sizeof(*s));
	s->metric = -1;
	s->verdict = PAB_NOT_MEASURED;
	if (pab_json_in_object(in, o, key, PAB_JSON_REQUIRED, &side) < 0)
		return -1;
	pab_json_in_push_key(in, key);
	if (pab_json_in_string(in, side, "verdict", PAB_JSON_REQUIRED, &verdict) > 0 &&
	    parse_verdict(verdict, &s->verdict))
		pab_json_in_fail(in, "verdict", "must be PASS, INCONCLUSIVE, FAIL or NOT MEASURED");
	if (pab_json_in_string(in, side, "metric", PAB_JSON_NULLABLE, &metric) > 0) {
		const struct pab_metric *m = pab_metric_find(metric);

		if (!m)
			pab_json_in_fail(in, "metric", "must name a metric (perfab help metrics)");
		else
			s->metric = (int)(m - pab_metrics);
	}
	pab_json_in_object(in, side, "change", PAB_JSON_REQUIRED, &ch);
	pab_json_in_push_key(in, "change");
	pab_json_in_whole(in, ch, "n", PAB_JSON_REQUIRED, 0, 9007199254740992.0, NULL, &n);
	s->change.n = (size_t)n;
	read_num(in, ch, "median", &s->change.median);
	read_num(in, ch, "lo", &s->change.lo);
	read_num(in, ch, "hi", &s->change.hi);
	read_num(in, ch, "coverage", &s->change.coverage);
	pab_json_in_bool(in, ch, "exists", 0, &s->change.exists);
	pab_json_in_pop(in);
	read_num(in, side, "base_median", &s->base_median);
	read_num(in, side, "head_median", &s->head_median);
	pab_json_in_bool(in, side, "exact", 0, &s->exact);
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

static int read_cmp(struct pab_json_in *in, const cJSON *o, struct pab_bisect_comparison *c)
{
	double v = 0;

	memset(c, 0, sizeof(*c));
	c->mid_good.metric = c->bad_mid.metric = c->bad_good.metric = -1;
	read_str(in, o, "key", PAB_JSON_REQUIRED, &c->key);
	read_str(in, o, "good", PAB_JSON_REQUIRED, &c->good);
	read_str(in, o, "mid", 0, &c->mid);
	read_str(in, o, "bad", PAB_JSON_REQUIRED, &c->bad);
	read_str(in, o, "artifact", 0, &c->artifact);
	read_str(in, o, "failed", 0, &c->failed);
	read_str(in, o, "failed_why", 0, &c->failed_why);
	if (c->mid && !c->failed) {
		read_side(in, o, "mid_vs_good", &c->mid_good);
		read_side(in, o, "bad_vs_mid", &c->bad_mid);
	}
	if (!c->failed)
		read_side(in, o, "bad_vs_good", &c->bad_good);
	pab_json_in_count(in, o, "runs", PAB_JSON_REQUIRED, 1e6, &c->runs);
	pab_json_in_count(in, o, "reps", PAB_JSON_REQUIRED, 1e12, &c->reps);
	pab_json_in_number(in, o, "seconds", PAB_JSON_REQUIRED, 0, 1e12, NULL, &v);
	c->seconds = v;
	if (!pab_json_in_failed(in) && (!c->key || !c->good || !c->bad))
		pab_json_in_fail_here(in, "key, good and bad must be strings");
	return pab_json_in_failed(in) ? -1 : 0;
}

static int read_build(struct pab_json_in *in, const cJSON *o, struct pab_bisect_build *b)
{
	double code = 0;

	memset(b, 0, sizeof(*b));
	read_str(in, o, "commit", PAB_JSON_REQUIRED, &b->commit);
	read_str(in, o, "command", PAB_JSON_REQUIRED, &b->command);
	pab_json_in_bool(in, o, "ok", PAB_JSON_REQUIRED, &b->ok);
	pab_json_in_whole(in, o, "exit_code", PAB_JSON_REQUIRED, -1, 255, NULL, &code);
	b->exit_code = (int)code;
	read_str(in, o, "digest", 0, &b->digest);
	read_str(in, o, "dir", 0, &b->dir);
	read_str(in, o, "log", 0, &b->log);
	if (!pab_json_in_failed(in) && (!b->commit || !b->command))
		pab_json_in_fail_here(in, "commit and command must be strings");
	return pab_json_in_failed(in) ? -1 : 0;
}

/* The records of the document root into j. */
static int read_journal(struct pab_json_in *in, const cJSON *root, struct pab_bisect_journal *j)
{
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	const cJSON *builds = NULL, *cmps = NULL, *it;
	size_t i = 0;

	if (!cJSON_IsObject(root))
		return pab_json_in_fail_here(in, "not a JSON object");
	if (!cJSON_IsString(schema) || strcmp(schema->valuestring, PAB_BISECT_JOURNAL_SCHEMA))
		return pab_json_in_fail_here(in, "\"schema\" must be \"%s\"",
					     PAB_BISECT_JOURNAL_SCHEMA);
	if (pab_json_in_array(in, root, "builds", PAB_JSON_REQUIRED, &builds) < 0 ||
	    pab_json_in_array(in, root, "comparisons", PAB_JSON_REQUIRED, &cmps) < 0)
		return -1;
	pab_json_in_push_key(in, "builds");
	cJSON_ArrayForEach(it, builds) {
		struct pab_bisect_build b;

		pab_json_in_push_index(in, i++);
		if (!cJSON_IsObject(it))
			pab_json_in_fail_here(in, "must be an object");
		else if (!read_build(in, it, &b))
			pab_bisect_journal_put_build(j, &b);
		if (cJSON_IsObject(it))
			pab_bisect_build_release(&b);
		pab_json_in_pop(in);
	}
	pab_json_in_pop(in);
	pab_json_in_push_key(in, "comparisons");
	i = 0;
	cJSON_ArrayForEach(it, cmps) {
		struct pab_bisect_comparison c;

		pab_json_in_push_index(in, i++);
		if (!cJSON_IsObject(it))
			pab_json_in_fail_here(in, "must be an object");
		else if (!read_cmp(in, it, &c))
			pab_bisect_journal_put_cmp(j, &c);
		if (cJSON_IsObject(it))
			pab_bisect_comparison_release(&c);
		pab_json_in_pop(in);
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

int pab_bisect_journal_load(const char *path, struct pab_bisect_journal *j, char **why)
{
	struct pab_json_in in;
	char *text, *prefix;
	size_t len;
	cJSON *root;
	int ret = -1;

	memset(j, 0, sizeof(*j));
	text = read_file_max(path, 256 << 20, &len);
	if (!text) {
		if (errno == ENOENT)
			return 0;
		*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	prefix = xasprintf("journal '%s'", path);
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, prefix, "journal");
	root = pab_json_in_parse(&in, text, len, NULL);
	if (root)
		ret = read_journal(&in, root, j);
	if (ret) {
		*why = pab_json_in_take_why(&in);
		pab_bisect_journal_release(j);
	}
	cJSON_Delete(root);
	pab_json_in_release(&in);
	free(prefix);
	free(text);
	return ret;
}
