/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_out.h — the streaming JSON writer perfab's files are written with
 * (the artifact, its journal's records).
 *
 * Streaming: the checkpoint is written straight to the file, so
 * perfab's memory does not grow with the artifact (a cJSON tree of a
 * 1000-rep run costs tens of MiB), and every number is written exactly
 * (cJSON's printer rounds to 15 digits when its loose round-trip check
 * passes, which changes seeds above 1e15).
 *
 * Each function writes one JSON token or value to w->f, with no space
 * and no separator: the caller writes the ',' and ':' between them
 * (jw_key writes its own ':'). None fails: a write error stays in the
 * stream (ferror), which the caller checks once at the end.
 */
#ifndef PAB_JSON_OUT_H
#define PAB_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "model/experiment.h"

/* The writer: the stream it writes to (not owned). */
struct jw {
	FILE *f;
};

/* s as a JSON string (control characters escaped; bytes otherwise as given). */
void jw_str(struct jw *w, const char *s);
/* jw_str, or null for NULL. */
void jw_str_or_null(struct jw *w, const char *s);
/* v exactly: an integer below 2^53 without a fraction, else %.17g; NaN
 * and infinities as null. */
void jw_num(struct jw *w, double v);
/* "k": */
void jw_key(struct jw *w, const char *k);
/* A cJSON value, numbers through jw_num (cJSON's own printer writes
 * integers above 1e15 in exponent form). */
void jw_value(struct jw *w, const cJSON *v);
/* jw_value, or for NULL {} (empty_object) or null. */
void jw_cjson(struct jw *w, const cJSON *o, int empty_object);
/* An array of argc strings. */
void jw_argv(struct jw *w, char *const *argv, size_t argc);
/* An object of n string values, in order. */
void jw_kv(struct jw *w, const struct pab_kv *kv, size_t n);

#endif /* PAB_JSON_OUT_H */
