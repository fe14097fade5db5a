/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribution_json.c — the artifact's "attribution" list written and
 * read (attribution_json.h; doc/artifact-schema.md §8a).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/attribution.h"
#include "store/attribution_json.h"
#include "util.h"

/* Largest amount an artifact carries (bytes, instructions). */
#define AMOUNT_MAX 1e300

static void write_items(struct jw *w, const char *key, const struct pab_attr_item *v, size_t n)
{
	FILE *f = w->f;
	size_t i;

	fputc(',', f);
	jw_key(w, key);
	fputc('[', f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",{" : "{", f);
		jw_key(w, "name"); jw_str(w, v[i].name);
		fputc(',', f); jw_key(w, "where"); jw_str_or_null(w, v[i].where);
		fputc(',', f); jw_key(w, "base"); jw_num(w, v[i].base);
		fputc(',', f); jw_key(w, "head"); jw_num(w, v[i].head);
		if (!isnan(v[i].base_blocks) || !isnan(v[i].head_blocks)) {
			fputc(',', f); jw_key(w, "base_blocks"); jw_num(w, v[i].base_blocks);
			fputc(',', f); jw_key(w, "head_blocks"); jw_num(w, v[i].head_blocks);
		}
		fputc('}', f);
	}
	fputc(']', f);
}

static void write_one(struct jw *w, const struct pab_attribution *a)
{
	FILE *f = w->f;

	fputc('{', f);
	jw_key(w, "row"); jw_str(w, a->row);
	fputc(',', f); jw_key(w, "arm"); jw_str(w, a->arm);
	fputc(',', f); jw_key(w, "metric"); jw_str(w, pab_metrics[a->metric].name);
	fputc(',', f); jw_key(w, "profiler"); jw_str(w, a->profiler);
	fputc(',', f); jw_key(w, "source"); jw_str_or_null(w, a->source);
	if (a->input) {
		fputc(',', f); jw_key(w, "input"); jw_str(w, a->input);
	}
	fputc(',', f); jw_key(w, "note"); jw_str_or_null(w, a->note);
	fputc(',', f); jw_key(w, "base_total"); jw_num(w, a->base_total);
	fputc(',', f); jw_key(w, "head_total"); jw_num(w, a->head_total);
	fputc(',', f); jw_key(w, "cost_s"); jw_num(w, a->cost_s);
	fprintf(f, ",\"base_stripped\":%s,\"head_stripped\":%s",
		a->base_stripped ? "true" : "false", a->head_stripped ? "true" : "false");
	write_items(w, "items", a->items, a->n_items);
	if (a->n_lines)
		write_items(w, "lines", a->lines, a->n_lines);
	if (a->n_stacks)
		write_items(w, "stacks", a->stacks, a->n_stacks);
	fputc('}', f);
}

void pab_attribution_json_write(struct jw *w, const struct pab_experiment *e)
{
	size_t i;

	if (!e->n_attr)
		return;
	fputs(",\n\"attribution\":[\n", w->f);
	for (i = 0; i < e->n_attr; i++) {
		if (i)
			fputs(",\n", w->f);
		write_one(w, &e->attr[i]);
	}
	fputc(']', w->f);
}

/* A string field into *dst (new memory; absent or null: NULL). */
static void read_str(struct pab_json_in *in, const cJSON *o, const char *key, int flags,
		     char **dst)
{
	const char *s = NULL;

	if (pab_json_in_string(in, o, key, flags, &s) == 1)
		*dst = xstrdup(s);
}

static void read_items(struct pab_json_in *in, const cJSON *o, const char *key,
		       struct pab_attr_item **v, size_t *n)
{
	const cJSON *arr = NULL, *it;
	size_t i = 0;

	if (pab_json_in_array(in, o, key, 0, &arr) != 1)
		return;
	*v = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(**v));
	pab_json_in_push_key(in, key);
	cJSON_ArrayForEach(it, arr) {
		struct pab_attr_item *x = &(*v)[i];

		pab_json_in_push_index(in, i);
		x->base_blocks = x->head_blocks = NAN;
		if (!cJSON_IsObject(it))
			pab_json_in_fail(in, NULL, "must be an object");
		read_str(in, it, "name", PAB_JSON_REQUIRED, &x->name);
		read_str(in, it, "where", PAB_JSON_NULLABLE, &x->where);
		pab_json_in_finite(in, it, "base", PAB_JSON_REQUIRED, AMOUNT_MAX, &x->base);
		pab_json_in_finite(in, it, "head", PAB_JSON_REQUIRED, AMOUNT_MAX, &x->head);
		pab_json_in_finite(in, it, "base_blocks", PAB_JSON_NULLABLE, AMOUNT_MAX,
				   &x->base_blocks);
		pab_json_in_finite(in, it, "head_blocks", PAB_JSON_NULLABLE, AMOUNT_MAX,
				   &x->head_blocks);
		pab_json_in_pop(in);
		i++;
		*n = i;
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
}

static void read_one(struct pab_json_in *in, const cJSON *o, struct pab_attribution *a)
{
	const char *metric = NULL;
	const struct pab_metric *m;

	if (!cJSON_IsObject(o)) {
		pab_json_in_fail(in, NULL, "must be an object");
		return;
	}
	read_str(in, o, "row", PAB_JSON_REQUIRED, &a->row);
	read_str(in, o, "arm", PAB_JSON_REQUIRED, &a->arm);
	if (pab_json_in_string(in, o, "metric", PAB_JSON_REQUIRED, &metric) == 1) {
		m = pab_metric_find(metric);
		if (!m)
			pab_json_in_fail(in, "metric", "names no metric this perfab knows");
		else
			a->metric = (enum pab_metric_id)(m - pab_metrics);
	}
	read_str(in, o, "profiler", PAB_JSON_REQUIRED, &a->profiler);
	read_str(in, o, "source", PAB_JSON_NULLABLE, &a->source);
	read_str(in, o, "input", PAB_JSON_NULLABLE, &a->input);
	read_str(in, o, "note", PAB_JSON_NULLABLE, &a->note);
	pab_json_in_finite(in, o, "base_total", PAB_JSON_NULLABLE, AMOUNT_MAX, &a->base_total);
	pab_json_in_finite(in, o, "head_total", PAB_JSON_NULLABLE, AMOUNT_MAX, &a->head_total);
	pab_json_in_finite(in, o, "cost_s", PAB_JSON_NULLABLE, AMOUNT_MAX, &a->cost_s);
	pab_json_in_bool(in, o, "base_stripped", 0, &a->base_stripped);
	pab_json_in_bool(in, o, "head_stripped", 0, &a->head_stripped);
	read_items(in, o, "items", &a->items, &a->n_items);
	read_items(in, o, "lines", &a->lines, &a->n_lines);
	read_items(in, o, "stacks", &a->stacks, &a->n_stacks);
}

int pab_attribution_json_read(struct pab_json_in *in, const cJSON *root,
			      struct pab_experiment *e)
{
	const cJSON *arr = NULL, *it;
	size_t i = 0;

	if (pab_json_in_array(in, root, "attribution", PAB_JSON_NULLABLE, &arr) != 1)
		return pab_json_in_failed(in) ? -1 : 0;
	pab_json_in_push_key(in, "attribution");
	cJSON_ArrayForEach(it, arr) {
		struct pab_attribution a;

		pab_attribution_init(&a);
		pab_json_in_push_index(in, i++);
		read_one(in, it, &a);
		pab_json_in_pop(in);
		if (!pab_json_in_failed(in))
			pab_attribution_append(&e->attr, &e->n_attr, &a);
		pab_attribution_release(&a);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}
