/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * metrics.c — the metric table (metrics.h). Adding a metric means one
 * entry here and one enum value; nothing else lists metrics.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "util.h"

/* How each kind of unit reads, scales and plots. */
#define RATE .unit = "ops/s", .kind = PAB_KIND_RATE, .plot_div = 1, .plot_unit = "ops/s"
#define SECONDS .unit = "s", .kind = PAB_KIND_TIME, .per_second = 1, \
	.plot_div = 1, .plot_unit = "s"
#define MILLISECONDS .unit = "ms", .kind = PAB_KIND_TIME, .per_second = 1e3, \
	.plot_div = 1, .plot_unit = "ms"
#define NANOSECONDS .unit = "ns", .kind = PAB_KIND_TIME, .per_second = 1e9, \
	.plot_div = 1e3, .plot_unit = "\xc2\xb5s"
#define COUNT .unit = "count", .kind = PAB_KIND_COUNT, .plot_div = 1, .plot_unit = "count"
/* Bytes are shown in MiB: the plots, the reports and every message. */
#define MIB 1048576.0
#define BYTES .unit = "bytes", .kind = PAB_KIND_BYTES, .plot_div = MIB, \
	.plot_unit = "MiB"
#define LOW .better = PAB_LOWER_IS_BETTER
#define HIGH .better = PAB_HIGHER_IS_BETTER
#define MEDIAN .aggregate = PAB_AGG_MEDIAN

const struct pab_metric pab_metrics[PAB_M_COUNT] = {
	[PAB_M_THROUGHPUT] = {
		.id = PAB_M_THROUGHPUT, .name = "throughput", .label = "throughput",
		RATE, HIGH, MEDIAN, .judged = 1, .credit_eligible = 1, .target = 1,
		.source = "workload report ops/elapsed; for a plain command 1/wall",
	},
	[PAB_M_WALL] = {
		.id = PAB_M_WALL, .name = "wall", .label = "wall",
		SECONDS, LOW, MEDIAN,
		.source = "monotonic clock around the child",
	},
	[PAB_M_CPU] = {
		.id = PAB_M_CPU, .name = "cpu", .label = "cpu",
		SECONDS, LOW, MEDIAN, .judged = 1, .credit_eligible = 1, .target = 1,
		.time_guard = 1,
		.source = "user+sys of the child tree (wait4 rusage)",
	},
	[PAB_M_USER] = {
		.id = PAB_M_USER, .name = "user", .label = "user",
		SECONDS, LOW, MEDIAN,
		.source = "wait4 rusage",
	},
	[PAB_M_SYS] = {
		.id = PAB_M_SYS, .name = "sys", .label = "sys",
		SECONDS, LOW, MEDIAN,
		.source = "wait4 rusage",
	},
	[PAB_M_MINOR_FAULTS] = {
		.id = PAB_M_MINOR_FAULTS, .name = "minor_faults", .label = "minor faults",
		COUNT, LOW, MEDIAN, .judged = 1, .credit_eligible = 1,
		.source = "wait4 rusage",
	},
	[PAB_M_MAJOR_FAULTS] = {
		.id = PAB_M_MAJOR_FAULTS, .name = "major_faults", .label = "major faults",
		COUNT, LOW, MEDIAN,
		.source = "wait4 rusage",
	},
	[PAB_M_VOL_CTX] = {
		.id = PAB_M_VOL_CTX, .name = "voluntary_ctx_switches",
		.label = "voluntary ctx switches",
		COUNT, LOW, MEDIAN,
		.source = "wait4 rusage",
	},
	[PAB_M_INVOL_CTX] = {
		.id = PAB_M_INVOL_CTX, .name = "involuntary_ctx_switches",
		.label = "involuntary ctx switches",
		COUNT, LOW, MEDIAN,
		.source = "wait4 rusage",
	},
	[PAB_M_PEAK_RSS] = {
		.id = PAB_M_PEAK_RSS, .name = "peak_rss", .label = "peak RSS",
		BYTES, LOW, MEDIAN, .judged = 1, .sanity_gate = 1,
		.source = "the child's own VmHWM, read when it exits (ptrace exit stop)",
	},
	[PAB_M_TREE_PEAK_RSS] = {
		.id = PAB_M_TREE_PEAK_RSS, .name = "tree_peak_rss", .label = "tree peak RSS",
		BYTES, LOW, MEDIAN,
		.source = "sampled sum of smaps_rollup Rss over the child tree",
	},
	[PAB_M_TREE_PEAK_PSS] = {
		.id = PAB_M_TREE_PEAK_PSS, .name = "tree_peak_pss", .label = "tree peak PSS",
		BYTES, LOW, MEDIAN,
		.source = "sampled sum of smaps_rollup Pss over the child tree",
	},
	[PAB_M_CGROUP_PEAK] = {
		.id = PAB_M_CGROUP_PEAK, .name = "cgroup_peak", .label = "cgroup peak",
		BYTES, LOW, MEDIAN,
		.source = "peak of the child's own cgroup",
	},
	[PAB_M_DRAIN_RSS] = {
		.id = PAB_M_DRAIN_RSS, .name = "drain_rss", .label = "drain RSS",
		BYTES, LOW, MEDIAN, .judged = 1, .sanity_gate = 1,
		.source = "workload report: RSS a fixed delay after the work drained",
		.report_key = "drain_rss_bytes",
	},
	[PAB_M_RELEASE_BOUND_RSS] = {
		.id = PAB_M_RELEASE_BOUND_RSS, .name = "release_bound_rss", .label = "release-bound RSS",
		BYTES, LOW, MEDIAN, .sanity_gate = 1,
		.source = "workload report: RSS at the release bound",
		.report_key = "release_bound_rss_bytes",
	},
	[PAB_M_RELEASE_MS] = {
		.id = PAB_M_RELEASE_MS, .name = "release_ms", .label = "release ms",
		MILLISECONDS, LOW, MEDIAN,
		.source = "workload report: time until RSS settles",
		.report_key = "release_ms",
	},
	[PAB_M_RSS_FLOOR] = {
		.id = PAB_M_RSS_FLOOR, .name = "rss_floor", .label = "RSS floor",
		BYTES, LOW, MEDIAN,
		.source = "workload report: pre-work RSS + live requested bytes, while live",
		.report_key = "rss_floor_bytes",
	},
	[PAB_M_P99] = {
		.id = PAB_M_P99, .name = "p99", .label = "p99 latency",
		NANOSECONDS, LOW, MEDIAN,
		.source = "latency replay: 99th percentile of raw operation latencies",
	},
	[PAB_M_INSTRUCTIONS] = {
		.id = PAB_M_INSTRUCTIONS, .name = "instructions", .label = "instructions",
		COUNT, LOW, MEDIAN, .exact = 1, .tolerance_pct = 0.5,
		.source = "exact count (--counts): the hardware counter instructions:u "
			"(pmu), else the counting pass under valgrind's cachegrind (sim)",
	},
	[PAB_M_CYCLES] = {
		.id = PAB_M_CYCLES, .name = "cycles", .label = "cycles",
		COUNT, LOW, MEDIAN,
		.source = "hardware counter (libpfm4 + perf_event_open)",
	},
	[PAB_M_TASK_CLOCK] = {
		.id = PAB_M_TASK_CLOCK, .name = "task_clock", .label = "task clock",
		NANOSECONDS, LOW, MEDIAN, .time_guard = 1,
		.source = "software counter (perf_event_open)",
	},
	[PAB_M_PAGE_FAULTS] = {
		.id = PAB_M_PAGE_FAULTS, .name = "page_faults", .label = "page faults",
		COUNT, LOW, MEDIAN,
		.source = "software counter (perf_event_open)",
	},
	[PAB_M_CONTEXT_SWITCHES] = {
		.id = PAB_M_CONTEXT_SWITCHES, .name = "context_switches", .label = "context switches",
		COUNT, LOW, MEDIAN,
		.source = "software counter (perf_event_open)",
	},
};

#undef RATE
#undef SECONDS
#undef MILLISECONDS
#undef NANOSECONDS
#undef COUNT
#undef BYTES
#undef LOW
#undef HIGH
#undef MEDIAN

double pab_metric_default_tolerance(enum pab_metric_id m)
{
	return pab_metrics[m].tolerance_pct > 0 ? pab_metrics[m].tolerance_pct :
		PAB_DEFAULT_TOLERANCE_PCT;
}

const struct pab_metric *pab_metric_find(const char *name)
{
	size_t i;

	for (i = 0; i < PAB_M_COUNT; i++)
		if (!strcmp(pab_metrics[i].name, name))
			return &pab_metrics[i];
	return NULL;
}

int pab_parse_metrics(const char *list, int judged[PAB_M_COUNT], char **why)
{
	const char *p = list;
	size_t i, any = 0;

	for (i = 0; i < PAB_M_COUNT; i++)
		judged[i] = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *name = xstrndup(p, len);
		const struct pab_metric *m = pab_metric_find(name);

		if (!len) {
			*why = xasprintf("'%s' has an empty item: give each metric once, "
					 "separated by ','", list);
			free(name);
			return -1;
		}
		if (m && judged[m->id]) {
			*why = xasprintf("'%s' names '%s' twice: give each metric once", list, name);
			free(name);
			return -1;
		}
		if (!m) {
			*why = xasprintf("unknown metric '%s' in '%s' (see perfab(1) METRICS)",
					 name, list);
			free(name);
			return -1;
		}
		free(name);
		if (m->id == PAB_M_RSS_FLOOR) {
			*why = xasprintf("'rss_floor' in '%s' is an input of the memory credit, "
					 "not a metric that can be judged", list);
			return -1;
		}
		judged[m->id] = 1;
		any++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return any ? 0 : -1;
}

double pab_metric_aggregate(enum pab_metric_id m, const double *x, size_t n)
{
	double out;

	switch (pab_metrics[m].aggregate) {
	case PAB_AGG_MEDIAN:
		return pab_median(x, n, &out) ? NAN : out;
	}
	BUG("metric '%s' has no aggregate", pab_metrics[m].name);
}

double pab_bytes_mib(double bytes)
{
	return bytes / MIB;
}
