/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl.h — the types of the runtime shared by the workload programs
 * (perfab-alloc, perfab-spin): the resolved inputs of a run and its
 * report, the exit codes, the checksum step. The functions are in
 * wl_params.h (the perfab-workload/1 protocol's inputs: argv and PERFAB_*
 * environment resolved against the suite table, checked number parsing),
 * wl_proc.h (/proc readings, the clock, the post-work drain window) and
 * wl_report.h (the JSON report, the usage).
 *
 * This is program code, not library code: on bad input the functions print
 * one error to stderr (lowercase, the subject in quotes, the reason, what
 * to do) and return -1, and the caller exits with PAB_WL_EXIT_USAGE. The
 * protocol itself is documented in doc/workload-protocol.md.
 */
#ifndef PAB_WL_H
#define PAB_WL_H

#include <stddef.h>
#include <stdint.h>

#include "common/suite.h"

/* Exit codes of every workload program (doc/workload-protocol.md §6). */
#define PAB_WL_EXIT_OK 0
#define PAB_WL_EXIT_FAILURE 1 /* the work could not be done or reported */
#define PAB_WL_EXIT_USAGE 2   /* bad row, parameter or environment */

/* The most parameters any row has; suite rows are checked against it. */
#define PAB_WL_MAX_PARAMS 16

/* A reading that could not be taken; reported as JSON null, never 0. */
#define PAB_WL_NONE (-1)

enum pab_wl_mode { PAB_WL_THROUGHPUT, PAB_WL_LATENCY };

/*
 * The resolved inputs of one run. `values[i]` is the value of
 * row->params[i] after PERFAB_PARAMS and argv overrides; the strings are
 * owned by the struct (pab_wl_release frees them). `report_path` is
 * borrowed from the environment; NULL means "print the report to stdout".
 */
struct pab_wl {
	const char *program;
	const struct pab_row_def *row;
	char *values[PAB_WL_MAX_PARAMS];
	enum pab_wl_mode mode;
	uint64_t seed;
	double scale;
	const char *report_path;
};

/* Order-dependent 64-bit hash step for operation checksums. */
static inline uint64_t pab_wl_mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/*
 * Everything a run reports besides its inputs. Byte and millisecond fields
 * hold PAB_WL_NONE when unmeasured. latency_ns is borrowed.
 */
struct pab_wl_report {
	unsigned threads;
	uint64_t ops;
	uint64_t iterations;   /* work actually done, when it differs from ops (spin); 0 = same */
	double elapsed_s;
	uint64_t checksum;
	int64_t live_bytes;
	int64_t live_rss_bytes;
	int64_t pre_rss_bytes;
	int64_t vmhwm_bytes;
	int64_t drain_rss_bytes;
	int64_t release_bound_rss_bytes;
	int64_t release_ms;
	uint64_t latency_stride;
	const uint64_t *latency_ns;
	size_t n_latency;
};

#endif /* PAB_WL_H */
