/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_in.c — the checked JSON reader (json_in.h): the strict parse, and
 * the cursor that reads typed values and names the path of the first
 * problem.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/json_in.h"
#include "term.h"
#include "util.h"

/* Longest key or name copied into a path or message (bytes). */
#define NAME_MAX_BYTES 200

/* ------------------------------------------------------------------ */
/* The strict parse                                                   */

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

/* ------------------------------------------------------------------ */
/* The cursor                                                         */

void pab_json_in_init(struct pab_json_in *in, enum pab_json_in_style style,
		      const char *prefix, const char *root)
{
	memset(in, 0, sizeof(*in));
	in->style = style;
	in->prefix = prefix;
	in->root = root;
}

void pab_json_in_release(struct pab_json_in *in)
{
	free(in->why);
	pab_strbuf_release(&in->path);
	pab_strbuf_release(&in->unknown);
	free(in->marks);
	memset(in, 0, sizeof(*in));
}

int pab_json_in_failed(const struct pab_json_in *in)
{
	return in->why != NULL;
}

char *pab_json_in_take_why(struct pab_json_in *in)
{
	char *why = in->why;

	in->why = NULL;
	return why;
}

/* Record msg (taken) as the problem, after the prefix; -1. */
static int set_why(struct pab_json_in *in, char *msg)
{
	if (in->why) {
		free(msg);
		return -1;
	}
	if (in->prefix) {
		in->why = xasprintf("%s: %s", in->prefix, msg);
		free(msg);
	} else {
		in->why = msg;
	}
	return -1;
}

cJSON *pab_json_in_parse(struct pab_json_in *in, const char *text, size_t len,
			 const char *wrap)
{
	char *inner;
	cJSON *root = pab_json_parse(text, len, &inner);

	if (root)
		return root;
	if (wrap) {
		set_why(in, xasprintf("%s: %s", wrap, inner));
		free(inner);
	} else {
		set_why(in, inner);
	}
	return NULL;
}

static void push_mark(struct pab_json_in *in)
{
	ALLOC_GROW(in->marks, in->depth + 1, in->alloc);
	in->marks[in->depth++] = in->path.len;
}

/* 1 when key reaches a terminal as it is: printable ASCII, no backslash
 * (pab_term_safe() would not change it). */
static int plain_key(const char *key)
{
	const unsigned char *p;

	for (p = (const unsigned char *)key; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			return 0;
	return 1;
}

void pab_json_in_push_key(struct pab_json_in *in, const char *key)
{
	size_t n;

	push_mark(in);
	if (in->path.len)
		pab_strbuf_add(&in->path, ".", 1);
	if (!plain_key(key)) {
		pab_strbuf_addf(&in->path, "%.*s", NAME_MAX_BYTES, pab_term_safe(key));
		return;
	}
	n = strlen(key);
	pab_strbuf_add(&in->path, key, n < NAME_MAX_BYTES ? n : NAME_MAX_BYTES);
}

void pab_json_in_push_index(struct pab_json_in *in, size_t i)
{
	push_mark(in);
	pab_strbuf_addf(&in->path, "[%zu]", i);
}

void pab_json_in_pop(struct pab_json_in *in)
{
	if (!in->depth)
		return;
	in->path.len = in->marks[--in->depth];
	if (in->path.buf)
		in->path.buf[in->path.len] = '\0';
}

void pab_json_in_name(struct pab_json_in *in, const char *name)
{
	pab_strbuf_addf(&in->path, " ('%.*s')", NAME_MAX_BYTES, pab_term_safe(name));
}

/* Where a message is: key of the object at the path, or the path (new). */
static char *where(const struct pab_json_in *in, const char *key)
{
	const char *path = in->path.len ? in->path.buf : in->root;
	const char *k = key ? pab_term_safe(key) : NULL;
	int n = NAME_MAX_BYTES;

	if (!key)
		return xstrdup(path ? path : "");
	if (in->style == PAB_JSON_IN_FIELDS_QUOTED)
		return path ? xasprintf("%s: field '%.*s'", path, n, k) :
			xasprintf("field '%.*s'", n, k);
	return path ? xasprintf("%s.%.*s", path, n, k) : xasprintf("'%.*s'", n, k);
}

static int vfail(struct pab_json_in *in, const char *key, const char *fmt,
		 va_list ap) PAB_PRINTF(3, 0);
static int vfail(struct pab_json_in *in, const char *key, const char *fmt,
		 va_list ap)
{
	char *at, *text;

	if (in->why)
		return -1;
	at = where(in, key);
	text = xvasprintf(fmt, ap);
	set_why(in, xasprintf("%s%s%s", at, *at ? " " : "", text));
	free(text);
	free(at);
	return -1;
}

int pab_json_in_fail(struct pab_json_in *in, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(in, key, fmt, ap);
	va_end(ap);
	return -1;
}

int pab_json_in_fail_here(struct pab_json_in *in, const char *fmt, ...)
{
	const char *path = in->path.len ? in->path.buf : in->root;
	va_list ap;
	char *text;

	if (in->why)
		return -1;
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	if (path) {
		set_why(in, xasprintf("%s: %s", path, text));
		free(text);
	} else {
		set_why(in, text);
	}
	return -1;
}

const cJSON *pab_json_in_get(struct pab_json_in *in, const cJSON *obj,
			     const char *key, int flags)
{
	const cJSON *v;

	if (in->why)
		return NULL;
	v = key ? cJSON_GetObjectItemCaseSensitive(obj, key) : obj;
	if (!v) {
		if (flags & PAB_JSON_REQUIRED) {
			const char *path = in->path.len ? in->path.buf : in->root;

			set_why(in, path ?
				xasprintf("%s: missing field '%.*s'", path, NAME_MAX_BYTES,
					  pab_term_safe(key ? key : "")) :
				xasprintf("missing field '%.*s'", NAME_MAX_BYTES,
					  pab_term_safe(key ? key : "")));
		}
		return NULL;
	}
	if ((flags & PAB_JSON_NULLABLE) && cJSON_IsNull(v))
		return NULL;
	return v;
}

/*
 * The value of key for a typed accessor: 1 with *v to check, 0 absent or
 * null-as-absent, -1 after a problem.
 */
static int lookup(struct pab_json_in *in, const cJSON *obj, const char *key,
		  int flags, const cJSON **v)
{
	if (in->why)
		return -1;
	*v = pab_json_in_get(in, obj, key, flags);
	if (in->why)
		return -1;
	return *v ? 1 : 0;
}

static const char *or_null(int flags)
{
	return flags & PAB_JSON_NULLABLE ? " or null" : "";
}

int pab_json_in_object(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, const cJSON **out)
{
	const cJSON *v;
	int got = lookup(in, obj, key, flags, &v);

	if (got <= 0)
		return got;
	if (!cJSON_IsObject(v))
		return pab_json_in_fail(in, key, "must be an object%s", or_null(flags));
	*out = v;
	return 1;
}

int pab_json_in_array(struct pab_json_in *in, const cJSON *obj,
		      const char *key, int flags, const cJSON **out)
{
	const cJSON *v;
	int got = lookup(in, obj, key, flags, &v);

	if (got <= 0)
		return got;
	if (!cJSON_IsArray(v))
		return pab_json_in_fail(in, key, "must be an array%s", or_null(flags));
	*out = v;
	return 1;
}

int pab_json_in_string(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, const char **out)
{
	const cJSON *v;
	int got = lookup(in, obj, key, flags, &v);

	if (got <= 0)
		return got;
	if (!cJSON_IsString(v))
		return pab_json_in_fail(in, key, "must be a string%s", or_null(flags));
	*out = v->valuestring;
	return 1;
}

int pab_json_in_bool(struct pab_json_in *in, const cJSON *obj,
		     const char *key, int flags, int *out)
{
	const cJSON *v;
	int got = lookup(in, obj, key, flags, &v);

	if (got <= 0)
		return got;
	if (!cJSON_IsBool(v))
		return pab_json_in_fail(in, key, "must be true or false%s", or_null(flags));
	*out = cJSON_IsTrue(v);
	return 1;
}

/* A bound as a message shows it: whole bounds exactly, else %g. */
static void format_bound(char *buf, size_t size, double x)
{
	if (x == floor(x) && fabs(x) < 9007199254740992.0)
		snprintf(buf, size, "%.0f", x);
	else
		snprintf(buf, size, "%g", x);
}

static int number_in(struct pab_json_in *in, const cJSON *obj, const char *key,
		     int flags, double min, double max, int whole,
		     const char *hint, double *out)
{
	const cJSON *v;
	int got = lookup(in, obj, key, flags, &v);
	double x;

	if (got <= 0)
		return got;
	x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (!isfinite(x) || x < min || x > max || (whole && x != floor(x))) {
		char lo[32], hi[32];

		format_bound(lo, sizeof(lo), min);
		format_bound(hi, sizeof(hi), max);
		return pab_json_in_fail(in, key, "must be %s in [%s, %s]%s%s%s%s",
					whole ? "a whole number" : "a number", lo, hi,
					or_null(flags), hint ? " (" : "", hint ? hint : "",
					hint ? ")" : "");
	}
	*out = x;
	return 1;
}

int pab_json_in_number(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, double min, double max,
		       const char *hint, double *out)
{
	return number_in(in, obj, key, flags, min, max, 0, hint, out);
}

int pab_json_in_whole(struct pab_json_in *in, const cJSON *obj,
		      const char *key, int flags, double min, double max,
		      const char *hint, double *out)
{
	return number_in(in, obj, key, flags, min, max, 1, hint, out);
}

int pab_json_in_finite(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, double abs_max, double *out)
{
	const cJSON *v;
	int got = lookup(in, obj, key, flags, &v);
	char bound[32];

	if (got <= 0)
		return got;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || fabs(v->valuedouble) > abs_max) {
		format_bound(bound, sizeof(bound), abs_max);
		return pab_json_in_fail(in, key, "must be a finite number (|x| <= %s)%s",
					bound, or_null(flags));
	}
	*out = v->valuedouble;
	return 1;
}

int pab_json_in_count(struct pab_json_in *in, const cJSON *obj,
		      const char *key, int flags, double max, size_t *out)
{
	double x;
	int got = number_in(in, obj, key, flags, 0, max, 1, NULL, &x);

	if (got == 1)
		*out = (size_t)x;
	return got;
}

int pab_json_in_strings(struct pab_json_in *in, const cJSON *obj,
			const char *key, int flags, char ***argv, size_t *argc)
{
	const cJSON *a, *it;
	const char *s;
	size_t i = 0;
	int got = lookup(in, obj, key, flags, &a);

	if (got == 1 && !cJSON_IsArray(a))
		got = pab_json_in_fail(in, key, "must be an array of strings%s",
				       or_null(flags));
	*argc = got == 1 ? (size_t)cJSON_GetArraySize(a) : 0;
	*argv = xcalloc(*argc + 1, sizeof(**argv));
	if (got <= 0)
		return got;
	if (key)
		pab_json_in_push_key(in, key);
	cJSON_ArrayForEach(it, a) {
		pab_json_in_push_index(in, i);
		if (pab_json_in_string(in, it, NULL, 0, &s) == 1)
			(*argv)[i++] = xstrdup(s);
		pab_json_in_pop(in);
		if (in->why)
			break;
	}
	if (key)
		pab_json_in_pop(in);
	return in->why ? -1 : 1;
}

/* Most unknown keys a message names; the rest are counted ("and 3 more"). */
#define UNKNOWN_KEYS_NAMED 8

int pab_json_in_note_unknown_keys(struct pab_json_in *in, const cJSON *obj,
				  const char *const *known)
{
	const char *path = in->path.len ? in->path.buf : in->root ? in->root : "the top level";
	struct pab_strbuf keys = PAB_STRBUF_INIT;
	size_t n_known = 0, n = 0, named = 0;
	const cJSON *it;

	if (in->why)
		return -1;
	while (known[n_known])
		n_known++;
	cJSON_ArrayForEach(it, obj) {
		const char *near;
		size_t k;

		for (k = 0; k < n_known; k++)
			if (!strcmp(known[k], it->string))
				break;
		if (k < n_known)
			continue;
		n++;
		in->n_unknown++;
		if (in->n_unknown > UNKNOWN_KEYS_NAMED)
			continue;
		if (named++)
			pab_strbuf_addstr(&keys, ", ");
		pab_strbuf_addf(&keys, "'%.*s'", NAME_MAX_BYTES, pab_term_safe(it->string));
		near = pab_nearest(it->string, known, n_known);
		if (near)
			pab_strbuf_addf(&keys, " (did you mean '%s'?)", near);
	}
	if (n && !named)
		pab_strbuf_addf(&in->unknown, "; %s: %zu unknown key%s", path, n, n > 1 ? "s" : "");
	else if (n)
		pab_strbuf_addf(&in->unknown, "%s%s: unknown key%s %s", in->unknown.len ? "; " : "",
				path, n > 1 ? "s" : "", keys.buf);
	if (n && named && named < n)
		pab_strbuf_addf(&in->unknown, ", and %zu more", n - named);
	pab_strbuf_release(&keys);
	return n ? -1 : 0;
}

int pab_json_in_fail_unknown_keys(struct pab_json_in *in)
{
	int ret = 0;

	if (in->unknown.len && !in->why)
		ret = set_why(in, pab_strbuf_detach(&in->unknown));
	pab_strbuf_release(&in->unknown);
	in->n_unknown = 0;
	return in->why ? -1 : ret;
}

int pab_json_in_known_keys(struct pab_json_in *in, const cJSON *obj,
			   const char *const *known)
{
	pab_json_in_note_unknown_keys(in, obj, known);
	return pab_json_in_fail_unknown_keys(in);
}

#define JSON_STR_(x) #x
#define JSON_STR(x) JSON_STR_(x)

const char *pab_json_version(void)
{
	return JSON_STR(CJSON_VERSION_MAJOR) "." JSON_STR(CJSON_VERSION_MINOR) "."
		JSON_STR(CJSON_VERSION_PATCH);
}
