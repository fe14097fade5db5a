/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * progress.c — a run's progress lines and medians table (progress.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "judge/ledger.h"
#include "model/attribution.h"
#include "pab_stats.h"
#include "probe/simcount.h"
#include "report/format.h"
#include "run/progress.h"
#include "term.h"
#include "util.h"

/* Flush stderr (a log's lines) when 100 ms passed since the last flush,
 * or when the child before took 50 ms or more (then a line waiting behind
 * a long child would mislead, and one write per child costs nothing). */
static void flush_progress(void)
{
	static int64_t flushed_ns, last_ns;
	int64_t now = now_monotonic_ns();

	if (now - flushed_ns >= 100000000 || now - last_ns >= 50000000) {
		fflush(stderr);
		flushed_ns = now;
	}
	last_ns = now;
}

/* Reps still planned and recorded, rows marked failed left out. */
static size_t reps_planned(const struct pab_progress *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->e->n_rows; i++)
		if (!p->e->rows[i].failed)
			n += p->row_target[i];
	return n;
}

static size_t reps_recorded(const struct pab_progress *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->e->n_rows; i++)
		if (!p->e->rows[i].failed)
			n += p->e->rows[i].n_reps;
	return n;
}

/* Every rep of every row, failed rows included: what a checkpoint holds. */
static size_t reps_held(const struct pab_progress *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->e->n_rows; i++)
		n += p->e->rows[i].n_reps;
	return n;
}

/* Reps whose counting pass is still to come (under valgrind, the first
 * count_reps of each row that is not failed); 0 without a counting pass. */
static size_t count_reps_left(const struct pab_progress *p)
{
	const struct pab_experiment *e = p->e;
	size_t i, n = 0, want;

	if (e->settings.count_source != PAB_COUNT_SIM || !(e->settings.given & PAB_RUN_COUNTS))
		return 0;
	for (i = 0; i < e->n_rows; i++) {
		if (e->rows[i].failed)
			continue;
		want = e->settings.count_reps < p->row_target[i] ? e->settings.count_reps :
			p->row_target[i];
		n += e->rows[i].n_reps < want ? want - e->rows[i].n_reps : 0;
	}
	return n;
}

/* Seconds the counting passes still to come take at the pace so far
 * (before the first: PAB_SIMCOUNT_START_S per counted child). */
static double count_left_s(const struct pab_progress *p)
{
	size_t left = count_reps_left(p);
	double per_rep = p->count_reps_done ? p->count_s / (double)p->count_reps_done :
		PAB_SIMCOUNT_START_S * (double)p->e->n_arms;

	return per_rep * (double)left;
}

/* Reps of every row if every undecided row runs to the cap (rounded up to
 * whole blocks, as the last look is). */
static size_t reps_worst(const struct pab_progress *p)
{
	const struct pab_experiment *e = p->e;
	size_t i, n = 0, cap = e->max_reps > e->reps ? e->max_reps : e->reps;

	if (e->n_arms)
		cap = (cap + e->n_arms - 1) / e->n_arms * e->n_arms;
	for (i = 0; i < e->n_rows; i++)
		n += p->row_target[i] > cap ? p->row_target[i] : cap;
	return n;
}

/* Seconds per timed rep so far: the counting passes are paced apart. */
static double rep_pace_s(const struct pab_progress *p, double el)
{
	double timed = el - p->count_s;

	return (timed > 0 ? timed : 0) / (double)p->reps_done;
}

/* Seconds left in the worst case: every look to the cap at the pace so
 * far, but never past the run's budget. NaN before a rep is done. */
static double worst_left_s(const struct pab_progress *p, double el)
{
	size_t worst = reps_worst(p), have = reps_recorded(p);
	double left, budget = p->e->settings.budget_s;

	if (!p->reps_done || worst <= have)
		return p->reps_done ? count_left_s(p) : NAN;
	left = rep_pace_s(p, el) * (double)(worst - have) + count_left_s(p);
	if (budget > 0 && el + left > budget)
		left = budget > el ? budget - el : 0;
	return left;
}

/* "0:42 elapsed"; returns the seconds since the plan. */
static double elapsed(const struct pab_progress *p, char *buf, size_t len)
{
	double el = (double)(now_monotonic_ns() - p->t0_ns) / 1e9;

	snprintf(buf, len, "%d:%02d elapsed", (int)el / 60, (int)el % 60);
	return el;
}

/* "0:42 elapsed · ETA 1:10, at worst 4:30" (the ETA once a rep is done).
 * The ETA scales the timed reps' pace by the reps still planned for the
 * next look, plus the counting passes still to come at their own pace;
 * the worst case by the reps to the cap (within the budget). */
static void elapsed_eta(const struct pab_progress *p, char *buf, size_t len)
{
	double el = elapsed(p, buf, len);
	size_t planned = reps_planned(p), have = reps_recorded(p);
	int n = (int)strlen(buf);

	if (p->reps_done && planned > have && n > 0 && (size_t)n < len) {
		double eta = rep_pace_s(p, el) * (double)(planned - have) + count_left_s(p);
		double worst = worst_left_s(p, el);

		n += snprintf(buf + n, len - (size_t)n, " \u00b7 ETA %d:%02d", (int)eta / 60,
			      (int)eta % 60);
		if (isfinite(worst) && worst > eta + 0.5 && n > 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, ", at worst %d:%02d", (int)worst / 60,
				 (int)worst % 60);
	}
}

void pab_progress_clear(struct pab_progress *p)
{
	if (p->status_shown) {
		fputs("\r\033[K", stderr);
		p->status_shown = 0;
	}
}

/* Before a note or warning (diag.h): the status line goes first. */
static void clear_for_message(void *arg)
{
	pab_progress_clear(arg);
}

/*
 * Where the run stands, for the last line pab_progress_interrupted()
 * prints: set before the first rep, inside every rep (which the row
 * already counts, so the reps completed are one fewer) and after each
 * rep's checkpoint.
 */
static void set_stop_where(struct pab_progress *p, const char *where, size_t completed)
{
	snprintf(p->stop_where, sizeof(p->stop_where), "%s", where);
	p->stop_completed = completed;
}

/* The plan's line of the attribution phase (doc/attribution.md). */
static void plan_attribution(const struct pab_progress *p)
{
	char *line;

	if (p->attribute == PAB_ATTR_NEVER)
		return;
	line = xasprintf("perfab: plan: then attribution (--attribute %s): for %s, "
			 "instructions by function from the counting pass (or one extra counting "
			 "run of each arm), peak_rss by allocation site from one extra run of "
			 "each arm under DHAT, cpu or wall time by function from one extra run of "
			 "each arm under perf; never a verdict",
			 pab_attr_mode_name((enum pab_attr_mode)p->attribute),
			 p->attribute == PAB_ATTR_ALWAYS ? "every row \u00d7 head arm" :
			 "each instructions, peak_rss, cpu or wall cell that FAILs");
	pab_print_folded(stderr, 0, 2, line);
	free(line);
}

void pab_progress_plan(struct pab_progress *p)
{
	const struct pab_experiment *e = p->e;
	size_t planned = reps_planned(p), have = reps_recorded(p);
	char upto[192] = "", *line;

	p->t0_ns = now_monotonic_ns();
	set_stop_where(p, "before the next rep", reps_held(p));
	pab_diag_before_line(clear_for_message, p);
	if (p->quiet)
		return;
	if (e->max_reps > e->reps)
		snprintf(upto, sizeof(upto), " (at worst %zu reps per row, %zu children, if cells "
			 "stay undecided to the last look)", e->max_reps,
			 (reps_worst(p) - have) * e->n_arms);
	/* Each a whole message folded to the width, 2 columns in. */
	line = xasprintf("perfab: plan: %zu row%s \u00d7 %zu arms \u00d7 %zu reps = %zu children"
			 "%s; an estimate of the time follows the first block", e->n_rows,
			 e->n_rows == 1 ? "" : "s", e->n_arms, planned > have ?
			 (planned - have) / (e->n_rows ? e->n_rows : 1) : 0,
			 (planned - have) * e->n_arms, upto);
	pab_print_folded(stderr, 0, 2, line);
	free(line);
	if (count_reps_left(p)) {
		line = xasprintf("perfab: plan: and a counting pass under valgrind: each arm of "
				 "the first %zu reps of each row again, at most %zu counted "
				 "children (arms running the same program share one, and a "
				 "program whose counts agree in 2 reps is counted no more), each about "
				 "%.1f s plus 5 to 20 times its timed run (at most %.0f s in all "
				 "before the first)", e->settings.count_reps,
				 count_reps_left(p) * e->n_arms, PAB_SIMCOUNT_START_S,
				 count_left_s(p));
		pab_print_folded(stderr, 0, 2, line);
		free(line);
	}
	plan_attribution(p);
	fflush(stderr);
}

void pab_progress_child(struct pab_progress *p, size_t row, size_t rep, size_t arm,
			const char *what)
{
	const struct pab_experiment *e = p->e;
	char times[64], where[512], *status, *line;

	snprintf(where, sizeof(where), "at row %zu/%zu '%s', rep %zu/%zu, arm %s%s", row + 1,
		 e->n_rows, pab_term_safe(e->rows[row].name), rep + 1, p->row_target[row],
		 e->arms[arm].name, what);
	set_stop_where(p, where, reps_held(p) - 1);
	if (p->quiet || !p->tty) {
		flush_progress(); /* the per-rep lines of a log */
		return;
	}
	elapsed_eta(p, times, sizeof(times));
	status = xasprintf("row %zu/%zu %s \u00b7 rep %zu/%zu \u00b7 arm %s%s \u00b7 %s", row + 1,
			   e->n_rows, pab_term_safe(e->rows[row].name), rep + 1,
			   p->row_target[row], e->arms[arm].name, what, times);
	if (pab_term_columns(status, strlen(status)) > PAB_TERM_WIDTH) {
		/* A line that wraps cannot be redrawn in place: the ETA goes
		 * first (every rep's end shows it again). */
		size_t at = strlen(status) - strlen(times);

		elapsed(p, times, sizeof(times));
		status[at] = '\0';
		line = xasprintf("%s%s", status, times);
		free(status);
		status = line;
	}
	/* One whole line, written at once: never a stale or half status. */
	fprintf(stderr, "\r\033[K%s%s%s", p->color ? "\033[2m" : "", status,
		p->color ? "\033[0m" : "");
	free(status);
	fflush(stderr);
	p->status_shown = 1;
}

void pab_progress_counting(struct pab_progress *p, size_t row, size_t rep, double about_s)
{
	const struct pab_experiment *e = p->e;
	char times[64], about[32];

	if (p->quiet || p->tty)
		return; /* a terminal's status line names each counted arm */
	/* The elapsed time only: the ETA is on every rep's line, and without
	 * it this line fits 100 columns (doc/hacking.md "Output width"). */
	elapsed(p, times, sizeof(times));
	pab_fmt_duration(about, sizeof(about), about_s);
	fprintf(stderr, "row %zu/%zu %s \u00b7 rep %zu/%zu \u00b7 counting under valgrind, about %s "
		"a child \u00b7 %s\n", row + 1, e->n_rows, pab_term_safe(e->rows[row].name),
		rep + 1, p->row_target[row], about, times);
	fflush(stderr);
}

void pab_progress_counted(struct pab_progress *p, double secs, int counted)
{
	if (!counted)
		return;
	p->count_s += secs;
	p->count_reps_done++;
}

void pab_progress_rep_saved(struct pab_progress *p, size_t row)
{
	const struct pab_experiment *e = p->e;
	char where[512];

	snprintf(where, sizeof(where), "after rep %zu/%zu of row %zu/%zu '%s'",
		 e->rows[row].n_reps, p->row_target[row], row + 1, e->n_rows,
		 pab_term_safe(e->rows[row].name));
	set_stop_where(p, where, reps_held(p));
}

void pab_progress_rep_done(struct pab_progress *p, size_t row)
{
	const struct pab_experiment *e = p->e;
	char times[64];

	p->reps_done++;
	if (p->quiet)
		return;
	elapsed_eta(p, times, sizeof(times));
	if (!p->tty) {
		fprintf(stderr, "row %zu/%zu %s \u00b7 rep %zu/%zu done \u00b7 %s\n", row + 1,
			e->n_rows, pab_term_safe(e->rows[row].name), e->rows[row].n_reps,
			p->row_target[row], times);
		flush_progress();
	}
	if (!p->estimated && p->reps_done >= e->n_arms * e->n_rows) {
		double el = (double)(now_monotonic_ns() - p->t0_ns) / 1e9;
		double left = rep_pace_s(p, el) * (double)(reps_planned(p) - reps_recorded(p)) +
			count_left_s(p);
		struct pab_strbuf sb = PAB_STRBUF_INIT;
		char a[32], b[32];

		p->estimated = 1;
		pab_fmt_duration(a, sizeof(a), el);
		pab_fmt_duration(b, sizeof(b), left);
		pab_progress_clear(p);
		pab_strbuf_addf(&sb, "perfab: the first block took %s; about %s more for the "
				"planned reps", a, b);
		if (reps_worst(p) > reps_planned(p)) {
			pab_fmt_duration(b, sizeof(b), worst_left_s(p, el));
			pab_strbuf_addf(&sb, ", at worst %s (every look to %zu reps%s)", b,
					e->max_reps, e->settings.budget_s > 0 ?
					", within the budget" : "");
		}
		pab_print_folded(stderr, 0, 2, sb.buf);
		pab_strbuf_release(&sb);
	}
}

/* "exited with status 2", "was killed by signal 11 (...)", "timed out". */
static char *describe_failure(const struct pab_arm *arm, size_t rep,
			      const struct pab_arm_result *res)
{
	if (res->timed_out)
		return xasprintf("arm '%s' rep %zu timed out", arm->name, rep + 1);
	if (res->tree_limit)
		return xasprintf("arm '%s' rep %zu was killed: its process tree passed --max-procs",
				 arm->name, rep + 1);
	if (res->term_signal)
		return xasprintf("arm '%s' rep %zu was killed by signal %d (%s)",
				 arm->name, rep + 1, res->term_signal,
				 strsignal(res->term_signal));
	return xasprintf("arm '%s' rep %zu exited with status %d", arm->name,
			 rep + 1, res->exit_code);
}

/* Print the last lines a failed child wrote to stderr, indented. */
static void show_stderr_tail(const char *text)
{
	size_t len = text ? strlen(text) : 0;
	const char *q, *line;
	int lines = 0;

	if (!len)
		return;
	for (q = text + len; q > text && lines < 6; q--)
		if (q[-1] == '\n' && q != text + len)
			lines++;
	for (line = q; *line;) {
		const char *nl = strchr(line, '\n');

		fprintf(stderr, "  | %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
		if (!nl)
			break;
		line = nl + 1;
	}
}

void pab_progress_exit_ignored(struct pab_progress *p, size_t row, size_t rep, size_t arm,
			       const struct pab_arm_result *res)
{
	char *text = xasprintf("perfab: note: row '%s': arm '%s' rep %zu exited with status %d, "
			       "measured all the same (--ignore-failure); the row's other "
			       "non-zero exits are not noted", pab_term_safe(p->e->rows[row].name),
			       pab_term_safe(p->e->arms[arm].name), rep + 1, res->exit_code);

	pab_progress_clear(p);
	pab_print_folded(stderr, 0, 2, text);
	free(text);
}

char *pab_progress_child_failed(struct pab_progress *p, size_t row, size_t rep, size_t arm,
				const struct pab_arm_result *res)
{
	char *what = describe_failure(&p->e->arms[arm], rep, res);

	pab_progress_clear(p);
	warning("row '%s': %s; the row is marked failed and gets no more reps",
		pab_term_safe(p->e->rows[row].name), what);
	show_stderr_tail(res->stderr_tail);
	return what;
}

void pab_progress_interrupted(struct pab_progress *p, int sig, const char *out,
			      const char *resume_cmd)
{
	pab_progress_clear(p);
	fprintf(stderr, "perfab: interrupted by signal %d (%s) %s; '%s' keeps the %zu reps "
		"completed before it; resume with: perfab run %s\n", sig, strsignal(sig),
		p->stop_where[0] ? p->stop_where : "before the first rep",
		pab_term_safe(out), p->stop_completed,
		resume_cmd ? resume_cmd : "--resume FILE");
}

void pab_print_medians(FILE *f, const struct pab_experiment *e)
{
	static const enum pab_metric_id shown[] = {
		PAB_M_THROUGHPUT, PAB_M_WALL, PAB_M_CPU, PAB_M_PEAK_RSS,
		PAB_M_MINOR_FAULTS,
	};
	size_t ri, a, k, rep;

	/* 100 columns with a row name of up to 24 (doc/hacking.md "Output
	 * width"): a value is at most 8 characters, a throughput 12. */
	fprintf(f, "%-24s %-6s %4s %12s %9s %9s %9s %9s  (medians)\n", "row", "arm", "n",
		"throughput", "wall", "cpu", "peak RSS", "minor flt");
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];

		for (a = 0; a < e->n_arms; a++) {
			char cell[5][32];
			double *xs = xcalloc(row->n_reps ? row->n_reps : 1, sizeof(*xs));

			for (k = 0; k < 5; k++) {
				double med;

				for (rep = 0; rep < row->n_reps; rep++)
					xs[rep] = row->reps[rep].result[a].m[shown[k]];
				if (pab_median(xs, row->n_reps, &med))
					med = NAN;
				pab_fmt_value(cell[k], sizeof(cell[k]), shown[k], med);
			}
			free(xs);
			fprintf(f, "%-24s %-6s %4zu %12s %9s %9s %9s %9s\n",
				pab_term_safe(row->name), e->arms[a].name, row->n_reps, cell[0],
				cell[1], cell[2], cell[3], cell[4]);
		}
	}
}

void pab_progress_undecidable(struct pab_progress *p, const char *row_name,
			      const struct pab_ledger_cell *cell, size_t cap_n)
{
	pab_progress_clear(p);
	if (p->quiet)
		return;
	if (cell->held)
		note("row '%s': the %s guard cannot exclude a regression beyond +%.1f%% on this "
		     "machine within %zu reps (resolves +-%.1f%%); needs ~%zu reps or a guard "
		     "tolerance of %.1f%%: stopping the row", pab_term_safe(row_name),
		     pab_metrics[cell->metric].name, cell->guard_allowance, cap_n,
		     cell->outlook.resolves_pct, cell->outlook.reps_needed,
		     cell->outlook.tolerance_pct);
	else
		note("row '%s': %s not decidable at +-%.1f%% on this machine within %zu reps "
		     "(resolves +-%.1f%%); needs ~%zu reps or a tolerance of %.1f%%: stopping "
		     "the row", pab_term_safe(row_name), pab_metrics[cell->metric].name,
		     cell->res.allowance, cap_n, cell->outlook.resolves_pct,
		     cell->outlook.reps_needed, cell->outlook.tolerance_pct);
}
