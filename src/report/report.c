/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.c — the format table and the one dispatch (report.h): which
 * renderer prints what in each format. The only file that calls the
 * renderers; they call none of it (their shared pieces are format.h's).
 */
#include "config.h"

#include <string.h>

#include "report/csv.h"
#include "report/html.h"
#include "report/json.h"
#include "report/junit.h"
#include "report/markdown.h"
#include "report/report.h"
#include "report/text.h"
#include "term.h"
#include "util.h"

/* The renderers behind one signature. */
typedef void (*printer)(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l, const struct pab_report_opts *o);

static void text_ledger(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l, const struct pab_report_opts *o)
{
	struct pab_text_opts to = { o->wide, o->color };

	pab_report_print_text(f, e, l, &to);
}

static void text_gate(FILE *f, const struct pab_experiment *e,
		      const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)o;
	pab_report_gate_reasons(f, e, l);
}

static void json_ledger(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)o;
	pab_report_json(f, e, l);
}

static void markdown_ledger(FILE *f, const struct pab_experiment *e,
			    const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)o;
	pab_report_markdown(f, e, l);
}

static void junit_ledger(FILE *f, const struct pab_experiment *e,
			 const struct pab_ledger *l, const struct pab_report_opts *o)
{
	pab_report_junit(f, e, l, o->junit_skipped);
}

static void html_ledger(FILE *f, const struct pab_experiment *e,
			const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)o;
	pab_report_html(f, e, l);
}

static void csv_ledger(FILE *f, const struct pab_experiment *e,
		       const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)o;
	pab_report_csv(f, e, l);
}

/* The raw samples, CSV or JSON (both are csv.c's). */
static void samples(FILE *f, const struct pab_experiment *e,
		    const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)l;
	pab_report_samples(f, e, o->format == PAB_REPORT_JSON);
}

/* Each arm's descriptive statistics, CSV or JSON (csv.c's). */
static void stats(FILE *f, const struct pab_experiment *e,
		  const struct pab_ledger *l, const struct pab_report_opts *o)
{
	(void)l;
	pab_report_stats(f, e, o->format == PAB_REPORT_JSON);
}

/* The format table, in enum order: its names and, per what, its printer
 * (NULL: the format cannot print it). */
static const struct {
	const char *name, *alias;
	printer print[4]; /* by enum pab_report_what */
} formats[] = {
	[PAB_REPORT_TEXT] = { "text", NULL, { text_ledger, NULL, text_gate, NULL } },
	[PAB_REPORT_JSON] = { "json", NULL, { json_ledger, samples, NULL, stats } },
	[PAB_REPORT_MARKDOWN] = { "markdown", "md", { markdown_ledger, NULL, NULL, NULL } },
	[PAB_REPORT_JUNIT] = { "junit", NULL, { junit_ledger, NULL, NULL, NULL } },
	[PAB_REPORT_HTML] = { "html", NULL, { html_ledger, NULL, NULL, NULL } },
	[PAB_REPORT_CSV] = { "csv", NULL, { csv_ledger, samples, NULL, stats } },
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))
#define N_WHATS (sizeof(formats[0].print) / sizeof(formats[0].print[0]))

void pab_report_opts_init(struct pab_report_opts *o, enum pab_report_format fmt)
{
	memset(o, 0, sizeof(*o));
	o->format = fmt;
	o->what = PAB_REPORT_LEDGER;
}

int pab_report_format_parse(const char *s, enum pab_report_format *out)
{
	size_t i;

	for (i = 0; i < N_FORMATS; i++)
		if (!strcmp(s, formats[i].name) ||
		    (formats[i].alias && !strcmp(s, formats[i].alias))) {
			*out = (enum pab_report_format)i;
			return 0;
		}
	return -1;
}

const char *pab_report_format_name(enum pab_report_format fmt)
{
	return (size_t)fmt < N_FORMATS ? formats[fmt].name : "unknown";
}

int pab_report_can(enum pab_report_format fmt, enum pab_report_what what)
{
	return (size_t)fmt < N_FORMATS && (size_t)what < N_WHATS && formats[fmt].print[what];
}

int pab_report_print(FILE *f, const struct pab_experiment *e,
		     const struct pab_ledger *l, const struct pab_report_opts *o)
{
	if (!pab_report_can(o->format, o->what))
		return -1;
	formats[o->format].print[o->what](f, e, l, o);
	return 0;
}
