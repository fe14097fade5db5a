/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl_params.h — a workload run's inputs (wl_params.c): the row, its parameters from
 * PERFAB_PARAMS and argv, the scale, the checked number parsers.
 * The errors follow wl.h: one line printed to stderr, -1 returned.
 */
#ifndef PAB_WL_PARAMS_H
#define PAB_WL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

/*
 * Resolve the run from argv and the environment: the row is PERFAB_ROW,
 * or else argv[1] when it is not a key=value argument, or else
 * `default_row` (NULL: none, an error). Then the row's defaults are
 * overridden by PERFAB_PARAMS, then by key=value arguments. The row must
 * be run by `program`. Returns 0, or -1 after printing the reason.
 * On success, call pab_wl_release() when done.
 */
int pab_wl_init(struct pab_wl *wl, const char *program, const char *default_row,
		int argc, char **argv);
void pab_wl_release(struct pab_wl *wl);

/*
 * The parameter `key` as an unsigned integer in [min, max]. Accepts
 * decimal digits with an optional K, M or G suffix (powers of 1024) when
 * `sizes` is non-zero. Returns 0 and sets *out, or -1 after printing why.
 * A key the row does not have is a bug in the program (abort).
 */
int pab_wl_param_u64(const struct pab_wl *wl, const char *key, uint64_t min,
		     uint64_t max, int sizes, uint64_t *out);

/* The index of the parameter's value in the NULL-terminated list
 * `choices`, or -1 after printing why. */
int pab_wl_param_choice(const struct pab_wl *wl, const char *key,
			const char *const *choices);

/* The parameter's raw value string (owned by wl). */
const char *pab_wl_param_str(const struct pab_wl *wl, const char *key);

/* n × scale rounded, at least 1 when n > 0; -1 after printing why when the
 * result does not fit `max`. */
int pab_wl_scaled(const struct pab_wl *wl, const char *what, uint64_t n,
		  uint64_t max, uint64_t *out);

/* Checked parsers for whole strings: 0 on success, -1 on empty input,
 * trailing junk, a sign, or a value outside [min, max]. Nothing printed.
 * The workloads' syntax of common/numparse.h: a digit first (sizes: a K,
 * M or G suffix allowed); a double with no leading space or tab. */
int pab_parse_u64(const char *s, uint64_t min, uint64_t max, int sizes,
		  uint64_t *out);
int pab_parse_double(const char *s, double min, double max, double *out);

/* Smallest power of two s >= min_stride such that ceil(n / s) <=
 * PAB_LATENCY_MAX_SAMPLES; min_stride 0 means 1. */
uint64_t pab_wl_latency_stride(uint64_t n, uint64_t min_stride);

#endif /* PAB_WL_PARAMS_H */
