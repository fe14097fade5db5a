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
#include "store/tempfile.h"
#include "util.h"

/* What -o FILE holds: the report ro of e, for pab_write_file_atomic. */
struct export_job {
	const struct pab_experiment *e;
	const struct pab_report_opts *ro;
};

static int write_report(FILE *f, void *arg)
{
	const struct export_job *j = arg;

	pab_report_print(f, j->e, NULL, j->ro);
	return ferror(f) ? -1 : 0;
}

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
	/* -o FILE is written as the artifact is (store/tempfile.h): never
	 * through a symlink, never torn. */
	if (outpath) {
		struct export_job job = { &e, &ro };

		if (pab_write_file_atomic(outpath, write_report, &job, &why))
			die(PAB_EXIT_RUNTIME, "cannot write '%s': %s", outpath, why);
	} else {
		pab_report_print(stdout, &e, NULL, &ro);
		if (fflush(stdout))
			die(PAB_EXIT_RUNTIME, "cannot write stdout: %s", strerror(errno));
	}
	pab_experiment_release(&e);
	pab_strlist_release(&pos);
	return 0;
}
