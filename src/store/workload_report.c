/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * workload_report.c — a workload child's JSON report read into numbers
 * (workload_report.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "store/json_in.h"
#include "store/workload_report.h"
#include "util.h"

static double json_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* The header, read with the checked reader: a JSON object that speaks
 * protocol. The tree (caller deletes), or NULL with *why. */
static cJSON *report_root(const char *text, size_t len, const char *protocol_name,
			  char **why)
{
	struct pab_json_in in;
	const cJSON *protocol;
	cJSON *root;

	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	root = pab_json_in_parse(&in, text, len, "the workload report is not valid JSON");
	protocol = cJSON_GetObjectItemCaseSensitive(root, "protocol");
	if (root && !cJSON_IsObject(root))
		pab_json_in_fail_here(&in, "the workload report is not a JSON object");
	else if (root && (!cJSON_IsString(protocol) ||
			  strcmp(protocol->valuestring, protocol_name)))
		pab_json_in_fail_here(&in, "the workload report does not speak %s",
				      protocol_name);
	*why = pab_json_in_take_why(&in);
	pab_json_in_release(&in);
	if (*why) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int pab_workload_report_decode(const char *text, size_t len, const char *protocol,
			       struct pab_workload_report *r, char **why)
{
	cJSON *root = report_root(text, len, protocol, why);
	const cJSON *lat, *v;
	size_t i, cap;

	memset(r, 0, sizeof(*r));
	if (!root)
		return -1;
	r->ops = json_num(root, "ops");
	r->elapsed_s = json_num(root, "elapsed_s");
	r->vmhwm_bytes = json_num(root, "vmhwm_bytes");
	for (i = 0; i < PAB_M_COUNT; i++)
		r->key[i] = pab_metrics[i].report_key ?
			json_num(root, pab_metrics[i].report_key) : NAN;
	lat = cJSON_GetObjectItemCaseSensitive(root, "latency_ns");
	cap = (size_t)cJSON_GetArraySize(lat);
	r->latency_ns = xcalloc(cap ? cap : 1, sizeof(*r->latency_ns));
	cJSON_ArrayForEach(v, lat)
		if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0)
			r->latency_ns[r->n_latency++] = v->valuedouble;
	v = cJSON_GetObjectItemCaseSensitive(root, "checksum");
	if (cJSON_IsString(v))
		r->checksum = xstrdup(v->valuestring);
	cJSON_Delete(root);
	return 0;
}

void pab_workload_report_release(struct pab_workload_report *r)
{
	free(r->latency_ns);
	free(r->checksum);
	memset(r, 0, sizeof(*r));
}
