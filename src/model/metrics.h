/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * metrics.h — THE metric table: every metric perfab records, with its unit
 * and how its values read, its better direction, how per-rep values
 * aggregate, whether the ledger judges it by default, whether memory
 * credit applies to it, whether it is a CPU/throughput target of the
 * disposition, whether the sanity gate compares it, how trace plots scale
 * it, and its key in a workload's report. The ledger, the reports, the
 * runner, the artifact and the docs (`perfab help metrics`) all read this
 * one table.
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

/* How a metric's values read and change (report/format.h) and which
 * absolute floor of the ledger applies to it. */
enum pab_metric_kind {
	PAB_KIND_RATE,   /* ops/s: SI prefixes; a change reads as a ratio */
	PAB_KIND_TIME,   /* s, ms, ns (per_second): a change reads as a ratio */
	PAB_KIND_COUNT,  /* SI prefixes; a change reads as an amount; the
			  * ledger's count floor */
	PAB_KIND_BYTES,  /* IEC prefixes; a change reads as an amount; the
			  * ledger's byte floor */
};

/* How a row's per-rep values of one arm summarise into one figure (the
 * medians table, the memory credit's medians, a rep's duration). */
enum pab_aggregate {
	PAB_AGG_MEDIAN,  /* the median of the per-rep values */
};

struct pab_metric {
	enum pab_metric_id id;
	const char *name;          /* artifact key, e.g. "peak_rss" */
	const char *unit;          /* "ops/s", "s", "count", "bytes", "ms", "ns" */
	enum pab_metric_kind kind;
	double per_second;         /* PAB_KIND_TIME: units per second, else 0 */
	enum pab_better better;
	enum pab_aggregate aggregate;
	int judged;                /* judged by the ledger by default */
	int credit_eligible;       /* allowance may include saved%/3 */
	int target;                /* a CPU/throughput target of the
				    * disposition (judge/ledger.h) */
	int sanity_gate;           /* compared by the sanity gate after rep 1 */
	int exact;                 /* an exact count: values that do not move
				    * are judged without sampling error
				    * (pab_cell_input.exact) */
	double tolerance_pct;      /* its default tolerance, percent; 0: the
				    * run's (PAB_DEFAULT_TOLERANCE_PCT) */
	int time_guard;            /* the CPU time of the work: as a guard
				    * under perfab/2 it holds the row's PASS
				    * until it has excluded a regression beyond
				    * the guard tolerance (doc/method.md §8a);
				    * wall time and 1/wall, which a loaded
				    * machine cannot resolve, do not */
	const char *label;         /* human label for tables */
	const char *source;        /* where the number comes from (docs) */
	double plot_div;           /* trace plots: value / plot_div ... */
	const char *plot_unit;     /* ... in this unit */
	const char *report_key;    /* its key in a perfab-workload/1 report,
				    * or NULL when it is not read from one as is */
};

/* The default tolerance of a metric whose entry declares none. */
#define PAB_DEFAULT_TOLERANCE_PCT 2.0

/* The largest magnitude of a metric value an artifact carries: the loader
 * refuses more, so the workload report reader refuses it too. */
#define PAB_METRIC_ABS_MAX 1e300

/* The table, PAB_M_COUNT entries in enum order. */
extern const struct pab_metric pab_metrics[PAB_M_COUNT];

/* Metric m's default tolerance in percent (its entry's, else
 * PAB_DEFAULT_TOLERANCE_PCT). */
double pab_metric_default_tolerance(enum pab_metric_id m);

/* The metric called name, or NULL. */
/* bytes in MiB, the unit the table's byte metrics are shown in (plot_unit). */
double pab_bytes_mib(double bytes);

const struct pab_metric *pab_metric_find(const char *name);

/*
 * pab_metric_aggregate: the n per-rep values x of metric m summarised as
 * the table says (the median for every metric today); NaN values count as
 * pab_median counts them. Returns the figure, NaN when n is 0 or it cannot
 * be computed.
 */
double pab_metric_aggregate(enum pab_metric_id m, const double *x, size_t n);

/*
 * pab_parse_metrics: a comma-separated list of metric names (perfab(1)
 * METRICS) into judged[] (1 = judged, every other entry 0). Returns 0 or
 * -1 with a reason (caller frees) naming the bad item: an unknown name,
 * an empty item, or a metric named twice.
 */
int pab_parse_metrics(const char *list, int judged[PAB_M_COUNT], char **why);

#endif /* PAB_METRICS_H */
