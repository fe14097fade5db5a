/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * workload_report.h — the JSON line a workload child prints (its report,
 * doc/workload-protocol.md) read into numbers, with the checked reader
 * (json_in.h), so that run/workload.c turns it into measurements without
 * a JSON tree of its own.
 */
#ifndef PAB_WORKLOAD_REPORT_H
#define PAB_WORKLOAD_REPORT_H

#include <stddef.h>

#include "model/metrics.h"

/*
 * A report past its header, read leniently: a number is NaN when absent,
 * null, not a number or not finite. Owned arrays and strings.
 */
struct pab_workload_report {
	double ops, elapsed_s, vmhwm_bytes;
	double key[PAB_M_COUNT];  /* the value of pab_metrics[i].report_key */
	double *latency_ns;       /* latency_ns's finite samples >= 0 */
	size_t n_latency;
	char *checksum;           /* "checksum" when a string, else NULL */
};

/*
 * pab_workload_report_decode: text (len bytes) into *r (initialised by the
 * call). Returns 0, or -1 with a reason (caller frees) in *why when the
 * text is not a JSON object that speaks protocol.
 */
int pab_workload_report_decode(const char *text, size_t len, const char *protocol,
			       struct pab_workload_report *r, char **why);
void pab_workload_report_release(struct pab_workload_report *r);

#endif /* PAB_WORKLOAD_REPORT_H */
