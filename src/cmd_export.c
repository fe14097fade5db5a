/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_export.c — `perfab export`: an artifact's raw samples, one line per
 * rep and arm with every metric, or with --stats each arm's mean,
 * standard deviation, median, minimum and maximum per row and metric (the
 * table hyperfine exports per command), as CSV or JSON (report.h,
 * PAB_REPORT_SAMPLES and PAB_REPORT_STATS), for a spreadsheet or pandas.
 * Nothing is judged:
 * an interrupted run's artifact (with its journal) exports as well as a
 * complete one.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "store/artifact_read.h"
#include "options.h"
#include "report/report.h"
#include "util.h"

int cmd_export(int argc, char **argv)
{
	const char *format = "csv", *outpath = NULL;
	int stats = 0;
	const struct pab_option opts[] = {
		OPT_STRING('f', "format", &format, "csv|json", "csv (default) or json"),
		OPT_STRING('o', "out", &outpath, "OUT", "write here (default: stdout)"),
		OPT_FLAG(0, "stats", &stats, "each arm's mean, stddev, median, min and max per row and metric"),
		OPT_END(),
	};
	const char *usage = "perfab export FILE [--stats] [--format csv|json] [-o OUT]";
	struct pab_report_opts ro;
	struct pab_strlist pos = { 0 };
	struct pab_experiment e;
	FILE *f = stdout;
	char *why;
	int ret;

	pab_parse_options(argc, argv, opts, usage,
			  "Write an artifact's raw samples: one line per rep and arm (row, rep,\n"
			  "block, position, arm, failed, exit_code, then every metric in its unit);\n"
			  "with --stats, one line per row, arm and metric (n, failed, mean, stddev,\n"
			  "median, min, max).",
			  &pos);
	if (pos.n != 1)
		pab_usage_error(opts, usage, pos.n ? "give one artifact" : "no artifact given");
	pab_report_opts_init(&ro, PAB_REPORT_CSV);
	ro.what = stats ? PAB_REPORT_STATS : PAB_REPORT_SAMPLES;
	if (pab_report_format_parse(format, &ro.format) ||
	    !pab_report_can(ro.format, ro.what))
		pab_usage_error(opts, usage, "--format takes csv or json, not '%s'", format);
	ret = pab_artifact_load(pos.v[0], &e, &why);
	if (ret) {
		pab_error("%s", why);
		free(why);
		pab_strlist_release(&pos);
		return pab_artifact_load_exit_code(ret);
	}
	if (outpath) {
		f = fopen(outpath, "w");
		if (!f)
			die(PAB_EXIT_RUNTIME, "cannot write '%s': %s", outpath, strerror(errno));
	}
	pab_report_print(f, &e, NULL, &ro);
	if (outpath ? fclose(f) : fflush(f))
		die(PAB_EXIT_RUNTIME, "cannot write '%s': %s", outpath ? outpath : "stdout",
		    strerror(errno));
	pab_experiment_release(&e);
	pab_strlist_release(&pos);
	return 0;
}
