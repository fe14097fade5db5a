/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memgate_baseline.h — a memory-gate baseline in memory: per scenario
 * (row) the bytes of peak RSS the memory gate allows growth over
 * (judge/memgate.h; doc/memgate.md). Its file is store/baseline.h's.
 */
#ifndef PAB_MEMGATE_BASELINE_H
#define PAB_MEMGATE_BASELINE_H

#include <stddef.h>

/* A baseline: n scenarios and their bytes; it owns its strings. */
struct pab_memgate_baseline {
	char **name;
	double *bytes;
	size_t n;
	char *arm, *cpu_model;   /* NULL when not recorded */
	size_t runs;             /* the runs it was recorded from (written,
				  * not read back: 0) */
};

/* Free what b owns and zero it. */
void pab_memgate_baseline_release(struct pab_memgate_baseline *b);

/* 1 when b has a figure for scenario name. */
int pab_memgate_baseline_has(const struct pab_memgate_baseline *b, const char *name);

#endif /* PAB_MEMGATE_BASELINE_H */
