/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * term.h — text as it may reach a terminal: perfab's one UTF-8 decoder,
 * the terminal-safe printer every name from outside goes through, the one
 * folding of long text to the output width, and whether to colour a
 * stream.
 */
#ifndef PAB_TERM_H
#define PAB_TERM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * pab_utf8_decode: the length (1 to 4) of the well-formed UTF-8 sequence
 * at p, its code point in *cp; 0 (and *cp untouched) when the bytes at p
 * are not one: a stray continuation byte, a lead byte 0xc0, 0xc1 or above
 * 0xf4, a sequence cut short (a NUL ends it: nothing past it is read), an
 * overlong form, a surrogate, beyond U+10FFFF. An ASCII byte (NUL too) is
 * a sequence of 1. What a use refuses besides (the terminal C1 controls
 * and bidirectional formatting, XML U+FFFE and U+FFFF) is its own.
 */
size_t pab_utf8_decode(const unsigned char *p, uint32_t *cp);

/*
 * pab_term_safe: s as it may reach a terminal: control characters (C0,
 * DEL and C1, so ESC, BEL, CR, newline), bidirectional formatting
 * characters (U+061C, U+200E/F, U+202A-E, U+2066-9, each byte), bytes
 * that are not UTF-8 and the backslash are escaped (\n, \t, \r, \\, else
 * \xHH); everything else as is. Every name from a config, a command line or an artifact goes
 * through it before it is printed as text (ledger, progress, messages).
 * Returns a thread-local buffer valid until eight more calls in the same
 * thread, so a message can take several; "(null)" for NULL.
 */
const char *pab_term_safe(const char *s);

/*
 * The width every line perfab prints by default fits (doc/hacking.md
 * "Output width"): the ledger, help, env, the progress of a run.
 */
#define PAB_TERM_WIDTH 100

/*
 * pab_term_columns: the columns the first n bytes of s take on a terminal:
 * one per character (a well-formed UTF-8 sequence is one, so is each byte
 * that is not UTF-8). perfab writes no double-width characters of its own;
 * a name from outside may hold some and take more than this says.
 */
size_t pab_term_columns(const char *s, size_t n);

struct pab_strbuf;

/*
 * pab_fold: append text to sb folded at blanks into lines of at most width
 * columns (pab_term_columns): the first line continues one that already
 * holds col columns, every further line starts with indent blanks (a
 * hanging indent: a description stays under its column). A line breaks
 * before the word that would pass width, unless the line holds nothing
 * beyond its indent yet: a word wider than a line (a path, a command) is
 * never cut, it overflows. The blanks at a break are dropped, blanks
 * elsewhere kept; a newline in text breaks there. No newline at the end.
 */
void pab_fold(struct pab_strbuf *sb, const char *text, size_t col, size_t indent,
	      size_t width);

/*
 * pab_print_folded: text folded as pab_fold does to PAB_TERM_WIDTH columns,
 * then a newline, to f in one write (a whole line reaches a terminal at
 * once). col counts what this line already holds.
 */
void pab_print_folded(FILE *f, size_t col, size_t indent, const char *text);
/* pab_print_folded for a list "LABEL: a b, c d, e f": a line breaks only
 * after a comma, so no item is cut ("#6 c6 +100.4%" stays whole). */
void pab_print_folded_list(FILE *f, size_t col, size_t indent, const char *text);

/*
 * 1 when stream fd is a terminal, NO_COLOR is unset or empty (no-color.org:
 * set and non-empty disables colour) and TERM is not "dumb".
 */
int use_color(int fd);

#endif /* PAB_TERM_H */
