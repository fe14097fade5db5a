/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * env.c — what `perfab env` prints (env.h): the host fingerprint, the
 * noise checklist and the placement gathered by probe/envfacts.h, as text
 * or as one JSON document. It walks their cJSON trees, so it is one of the
 * few files of report/ that include cJSON (doc/hacking.md).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/env.h"
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

void pab_report_env(const struct cJSON *host, const struct cJSON *checklist,
		    const struct cJSON *placement, int json)
{
	if (json) {
		cJSON *root = cJSON_CreateObject();
		char *text;

		/* Copies: the trees stay the caller's. */
		cJSON_AddItemToObject(root, "host", cJSON_Duplicate(host, 1));
		cJSON_AddItemToObject(root, "checklist", cJSON_Duplicate(checklist, 1));
		if (placement)
			cJSON_AddItemToObject(root, "placement", cJSON_Duplicate(placement, 1));
		text = cJSON_Print(root);
		printf("%s\n", text);
		cJSON_free(text);
		cJSON_Delete(root);
	} else {
		print_text(host, checklist);
		if (placement)
			print_placement(placement);
	}
}
