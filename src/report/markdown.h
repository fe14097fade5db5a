/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * markdown.h — the judged ledger as GitHub-flavoured Markdown, for a
 * pull-request comment or a job summary (markdown.c). Called through
 * report.h's dispatch.
 */
#ifndef PAB_REPORT_MARKDOWN_H
#define PAB_REPORT_MARKDOWN_H

#include <stdio.h>

#include "judge/ledger.h"
#include "model/experiment.h"

/* The judged ledger l of e as Markdown, to f; names from the artifact
 * escaped so they start no link, mention or markup. */
void pab_report_markdown(FILE *f, const struct pab_experiment *e,
			 const struct pab_ledger *l);

/*
 * pab_markdown_escape: s written to f as Markdown text (GFM) that reads as
 * s and does nothing else: terminal-safe first (pab_term_safe: control
 * and bidirectional formatting characters as visible escapes), Markdown's
 * special characters backslash-escaped, newlines as spaces, and a
 * zero-width space (&#8203;) after what GitHub would make a mention, an
 * issue reference or a bare link. Every name from an artifact or a
 * history database goes through it on its way into Markdown.
 */
void pab_markdown_escape(FILE *f, const char *s);

#endif /* PAB_REPORT_MARKDOWN_H */
