/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl_params.c — resolving a workload run's inputs (see wl.h): the row,
 * its parameters (suite defaults, then PERFAB_PARAMS, then key=value
 * arguments), the mode, seed, scale and report path, and the checked
 * number parsing every value goes through.
 *
 * Parameters are strict: a key the row does not have is an error, not
 * something to ignore, because a silently ignored override makes two arms
 * that look different run the same work (or the reverse).
 */
#include "wl_params.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/numparse.h"
#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

static int param_index(const struct pab_row_def *row, const char *key,
		       size_t key_len)
{
	for (size_t i = 0; i < row->n_params; i++)
		if (strlen(row->params[i].key) == key_len &&
		    memcmp(row->params[i].key, key, key_len) == 0)
			return (int)i;
	return -1;
}

/* Print the row's keys after an "unknown parameter" error. */
static void print_keys(const struct pab_row_def *row)
{
	fputs("; known parameters:", stderr);
	for (size_t i = 0; i < row->n_params; i++)
		fprintf(stderr, "%s %s", i ? "," : "", row->params[i].key);
	fputc('\n', stderr);
}

/*
 * Apply one override "key=value" of length len (not NUL-terminated, as it
 * may be a piece of PERFAB_PARAMS). `from` names the source for errors.
 */
static int apply_override(struct pab_wl *wl, const char *kv, size_t len,
			  const char *from)
{
	const char *eq = memchr(kv, '=', len);
	int i;
	char *value;

	if (!eq || eq == kv) {
		fprintf(stderr,
			"%s: error: %s '%.*s' is not key=value; give parameters "
			"as key=value\n",
			wl->program, from, (int)len, kv);
		return -1;
	}
	i = param_index(wl->row, kv, (size_t)(eq - kv));
	if (i < 0) {
		fprintf(stderr,
			"%s: error: unknown parameter '%.*s' in %s for row '%s'",
			wl->program, (int)(eq - kv), kv, from, wl->row->name);
		print_keys(wl->row);
		return -1;
	}
	value = strndup(eq + 1, len - (size_t)(eq + 1 - kv));
	if (!value) {
		fprintf(stderr, "%s: error: out of memory reading parameters\n",
			wl->program);
		return -1;
	}
	free(wl->values[i]);
	wl->values[i] = value;
	return 0;
}

static int is_key_value(const char *arg)
{
	const char *eq = strchr(arg, '=');

	return eq && eq != arg;
}

static int resolve_env(struct pab_wl *wl)
{
	const char *proto = getenv(PAB_ENV_PROTOCOL);
	const char *mode = getenv(PAB_ENV_MODE);
	const char *seed = getenv(PAB_ENV_SEED);
	const char *scale = getenv(PAB_ENV_SCALE);
	const char *report = getenv(PAB_ENV_REPORT);

	if (proto && strcmp(proto, PAB_WORKLOAD_PROTOCOL) != 0) {
		fprintf(stderr,
			"%s: error: %s is '%s': this program speaks only '%s'; "
			"use a perfab and workloads of the same version\n",
			wl->program, PAB_ENV_PROTOCOL, proto,
			PAB_WORKLOAD_PROTOCOL);
		return -1;
	}
	wl->mode = PAB_WL_THROUGHPUT;
	if (mode && *mode) {
		if (strcmp(mode, "latency") == 0) {
			wl->mode = PAB_WL_LATENCY;
		} else if (strcmp(mode, "throughput") != 0) {
			fprintf(stderr,
				"%s: error: %s is '%s': not a mode; use "
				"'throughput' or 'latency'\n",
				wl->program, PAB_ENV_MODE, mode);
			return -1;
		}
	}
	wl->seed = 0;
	if (seed && pab_parse_u64(seed, 0, UINT64_MAX, 0, &wl->seed) < 0) {
		fprintf(stderr,
			"%s: error: %s is '%s': not an unsigned 64-bit decimal "
			"integer; give one like 42\n",
			wl->program, PAB_ENV_SEED, seed);
		return -1;
	}
	wl->scale = 1.0;
	if (scale && pab_parse_double(scale, 1e-9, 1e6, &wl->scale) < 0) {
		fprintf(stderr,
			"%s: error: %s is '%s': not a number above 0 and at most "
			"1e6; give a factor like 0.05 or 1\n",
			wl->program, PAB_ENV_SCALE, scale);
		return -1;
	}
	wl->report_path = report && *report ? report : NULL;
	return 0;
}

static int resolve_params(struct pab_wl *wl, int first_arg, int argc,
			  char **argv)
{
	const char *env = getenv(PAB_ENV_PARAMS);

	for (size_t i = 0; i < wl->row->n_params; i++) {
		wl->values[i] = strdup(wl->row->params[i].value);
		if (!wl->values[i]) {
			fprintf(stderr, "%s: error: out of memory\n", wl->program);
			return -1;
		}
	}
	/* PERFAB_PARAMS is the full set perfab resolved: k=v,k=v. */
	for (const char *p = env; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && apply_override(wl, p, len, PAB_ENV_PARAMS) < 0)
			return -1;
		p += len + (end ? 1 : 0);
	}
	for (int a = first_arg; a < argc; a++)
		if (apply_override(wl, argv[a], strlen(argv[a]), "argument") < 0)
			return -1;
	return 0;
}

int pab_wl_init(struct pab_wl *wl, const char *program, const char *default_row,
		int argc, char **argv)
{
	const char *row = getenv(PAB_ENV_ROW);
	int first_arg = 1;

	memset(wl, 0, sizeof(*wl));
	wl->program = program;
	if (!row || !*row) {
		if (argc > 1 && !is_key_value(argv[1])) {
			row = argv[1];
			first_arg = 2;
		} else {
			row = default_row;
		}
	}
	if (!row) {
		fprintf(stderr,
			"%s: error: no row given: set '%s' or name the row as "
			"the first argument; run '%s --help' to list rows\n",
			program, PAB_ENV_ROW, program);
		return -1;
	}
	wl->row = pab_suite_find(row);
	if (!wl->row) {
		fprintf(stderr,
			"%s: error: unknown row '%s': not in the built-in suite; "
			"run '%s --help' to list rows\n",
			program, row, program);
		return -1;
	}
	if (strcmp(wl->row->program, program) != 0) {
		fprintf(stderr,
			"%s: error: row '%s' is run by '%s', not '%s'; run it "
			"with %s\n",
			program, row, wl->row->program, program,
			wl->row->program);
		return -1;
	}
	if (wl->row->n_params > PAB_WL_MAX_PARAMS) {
		fprintf(stderr, "%s: BUG: row '%s' has too many parameters\n",
			program, row);
		abort();
	}
	if (resolve_env(wl) < 0 || resolve_params(wl, first_arg, argc, argv) < 0) {
		pab_wl_release(wl);
		return -1;
	}
	return 0;
}

void pab_wl_release(struct pab_wl *wl)
{
	for (size_t i = 0; i < PAB_WL_MAX_PARAMS; i++) {
		free(wl->values[i]);
		wl->values[i] = NULL;
	}
}

const char *pab_wl_param_str(const struct pab_wl *wl, const char *key)
{
	int i = param_index(wl->row, key, strlen(key));

	if (i < 0) {
		fprintf(stderr, "%s: BUG: row '%s' has no parameter '%s'\n",
			wl->program, wl->row->name, key);
		abort();
	}
	return wl->values[i];
}

int pab_parse_u64(const char *s, uint64_t min, uint64_t max, int sizes,
		  uint64_t *out)
{
	return pab_num_u64(s, min, max,
			   PAB_NUM_DIGIT_FIRST | (sizes ? PAB_NUM_SIZES : 0), out);
}

int pab_parse_double(const char *s, double min, double max, double *out)
{
	return pab_num_double(s, min, max, PAB_NUM_NO_TAB, out);
}

int pab_wl_param_u64(const struct pab_wl *wl, const char *key, uint64_t min,
		     uint64_t max, int sizes, uint64_t *out)
{
	const char *v = pab_wl_param_str(wl, key);

	if (pab_parse_u64(v, min, max, sizes, out) == 0)
		return 0;
	fprintf(stderr,
		"%s: error: parameter '%s' is '%s': not a whole number from "
		"%llu to %llu%s; give a value in that range\n",
		wl->program, key, v, (unsigned long long)min,
		(unsigned long long)max,
		sizes ? " (K, M, G suffixes allowed)" : "");
	return -1;
}

int pab_wl_param_choice(const struct pab_wl *wl, const char *key,
			const char *const *choices)
{
	const char *v = pab_wl_param_str(wl, key);

	for (int i = 0; choices[i]; i++)
		if (strcmp(v, choices[i]) == 0)
			return i;
	fprintf(stderr, "%s: error: parameter '%s' is '%s': not one of",
		wl->program, key, v);
	for (int i = 0; choices[i]; i++)
		fprintf(stderr, "%s '%s'", i ? "," : "", choices[i]);
	fputs("; give one of those\n", stderr);
	return -1;
}

int pab_wl_scaled(const struct pab_wl *wl, const char *what, uint64_t n,
		  uint64_t max, uint64_t *out)
{
	double v = (double)n * wl->scale;

	if (n == 0) {
		*out = 0;
		return 0;
	}
	if (!(v <= (double)max)) {
		fprintf(stderr,
			"%s: error: %s at scale %g is %.0f, above the limit "
			"%llu; lower it or %s\n",
			wl->program, what, wl->scale, v, (unsigned long long)max,
			PAB_ENV_SCALE);
		return -1;
	}
	*out = (uint64_t)llround(v);
	if (*out == 0)
		*out = 1;
	return 0;
}

uint64_t pab_wl_latency_stride(uint64_t n, uint64_t min_stride)
{
	uint64_t s = 1;

	while (s < min_stride)
		s <<= 1;
	while ((n + s - 1) / s > PAB_LATENCY_MAX_SAMPLES)
		s <<= 1;
	return s;
}
