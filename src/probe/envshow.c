/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * envshow.c — what `perfab env` prints (envshow.h): the host fingerprint
 * (hostinfo.h), the noise checklist judged from it (checklist.h) and,
 * for this machine, where a run started now would put its children
 * (pin.h), as text or as one JSON document.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "probe/envshow.h"
#include "probe/hostinfo.h"
#include "probe/pin.h"
#include "term.h"
#include "util.h"

/* "1.5 GiB" style for *_bytes keys. New string. */
static char *human_bytes(double b)
{
	if (b >= 1024.0 * 1024 * 1024)
		return xasprintf("%.1f GiB", b / (1024.0 * 1024 * 1024));
	return xasprintf("%.0f MiB", b / (1024.0 * 1024));
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* One fingerprint value as text, null as its recorded reason. New string. */
static char *value_text(const cJSON *v, const cJSON *unreadable)
{
	const cJSON *why;
	char *s;

	if (cJSON_IsNull(v)) {
		why = cJSON_GetObjectItemCaseSensitive(unreadable, v->string);
		return xasprintf("unknown (%s)", cJSON_IsString(why) ? why->valuestring
								  : "no reason recorded");
	}
	if (cJSON_IsString(v))
		return xstrdup(*v->valuestring ? v->valuestring : "(none)");
	if (cJSON_IsBool(v))
		return xstrdup(cJSON_IsTrue(v) ? "yes" : "no");
	if (cJSON_IsNumber(v) && ends_with(v->string, "_bytes"))
		return human_bytes(v->valuedouble);
	s = cJSON_PrintUnformatted(v);
	if (!s)
		return xstrdup("?");
	{
		char *t = xstrdup(s);

		cJSON_free(s);
		return t;
	}
}

/*
 * The text's columns: a host key or placement label is "  %-22s ", a
 * checklist item "  %-8s %-20s "; its fix starts under the item's name,
 * where a command has room to stay on one line. A value, detail or fix
 * folds under its own column (doc/hacking.md "Output width").
 */
#define VALUE_COL 25
#define DETAIL_COL 32
#define FIX_COL 16

/* "  KEY                    VALUE...", VALUE folded under its column. */
static void print_keyed(const char *key, const char *value)
{
	printf("  %-22s ", key);
	pab_print_folded(stdout, VALUE_COL, VALUE_COL, value);
}

static void print_text(const cJSON *host, const cJSON *checklist)
{
	const cJSON *unreadable = cJSON_GetObjectItemCaseSensitive(host, "unreadable");
	const cJSON *v, *it;
	int color = use_color(1);

	printf("host\n");
	cJSON_ArrayForEach(v, host) {
		char *s;

		if (!v->string || !strcmp(v->string, "unreadable"))
			continue;
		s = value_text(v, unreadable);
		print_keyed(v->string, s);
		free(s);
	}
	printf("\nchecklist\n");
	cJSON_ArrayForEach(it, checklist) {
		const char *name = cJSON_GetObjectItemCaseSensitive(it, "item")->valuestring;
		const char *status = cJSON_GetObjectItemCaseSensitive(it, "status")->valuestring;
		const char *detail = cJSON_GetObjectItemCaseSensitive(it, "detail")->valuestring;
		const cJSON *fix = cJSON_GetObjectItemCaseSensitive(it, "fix");
		const char *on = "", *off = "";

		if (color) {
			on = !strcmp(status, "OK") ? "\033[32m"
			     : !strcmp(status, "WARNING") ? "\033[33m" : "\033[35m";
			off = "\033[0m";
		}
		printf("  %s%-8s%s %-20s ", on, status, off, name);
		pab_print_folded(stdout, DETAIL_COL, DETAIL_COL, detail);
		if (cJSON_IsString(fix)) {
			printf("  %-8s fix: ", "");
			pab_print_folded(stdout, FIX_COL, FIX_COL, fix->valuestring);
		}
	}
}

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

static void print_placement(const cJSON *p)
{
	const cJSON *v;
	const char *s;

	printf("\nplacement (a run started now)\n");
	s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "choice"));
	print_keyed("children's PU", s ? s :
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "note")) ?
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "note")) : "unpinned");
	printf("  %-22s", "busy over 100 ms");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(p, "busy"))
		printf(" PU %s %.0f%%", v->string, v->valuedouble);
	printf("\n  %-22s", "held by perfab runs");
	if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(p, "held")))
		printf(" none");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(p, "held"))
		printf(" PU %.0f", v->valuedouble);
	printf("\n");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(p, "lock_unknown")) {
		char *u = xasprintf("PU %.0f: %s",
				    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "pu")),
				    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "why")));

		print_keyed("lock unknown", u);
		free(u);
	}
	s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "warning"));
	if (s) {
		fputs("  WARNING  ", stdout);
		pab_print_folded(stdout, 11, 11, s);
	}
}

void pab_env_show(const char *host_json, int json)
{
	cJSON *host = host_json ? cJSON_Parse(host_json) : pab_host_fingerprint();
	cJSON *checklist;

	if (!host)
		BUG("unreadable fingerprint text");
	checklist = pab_host_warnings(host);
	if (json) {
		cJSON *root = cJSON_CreateObject();
		char *text;

		cJSON_AddItemToObject(root, "host", host);
		cJSON_AddItemToObject(root, "checklist", checklist);
		if (!host_json)
			cJSON_AddItemToObject(root, "placement", placement());
		text = cJSON_Print(root);
		printf("%s\n", text);
		cJSON_free(text);
		cJSON_Delete(root);
	} else {
		print_text(host, checklist);
		if (!host_json) {
			cJSON *p = placement();

			print_placement(p);
			cJSON_Delete(p);
		}
		cJSON_Delete(host);
		cJSON_Delete(checklist);
	}
}
