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
#include "report/markup.h"
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
	if (!strcmp(a->profiler, PAB_ATTR_PERF) && a->metric == PAB_M_WALL)
		return "by function, its own time on the CPU and, marked [off-CPU], the time it "
			"waited (scaled to the arm's median wall)";
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

/* Row × arm's own attribution of metric m with movers, or NULL. */
static const struct pab_attribution *movers_of(const struct pab_experiment *e, const char *row,
					       const char *arm, enum pab_metric_id m)
{
	size_t i;

	for (i = 0; i < e->n_attr; i++) {
		const struct pab_attribution *a = &e->attr[i];

		if (a->metric == m && a->n_items && !a->input && !strcmp(a->row, row) &&
		    !strcmp(a->arm, arm))
			return a;
	}
	return NULL;
}

char *pab_report_attribution_brief(const struct pab_experiment *e, const char *row,
				   const char *arm, enum pab_metric_id m)
{
	const struct pab_attribution *a = movers_of(e, row, arm, m);
	double d;
	char ch[64];

	/* A wall FAIL whose cpu FAILed too has the cpu profile only
	 * (run/attribute.c: the time was on the CPU). */
	if (!a && m == PAB_M_WALL)
		a = movers_of(e, row, arm, PAB_M_CPU);
	if (!a)
		return NULL;
	d = pab_attribution_change(a);
	pab_report_attr_signed(ch, sizeof(ch), a->metric, a->items[0].head - a->items[0].base);
	return xasprintf("moved most: %s %s, %.0f%% of the change (%s, %s)",
			 pab_term_safe(a->items[0].name), ch, d != 0 ?
			 (a->items[0].head - a->items[0].base) / d * 100 : 0.0, a->profiler,
			 a->source && !strcmp(a->source, "counting pass") ?
			 "the counting pass" : "an extra run");
}

void pab_report_attribution_text(FILE *f, const struct pab_experiment *e, const char *row,
				 const char *arm)
{
	size_t i;

	for (i = 0; i < e->n_attr; i++)
		if (!strcmp(e->attr[i].row, row) && !strcmp(e->attr[i].arm, arm))
			text_one(f, &e->attr[i]);
}

/* The differential flame graph (doc/attribution.md §3): an icicle of the
 * folded stacks, root on top, each frame as wide as the mean of its base
 * and head time (so removed code still shows), red where head takes more,
 * blue where less. */
#define FLAME_W 1000.0
#define FLAME_ROW 18
#define FLAME_MAX_DEPTH 64

struct flame_node {
	char *name;                 /* owned */
	size_t first, next;         /* first child, next sibling; 0: none */
	double base, head;
};

struct flame {
	struct flame_node *v;
	size_t n, alloc;
	size_t depth;               /* the deepest frame */
};

/* The child of parent called name[0..len), made when missing. */
static size_t flame_child(struct flame *fl, size_t parent, const char *name, size_t len)
{
	size_t c, last = 0;

	for (c = fl->v[parent].first; c; last = c, c = fl->v[c].next)
		if (strlen(fl->v[c].name) == len && !memcmp(fl->v[c].name, name, len))
			return c;
	ALLOC_GROW(fl->v, fl->n + 1, fl->alloc);
	memset(&fl->v[fl->n], 0, sizeof(fl->v[fl->n]));
	fl->v[fl->n].name = xstrndup(name, len);
	if (last)
		fl->v[last].next = fl->n;
	else
		fl->v[parent].first = fl->n;
	return fl->n++;
}

static void flame_build(struct flame *fl, const struct pab_attribution *a)
{
	size_t i;

	memset(fl, 0, sizeof(*fl));
	ALLOC_GROW(fl->v, 1, fl->alloc);
	memset(&fl->v[0], 0, sizeof(fl->v[0]));
	fl->v[0].name = xstrdup("all");
	fl->n = 1;
	for (i = 0; i < a->n_stacks; i++) {
		const struct pab_attr_item *x = &a->stacks[i];
		const char *p = x->name;
		size_t node = 0, depth = 0;

		fl->v[0].base += x->base;
		fl->v[0].head += x->head;
		while (*p && depth < FLAME_MAX_DEPTH) {
			size_t len = strcspn(p, ";");

			node = flame_child(fl, node, p, len);
			fl->v[node].base += x->base;
			fl->v[node].head += x->head;
			depth++;
			p += len + (p[len] == ';');
		}
		if (depth > fl->depth)
			fl->depth = depth;
	}
}

static void flame_draw(FILE *f, const struct flame *fl, size_t node, double x, double per,
		       size_t depth, enum pab_metric_id m)
{
	const struct flame_node *nd = &fl->v[node];
	double w = (nd->base + nd->head) / 2 * per, big = fmax(nd->base, nd->head);
	double d = big > 0 ? (nd->head - nd->base) / big : 0, t = fmin(fabs(d), 1);
	char base[48], head[48], ch[64];
	int shade = (int)(255 - 190 * t), grew = d > 0.05, shrank = d < -0.05;
	int r = grew ? 255 : shrank ? shade : 221, b = shrank ? 255 : grew ? shade : 221;
	int g = grew || shrank ? shade : 221;
	size_t c;

	if (w < 0.5)
		return;
	pab_fmt_value(base, sizeof(base), m, nd->base);
	pab_fmt_value(head, sizeof(head), m, nd->head);
	pab_report_attr_signed(ch, sizeof(ch), m, nd->head - nd->base);
	fprintf(f, "<g class=\"%s\"><title>", grew ? "grew" : shrank ? "shrank" : "same");
	pab_fmt_escape(f, nd->name);
	fprintf(f, ": %s -&gt; %s (%s)</title><rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" "
		"height=\"%d\" fill=\"rgb(%d,%d,%d)\" stroke=\"#fff\"/>", base, head, ch, x,
		depth * FLAME_ROW, w, FLAME_ROW - 1, r, g, b);
	if (w > 40) {
		char label[160];
		size_t fit = (size_t)(w / 7) - 1;

		snprintf(label, sizeof(label), "%.*s", (int)(fit < 150 ? fit : 150), nd->name);
		fprintf(f, "<text x=\"%.1f\" y=\"%zu\" font-size=\"11\">", x + 3,
			depth * FLAME_ROW + 12);
		pab_fmt_escape(f, label);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
	for (c = nd->first; c; c = fl->v[c].next) {
		flame_draw(f, fl, c, x, per, depth + 1, m);
		x += (fl->v[c].base + fl->v[c].head) / 2 * per;
	}
}

static void flame_svg(FILE *f, const struct pab_attribution *a)
{
	struct flame fl;
	double total;
	size_t i;

	flame_build(&fl, a);
	total = (fl.v[0].base + fl.v[0].head) / 2;
	if (total > 0) {
		fprintf(f, "<p class=\"meta\">Differential flame graph: each frame as wide as the "
			"mean of its base and head time, red where head takes more, blue where "
			"less; hover a frame for its figures.</p>\n<div class=\"scroll\"><svg "
			"class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %zu\" "
			"width=\"100%%\">\n", FLAME_W, (fl.depth + 1) * FLAME_ROW);
		flame_draw(f, &fl, 0, 0, FLAME_W / total, 0, a->metric);
		fputs("</svg></div>\n", f);
	}
	for (i = 0; i < fl.n; i++)
		free(fl.v[i].name);
	free(fl.v);
}

static void html_one(FILE *f, const struct pab_attribution *a)
{
	double d = pab_attribution_change(a);
	char *line = pab_report_attr_heading(a), ch[64], base[48], head[48], blocks[96];
	size_t i;

	fputs("<h4>W", f);
	pab_fmt_escape(f, line + 1);
	fputs("</h4>\n", f);
	free(line);
	if (a->n_items)
		fputs("<div class=\"scroll\"><table><tr class=\"hdr\"><th>change</th><th>share</th>"
		      "<th>name</th><th>base \u2192 head</th><th>where</th></tr>\n", f);
	for (i = 0; i < a->n_items && i < PAB_REPORT_ATTR_SHOWN; i++) {
		const struct pab_attr_item *x = &a->items[i];

		pab_report_attr_signed(ch, sizeof(ch), a->metric, x->head - x->base);
		pab_fmt_value(base, sizeof(base), a->metric, x->base);
		pab_fmt_value(head, sizeof(head), a->metric, x->head);
		pab_report_attr_blocks(blocks, sizeof(blocks), x);
		fprintf(f, "<tr><td>%s</td><td>%.1f%%</td><td>", ch,
			d != 0 ? (x->head - x->base) / d * 100 : 0.0);
		pab_fmt_escape(f, x->name);
		fprintf(f, "</td><td>%s \u2192 %s", base, head);
		pab_fmt_escape(f, blocks);
		fputs("</td><td>", f);
		pab_fmt_escape(f, x->where ? pab_report_attr_base_name(x->where) : "");
		fputs("</td></tr>\n", f);
	}
	if (a->n_items)
		fputs("</table></div>\n", f);
	if (a->n_stacks)
		flame_svg(f, a);
	if (a->note) {
		fputs("<p>Attribution note: ", f);
		pab_fmt_escape(f, a->note);
		fputs("</p>\n", f);
	}
}

void pab_report_attribution_html(FILE *f, const struct pab_experiment *e, const char *row,
				 const char *arm)
{
	size_t i;

	for (i = 0; i < e->n_attr; i++)
		if (!strcmp(e->attr[i].row, row) && !strcmp(e->attr[i].arm, arm))
			html_one(f, &e->attr[i]);
}
