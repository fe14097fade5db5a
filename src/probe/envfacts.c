/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * envfacts.c — what `perfab env` shows, gathered (envfacts.h): the host
 * fingerprint (hostinfo.h), the noise checklist judged from it and, for
 * this machine, where a run started now would put its children (pin.h).
 * report/env.h draws them.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "probe/envfacts.h"
#include "probe/hostinfo.h"
#include "probe/pin.h"
#include "util.h"

/* Busy above this share of 100 ms, the children's PU would share its time. */
#define PU_BUSY_WARN_PCT 20.0

/*
 * Where a run started now would put its children (pin.h's automatic
 * choice) and how busy each PU is: {"children_cpus", "choice", "busy":
 * {PU: percent}, "held": [PUs another perfab run holds], "lock_unknown":
 * [{"pu", "why"}: PUs whose lock cannot be trusted], "warning"}.
 */
static cJSON *placement(void)
{
	double busy[PAB_PIN_MAX_PUS];
	char *why = NULL;
	struct pab_pin *pin = pab_pin_new(NULL, &why);
	cJSON *o = pin ? pab_pin_describe(pin) : cJSON_CreateObject();
	cJSON *b = cJSON_AddObjectToObject(o, "busy"), *held = cJSON_AddArrayToObject(o, "held");
	cJSON *unknown = cJSON_AddArrayToObject(o, "lock_unknown");
	const cJSON *cc = cJSON_GetObjectItemCaseSensitive(o, "children_cpus");
	unsigned pu;

	pab_pin_free(pin);
	if (why)
		cJSON_AddStringToObject(o, "error", why);
	free(why);
	pab_pu_busy(busy, 100);
	for (pu = 0; pu < PAB_PIN_MAX_PUS; pu++) {
		char key[16];

		if (!isfinite(busy[pu]))
			continue;
		snprintf(key, sizeof(key), "%u", pu);
		cJSON_AddNumberToObject(b, key, busy[pu]);
		switch (pab_pu_lock_state(pu, &why)) {
		case PAB_PU_LOCK_HELD:
			cJSON_AddItemToArray(held, cJSON_CreateNumber(pu));
			break;
		case PAB_PU_LOCK_UNKNOWN: {
			cJSON *u = cJSON_CreateObject();

			cJSON_AddNumberToObject(u, "pu", pu);
			cJSON_AddStringToObject(u, "why", why);
			cJSON_AddItemToArray(unknown, u);
			break;
		}
		case PAB_PU_LOCK_FREE:
			break;
		}
		free(why);
	}
	if (cJSON_IsString(cc)) {
		const cJSON *now = cJSON_GetObjectItemCaseSensitive(b, cc->valuestring);

		if (cJSON_IsNumber(now) && now->valuedouble > PU_BUSY_WARN_PCT) {
			char *w = xasprintf("the children's PU %s is busy (%.0f%% over 100 ms): "
					    "they would share it; stop what runs there, or give "
					    "--cpus another PU", cc->valuestring, now->valuedouble);

			cJSON_AddStringToObject(o, "warning", w);
			free(w);
		}
	}
	return o;
}

void pab_env_facts_gather(const char *host_json, struct pab_env_facts *f)
{
	f->host = host_json ? cJSON_Parse(host_json) : pab_host_fingerprint();
	if (!f->host)
		BUG("unreadable fingerprint text");
	f->checklist = pab_host_warnings(f->host);
	f->placement = host_json ? NULL : placement();
}

void pab_env_facts_release(struct pab_env_facts *f)
{
	cJSON_Delete(f->host);
	cJSON_Delete(f->checklist);
	cJSON_Delete(f->placement);
	f->host = f->checklist = f->placement = NULL;
}
