/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * workload.h — perfab's side of perfab-workload/1: reading a workload's report (doc/workload-protocol.md §4)
 * from $PERFAB_REPORT, a path in perfab's scratch directory that the child
 * controls: it may leave a FIFO, a device node, a symlink, a giant file or
 * numbers no artifact can carry there. Nothing it does may hang perfab,
 * grow it without bound, or make it write an artifact it cannot read back.
 */
#ifndef PAB_RUN_WORKLOAD_H
#define PAB_RUN_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "model/experiment.h"

/* Largest report perfab reads (bytes); a larger one is refused. */
#define PAB_REPORT_MAX_BYTES ((size_t)64 << 20)
/* Longest string taken from a report as is; a longer checksum is kept as
 * "sha256:" and the SHA-256 of it (still equal exactly when it was). */
#define PAB_REPORT_STRING_MAX 256
/* How long reading one report may take in all. */
#define PAB_REPORT_DEADLINE_NS ((int64_t)5 * 1000000000)

/*
 * pab_workload_report_read: the report file at path into new memory (*text,
 * NUL-terminated, *len bytes; caller frees). Opened O_RDONLY|O_NONBLOCK|
 * O_NOFOLLOW, only a regular file of at most PAB_REPORT_MAX_BYTES, read
 * within PAB_REPORT_DEADLINE_NS. Returns 1, 0 when there is no report (no
 * file), or -1 with a reason (caller frees) in *why.
 */
int pab_workload_report_read(const char *path, char **text, size_t *len, char **why);

/*
 * pab_workload_report_parse: the metrics of report text[0..len) into res: in
 * latency mode p99 from latency_ns, else throughput (ops / elapsed_s), the
 * drain, release-bound and floor figures, the VmHWM fallback for peak_rss
 * and the checksum. Checked JSON (json_in.h: pab_json_parse). A number that is not
 * finite or beyond what an artifact holds (|x| > PAB_METRIC_ABS_MAX) makes
 * its metric null with the reason. Returns 1 when the report speaks
 * perfab-workload/1, -1 with a reason (caller frees) in *why when it is
 * malformed.
 */
int pab_workload_report_parse(const char *text, size_t len, int latency,
			      struct pab_arm_result *res, char **why);

/*
 * pab_workload_report_collect: pab_workload_report_read() the report at
 * path, then pab_workload_report_parse() it into res. Returns 1 when the
 * child spoke the protocol, 0 when it left no report, -1 when the report
 * was refused or malformed, with a reason (caller frees) in *why.
 */
int pab_workload_report_collect(const char *path, int latency,
				struct pab_arm_result *res, char **why);

#endif /* PAB_RUN_WORKLOAD_H */
