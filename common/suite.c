/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * suite.c — the built-in workload suite (see suite.h for the contract).
 *
 * The allocator rows come from the seed pipeline's workload table (its
 * reference notes, §6) with the op counts scaled down so one repetition
 * takes roughly 0.5–2 s of work on a 2-core VM: perfab runs every row once
 * per arm per repetition, and a row that takes 20 s makes a 15-rep, 3-arm
 * run an hour long. The seed's counts were for larger machines; the shape
 * of each row (threads, sizes, slots, generations, pauses, tables) is kept.
 *
 * Everything here is static data. Keep the parameter order of every
 * allocator row the same: it is the order perfab records them in.
 */
#include "common/suite.h"

#include <string.h>

#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

/* Help lines shared by all allocator rows. */
#define H_THREADS "worker threads (the /N of the row name)"
#define H_GENERATIONS "short-lived threads each worker's stream runs as"
#define H_MIN_SIZE "smallest block requested, bytes (K, M, G suffixes)"
#define H_MAX_SIZE "largest block requested, bytes (K, M, G suffixes)"
#define H_OPS "operations per worker thread at scale 1"
#define H_PAUSE "if > 0: 8 bursts, all freed after each, this sleep between"
#define H_TABLE "if > 0: Larson rounds over tables of this many blocks"
#define H_SIZES "size distribution: uniform or log (uniform per octave)"
#define H_SLOTS "live slots per worker in the stream"
#define H_DRAIN "RSS is read this long after everything was freed, ms"
#define H_BOUND "release bound after everything was freed, ms"
#define H_STRIDE "latency mode: minimum sampling stride, 0 = automatic"

/*
 * The full parameter list of one allocator row, in the recorded order.
 * Arguments are string literals.
 */
#define ALLOC_PARAMS(var, thr, gen, lo, hi, ops, pause, table)              \
	static const struct pab_param var[] = {                             \
		{ "threads", thr, H_THREADS },                              \
		{ "generations", gen, H_GENERATIONS },                      \
		{ "min_size", lo, H_MIN_SIZE },                             \
		{ "max_size", hi, H_MAX_SIZE },                             \
		{ "ops", ops, H_OPS },                                      \
		{ "pause_ms", pause, H_PAUSE },                             \
		{ "table_slots", table, H_TABLE },                          \
		{ "sizes", "uniform", H_SIZES },                            \
		{ "slots", "8", H_SLOTS },                                  \
		{ "drain_ms", "500", H_DRAIN },                             \
		{ "release_bound_ms", "1000", H_BOUND },                    \
		{ "latency_stride", "0", H_STRIDE },                        \
	}

/* Default op counts: measured on the 2-core Debian 12 VM (glibc malloc and
 * jemalloc) to give about 0.5–2 s of work per repetition; see the timing
 * table in doc/workload-protocol.md. */
ALLOC_PARAMS(p_large_class_8, "8", "1", "96K", "512K", "32000", "0", "0");
ALLOC_PARAMS(p_large_class_eph_8, "8", "8", "96K", "512K", "32000", "0", "0");
ALLOC_PARAMS(p_random_large_8, "8", "1", "64K", "4M", "3500", "0", "0");
ALLOC_PARAMS(p_random_large_bursty_8, "8", "1", "64K", "4M", "3500", "300",
	     "0");
ALLOC_PARAMS(p_random_large_1, "1", "1", "64K", "4M", "16000", "0", "0");
ALLOC_PARAMS(p_small_8, "8", "1", "16", "1024", "10000000", "0", "0");
ALLOC_PARAMS(p_larson_1, "1", "1", "8", "1000", "30000000", "0", "5000");
ALLOC_PARAMS(p_larson_8, "8", "1", "8", "1000", "4000000", "0", "5000");

static const struct pab_param p_spin[] = {
	{ "work", "350000000", "busy-loop iterations at scale 1" },
	{ "slowdown_pct", "0", "extra iterations, percent of work (injected slowdown)" },
	{ "jitter_pct", "0", "injected noise: each run's work moves by up to +-this percent" },
	{ "jitter_seed", "0", "jitter_pct drawn from the rep's seed and this (0: per process)" },
	{ "extra_mib", "0", "MiB touched and held during the work, freed before drain" },
	{ "leak_mib", "0", "MiB touched during the work and kept after drain" },
	{ "chunk", "4096", "iterations per timed operation in latency mode" },
	{ "drain_ms", "500", H_DRAIN },
	{ "release_bound_ms", "1000", H_BOUND },
	{ "latency_stride", "0", H_STRIDE },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define ROW(name, prog, control, desc, params)                               \
	{ name, prog, control, desc, params, N_OF(params) }

static const struct pab_row_def rows[] = {
	ROW("large-class/8", "perfab-alloc", 0,
	    "8 threads churning 96K-512K blocks through 8 slots each",
	    p_large_class_8),
	ROW("large-class-ephemeral/8", "perfab-alloc", 0,
	    "as large-class/8, each stream run by 8 short-lived threads that "
	    "exit holding live blocks",
	    p_large_class_eph_8),
	ROW("random-large/8", "perfab-alloc", 0,
	    "8 threads churning 64K-4M blocks", p_random_large_8),
	ROW("random-large-bursty/8", "perfab-alloc", 0,
	    "random-large/8 in 8 bursts, all freed and idle 300 ms between",
	    p_random_large_bursty_8),
	ROW("random-large/1", "perfab-alloc", 0,
	    "one thread churning 64K-4M blocks", p_random_large_1),
	ROW("small/8", "perfab-alloc", 1,
	    "control: 8 threads churning 16-1024 byte blocks", p_small_8),
	ROW("larson/1", "perfab-alloc", 0,
	    "Larson server pattern, one thread, 5000-block table",
	    p_larson_1),
	ROW("larson/8", "perfab-alloc", 0,
	    "Larson server pattern, 8 threads passing tables round by round",
	    p_larson_8),
	ROW("spin", "perfab-spin", 0,
	    "calibration: a deterministic busy loop with injectable slowdown "
	    "and memory",
	    p_spin),
};

size_t pab_suite_count(void)
{
	return N_OF(rows);
}

const struct pab_row_def *pab_suite_row(size_t i)
{
	return i < N_OF(rows) ? &rows[i] : NULL;
}

const struct pab_row_def *pab_suite_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < N_OF(rows); i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

const struct pab_param *pab_row_param(const struct pab_row_def *row,
				      const char *key)
{
	if (!row || !key)
		return NULL;
	for (size_t i = 0; i < row->n_params; i++)
		if (strcmp(row->params[i].key, key) == 0)
			return &row->params[i];
	return NULL;
}

/* Whether the term [t, t+len) (blanks already trimmed) matches `name`.
 * Done by hand rather than with a copy: the term is not NUL-terminated. */
static int term_matches(const char *t, size_t len, const char *name)
{
	size_t name_len = strlen(name);

	if (t[0] == '=')
		return len - 1 == name_len && memcmp(t + 1, name, len - 1) == 0;
	if (len > name_len)
		return 0;
	for (size_t i = 0; i + len <= name_len; i++)
		if (memcmp(name + i, t, len) == 0)
			return 1;
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int pab_suite_select(const char *sel, const char *row_name)
{
	const char *p = sel;

	if (!row_name)
		return 0;
	if (!sel || !*sel)
		return 1;
	while (*p) {
		const char *end = strchr(p, '|');
		const char *t = p, *e;

		if (!end)
			end = p + strlen(p);
		e = end;
		while (t < e && is_blank(*t))
			t++;
		while (e > t && is_blank(e[-1]))
			e--;
		if (e > t && term_matches(t, (size_t)(e - t), row_name))
			return 1;
		p = *end ? end + 1 : end;
	}
	return 0;
}
