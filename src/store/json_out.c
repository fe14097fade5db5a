/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_out.c — the streaming JSON writer (json_out.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "store/json_out.h"

void jw_str(struct jw *w, const char *s)
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

void jw_str_or_null(struct jw *w, const char *s)
{
	if (s)
		jw_str(w, s);
	else
		fputs("null", w->f);
}

void jw_num(struct jw *w, double v)
{
	if (!isfinite(v))
		fputs("null", w->f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0) /* exact integers */
		fprintf(w->f, "%.0f", v);
	else
		fprintf(w->f, "%.17g", v);
}

void jw_key(struct jw *w, const char *k)
{
	jw_str(w, k);
	fputc(':', w->f);
}

/*
 * A cJSON subtree (host, run, sanity) in the same number format as the
 * rest: cJSON's own printer writes integers above 1e15 (seeds) in
 * exponent form, which JSON readers that keep literals compare as text.
 */
void jw_value(struct jw *w, const cJSON *v)
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

void jw_cjson(struct jw *w, const cJSON *o, int empty_object)
{
	if (!o)
		fputs(empty_object ? "{}" : "null", w->f);
	else
		jw_value(w, o);
}

void jw_argv(struct jw *w, char *const *argv, size_t argc)
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

void jw_kv(struct jw *w, const struct pab_kv *kv, size_t n)
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
