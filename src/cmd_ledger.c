/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_ledger.c — `perfab ledger` and `perfab gate`: load one artifact, or
 * several and pool them in memory (pool.h: the same refusals as `perfab
 * pool`), refuse what cannot be judged (incomplete, unbalanced, stopped by
 * the sanity gate) with its own exit code and a way forward, then judge
 * it. Under GitHub Actions ($GITHUB_STEP_SUMMARY set) both also append the
 * Markdown ledger to the job's step summary.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/artifact_read.h"
#include "store/load.h"
#include "builtin.h"
#include "judge/ledger.h"
#include "options.h"
#include "model/pool.h"
#include "report/report.h"
#include "term.h"
#include "util.h"

/*
 * Append the Markdown ledger to $GITHUB_STEP_SUMMARY when it is set (GitHub
 * Actions renders it on the run's page). A summary that cannot be written
 * is a warning, never a different verdict.
 */
static void step_summary(const struct pab_experiment *e,
			 const struct pab_ledger *l)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	struct pab_report_opts ro;
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f) {
		warning("cannot append to $GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
		return;
	}
	pab_report_opts_init(&ro, PAB_REPORT_MARKDOWN);
	pab_report_print(f, e, l, &ro);
	fputc('\n', f);
	if (fclose(f))
		warning("cannot write $GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
}

/* The options of `perfab ledger` and `perfab gate`, and the artifacts. */
struct judge_args {
	const char *format, *controls, *rules, *metrics;
	const char *inconclusive, *junit_inconclusive;
	int wide;
	enum pab_report_format fmt;
	struct pab_strlist pos;
};

/* 1 when the row selection sel has a term: something besides blanks and
 * '|' (an empty sel would select every row, common/suite.h). */
static int selection_has_term(const char *sel)
{
	for (; *sel; sel++)
		if (!strchr(" \t\n|", *sel))
			return 1;
	return 0;
}

/* Parse and check the options (a usage error exits). */
static void parse_judge_args(int argc, char **argv, int gate, struct judge_args *a)
{
	const struct pab_option ledger_opts[] = {
		OPT_STRING('f', "format", &a->format, "FMT", "text (default), json, markdown, junit, html or csv"),
		OPT_STRING(0, "controls", &a->controls, "SEL", "also treat these rows as controls"),
		OPT_STRING(0, "rules", &a->rules, "RULES", "judge with perfab/2, perfab/1 or rule12 (default: as recorded)"),
		OPT_STRING(0, "metrics", &a->metrics, "LIST", "judge only these of the run's judged metrics"),
		OPT_FLAG('v', "wide", &a->wide, "text: add noise, tolerance, allowance and coverage"),
		OPT_STRING(0, "junit-inconclusive", &a->junit_inconclusive, "MODE",
			   "junit: INCONCLUSIVE as failure (default) or skipped"),
		OPT_END(),
	};
	const struct pab_option gate_opts[] = {
		OPT_STRING(0, "inconclusive", &a->inconclusive, "pass|fail",
			   "what INCONCLUSIVE exits as (default fail: exit 3)"),
		OPT_STRING(0, "controls", &a->controls, "SEL", "also treat these rows as controls"),
		OPT_STRING(0, "rules", &a->rules, "RULES", "judge with perfab/2, perfab/1 or rule12 (default: as recorded)"),
		OPT_STRING(0, "metrics", &a->metrics, "LIST", "judge only these of the run's judged metrics"),
		OPT_END(),
	};
	const char *usage = gate ?
		"perfab gate FILE... [--inconclusive pass|fail] [--controls SEL] [--rules RULES]\n"
		"                   [--metrics LIST]" :
		"perfab ledger FILE... [--format text|json|markdown|junit|html|csv] [-v|--wide]\n"
		"                     [--controls SEL] [--rules RULES] [--metrics LIST]\n"
		"                     [--junit-inconclusive failure|skipped]";

	memset(a, 0, sizeof(*a));
	a->format = "text";
	a->inconclusive = "fail";
	pab_parse_options(argc, argv, gate ? gate_opts : ledger_opts, usage,
			  gate ? "Exit with the overall verdict: 0 PASS, 1 FAIL, 3 INCONCLUSIVE,\n"
				 "2 bad input, 4 refused data, 5 sanity gate. Several files are pooled\n"
				 "first (as perfab pool). With $GITHUB_STEP_SUMMARY set, the Markdown\n"
				 "ledger is appended to it."
			       : "Judge an artifact: per row, head arm and metric, the paired change,\n"
				 "its interval, the noise and allowance, and PASS / FAIL / INCONCLUSIVE.\n"
				 "Several files are pooled first (as perfab pool; refusals exit 4).\n"
				 "With $GITHUB_STEP_SUMMARY set, the Markdown ledger is appended to it.",
			  &a->pos);
	if (!a->pos.n)
		pab_usage_error(NULL, usage, "no artifact given");
	if (pab_report_format_parse(a->format, &a->fmt))
		pab_usage_error(NULL, usage, "unknown --format '%s'", a->format);
	if (strcmp(a->inconclusive, "pass") && strcmp(a->inconclusive, "fail"))
		pab_usage_error(NULL, usage, "--inconclusive takes pass or fail, not '%s'",
				a->inconclusive);
	if (a->junit_inconclusive && strcmp(a->junit_inconclusive, "failure") &&
	    strcmp(a->junit_inconclusive, "skipped"))
		pab_usage_error(NULL, usage, "--junit-inconclusive takes failure or skipped, not '%s'",
				a->junit_inconclusive);
	if (a->junit_inconclusive && a->fmt != PAB_REPORT_JUNIT)
		pab_usage_error(NULL, usage, "--junit-inconclusive applies to --format junit only");
	if (a->controls && !selection_has_term(a->controls))
		pab_usage_error(NULL, usage, "--controls '%s' names no row: give row names, or "
				"parts of them, separated by '|' (=NAME matches NAME exactly)",
				pab_term_safe(a->controls));
}

/* The ledger options for e from the command line (bad ones exit). */
static void ledger_opts_of(const struct pab_experiment *e, const struct judge_args *a,
			   struct pab_ledger_opts *lo)
{
	char *why;

	pab_ledger_opts_init(lo, e);
	lo->controls = a->controls;
	if (a->rules && pab_rules_parse(a->rules, &lo->rules))
		die(PAB_EXIT_USAGE, "--rules '%s': use perfab/2, perfab/1 or rule12", a->rules);
	if (a->metrics && pab_ledger_opts_narrow(lo, a->metrics, &why))
		die(PAB_EXIT_USAGE, "--metrics '%s': %s", a->metrics, why);
	if (lo->narrowed)
		fprintf(stderr, "perfab: the verdict covers only %s (--metrics); the run judged more\n",
			a->metrics);
}

/* Print the judged ledger l of e as asked (gate: the verdict word). */
static void print_judged(const struct pab_experiment *e, const struct pab_ledger *l,
			 const struct judge_args *a, int gate)
{
	struct pab_report_opts ro;

	if (gate) {
		fprintf(stdout, "%s\n", pab_verdict_name(l->overall));
		/* Why, for the CI log: what failed or is undecided. */
		if (l->overall != PAB_PASS || l->disposition.kind == PAB_DISP_LIMITED) {
			fprintf(stderr, "perfab: %s (%s):\n", pab_verdict_name(l->overall),
				l->disposition.name);
			pab_report_opts_init(&ro, PAB_REPORT_TEXT);
			ro.what = PAB_REPORT_GATE_REASONS;
			pab_report_print(stderr, e, l, &ro);
		}
		return;
	}
	pab_report_opts_init(&ro, a->fmt);
	ro.wide = a->wide;
	ro.color = a->fmt == PAB_REPORT_TEXT && use_color(STDOUT_FILENO);
	ro.junit_skipped = a->junit_inconclusive && !strcmp(a->junit_inconclusive, "skipped");
	pab_report_print(stdout, e, l, &ro);
}

static int judge(int argc, char **argv, int gate)
{
	struct judge_args a;
	struct pab_experiment e;
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	char *why;
	int ret;

	parse_judge_args(argc, argv, gate, &a);
	ret = pab_load_judgeable(a.pos.v, a.pos.n, &e, &why);
	if (ret) {
		fprintf(stderr, "perfab: %s\n", why);
		free(why);
		pab_strlist_release(&a.pos);
		return ret;
	}
	ledger_opts_of(&e, &a, &lo);
	if (pab_ledger_build(&e, &lo, &l, &why)) {
		fprintf(stderr, "perfab: no verdict: '%s'%s: %s\n", a.pos.v[0],
			a.pos.n > 1 ? " and the others pooled with it" : "", why);
		free(why);
		pab_experiment_release(&e);
		pab_strlist_release(&a.pos);
		return PAB_EXIT_REFUSED;
	}
	if (l.rules == PAB_RULES_RULE12 && l.null_arm < 0)
		warning("rule12 without a null arm judges against a noise of 0: on a 24-cell run "
			"its familywise false-FAIL rate measured 21-39%%");
	print_judged(&e, &l, &a, gate);
	step_summary(&e, &l);
	ret = pab_ledger_exit_code(&l);
	if (gate && l.overall == PAB_INCONCLUSIVE && !strcmp(a.inconclusive, "pass"))
		ret = PAB_EXIT_PASS;
	pab_ledger_release(&l);
	pab_experiment_release(&e);
	pab_strlist_release(&a.pos);
	return ret;
}

int cmd_ledger(int argc, char **argv)
{
	return judge(argc, argv, 0);
}

int cmd_gate(int argc, char **argv)
{
	return judge(argc, argv, 1);
}
