/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hooks.c — setup, warmup, prepare and cleanup around the measured
 * children (hooks.h).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rotation.h"
#include "probe/runchild.h"
#include "run/hooks.h"
#include "term.h"
#include "util.h"

void pab_hooks_init(struct pab_hooks *h, struct pab_measure *m, struct pab_experiment *e,
		    const struct pab_run_settings *use, struct pab_progress *pg)
{
	size_t n = e->n_rows ? e->n_rows : 1;

	memset(h, 0, sizeof(*h));
	h->m = m;
	h->e = e;
	h->use = use;
	h->pg = pg;
	h->started = xcalloc(n, 1);
	h->cleaned = xcalloc(n, 1);
}

void pab_hooks_release(struct pab_hooks *h)
{
	free(h->started);
	free(h->cleaned);
	h->started = h->cleaned = NULL;
}

/* The last non-empty line of text (at most 300 bytes), or "" (new). */
static char *last_line(const char *text)
{
	size_t len = text ? strlen(text) : 0, end;
	const char *start;

	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	end = len;
	while (len && text[len - 1] != '\n')
		len--;
	start = text ? text + len : "";
	if (end - len > 300)
		start = text + end - 300;
	return xstrndup(start, (size_t)(text + end - start));
}

/* Print the last lines of a failed command's stderr, indented. */
static void show_tail(const char *text)
{
	const char *q, *line;
	size_t len = strlen(text);
	int lines = 0;

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

/* How a hook ended that did not exit 0 ("exited with status 3"), or NULL. */
static char *how_failed(const struct pab_spawn_result *sr)
{
	if (sr->timed_out)
		return xstrdup("timed out (--timeout)");
	if (sr->term_signal)
		return xasprintf("was killed by signal %d (%s)", sr->term_signal,
				 strsignal(sr->term_signal));
	if (sr->exit_code)
		return xasprintf("exited with status %d", sr->exit_code);
	return NULL;
}

/* Row ri failed for what (taken): warn, show tail, record it; arm: the
 * arm whose warmup run failed it, NULL for a hook. */
static void row_failed(struct pab_hooks *h, size_t ri, char *what, const char *tail,
		       const char *arm)
{
	struct pab_row *row = &h->e->rows[ri];

	pab_progress_clear(h->pg);
	warning("row '%s': %s; the row is marked failed and gets no more reps",
		pab_term_safe(row->name), what);
	if (tail && *tail)
		show_tail(tail);
	if (row->failed) {
		free(what);
		return;
	}
	row->failed = 1;
	row->fail_reason = what;
	row->failed_arm = arm ? xstrdup(arm) : NULL;
}

/*
 * Run hook cmd (labelled label: "prepare 'CMD' before arm 'x' rep 3")
 * for row ri (arm: its env, or NULL). Returns 0 when it exited 0; 1 when
 * it failed (fatal: the row is marked failed, else a warning) or a stop
 * signal ended it; -1 with f filled when it cannot be run.
 */
static int run_hook(struct pab_hooks *h, size_t ri, const struct pab_arm *arm,
		    const char *cmd, const char *label, int fatal, struct pab_failure *f)
{
	struct pab_spawn_result *sr = xmalloc(sizeof(*sr));
	char *how, *tail;
	int ret = 0;

	fflush(stderr);
	if (pab_measure_hook(h->m, &h->e->rows[ri], arm, cmd, sr, f)) {
		ret = -1;
		goto out;
	}
	if (sr->interrupted) {
		h->interrupted = sr->interrupted;
		ret = 1;
		goto out;
	}
	how = how_failed(sr);
	if (!how)
		goto out;
	ret = 1;
	tail = last_line(sr->stderr_tail);
	if (fatal) {
		row_failed(h, ri, *tail ? xasprintf("%s %s: %s", label, how, tail) :
			   xasprintf("%s %s", label, how), sr->stderr_tail, NULL);
	} else {
		pab_progress_clear(h->pg);
		warning("row '%s': %s %s", pab_term_safe(h->e->rows[ri].name), label, how);
		show_tail(sr->stderr_tail);
	}
	free(tail);
	free(how);
out:
	free(sr);
	return ret;
}

int pab_hooks_prepare(struct pab_hooks *h, size_t ri, size_t a, struct pab_failure *f)
{
	const struct pab_arm *arm = &h->e->arms[a];
	char *when = h->warming ? xasprintf("a warmup run") :
		xasprintf("rep %zu", h->e->rows[ri].n_reps);
	char *label;
	int ret = 0;

	if (h->use->prepare) {
		label = xasprintf("prepare '%s' (before arm '%s', %s)",
				  pab_term_safe(h->use->prepare), arm->name, when);
		ret = run_hook(h, ri, arm, h->use->prepare, label, 1, f);
		free(label);
	}
	if (!ret && arm->prepare) {
		label = xasprintf("arm '%s' prepare '%s' (before %s)", arm->name,
				  pab_term_safe(arm->prepare), when);
		ret = run_hook(h, ri, arm, arm->prepare, label, 1, f);
		free(label);
	}
	free(when);
	return ret;
}

/* The warmup runs of row ri: use->warmup rotations of every arm, each
 * after its prepare; results dropped. Returns as pab_hooks_prepare(). */
static int warmup(struct pab_hooks *h, size_t ri, struct pab_failure *f)
{
	struct pab_experiment *e = h->e;
	struct pab_row *row = &e->rows[ri];
	size_t n = e->n_arms, *order = xcalloc(n, sizeof(*order)), k, i;
	int ret = 0;

	h->warming = 1;
	for (k = 0; k < h->use->warmup && !ret; k++) {
		pab_rotation_order(n, k, order);
		for (i = 0; i < n && !ret; i++) {
			struct pab_arm_result res;
			struct pab_measured out;

			ret = pab_hooks_prepare(h, ri, order[i], f);
			if (ret)
				break;
			pab_progress_child(h->pg, ri, row->n_reps, order[i], " (warmup)");
			pab_arm_result_init(&res);
			ret = pab_measure_arm(h->m, e, row, order[i], 0, e->seed, &res, &out, f);
			free(out.report_why);
			if (!ret && out.interrupted) {
				h->interrupted = out.interrupted;
				ret = 1;
			} else if (!ret && res.failed) {
				char *how = res.timed_out ? xstrdup("timed out") : res.term_signal ?
					xasprintf("was killed by signal %d", res.term_signal) :
					xasprintf("exited with status %d", res.exit_code);

				row_failed(h, ri, xasprintf("warmup run %zu of arm '%s' %s", k + 1,
							    e->arms[order[i]].name, how),
					   res.stderr_tail, e->arms[order[i]].name);
				free(how);
				ret = 1;
			}
			pab_arm_result_release(&res);
		}
	}
	h->warming = 0;
	free(order);
	return ret < 0 ? -1 : 0;
}

int pab_hooks_row_begin(struct pab_hooks *h, size_t ri, struct pab_failure *f)
{
	char *label;
	int ret = 0;

	if (h->started[ri])
		return 0;
	h->started[ri] = 1;
	if (h->use->setup) {
		label = xasprintf("setup '%s'", pab_term_safe(h->use->setup));
		ret = run_hook(h, ri, NULL, h->use->setup, label, 1, f);
		free(label);
	}
	if (!ret && h->use->warmup)
		ret = warmup(h, ri, f);
	return ret < 0 ? -1 : 0;
}

void pab_hooks_row_end(struct pab_hooks *h, size_t ri)
{
	struct pab_failure f = { 0 };
	char *label;

	if (!h->started[ri] || h->cleaned[ri])
		return;
	h->cleaned[ri] = 1;
	if (!h->use->cleanup)
		return;
	label = xasprintf("cleanup '%s'", pab_term_safe(h->use->cleanup));
	if (run_hook(h, ri, NULL, h->use->cleanup, label, 0, &f) < 0) {
		pab_progress_clear(h->pg);
		warning("row '%s': %s", pab_term_safe(h->e->rows[ri].name), f.why);
	}
	free(f.why);
	free(label);
}

void pab_hooks_end_all(struct pab_hooks *h)
{
	size_t ri;

	for (ri = 0; h->started && ri < h->e->n_rows; ri++)
		pab_hooks_row_end(h, ri);
}
