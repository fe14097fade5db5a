/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_bisect.c — `perfab bisect`: the options (its own and the run
 * options its comparisons take), the bisection (run/bisect_session.h),
 * and the answer printed: the first bad commit, its change against its
 * parent with the interval, every comparison, the cost and the `perfab
 * run` that reproduces the final comparison; or as JSON for tools. The
 * exit code says how it ended (doc/perfab.1, PERFAB BISECT).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd_run.h"
#include "model/argv_split.h"
#include "model/metrics.h"
#include "options.h"
#include "report/format.h"
#include "run/bisect_session.h"
#include "store/bisect_journal.h"
#include "store/json_out.h"
#include "term.h"
#include "util.h"

static const char bisect_usage[] =
	"perfab bisect --good REV --bad REV --build CMD --bench CMD [--metric NAME] [--retries N]\n"
	"              [--dir DIR] [--format text|json] [--quiet] [--reps N] [--max-reps N]\n"
	"              [--budget DURATION] [--metrics LIST] [--require LIST] [--tolerance [METRIC=]PCT]...\n"
	"              [--guard-tolerance PCT] [--counts auto|pmu|sim|off] [--count-reps N]\n"
	"              [--rules RULES] [--no-null-arm] [--cpus LIST] [--timeout S] [--seed N]\n"
	"              [--warmup N] [--input FILE] [--calibration FILE] [--literal-argv]\n"
	"              [--ignore-failure]";

static struct pab_run_opts ro;
static const char *good, *bad, *build, *bench, *metric, *dir, *format;
static uint64_t retries = UINT64_MAX;

static const struct pab_option bisect_options[] = {
	OPT_STRING(0, "good", &good, "REV", "a revision without the regression (required)"),
	OPT_STRING(0, "bad", &bad, "REV", "a later revision with it, on GOOD's first-parent line (required)"),
	OPT_STRING(0, "build", &build, "CMD", "build a revision: run in its worktree, never a shell (required)"),
	OPT_STRING(0, "bench", &bench, "CMD", "the benchmark, run in a revision's worktree as an arm of perfab run (required)"),
	OPT_STRING(0, "metric", &metric, "NAME", "judge this metric alone (--metrics NAME --require NAME)"),
	OPT_U64(0, "retries", &retries, "N", "runs added, pooled, to an undecided comparison (default 1)", 0, 100),
	OPT_STRING(0, "dir", &dir, "DIR", "builds, logs, runs and the journal (default GIT_DIR/perfab-bisect)"),
	OPT_STRING('f', "format", &format, "FMT", "the answer as text (default) or json"),
	OPT_FLAG('q', "quiet", &ro.quiet, "no progress lines"),
	OPT_U64('n', "reps", &ro.reps, "N", "as perfab run: the first look of each comparison", 1, 1000000),
	OPT_U64(0, "max-reps", &ro.max_reps, "N", "as perfab run: the cap of the looks", 1, 1000000),
	OPT_STRING(0, "budget", &ro.budget, "DURATION", "as perfab run: the time of each run of a comparison"),
	OPT_STRING(0, "metrics", &ro.metrics, "LIST", "as perfab run: the judged metrics"),
	OPT_STRING(0, "require", &ro.require, "LIST", "as perfab run: the cells that must PASS"),
	OPT_LIST(0, "tolerance", &ro.tolerances, "[METRIC=]PCT", "as perfab run (default 2 for every metric)"),
	OPT_DOUBLE(0, "guard-tolerance", &ro.guard_tolerance, "PCT", "as perfab run (default 4)", 0, PAB_RUN_GUARD_TOLERANCE_MAX),
	OPT_STRING(0, "counts", &ro.counts, "MODE", "as perfab run: auto (default), pmu, sim or off"),
	OPT_U64(0, "count-reps", &ro.count_reps, "N", "as perfab run: counting-pass reps", 1, PAB_RUN_COUNT_REPS_MAX),
	OPT_STRING(0, "rules", &ro.rules, "RULES", "as perfab run: perfab/2 (default), perfab/1 or rule12"),
	OPT_FLAG(0, "no-null-arm", &ro.no_null_arm, "as perfab run: no null arms"),
	OPT_STRING(0, "cpus", &ro.cpus, "LIST", "as perfab run: CPUs for the children"),
	OPT_DOUBLE(0, "timeout", &ro.timeout_s, "S", "as perfab run: kill a child after S seconds", 0, PAB_RUN_TIMEOUT_MAX_S),
	OPT_U64(0, "seed", &ro.seed, "N", "as perfab run: the seed of the first run", 0, 9007199254740991.0),
	OPT_U64(0, "warmup", &ro.warmup, "N", "as perfab run: unmeasured runs first", 0, PAB_RUN_WARMUP_MAX),
	OPT_STRING(0, "input", &ro.input, "FILE", "as perfab run: the children's stdin"),
	OPT_STRING(0, "calibration", &ro.calibration, "FILE", "as perfab run: tolerances from perfab calibrate"),
	OPT_FLAG(0, "literal-argv", &ro.literal_argv, "as perfab run: no check for shell syntax in --bench"),
	OPT_FLAG(0, "ignore-failure", &ro.ignore_failure, "as perfab run: a non-zero exit status of --bench is measured"),
	OPT_END(),
};

/* A number as the shortest text that reads back as it. */
static const char *num_word(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

/* The run options given, as the words of a command line (new string). */
static char *run_words(const struct pab_run_opts *o)
{
	struct pab_strlist w = { 0 };
	char buf[64], *words;
	size_t i;

#define WORD(s) pab_strlist_push(&w, xstrdup(s))
#define OPTION(name, value) do { if (value) { WORD(name); WORD(value); } } while (0)
#define UNUM(name, v) do { snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(v)); \
	WORD(name); WORD(buf); } while (0)
	if (o->reps)
		UNUM("--reps", o->reps);
	if (o->max_reps)
		UNUM("--max-reps", o->max_reps);
	OPTION("--budget", o->budget);
	OPTION("--metrics", o->metrics);
	OPTION("--require", o->require);
	for (i = 0; i < o->tolerances.n; i++)
		OPTION("--tolerance", o->tolerances.v[i]);
	if (o->guard_tolerance >= 0) {
		WORD("--guard-tolerance");
		WORD(num_word(buf, sizeof(buf), o->guard_tolerance));
	}
	OPTION("--counts", o->counts);
	if (o->count_reps)
		UNUM("--count-reps", o->count_reps);
	OPTION("--rules", o->rules);
	if (o->no_null_arm)
		WORD("--no-null-arm");
	OPTION("--cpus", o->cpus);
	if (o->timeout_s >= 0) {
		WORD("--timeout");
		WORD(num_word(buf, sizeof(buf), o->timeout_s));
	}
	if (o->seed != UINT64_MAX)
		UNUM("--seed", o->seed);
	if (o->warmup)
		UNUM("--warmup", o->warmup);
	OPTION("--input", o->input);
	OPTION("--calibration", o->calibration);
	if (o->literal_argv)
		WORD("--literal-argv");
	if (o->ignore_failure)
		WORD("--ignore-failure");
#undef UNUM
#undef OPTION
#undef WORD
	words = pab_argv_join((char *const *)w.v, w.n);
	for (i = 0; i < w.n; i++)
		free((char *)w.v[i]);
	pab_strlist_release(&w);
	return words;
}

/* ------------------------------------------------------------------ */
/* The answer as text                                                 */

/* "+600 k (+9.8% [+9.8, +9.8]) FAIL" of side s, or "-" (into buf). */
static const char *side_text(char *buf, size_t len, const struct pab_bisect_side *s)
{
	char change[128];

	if (s->metric < 0 || s->change.n == 0) {
		snprintf(buf, len, "%s", pab_verdict_name(s->verdict));
		return buf;
	}
	pab_fmt_change(change, sizeof(change), (enum pab_metric_id)s->metric, &s->change,
		       s->base_median, s->verdict == PAB_PASS ? 0 : PAB_FMT_NO_SAME);
	snprintf(buf, len, "%s %s", change, pab_verdict_name(s->verdict));
	return buf;
}

static const char *metric_name(int m)
{
	return m >= 0 && m < PAB_M_COUNT ? pab_metrics[m].name : "the row";
}

/* One finished range in words. */
static void print_found(FILE *out, struct pab_bisect_answer *a, const struct pab_bisect_found *fd)
{
	const struct pab_git_info *bi = pab_bisect_answer_info(a, fd->res.r.bad);
	const struct pab_git_info *gi = pab_bisect_answer_info(a, fd->res.r.good);
	char side[256], pair[128];
	size_t i;

	switch (fd->res.end) {
	case PAB_BISECT_FOUND:
		fprintf(out, "first bad commit: %s %s\n", bi->abbrev, pab_term_safe(bi->subject));
		fprintf(out, "  author date %s\n", bi->date);
		break;
	case PAB_BISECT_AMBIGUOUS:
		fprintf(out, "the first bad commit is one of %zu:", fd->res.r.bad - fd->res.r.good);
		for (i = fd->res.r.good + 1; i <= fd->res.r.bad; i++)
			fprintf(out, " %s", pab_bisect_answer_info(a, i)->abbrev);
		fprintf(out, "\n  (the others between %s and %s could not be measured or stayed "
			"undecided)\n", gi->abbrev, bi->abbrev);
		break;
	case PAB_BISECT_BETWEEN:
		fprintf(out, "a change spread over %s..%s: no one commit made it (a commit between "
			"is within the tolerance of both)\n", gi->abbrev, bi->abbrev);
		break;
	}
	if (fd->judged && fd->side.metric >= 0) {
		pab_fmt_pair(pair, sizeof(pair), (enum pab_metric_id)fd->side.metric,
			     fd->side.base_median, fd->side.head_median, 0);
		fprintf(out, "  against %s %s: %s %s, %s\n",
			fd->res.end == PAB_BISECT_FOUND ? "its parent" : "", gi->abbrev,
			metric_name(fd->side.metric), pair, side_text(side, sizeof(side), &fd->side));
	}
	fprintf(out, "  reproduce: %s\n", fd->reproduce);
}

static const char *abbrev_of(struct pab_bisect_answer *a, const char *commit)
{
	long i = pab_bisect_answer_index(a, commit);

	return i >= 0 ? pab_bisect_answer_info(a, (size_t)i)->abbrev : "-";
}

/* The table of the comparisons: one line each, the first (mid "-") with
 * bad vs good in the second change's column. */
static void print_comparisons(FILE *out, struct pab_bisect_answer *a)
{
	char s1[256], s2[256], range[64];
	size_t i;

	fprintf(out, "\ncomparisons (%s; + is worse):\n", metric_name(a->metric));
	fprintf(out, "  %-2s %-9s %-18s %-34s %-34s %-12s %s\n", "#", "mid", "good..bad",
		"mid vs good", "bad vs mid", "mid is", "reps");
	for (i = 0; i < a->n_made; i++) {
		const struct pab_bisect_made *m = &a->made[i];
		const struct pab_bisect_comparison *c = &m->c;

		snprintf(range, sizeof(range), "%s..%s", abbrev_of(a, c->good), abbrev_of(a, c->bad));
		if (c->failed) {
			snprintf(s1, sizeof(s1), "its benchmark failed");
			snprintf(s2, sizeof(s2), "-");
		} else {
			if (c->mid)
				side_text(s1, sizeof(s1), &c->mid_good);
			else
				snprintf(s1, sizeof(s1), "-");
			side_text(s2, sizeof(s2), c->mid ? &c->bad_mid : &c->bad_good);
		}
		fprintf(out, "  %-2zu %-9s %-18s %-34s %-34s %-12s %zu%s\n", i + 1,
			c->mid ? abbrev_of(a, c->mid) : "-", range, s1, s2,
			c->mid ? pab_bisect_mark_name(m->mark) : "(bad vs good)", c->reps,
			m->reused ? " (kept)" : "");
	}
}

static void print_text(FILE *out, struct pab_bisect_answer *a)
{
	const struct pab_bisect_comparison *first = a->n_made ? &a->made[0].c : NULL;
	char side[256], secs[32];
	size_t i, kept = 0;

	fprintf(out, "perfab bisect · %s (GOOD) .. %s (BAD) · %zu commits · %s\n\n",
		pab_bisect_answer_info(a, 0)->abbrev, pab_bisect_answer_info(a, a->n - 1)->abbrev,
		a->n - 1, metric_name(a->metric));
	if (a->outcome == PAB_BISECT_OUT_NO_REGRESSION)
		fprintf(out, "no regression between GOOD and BAD: bad vs good %s\n",
			side_text(side, sizeof(side), &first->bad_good));
	else if (!a->n_found)
		fprintf(out, "no answer: bad vs good stayed %s after %zu run%s (%s); more reps "
			"(--max-reps, --budget, --retries) or a tolerance this machine resolves "
			"(perfab calibrate) may decide it\n",
			pab_verdict_name(first->bad_good.verdict), first->runs,
			first->runs == 1 ? "" : "s", side_text(side, sizeof(side), &first->bad_good));
	if (a->n_found > 1)
		fprintf(out, "%zu changes between GOOD and BAD, in line order:\n\n", a->n_found);
	for (i = 0; i < a->n_found; i++) {
		if (i)
			fputc('\n', out);
		print_found(out, a, &a->found[i]);
	}
	print_comparisons(out, a);
	for (i = 0; i < a->n_made; i++)
		kept += a->made[i].reused;
	pab_fmt_duration(secs, sizeof(secs), a->seconds > 0 ? a->seconds : 1);
	fprintf(out, "\ncost: %zu comparison%s (%zu kept from an earlier invocation), %zu paired "
		"reps, %s of runs; %zu builds made, %zu kept\n", a->n_made,
		a->n_made == 1 ? "" : "s", kept, a->reps, secs, a->builds_made, a->builds_reused);
	for (i = 0; i < a->n_skipped; i++)
		fprintf(out, "skipped: %s %s\n", pab_bisect_answer_info(a, a->skipped[i])->abbrev,
			a->skipped_why[i]);
}

/* ------------------------------------------------------------------ */
/* The answer as JSON                                                 */

static void json_commit(struct jw *w, struct pab_bisect_answer *a, size_t i)
{
	const struct pab_git_info *info = pab_bisect_answer_info(a, i);

	fputc('{', w->f);
	jw_key(w, "commit");
	jw_str(w, a->line[i]);
	fputc(',', w->f);
	jw_key(w, "abbrev");
	jw_str(w, info->abbrev);
	fputc(',', w->f);
	jw_key(w, "subject");
	jw_str(w, info->subject);
	fputc(',', w->f);
	jw_key(w, "date");
	jw_str(w, info->date);
	fputc('}', w->f);
}

static void json_found(struct jw *w, struct pab_bisect_answer *a, const struct pab_bisect_found *fd)
{
	static const char *const kinds[] = { "first-bad-commit", "one-of", "spread" };
	size_t i;

	fputc('{', w->f);
	jw_key(w, "kind");
	jw_str(w, kinds[fd->res.end]);
	fputc(',', w->f);
	jw_key(w, "good");
	json_commit(w, a, fd->res.r.good);
	fputc(',', w->f);
	jw_key(w, "bad");
	json_commit(w, a, fd->res.r.bad);
	fputc(',', w->f);
	jw_key(w, "candidates");
	fputc('[', w->f);
	for (i = fd->res.r.good + 1; i <= fd->res.r.bad; i++) {
		if (i > fd->res.r.good + 1)
			fputc(',', w->f);
		jw_str(w, a->line[i]);
	}
	fputs("],", w->f);
	jw_key(w, "change");
	if (fd->judged)
		pab_bisect_json_side(w, &fd->side);
	else
		fputs("null", w->f);
	fputc(',', w->f);
	jw_key(w, "reproduce");
	jw_str(w, fd->reproduce);
	fputc('}', w->f);
}

static void print_json(FILE *out, struct pab_bisect_answer *a)
{
	static const char *const outcomes[] = { "found", "no-regression", "undecided" };
	struct jw w = { out };
	size_t i, kept = 0;

	fputc('{', out);
	jw_key(&w, "schema");
	jw_str(&w, "perfab-bisect/1");
	fputs(",\n", out);
	jw_key(&w, "outcome");
	jw_str(&w, outcomes[a->outcome]);
	fputs(",\n", out);
	jw_key(&w, "good");
	json_commit(&w, a, 0);
	fputs(",\n", out);
	jw_key(&w, "bad");
	json_commit(&w, a, a->n - 1);
	fputs(",\n", out);
	jw_key(&w, "commits");
	jw_num(&w, (double)(a->n - 1));
	fputc(',', out);
	jw_key(&w, "metric");
	jw_str_or_null(&w, a->metric >= 0 ? pab_metrics[a->metric].name : NULL);
	fputc(',', out);
	jw_key(&w, "dir");
	jw_str(&w, a->dir);
	fputs(",\n", out);
	jw_key(&w, "changes");
	fputc('[', out);
	for (i = 0; i < a->n_found; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_found(&w, a, &a->found[i]);
	}
	fputs("],\n", out);
	jw_key(&w, "comparisons");
	fputc('[', out);
	for (i = 0; i < a->n_made; i++) {
		fputs(i ? ",\n" : "\n", out);
		pab_bisect_json_comparison(&w, &a->made[i].c, a->made[i].c.mid ?
					   pab_bisect_mark_name(a->made[i].mark) : NULL,
					   a->made[i].reused);
		kept += a->made[i].reused;
	}
	fputs("],\n", out);
	jw_key(&w, "skipped");
	fputc('[', out);
	for (i = 0; i < a->n_skipped; i++) {
		if (i)
			fputc(',', out);
		fputc('{', out);
		jw_key(&w, "commit");
		jw_str(&w, a->line[a->skipped[i]]);
		fputc(',', out);
		jw_key(&w, "why");
		jw_str(&w, a->skipped_why[i]);
		fputc('}', out);
	}
	fputs("],\n", out);
	jw_key(&w, "cost");
	fprintf(out, "{\"comparisons\":%zu,\"kept\":%zu,\"reps\":%zu,\"seconds\":", a->n_made, kept,
		a->reps);
	jw_num(&w, a->seconds);
	fprintf(out, ",\"builds_made\":%zu,\"builds_kept\":%zu}}\n", a->builds_made,
		a->builds_reused);
}

/* ------------------------------------------------------------------ */

/* A stop signal ended the bisection: say how to go on, die of it. */
_Noreturn static void die_of_signal(const struct pab_bisect_answer *a)
{
	fprintf(stderr, "perfab: bisect stopped by signal %d: its builds and comparisons are kept "
		"in '%s'; the same command goes on from there\n", a->interrupted,
		a->dir ? pab_term_safe(a->dir) : "?");
	pab_die_of_signal(a->interrupted);
}

static int failure_exit_code(const struct pab_failure *f)
{
	switch (f->kind) {
	case PAB_FAIL_REFUSED: return PAB_EXIT_REFUSED;
	case PAB_FAIL_SYSTEM: return PAB_EXIT_RUNTIME;
	default: return PAB_EXIT_USAGE;
	}
}

int cmd_bisect(int argc, char **argv)
{
	struct pab_strlist pos = { 0 };
	struct pab_failure f = { 0 };
	struct pab_bisect_answer a;
	struct pab_bisect_opts o;
	char *words;
	int ret, json;

	pab_run_opts_init(&ro);
	pab_parse_options(argc, argv, bisect_options, bisect_usage,
			  "Find the commit between GOOD and BAD that made the benchmark slower or\n"
			  "fatter: each revision built in a worktree of its own, revisions compared\n"
			  "as perfab run compares arms, undecided comparisons given more reps.",
			  &pos);
	if (pos.n)
		pab_usage_error(bisect_options, bisect_usage, "'%s': perfab bisect takes no "
				"operands (give the commands with --build and --bench)",
				pab_term_safe(pos.v[0]));
	if (!good || !bad || !build || !bench)
		pab_usage_error(bisect_options, bisect_usage, "give --good, --bad, --build and "
				"--bench (missing: %s)", !good ? "--good" : !bad ? "--bad" :
				!build ? "--build" : "--bench");
	if (format && strcmp(format, "text") && strcmp(format, "json"))
		pab_usage_error(bisect_options, bisect_usage, "--format '%s': give text or json",
				pab_term_safe(format));
	if (metric && (ro.metrics || ro.require))
		pab_usage_error(bisect_options, bisect_usage, "--metric NAME is --metrics NAME "
				"--require NAME: give one or the others");
	if (metric && !pab_metric_find(metric))
		pab_usage_error(bisect_options, bisect_usage, "--metric '%s': no such metric "
				"(perfab help metrics)", pab_term_safe(metric));
	if (metric)
		ro.metrics = ro.require = metric;
	json = format && !strcmp(format, "json");
	ro.table = pab_run_options();
	words = run_words(&ro);
	memset(&o, 0, sizeof(o));
	o.good = good;
	o.bad = bad;
	o.build = build;
	o.bench = bench;
	o.dir = dir;
	o.metric = metric;
	o.run = &ro;
	o.run_words = words;
	o.retries = retries == UINT64_MAX ? 1 : (size_t)retries;
	o.quiet = ro.quiet;
	setvbuf(stderr, NULL, _IOFBF, 8192);
	ret = pab_bisect_run(&o, &a, &f);
	if (a.interrupted)
		die_of_signal(&a);
	if (ret) {
		fflush(stderr);
		die(failure_exit_code(&f), "%s", f.why);
	}
	fflush(stderr);
	if (json)
		print_json(stdout, &a);
	else
		print_text(stdout, &a);
	ret = a.outcome == PAB_BISECT_OUT_FOUND ? PAB_EXIT_PASS :
		a.outcome == PAB_BISECT_OUT_NO_REGRESSION ? PAB_EXIT_NO_REGRESSION :
		PAB_EXIT_INCONCLUSIVE;
	pab_bisect_answer_release(&a);
	pab_strlist_release(&ro.tolerances);
	pab_strlist_release(&pos);
	free(words);
	return ret;
}
