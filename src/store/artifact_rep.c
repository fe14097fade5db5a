/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact_rep.c — one rep as JSON, written and read back
 * (artifact_rep.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "model/reasons.h"
#include "store/artifact_rep.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Writing                                                            */

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

void pab_artifact_write_rep(struct jw *w, const struct pab_experiment *e,
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
	/* Only counts no child of this rep counted are named. */
	for (a = 0, any = 0; a < e->n_arms; a++) {
		if (!isfinite(rep->result[a].m[PAB_M_INSTRUCTIONS]) ||
		    rep->result[a].count_origin == PAB_COUNT_COUNTED)
			continue;
		fputs(any ? "," : ",\n\"count_origin\":{", w->f);
		jw_key(w, e->arms[a].name);
		jw_str(w, pab_count_origin_name(rep->result[a].count_origin));
		any = 1;
	}
	if (any)
		fputc('}', w->f);
	fputc('}', w->f);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */

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

/* What only informs (exit status, null reasons, checksum, where a count
 * came from): taken when well-formed. */
static void load_arm_status(const cJSON *st, const cJSON *why, const cJSON *sum,
			    const cJSON *origin, struct pab_arm_result *r)
{
	const cJSON *v;
	size_t m;

	if (cJSON_IsString(origin) && isfinite(r->m[PAB_M_INSTRUCTIONS]) &&
	    pab_count_origin_parse(origin->valuestring, &r->count_origin))
		r->count_origin = PAB_COUNT_COUNTED;

	for (m = 0; cJSON_IsObject(why) && m < PAB_M_COUNT; m++) {
		v = cJSON_GetObjectItemCaseSensitive(why, pab_metrics[m].name);
		if (cJSON_IsString(v) && !isfinite(r->m[m]))
			r->reason[m] = pab_reason_intern(v->valuestring);
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

int pab_artifact_read_rep(struct pab_json_in *in, const struct pab_experiment *e,
			  const cJSON *o, struct pab_rep *rep)
{
	const cJSON *results, *status, *reasons, *sums, *origins;
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
	origins = cJSON_GetObjectItemCaseSensitive(o, "count_origin");
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
				map_get(sums, name), map_get(origins, name), &rep->result[a]);
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}
