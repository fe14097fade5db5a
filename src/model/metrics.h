/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * metrics.h — THE metric table: every metric perfab records, with its unit,
 * its better direction, whether the ledger judges it by default, whether
 * memory credit applies to it, and how pooled reps aggregate (median of
 * per-rep values for all of them). The ledger, the reports, the artifact
 * and the docs all read this one table.
 */
#ifndef PAB_METRICS_H
#define PAB_METRICS_H

#include <stddef.h>

#include "pab_stats.h"

enum pab_metric_id {
	PAB_M_THROUGHPUT,
	PAB_M_WALL,
	PAB_M_CPU,
	PAB_M_USER,
	PAB_M_SYS,
	PAB_M_MINOR_FAULTS,
	PAB_M_MAJOR_FAULTS,
	PAB_M_VOL_CTX,
	PAB_M_INVOL_CTX,
	PAB_M_PEAK_RSS,
	PAB_M_TREE_PEAK_RSS,
	PAB_M_TREE_PEAK_PSS,
	PAB_M_CGROUP_PEAK,
	PAB_M_DRAIN_RSS,
	PAB_M_RELEASE_BOUND_RSS,
	PAB_M_RELEASE_MS,
	PAB_M_RSS_FLOOR,
	PAB_M_P99,
	PAB_M_INSTRUCTIONS,
	PAB_M_CYCLES,
	PAB_M_TASK_CLOCK,
	PAB_M_PAGE_FAULTS,
	PAB_M_CONTEXT_SWITCHES,
	PAB_M_COUNT
};

struct pab_metric {
	enum pab_metric_id id;
	const char *name;      /* artifact key, e.g. "peak_rss" */
	const char *unit;      /* "ops/s", "s", "count", "bytes", "ms", "ns" */
	enum pab_better better;
	int judged;            /* judged by the ledger by default */
	int credit_eligible;   /* allowance may include saved%/3 */
	int memory;            /* an RSS-like figure (sanity gate, MiB display) */
	const char *label;     /* human label for tables */
	const char *source;    /* where the number comes from (docs) */
};

/* The largest magnitude of a metric value an artifact carries: the loader
 * refuses more, so the workload report reader refuses it too. */
#define PAB_METRIC_ABS_MAX 1e300

/* The table, PAB_M_COUNT entries in enum order. */
extern const struct pab_metric pab_metrics[PAB_M_COUNT];

/* The metric called name, or NULL. */
const struct pab_metric *pab_metric_find(const char *name);

/*
 * pab_parse_metrics: a comma-separated list of metric names (perfab(1)
 * METRICS) into judged[] (1 = judged, every other entry 0). Returns 0 or
 * -1 with a reason (caller frees) naming the bad item.
 */
int pab_parse_metrics(const char *list, int judged[PAB_M_COUNT], char **why);

#endif /* PAB_METRICS_H */
