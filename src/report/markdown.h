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

#endif /* PAB_REPORT_MARKDOWN_H */
