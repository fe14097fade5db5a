/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_calibrate.c — `perfab calibrate`: what this machine resolves. It
 * runs an A/A experiment with the runner of `perfab run` (the command as
 * base, again as head, and the null arm; every row to the cap of reps or
 * to the budget), or reads one (--from), then writes the
 * perfab-calibration/1 file (store/calibration.h) and prints its table:
 * per row and metric the paired spread, the half-width at each look, the
 * smallest tolerance an unchanged head PASSes at, and the MDE.
 * `perfab run --calibration FILE` takes its tolerances.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cmd_run.h"
#include "judge/ledger.h"
#include "store/artifact_read.h"
#include "store/calibration.h"
#include "store/tempfile.h"
#include "options.h"
#include "run/plan.h"
#include "run/runner.h"
#include "util.h"

#define DEFAULT_OUT "perfab-calibration.json"
#define DEFAULT_ARTIFACT "perfab-calibration-run.json"

static const char calibrate_usage[] =
	"perfab calibrate [--reps N] [--max-reps N] [--budget DURATION] [--counts auto|pmu|sim|off]\n"
	"                 [--cpus LIST] [--timeout S] [--scale X] [--seed N] [--artifact FILE]\n"
	"                 [--out FILE] [--quiet] CMD\n"
	"       perfab calibrate --from FILE [--reps N] [--out FILE]";

static struct {
	const char *out, *artifact, *from, *budget, *cpus, *counts;
	uint64_t reps, max_reps, seed;
	double timeout_s, scale;
	int quiet;
} opt;

static const struct pab_option calibrate_options[] = {
	OPT_U64('n', "reps", &opt.reps, "N", "the first look the tolerance is planned for (default 12)", 1, 1000000),
	OPT_U64(0, "max-reps", &opt.max_reps, "N", "reps to run, the cap of the looks (default 96)", 1, 1000000),
	OPT_STRING(0, "budget", &opt.budget, "DURATION", "time for the whole A/A run, e.g. 10m (default 10m)"),
	OPT_STRING(0, "counts", &opt.counts, "MODE", "exact counts: auto (default), pmu, sim or off"),
	OPT_STRING(0, "cpus", &opt.cpus, "LIST", "CPUs for the children, e.g. 1-3"),
	OPT_DOUBLE(0, "timeout", &opt.timeout_s, "S", "kill a child after S seconds (default 600)", 0, PAB_RUN_TIMEOUT_MAX_S),
	OPT_DOUBLE(0, "scale", &opt.scale, "X", "scale built-in workloads' work (default 1)", PAB_RUN_SCALE_MIN, PAB_RUN_SCALE_MAX),
	OPT_U64(0, "seed", &opt.seed, "N", "seed for workloads and the simulation (default: random)", 0, 9007199254740991.0),
	OPT_STRING(0, "artifact", &opt.artifact, "FILE", "the A/A run's artifact (default " DEFAULT_ARTIFACT ")"),
	OPT_STRING(0, "from", &opt.from, "FILE", "calibrate from this A/A artifact instead of running one"),
	OPT_STRING('o', "out", &opt.out, "FILE", "calibration file (default " DEFAULT_OUT ")"),
	OPT_FLAG('q', "quiet", &opt.quiet, "no progress lines"),
	OPT_END(),
};

/* The A/A run: CMD as base and head, the null arm, every rep to the cap. */
static int run_aa(const char *cmd, const char *artifact, struct pab_plan *plan)
{
	struct pab_run_opts o;
	struct pab_failure f = { 0 };
	struct pab_runner r;
	enum pab_run_end end;
	char *base = xasprintf("base=%s", cmd), *head = xasprintf("head=%s", cmd);
	size_t i;
	int ret;

	pab_run_opts_init(&o);
	o.table = pab_run_options();
	pab_strlist_push(&o.arm_specs, base);
	pab_strlist_push(&o.arm_specs, head);
	o.null_arm = 1;
	o.no_sanity = 1;
	o.max_reps = opt.max_reps ? opt.max_reps : PAB_DEFAULT_MAX_REPS;
	o.reps = o.max_reps; /* one look, at the cap: an A/A run is never "decided" */
	o.budget = opt.budget;
	o.counts = opt.counts;
	o.cpus = opt.cpus;
	o.out = artifact;
	o.quiet = opt.quiet;
	if (opt.seed != UINT64_MAX)
		o.seed = opt.seed;
	if (opt.timeout_s >= 0)
		o.timeout_s = opt.timeout_s;
	if (opt.scale > 0)
		o.scale = opt.scale;
	ret = pab_plan_make(plan, &o, &f);
	for (i = 0; i < plan->n_msgs; i++)
		if (plan->msgs[i].kind == PAB_PLAN_NOTE)
			note("%s", plan->msgs[i].text);
		else if (plan->msgs[i].kind == PAB_PLAN_WARNING)
			warning("%s", plan->msgs[i].text);
		else
			fputs(plan->msgs[i].text, stderr);
	if (ret)
		die(f.kind == PAB_FAIL_SYSTEM ? PAB_EXIT_RUNTIME : PAB_EXIT_USAGE, "%s", f.why);
	end = pab_runner_start(&r, plan, &f) ? PAB_RUN_ERROR : pab_runner_run(&r, &f);
	if (end == PAB_RUN_INTERRUPTED) {
		pab_runner_release(&r);
		die(PAB_EXIT_RUNTIME, "stopped by a signal: no calibration written (the artifact "
		    "'%s' keeps the reps so far: perfab calibrate --from it)", artifact);
	}
	if (end == PAB_RUN_ERROR || pab_runner_finish(&r, end, &f)) {
		pab_runner_release(&r);
		die(f.kind == PAB_FAIL_SYSTEM ? PAB_EXIT_RUNTIME : PAB_EXIT_USAGE, "%s", f.why);
	}
	pab_runner_release(&r);
	pab_strlist_release(&o.arm_specs);
	free(base);
	free(head);
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct pab_strlist pos = { 0 };
	struct pab_experiment loaded, *e;
	struct pab_ledger_opts lo;
	struct pab_plan plan;
	const char *out, *artifact;
	int judged[PAB_M_COUNT], have_plan = 0;
	struct cJSON *cal;
	char *why;
	size_t m;

	memset(&opt, 0, sizeof(opt));
	opt.seed = UINT64_MAX;
	opt.timeout_s = -1;
	pab_parse_options(argc, argv, calibrate_options, calibrate_usage,
			  "Run an A/A experiment (the command against itself, with the null arm) and\n"
			  "write what this machine resolves: per row and metric the paired spread,\n"
			  "the half-width at each look, the smallest tolerance an unchanged head\n"
			  "PASSes at, and the smallest change that FAILs (perfab run --calibration).",
			  &pos);
	if (opt.from ? pos.n != 0 : pos.n != 1)
		pab_usage_error(calibrate_options, calibrate_usage, opt.from ?
				"--from reads an artifact: give no command" :
				"give one command, the base build (it runs as base, head and null)");
	out = opt.out ? opt.out : DEFAULT_OUT;
	artifact = opt.from ? opt.from : opt.artifact ? opt.artifact : DEFAULT_ARTIFACT;
	if (opt.from) {
		int ret;

		/* The loader initialises what it fills (an init first would leak). */
		ret = pab_artifact_load(opt.from, &loaded, &why);
		if (ret)
			die(pab_artifact_load_exit_code(ret), "%s", why);
		e = &loaded;
	} else {
		setvbuf(stderr, NULL, _IOFBF, 8192);
		run_aa(pos.v[0], artifact, &plan);
		have_plan = 1;
		e = &plan.e;
	}
	pab_ledger_opts_init(&lo, e);
	for (m = 0; m < PAB_M_COUNT; m++)
		judged[m] = lo.judged[m];
	cal = pab_calibration_build(e, judged, opt.reps ? opt.reps : PAB_DEFAULT_FIRST_LOOK,
				    artifact, &why);
	if (!cal)
		die(PAB_EXIT_REFUSED, "cannot calibrate from '%s': %s", artifact, why);
	if (pab_calibration_write(out, cal, &why))
		die(PAB_EXIT_RUNTIME, "cannot write '%s': %s", out, why);
	fflush(stderr);
	pab_calibration_print(stdout, cal);
	why = pab_calibration_implausible(cal);
	if (why) {
		fflush(stdout);
		warning("the tolerance of %s is more than the %.0f%% perfab run --calibration "
			"takes: this machine cannot judge it with this command, and a run given "
			"'%s' refuses it (quieten the machine, lengthen the command, or leave the "
			"metric out of the run's --metrics)", why, PAB_CALIBRATION_TOL_MAX, out);
		free(why);
	}
	if (!opt.quiet)
		note("calibration written to '%s' (use it: perfab run --calibration %s)", out, out);
	pab_calibration_free(cal);
	if (have_plan)
		pab_plan_release(&plan);
	else
		pab_experiment_release(&loaded);
	pab_strlist_release(&pos);
	return PAB_EXIT_PASS;
}
