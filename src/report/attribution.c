/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribution.c — the attributions of a row rendered (attribution.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/attribution.h"
#include "report/attribution.h"
#include "report/format.h"
#include "term.h"
#include "util.h"

#define SHOWN_LINES 3

void pab_report_attr_signed(char *buf, size_t len, enum pab_metric_id m, double v)
{
	char mag[40];

	pab_fmt_value(mag, sizeof(mag), m, fabs(v));
	snprintf(buf, len, "%s%s", v < 0 ? "-" : "+", mag);
}

/* What the profile is, in words. */
static const char *kind_of(const struct pab_attribution *a)
{
	if (!strcmp(a->profiler, PAB_ATTR_DHAT))
		return "by allocation site, bytes live at the heap's peak";
	if (!strcmp(a->profiler, PAB_ATTR_PERF))
		return "by function, its own CPU time (cpu-clock samples scaled to the arm's median "
			"cpu)";
	return a->metric == PAB_M_INSTRUCTIONS ? "by function" : "by name";
}

/* Where the profile comes from, in words: a run of its own is not the
 * timed one (doc/attribution.md §4). */
static const char *source_of(const struct pab_attribution *a)
{
	if (a->source && !strcmp(a->source, "counting pass"))
		return "the counting pass's own runs";
	return "an extra untimed run of each arm, not a timed one";
}

char *pab_report_attr_heading(const struct pab_attribution *a)
{
	char change[64], *s;
	double share = pab_attribution_explained(a), d = pab_attribution_change(a);

	if (!isfinite(d))
		return xasprintf("what moved in %s: no profile (%s)", pab_metrics[a->metric].name,
				 a->profiler);
	pab_report_attr_signed(change, sizeof(change), a->metric, d);
	s = xasprintf("what moved in %s, %s (%s, from %s)%s%s: the top %zu explain %.0f%% "
		      "of %s", pab_metrics[a->metric].name, kind_of(a), a->profiler, source_of(a),
		      a->input ? " of input " : "", a->input ? pab_term_safe(a->input) : "",
		      a->n_items, isfinite(share) ? share * 100 : 0.0, change);
	return s;
}

const char *pab_report_attr_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void pab_report_attr_blocks(char *buf, size_t len, const struct pab_attr_item *x)
{
	char each[40];

	if (isnan(x->head_blocks) && isnan(x->base_blocks)) {
		*buf = '\0';
		return;
	}
	/* One large block or many small: the size of each says which. */
	pab_fmt_value(each, sizeof(each), PAB_M_PEAK_RSS,
		      x->head_blocks > 0 ? x->head / x->head_blocks : 0);
	snprintf(buf, len, " \u00b7 in %.0f block%s of %s%s (base %.0f)", x->head_blocks,
		 x->head_blocks == 1 ? "" : "s", x->head_blocks > 1 ? "about " : "", each,
		 x->base_blocks);
}

static void text_one(FILE *f, const struct pab_attribution *a)
{
	double d = pab_attribution_change(a);
	char *line = pab_report_attr_heading(a), ch[64], base[48], head[48], blocks[96];
	size_t i;

	fputs("  ", f);
	pab_print_folded(f, 2, 4, line);
	free(line);
	for (i = 0; i < a->n_items && i < PAB_REPORT_ATTR_SHOWN; i++) {
		const struct pab_attr_item *x = &a->items[i];

		pab_report_attr_signed(ch, sizeof(ch), a->metric, x->head - x->base);
		pab_fmt_value(base, sizeof(base), a->metric, x->base);
		pab_fmt_value(head, sizeof(head), a->metric, x->head);
		pab_report_attr_blocks(blocks, sizeof(blocks), x);
		line = xasprintf("%-10s %5.1f%%  %s \u00b7 %s -> %s%s%s%s", ch,
				 d != 0 ? (x->head - x->base) / d * 100 : 0.0, pab_term_safe(x->name),
				 base, head, blocks, x->where ? " \u00b7 " : "",
				 x->where ? pab_term_safe(pab_report_attr_base_name(x->where)) : "");
		fputs("    ", f);
		pab_print_folded(f, 4, 25, line);
		free(line);
	}
	for (i = 0; i < a->n_lines && i < SHOWN_LINES; i++) {
		const struct pab_attr_item *x = &a->lines[i];

		pab_report_attr_signed(ch, sizeof(ch), a->metric, x->head - x->base);
		line = xasprintf("%s %s %s (%s)", i ? "               " : "by source line:", ch,
				 pab_term_safe(pab_report_attr_base_name(x->name)), x->where ? pab_term_safe(x->where) : "?");
		fputs("    ", f);
		pab_print_folded(f, 4, 8, line);
		free(line);
	}
	if (a->note) {
		line = xasprintf("attribution note: %s", pab_term_safe(a->note));
		fputs("  ", f);
		pab_print_folded(f, 2, 4, line);
		free(line);
	}
}

void pab_report_attribution_text(FILE *f, const struct pab_experiment *e, const char *row,
				 const char *arm)
{
	size_t i;

	for (i = 0; i < e->n_attr; i++)
		if (!strcmp(e->attr[i].row, row) && !strcmp(e->attr[i].arm, arm))
			text_one(f, &e->attr[i]);
}
