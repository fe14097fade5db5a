/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * markup.h — strings from artifacts made safe for markup: the XML/HTML
 * escaper of the JUnit file, the HTML pages and their plots, and the CSV
 * field of the CSV ledger and history. A hostile name cannot break out of
 * an attribute, inject markup or split a CSV record.
 */
#ifndef PAB_MARKUP_H
#define PAB_MARKUP_H

#include <stdio.h>

/*
 * pab_fmt_escape: write s to f escaped for XML/HTML text and attribute
 * values (& < > " '); tab, newline and carriage return kept, other control
 * characters and invalid UTF-8 bytes written as U+FFFD. So a hostile
 * artifact cannot break out of an attribute or inject markup.
 */
void pab_fmt_escape(FILE *f, const char *s);

/* s as one CSV field (RFC 4180): quoted when it holds , " CR or LF, a "
 * doubled; NULL: an empty field. */
void pab_fmt_csv_field(FILE *f, const char *s);

#endif /* PAB_MARKUP_H */
