/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * metrics.c — the metric table (metrics.h). Adding a metric means one line
 * here and one enum value; nothing else lists metrics.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "util.h"

#define LOW PAB_LOWER_IS_BETTER
#define HIGH PAB_HIGHER_IS_BETTER

const struct pab_metric pab_metrics[PAB_M_COUNT] = {
	{ PAB_M_THROUGHPUT, "throughput", "ops/s", HIGH, 1, 1, 0, "throughput",
	  "workload report ops/elapsed; for a plain command 1/wall" },
	{ PAB_M_WALL, "wall", "s", LOW, 0, 0, 0, "wall",
	  "monotonic clock around the child" },
	{ PAB_M_CPU, "cpu", "s", LOW, 1, 1, 0, "cpu",
	  "user+sys of the child tree (wait4 rusage)" },
	{ PAB_M_USER, "user", "s", LOW, 0, 0, 0, "user", "wait4 rusage" },
	{ PAB_M_SYS, "sys", "s", LOW, 0, 0, 0, "sys", "wait4 rusage" },
	{ PAB_M_MINOR_FAULTS, "minor_faults", "count", LOW, 1, 1, 0,
	  "minor faults", "wait4 rusage" },
	{ PAB_M_MAJOR_FAULTS, "major_faults", "count", LOW, 0, 0, 0,
	  "major faults", "wait4 rusage" },
	{ PAB_M_VOL_CTX, "voluntary_ctx_switches", "count", LOW, 0, 0, 0,
	  "voluntary ctx switches", "wait4 rusage" },
	{ PAB_M_INVOL_CTX, "involuntary_ctx_switches", "count", LOW, 0, 0, 0,
	  "involuntary ctx switches", "wait4 rusage" },
	{ PAB_M_PEAK_RSS, "peak_rss", "bytes", LOW, 1, 0, 1, "peak RSS",
	  "the child's own VmHWM, read when it exits (ptrace exit stop)" },
	{ PAB_M_TREE_PEAK_RSS, "tree_peak_rss", "bytes", LOW, 0, 0, 1,
	  "tree peak RSS", "sampled sum of smaps_rollup Rss over the child tree" },
	{ PAB_M_TREE_PEAK_PSS, "tree_peak_pss", "bytes", LOW, 0, 0, 1,
	  "tree peak PSS", "sampled sum of smaps_rollup Pss over the child tree" },
	{ PAB_M_CGROUP_PEAK, "cgroup_peak", "bytes", LOW, 0, 0, 1,
	  "cgroup peak", "peak of the child's own cgroup" },
	{ PAB_M_DRAIN_RSS, "drain_rss", "bytes", LOW, 1, 0, 1, "drain RSS",
	  "workload report: RSS a fixed delay after the work drained" },
	{ PAB_M_RELEASE_BOUND_RSS, "release_bound_rss", "bytes", LOW, 0, 0, 1,
	  "release-bound RSS", "workload report: RSS at the release bound" },
	{ PAB_M_RELEASE_MS, "release_ms", "ms", LOW, 0, 0, 0, "release ms",
	  "workload report: time until RSS settles" },
	{ PAB_M_RSS_FLOOR, "rss_floor", "bytes", LOW, 0, 0, 1, "RSS floor",
	  "workload report: pre-work RSS + live requested bytes, while live" },
	{ PAB_M_P99, "p99", "ns", LOW, 0, 0, 0, "p99 latency",
	  "latency replay: 99th percentile of raw operation latencies" },
	{ PAB_M_INSTRUCTIONS, "instructions", "count", LOW, 0, 0, 0,
	  "instructions", "hardware counter (libpfm4 + perf_event_open)" },
	{ PAB_M_CYCLES, "cycles", "count", LOW, 0, 0, 0, "cycles",
	  "hardware counter (libpfm4 + perf_event_open)" },
	{ PAB_M_TASK_CLOCK, "task_clock", "ns", LOW, 0, 0, 0, "task clock",
	  "software counter (perf_event_open)" },
	{ PAB_M_PAGE_FAULTS, "page_faults", "count", LOW, 0, 0, 0, "page faults",
	  "software counter (perf_event_open)" },
	{ PAB_M_CONTEXT_SWITCHES, "context_switches", "count", LOW, 0, 0, 0,
	  "context switches", "software counter (perf_event_open)" },
};

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
