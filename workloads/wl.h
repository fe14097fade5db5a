/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl.h — the runtime shared by the workload programs (perfab-alloc,
 * perfab-spin): the perfab-workload/1 protocol's inputs (argv and
 * PERFAB_* environment resolved against the suite table), checked number
 * parsing, /proc readings, the post-work drain window and the JSON report.
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

/* Monotonic clock in nanoseconds. */
uint64_t pab_wl_now_ns(void);

/* Resident set size from /proc/self/statm (field 2 × page size), or
 * PAB_WL_NONE when it cannot be read. */
int64_t pab_wl_rss_bytes(void);

/* The process's own RSS high-water mark (VmHWM of /proc/self/status) in
 * bytes, or PAB_WL_NONE when it cannot be read. */
int64_t pab_wl_vmhwm_bytes(void);

/* Physical memory of the machine in bytes, or 0 when unknown: parameters
 * whose working set exceeds it are refused as absurd. */
uint64_t pab_wl_phys_bytes(void);

/* Smallest power of two s >= min_stride such that ceil(n / s) <=
 * PAB_LATENCY_MAX_SAMPLES; min_stride 0 means 1. */
uint64_t pab_wl_latency_stride(uint64_t n, uint64_t min_stride);

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

/* Set every measured field of r to "not measured". */
void pab_wl_report_init(struct pab_wl_report *r);

/*
 * The drain window, starting now (call it right after everything was
 * freed): samples RSS every 10 ms up to release_bound_ms, and at
 * drain_ms; fills drain_rss_bytes, release_bound_rss_bytes and
 * release_ms. Then reads VmHWM into vmhwm_bytes.
 */
void pab_wl_drain(uint64_t drain_ms, uint64_t release_bound_ms,
		  struct pab_wl_report *r);

/*
 * Write the report: to wl->report_path through a temporary file in the
 * same directory and rename(2), or to stdout when there is no path.
 * Returns 0, or -1 after printing why.
 */
int pab_wl_report_write(const struct pab_wl *wl, const struct pab_wl_report *r);

/* Print the usage of `program` and the suite rows it runs, to stdout. */
void pab_wl_usage(const char *program, const char *synopsis);

#endif /* PAB_WL_H */
