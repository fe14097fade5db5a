/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl_report.h — a workload run's JSON report and the programs' usage (wl_report.c).
 * The errors follow wl.h: one line printed to stderr, -1 returned.
 */
#ifndef PAB_WL_REPORT_H
#define PAB_WL_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

/* Set every measured field of r to "not measured". */
void pab_wl_report_init(struct pab_wl_report *r);

/*
 * Write the report: to wl->report_path through a temporary file in the
 * same directory and rename(2), or to stdout when there is no path.
 * Returns 0, or -1 after printing why.
 */
int pab_wl_report_write(const struct pab_wl *wl, const struct pab_wl_report *r);

/* Print the usage of `program` and the suite rows it runs, to stdout. */
void pab_wl_usage(const char *program, const char *synopsis);

#endif /* PAB_WL_REPORT_H */
