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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/artifact.h"
#include "builtin.h"
#include "judge/ledger.h"
#include "options.h"
#include "model/pool.h"
#include "report/report.h"
#include "util.h"

/*
 * Check a loaded artifact for a verdict. Returns 0, or the exit code to
 * leave with after explaining why on stderr (e released).
 */
static int check_judgeable(const char *path, struct pab_experiment *e)
{
	char *why;

	if (e->stopped_by == PAB_STOP_SANITY_GATE) {
		cJSON *cell;

		fprintf(stderr, "perfab: no verdict: '%s' was stopped by the sanity gate after rep 1:\n",
			path);
		cJSON_ArrayForEach(cell, e->sanity) {
			const cJSON *row = cJSON_GetObjectItemCaseSensitive(cell, "row");
			const cJSON *arm = cJSON_GetObjectItemCaseSensitive(cell, "arm");
			const cJSON *met = cJSON_GetObjectItemCaseSensitive(cell, "metric");
			const cJSON *b = cJSON_GetObjectItemCaseSensitive(cell, "base");
			const cJSON *h = cJSON_GetObjectItemCaseSensitive(cell, "head");

			if (cJSON_IsString(row) && cJSON_IsString(arm) &&
			    cJSON_IsString(met) && cJSON_IsNumber(b) && cJSON_IsNumber(h))
				fprintf(stderr, "  [%s] %s: %s %.1f -> %.1f MiB (more than 1.5x base + 8 MiB)\n",
					pab_term_safe(arm->valuestring), pab_term_safe(row->valuestring),
					pab_term_safe(met->valuestring),
					b->valuedouble / 1048576.0, h->valuedouble / 1048576.0);
		}
		fprintf(stderr, "  fix the head's memory use, or rerun with --no-sanity-gate to measure it anyway\n");
		pab_experiment_release(e);
		return PAB_EXIT_SANITY;
	}
	if (!e->complete) {
		fprintf(stderr,
			"perfab: no verdict: '%s' is incomplete (\"complete\": false): the run was "
			"interrupted before its last rep; finish it with: perfab run --resume %s and "
			"the run's own --config/--arm options\n",
			path, path);
		pab_experiment_release(e);
		return PAB_EXIT_REFUSED;
	}
	if (pab_experiment_check_balanced(e, &why)) {
		fprintf(stderr, "perfab: no verdict: '%s' is unbalanced: %s; only complete blocks "
			"of the rotation can be judged: rerun it\n", path, why);
		free(why);
		pab_experiment_release(e);
		return PAB_EXIT_REFUSED;
	}
	return 0;
}

/*
 * Load paths[0..n) for a verdict: one artifact as it is, several pooled in
 * memory. Each is checked on its own first, so a run stopped by the sanity
 * gate still exits PAB_EXIT_SANITY with its cells; then the pool's
 * refusals exit PAB_EXIT_REFUSED. Returns 0 with e filled or the exit code.
 */
static int load_judgeable(const char *const *paths, size_t n,
			  struct pab_experiment *e)
{
	struct pab_experiment *in = xcalloc(n, sizeof(*in));
	const struct pab_experiment **ptrs = xcalloc(n, sizeof(*ptrs));
	size_t i, loaded = 0;
	char *why;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		if (n > 1) {
			ret = pab_pool_load_input(paths[i], &in[i]);
			if (ret)
				break;
		} else if ((ret = pab_artifact_load(paths[i], &in[i], &why))) {
			fprintf(stderr, "perfab: error: %s\n", why);
			free(why);
			ret = pab_artifact_load_exit_code(ret);
			break;
		}
		ret = check_judgeable(paths[i], &in[i]);
		if (!ret) {
			ptrs[i] = &in[i];
			loaded++;
		}
	}
	if (!ret && n == 1) {
		*e = in[0];
		loaded = 0;
	} else if (!ret && pab_pool(ptrs, paths, n, e, &why)) {
		fprintf(stderr, "perfab: no verdict: refused to pool: %s\n", why);
		free(why);
		ret = PAB_EXIT_REFUSED;
	}
	for (i = 0; i < loaded; i++)
		pab_experiment_release(&in[i]);
	free(ptrs);
	free(in);
	return ret;
}

/*
 * Append the Markdown ledger to $GITHUB_STEP_SUMMARY when it is set (GitHub
 * Actions renders it on the run's page). A summary that cannot be written
 * is a warning, never a different verdict.
 */
static void step_summary(const struct pab_experiment *e,
			 const struct pab_ledger *l)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f) {
		warning("cannot append to $GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
		return;
	}
	pab_report_print(f, e, l, PAB_REPORT_MARKDOWN);
	fputc('\n', f);
	if (fclose(f))
		warning("cannot write $GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
}

static int judge(int argc, char **argv, int gate)
{
	const char *format = "text", *controls = NULL, *rules = NULL, *metrics = NULL;
	const char *inconclusive = "fail", *junit_inconclusive = NULL;
	int wide = 0;
	struct pab_strlist pos = { 0 };
	struct pab_experiment e;
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	enum pab_report_format fmt;
	char *why;
	int ret;
	const struct pab_option ledger_opts[] = {
		OPT_STRING('f', "format", &format, "FMT", "text (default), json, markdown, junit or html"),
		OPT_STRING(0, "controls", &controls, "SEL", "also treat these rows as controls"),
		OPT_STRING(0, "rules", &rules, "RULES", "judge with perfab/2, perfab/1 or rule12 (default: as recorded)"),
		OPT_STRING(0, "metrics", &metrics, "LIST", "judge only these of the run's judged metrics"),
		OPT_FLAG('v', "wide", &wide, "text: add noise, tolerance, allowance and coverage"),
		OPT_STRING(0, "junit-inconclusive", &junit_inconclusive, "MODE",
			   "junit: INCONCLUSIVE as failure (default) or skipped"),
		OPT_END(),
	};
	const struct pab_option gate_opts[] = {
		OPT_STRING(0, "inconclusive", &inconclusive, "pass|fail",
			   "what INCONCLUSIVE exits as (default fail: exit 3)"),
		OPT_STRING(0, "controls", &controls, "SEL", "also treat these rows as controls"),
		OPT_STRING(0, "rules", &rules, "RULES", "judge with perfab/2, perfab/1 or rule12 (default: as recorded)"),
		OPT_STRING(0, "metrics", &metrics, "LIST", "judge only these of the run's judged metrics"),
		OPT_END(),
	};
	const char *usage = gate ?
		"perfab gate FILE... [--inconclusive pass|fail] [--controls SEL] [--rules RULES]\n"
		"                   [--metrics LIST]" :
		"perfab ledger FILE... [--format text|json|markdown|junit|html] [-v|--wide]\n"
		"                     [--controls SEL] [--rules RULES] [--metrics LIST]\n"
		"                     [--junit-inconclusive failure|skipped]";

	pab_parse_options(argc, argv, gate ? gate_opts : ledger_opts, usage,
			  gate ? "Exit with the overall verdict: 0 PASS, 1 FAIL, 3 INCONCLUSIVE,\n"
				 "2 bad input, 4 refused data, 5 sanity gate. Several files are pooled\n"
				 "first (as perfab pool). With $GITHUB_STEP_SUMMARY set, the Markdown\n"
				 "ledger is appended to it."
			       : "Judge an artifact: per row, head arm and metric, the paired change,\n"
				 "its interval, the noise and allowance, and PASS / FAIL / INCONCLUSIVE.\n"
				 "Several files are pooled first (as perfab pool; refusals exit 4).\n"
				 "With $GITHUB_STEP_SUMMARY set, the Markdown ledger is appended to it.",
			  &pos);
	if (!pos.n)
		pab_usage_error(NULL, usage, "no artifact given");
	if (pab_report_format_parse(format, &fmt))
		pab_usage_error(NULL, usage, "unknown --format '%s'", format);
	if (strcmp(inconclusive, "pass") && strcmp(inconclusive, "fail"))
		pab_usage_error(NULL, usage, "--inconclusive takes pass or fail, not '%s'",
				inconclusive);
	if (junit_inconclusive && strcmp(junit_inconclusive, "failure") &&
	    strcmp(junit_inconclusive, "skipped"))
		pab_usage_error(NULL, usage, "--junit-inconclusive takes failure or skipped, not '%s'",
				junit_inconclusive);
	if (junit_inconclusive && fmt != PAB_REPORT_JUNIT)
		pab_usage_error(NULL, usage, "--junit-inconclusive applies to --format junit only");
	ret = load_judgeable(pos.v, pos.n, &e);
	if (ret) {
		pab_strlist_release(&pos);
		return ret;
	}
	pab_ledger_opts_init(&lo, &e);
	lo.controls = controls;
	if (rules && pab_rules_parse(rules, &lo.rules))
		die(PAB_EXIT_USAGE, "--rules '%s': use perfab/2, perfab/1 or rule12", rules);
	if (metrics && pab_ledger_opts_narrow(&lo, metrics, &why))
		die(PAB_EXIT_USAGE, "--metrics '%s': %s", metrics, why);
	if (lo.narrowed)
		fprintf(stderr, "perfab: the verdict covers only %s (--metrics); the run judged more\n",
			metrics);
	if (pab_ledger_build(&e, &lo, &l, &why)) {
		fprintf(stderr, "perfab: no verdict: '%s'%s: %s\n", pos.v[0],
			pos.n > 1 ? " and the others pooled with it" : "", why);
		free(why);
		pab_experiment_release(&e);
		pab_strlist_release(&pos);
		return PAB_EXIT_REFUSED;
	}
	if (l.rules == PAB_RULES_RULE12 && l.null_arm < 0)
		warning("rule12 without a null arm judges against a noise of 0: on a 24-cell run "
			"its familywise false-FAIL rate measured 21-39%%");
	if (gate)
		fprintf(stdout, "%s\n", pab_verdict_name(l.overall));
	else if (fmt == PAB_REPORT_TEXT) {
		struct pab_text_opts to = { wide, use_color(STDOUT_FILENO) };

		pab_report_print_text(stdout, &e, &l, &to);
	} else if (fmt == PAB_REPORT_JUNIT) {
		pab_report_junit(stdout, &e, &l, junit_inconclusive &&
				 !strcmp(junit_inconclusive, "skipped"));
	} else {
		pab_report_print(stdout, &e, &l, fmt);
	}
	step_summary(&e, &l);
	ret = pab_verdict_exit_code(l.overall);
	if (gate && l.overall == PAB_INCONCLUSIVE && !strcmp(inconclusive, "pass"))
		ret = PAB_EXIT_PASS;
	pab_ledger_release(&l);
	pab_experiment_release(&e);
	pab_strlist_release(&pos);
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
