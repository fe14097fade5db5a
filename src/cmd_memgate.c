/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_memgate.c — `perfab memgate`: the memory gate (doc/memgate.md).
 * Not a paired A/B comparison: an absolute check of one arm's peak RSS
 * against a committed baseline, for the slow creep that paired runs never
 * see because base and head creep together.
 *
 *   perfab memgate record RUN... -o FILE [--arm NAME]
 *   perfab memgate check  RUN... --baseline FILE [--tolerance PCT] [--arm NAME]
 *
 * The gate's rules (the median peak per run, the minimum over runs, the
 * coverage of the baseline, the verdict per scenario) are judge/memgate.h's,
 * the baseline file store/baseline.h's; this file loads the runs and the
 * baseline, prints the high-water table
 * and maps what it finds to the exit codes: every run's peak per scenario,
 * in run order, with the ones above the limit marked, so the scenario
 * whose line first jumps is the one to look at.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/judgeable.h"
#include "store/artifact_read.h"
#include "store/baseline.h"
#include "store/tempfile.h"
#include "builtin.h"
#include "judge/memgate.h"
#include "probe/hostinfo.h"
#include "options.h"
#include "term.h"
#include "util.h"

/*
 * Load the runs and fill t. Returns 0, or the exit code after saying why
 * on stderr. *arm_used gets the arm name (static or from arm_opt).
 */
static int load_runs(const struct pab_strlist *runs, const char *arm_opt,
		     struct pab_memgate_table *t, const char **arm_used,
		     char **cpu_model)
{
	size_t i;

	pab_memgate_table_init(t, runs->n);
	*cpu_model = NULL;
	for (i = 0; i < runs->n; i++) {
		struct pab_experiment e;
		const char *arm_name = arm_opt;
		char *why;
		int arm, lr;

		lr = pab_artifact_load(runs->v[i], &e, &why);
		if (lr) {
			pab_error("%s", why);
			free(why);
			return pab_artifact_load_exit_code(lr);
		}
		switch (pab_artifact_judgeable(&e, runs->v[i], &why)) {
		case PAB_JUDGEABLE:
			break;
		case PAB_UNJUDGEABLE_SANITY:
			fprintf(stderr, "perfab: no verdict: %s; fix that first, or rerun with "
				"--no-sanity-gate to measure it\n", why);
			free(why);
			pab_experiment_release(&e);
			return PAB_EXIT_SANITY;
		default:
			fprintf(stderr, "perfab: no verdict: %s: only a finished run's peaks are "
				"comparable to the baseline; rerun it\n", why);
			free(why);
			pab_experiment_release(&e);
			return PAB_EXIT_REFUSED;
		}
		if (!arm_name)
			arm_name = pab_experiment_arm_index(&e, "head") >= 0 ? "head" : "base";
		arm = pab_experiment_arm_index(&e, arm_name);
		if (arm < 0) {
			pab_error("'%s' has no arm '%s': name the arm to gate "
				"with --arm", runs->v[i], arm_name);
			pab_experiment_release(&e);
			return PAB_EXIT_USAGE;
		}
		if (i && strcmp(arm_name, *arm_used)) {
			pab_error("'%s' would gate arm '%s' but '%s' gated '%s': "
				"pass --arm", runs->v[i], arm_name, runs->v[0], *arm_used);
			pab_experiment_release(&e);
			return PAB_EXIT_USAGE;
		}
		if (!i)
			*arm_used = arm_name;
		if (!*cpu_model && e.cpu_model)
			*cpu_model = xstrdup(e.cpu_model);
		pab_memgate_table_add_run(t, i, &e, (size_t)arm);
		pab_experiment_release(&e);
	}
	return 0;
}

static void warn_runs(size_t n)
{
	if (n < PAB_MEMGATE_RUNS_EXPECTED)
		warning("only %zu run%s: the memory gate expects %d (the minimum of fewer runs "
			"sits higher and moves more)", n, n == 1 ? "" : "s", PAB_MEMGATE_RUNS_EXPECTED);
}

static void warn_spread(const struct pab_memgate_table *t, double tolerance)
{
	size_t s;

	for (s = 0; s < t->n; s++) {
		double spread = pab_memgate_spread_pct(t, s);

		if (isfinite(spread) && spread >= tolerance)
			warning("scenario '%s': runs spread %.1f%%, at least the %.1f%% tolerance: "
				"this machine's noise is as large as what the gate allows",
				t->scenario[s], spread, tolerance);
	}
}

/* ------------------------------------------------------------------ */
/* record                                                             */

static int memgate_record(int argc, char **argv)
{
	const char *out = NULL, *arm = NULL, *arm_used = NULL;
	struct pab_strlist runs = { 0 };
	struct pab_memgate_table t;
	struct pab_memgate_baseline b;
	char *cpu, *why;
	size_t s, r;
	int ret, lock_fd;
	const struct pab_option opts[] = {
		OPT_STRING('o', "out", &out, "FILE", "write the baseline here (required)"),
		OPT_STRING(0, "arm", &arm, "NAME", "the arm to record (default: head, else base)"),
		OPT_END(),
	};
	const char *usage = "perfab memgate record RUN... -o FILE [--arm NAME]";

	pab_parse_options(argc, argv, opts, usage,
			  "Write a memory-gate baseline: per scenario (row), the minimum over the\n"
			  "runs of the arm's median peak RSS. Commit it; `memgate check` reads it.",
			  &runs);
	if (!runs.n)
		pab_usage_error(opts, usage, "no run artifact given");
	if (!out)
		pab_usage_error(opts, usage, "-o FILE is required");
	/* The lock every writer takes: never replace a file a run writes. */
	lock_fd = pab_artifact_lock(out, &why);
	if (lock_fd < 0) {
		pab_error("%s", why);
		free(why);
		pab_strlist_release(&runs);
		return PAB_EXIT_RUNTIME;
	}
	ret = load_runs(&runs, arm, &t, &arm_used, &cpu);
	if (ret)
		goto out_release;
	if (!pab_memgate_table_complete(&t, &s, &r)) {
		pab_error("'%s' %s scenario '%s': record a "
			"baseline from full runs that measured every scenario",
			runs.v[r], pab_memgate_ran(&t, s, r) ? "has no peak_rss for" :
			"did not run", pab_term_safe(t.scenario[s]));
		ret = PAB_EXIT_USAGE;
		goto out_release;
	}
	warn_runs(t.n_runs);
	warn_spread(&t, 5.0);
	pab_memgate_baseline_of(&t, arm_used, cpu, &b);
	if (pab_baseline_save(out, &b, &why)) {
		pab_error("cannot write baseline: %s", why);
		free(why);
		ret = PAB_EXIT_RUNTIME;
	} else {
		fprintf(stderr, "perfab: memgate baseline of %zu scenario%s from %zu run%s -> %s\n",
			t.n, t.n == 1 ? "" : "s", t.n_runs, t.n_runs == 1 ? "" : "s", out);
	}
	pab_memgate_baseline_release(&b);
out_release:
	pab_artifact_unlock(out, lock_fd);
	free(cpu);
	pab_memgate_table_release(&t);
	pab_strlist_release(&runs);
	return ret;
}

/* ------------------------------------------------------------------ */
/* check                                                              */

static void print_mib(double v, int mark)
{
	if (isfinite(v))
		printf(" %10.2f%s", pab_bytes_mib(v), mark ? "*" : " ");
	else
		printf(" %10s ", "-");
}

/*
 * Refuse runs that cannot be gated against b (a scenario without a peak,
 * a filtered run), saying why. Returns 0 or the exit code.
 */
static int check_coverage(const struct pab_strlist *runs,
			  const struct pab_memgate_table *t,
			  const struct pab_memgate_baseline *b, const char *arm_used)
{
	size_t r = 0, s = 0, n_miss;
	char *miss;

	switch (pab_memgate_coverage(t, b, &r, &s, &n_miss, &miss)) {
	case PAB_MEMGATE_COVERED:
		return 0;
	case PAB_MEMGATE_NO_PEAK:
		pab_error("'%s' ran scenario '%s' but has no peak_rss "
			"for arm '%s': nothing to gate", runs->v[r], pab_term_safe(b->name[s]),
			arm_used);
		return PAB_EXIT_USAGE;
	case PAB_MEMGATE_FILTERED:
		break;
	}
	fprintf(stderr, "perfab: refused: '%s' is a filtered run: it measured %zu of the "
		"baseline's %zu scenarios (missing %s); the baseline describes the full "
		"battery, so compare a filtered run only with the same filtered run on "
		"another commit\n", runs->v[r], b->n - n_miss, b->n, miss);
	free(miss);
	return PAB_EXIT_FILTERED;
}

/* Warnings before the table: ungated scenarios, another CPU, few runs,
 * a spread as large as the tolerance. */
static void check_warnings(const struct pab_memgate_table *t,
			   const struct pab_memgate_baseline *b, const char *cpu,
			   double tolerance)
{
	size_t s;

	for (s = 0; s < t->n; s++)
		if (!pab_memgate_baseline_has(b, t->scenario[s]))
			warning("scenario '%s' has no baseline: not gated (record a new baseline to "
				"gate it)", pab_term_safe(t->scenario[s]));
	if (b->cpu_model && cpu && strcmp(b->cpu_model, cpu))
		warning("the baseline was recorded on \"%s\", these runs ran on \"%s\"",
			b->cpu_model, cpu);
	warn_runs(t->n_runs);
	warn_spread(t, tolerance);
}

/* The high-water table and the verdict line; returns the exit code. */
static int print_check(const struct pab_memgate_table *t,
		       const struct pab_memgate_baseline *b, const char *arm_used,
		       const char *base_path, double tolerance)
{
	struct pab_memgate_result *res = xcalloc(b->n ? b->n : 1, sizeof(*res));
	size_t s, r, first, regressions = pab_memgate_judge(t, b, tolerance, res, &first);

	printf("perfab memgate \xc2\xb7 peak_rss (MiB) of arm '%s' \xc2\xb7 minimum of %zu run%s vs "
	       "'%s' \xc2\xb7 tolerance +%.1f%%\n", arm_used, t->n_runs, t->n_runs == 1 ? "" : "s",
	       base_path, tolerance);
	printf("high-water per scenario, runs in the order given; * = above the limit\n");
	printf("%-28s", "scenario");
	for (r = 0; r < t->n_runs; r++) {
		char hdr[32];

		snprintf(hdr, sizeof(hdr), "run %zu", r + 1);
		printf(" %10s ", hdr);
	}
	printf(" %10s  %10s  %10s  %8s  %s\n", "min", "baseline", "limit", "change", "status");
	for (s = 0; s < b->n; s++) {
		size_t k = res[s].scenario;

		printf("%-28s", pab_term_safe(b->name[s]));
		for (r = 0; r < t->n_runs; r++)
			print_mib(pab_memgate_peak(t, k, r), pab_memgate_peak(t, k, r) > res[s].limit);
		printf(" %10.2f  %10.2f  %10.2f  %+7.1f%%  %s\n", pab_bytes_mib(res[s].min),
		       pab_bytes_mib(b->bytes[s]), pab_bytes_mib(res[s].limit), res[s].change_pct,
		       res[s].over ? "REGRESSION" : "ok");
	}
	free(res);
	if (regressions) {
		printf("first jump: '%s' (the first scenario, in order, whose minimum is above its limit)\n",
		       pab_term_safe(b->name[first]));
		printf("memgate: FAIL \xe2\x80\x94 %zu of %zu scenario%s above baseline +%.1f%%\n",
		       regressions, b->n, b->n == 1 ? "" : "s", tolerance);
		return PAB_EXIT_FAIL;
	}
	printf("memgate: PASS \xe2\x80\x94 every scenario within baseline +%.1f%%\n", tolerance);
	return PAB_EXIT_PASS;
}

static int memgate_check(int argc, char **argv)
{
	const char *base_path = NULL, *arm = NULL, *arm_used = NULL;
	double tolerance = 5.0;
	struct pab_strlist runs = { 0 };
	struct pab_memgate_table t = { 0 };
	struct pab_memgate_baseline b;
	char *why, *cpu = NULL;
	int ret;
	const struct pab_option opts[] = {
		OPT_STRING(0, "baseline", &base_path, "FILE", "the committed baseline (required)"),
		OPT_DOUBLE(0, "tolerance", &tolerance, "PCT", "allowed growth over the baseline (default 5)",
			   0, 1000),
		OPT_STRING(0, "arm", &arm, "NAME", "the arm to gate (default: head, else base)"),
		OPT_END(),
	};
	const char *usage = "perfab memgate check RUN... --baseline FILE [--tolerance PCT] [--arm NAME]";

	pab_parse_options(argc, argv, opts, usage,
			  "Per scenario, the minimum over RUN artifacts of the arm's median peak RSS\n"
			  "against the baseline + PCT%. Exit 0 pass, 1 regression, 2 bad input,\n"
			  "4 incomplete run, 5 sanity gate, 6 a filtered run (not every scenario).",
			  &runs);
	if (!runs.n)
		pab_usage_error(opts, usage, "no run artifact given");
	if (!base_path)
		pab_usage_error(opts, usage, "--baseline FILE is required");
	if (pab_baseline_load(base_path, &b, &why)) {
		pab_error("%s", why);
		free(why);
		pab_strlist_release(&runs);
		return PAB_EXIT_USAGE;
	}
	if (!arm && b.arm)
		arm = b.arm;
	ret = load_runs(&runs, arm, &t, &arm_used, &cpu);
	if (!ret)
		ret = check_coverage(&runs, &t, &b, arm_used);
	if (!ret) {
		check_warnings(&t, &b, cpu, tolerance);
		ret = print_check(&t, &b, arm_used, base_path, tolerance);
	}
	free(cpu);
	pab_memgate_table_release(&t);
	pab_memgate_baseline_release(&b);
	pab_strlist_release(&runs);
	return ret;
}

int cmd_memgate(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return memgate_check(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "record"))
		return memgate_record(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: perfab memgate check RUN... --baseline FILE [--tolerance PCT] [--arm NAME]\n"
		       "   or: perfab memgate record RUN... -o FILE [--arm NAME]\n\n"
		       "The memory gate: per scenario, the minimum over N runs (8 expected) of an\n"
		       "arm's median peak RSS against a committed baseline (+5%% by default).\n"
		       "'perfab memgate check --help' and 'record --help' show their options.\n");
		return PAB_EXIT_PASS;
	}
	pab_error("memgate needs 'check' or 'record'%s%s%s",
		argc >= 2 ? ", not '" : "", argc >= 2 ? argv[1] : "", argc >= 2 ? "'" : "");
	fprintf(stderr, "usage: perfab memgate check RUN... --baseline FILE [--tolerance PCT] [--arm NAME]\n"
			"   or: perfab memgate record RUN... -o FILE [--arm NAME]\n");
	return PAB_EXIT_USAGE;
}
