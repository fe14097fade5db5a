/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * term.c — text as it may reach a terminal: the UTF-8 decoder, the
 * terminal-safe printer, folding to the output width and whether to
 * colour (term.h).
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term.h"
#include "util.h"

size_t pab_utf8_decode(const unsigned char *p, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, beyond U+10FFFF, surrogates */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Length of the valid UTF-8 sequence at p (not a C1 control, not a
 * bidirectional formatting character), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	uint32_t cp;
	size_t n = pab_utf8_decode(p, &cp);

	if (!n || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	/* Bidirectional formatting characters reorder what a terminal
	 * shows after them (a name could make "FAIL" read "PASS"). */
	if (cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	return n;
}

#define TERM_RING 8

static __thread struct pab_strbuf ring[TERM_RING];
static pthread_key_t ring_key;
static pthread_once_t ring_once = PTHREAD_ONCE_INIT;

/* A thread's ring dies with the thread (the counting threads print names
 * too); the key's destructor frees it, since __thread storage is not. */
static void ring_free(void *arg)
{
	struct pab_strbuf *r = arg;
	size_t i;

	for (i = 0; i < TERM_RING; i++) {
		free(r[i].buf);
		r[i].buf = NULL;
		r[i].len = r[i].alloc = 0;
	}
}

static void ring_key_make(void)
{
	if (pthread_key_create(&ring_key, ring_free))
		die(PAB_EXIT_RUNTIME, "cannot make a thread key: out of resources");
}

const char *pab_term_safe(const char *s)
{
	static __thread unsigned next;
	struct pab_strbuf *sb;
	const unsigned char *p = (const unsigned char *)s;

	if (!s)
		return "(null)";
	if (!next) {
		pthread_once(&ring_once, ring_key_make);
		pthread_setspecific(ring_key, ring);
	}
	sb = &ring[next++ % TERM_RING];
	sb->len = 0;
	pab_strbuf_add(sb, "", 0);
	while (*p) {
		size_t n = utf8_len(p);
		char esc[8];

		if (*p == '\\') {
			pab_strbuf_add(sb, "\\\\", 2);
		} else if (*p == '\n') {
			pab_strbuf_add(sb, "\\n", 2);
		} else if (*p == '\t') {
			pab_strbuf_add(sb, "\\t", 2);
		} else if (*p == '\r') {
			pab_strbuf_add(sb, "\\r", 2);
		} else if (!n || *p < 0x20 || *p == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			pab_strbuf_addstr(sb, esc);
			n = 1;
		} else {
			pab_strbuf_add(sb, (const char *)p, n);
		}
		p += n ? n : 1;
	}
	return sb->buf;
}

size_t pab_term_columns(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t cols = 0;

	while (p < end && *p) {
		uint32_t cp;
		size_t k = pab_utf8_decode(p, &cp);

		p += k && k <= (size_t)(end - p) ? k : 1;
		cols++;
	}
	return cols;
}

/* The length of the unit of text at p that folding keeps whole: up to the
 * next blank or newline, or with list set up to the next blank after a
 * comma (an item of "a b, c d, e"). */
static size_t fold_unit(const char *p, int list)
{
	size_t len = strcspn(p, " \n");

	while (list && p[len] == ' ' && (!len || p[len - 1] != ',')) {
		size_t gap = strspn(p + len, " ");

		if (!p[len + gap] || p[len + gap] == '\n')
			break;
		len += gap + strcspn(p + len + gap, " \n");
	}
	return len;
}

static void fold(struct pab_strbuf *sb, const char *text, size_t col, size_t indent,
		 size_t width, int list)
{
	const char *p = text;

	while (*p) {
		size_t gap = strspn(p, " "), len, w;

		if (p[gap] == '\n') {
			pab_strbuf_addf(sb, "\n%*s", (int)indent, "");
			col = indent;
			p += gap + 1;
			p += strspn(p, " ");
			continue;
		}
		if (!p[gap])
			break; /* blanks at the end */
		len = fold_unit(p + gap, list);
		w = pab_term_columns(p + gap, len);
		if (col > indent && col + gap + w > width) {
			pab_strbuf_addf(sb, "\n%*s", (int)indent, "");
			col = indent;
		} else {
			pab_strbuf_add(sb, p, gap);
			col += gap;
		}
		pab_strbuf_add(sb, p + gap, len);
		col += w;
		p += gap + len;
	}
}

void pab_fold(struct pab_strbuf *sb, const char *text, size_t col, size_t indent,
	      size_t width)
{
	fold(sb, text, col, indent, width, 0);
}

void pab_print_folded_list(FILE *f, size_t col, size_t indent, const char *text)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;

	fold(&sb, text, col, indent, PAB_TERM_WIDTH, 1);
	pab_strbuf_add(&sb, "\n", 1);
	fwrite(sb.buf, 1, sb.len, f);
	pab_strbuf_release(&sb);
}

void pab_print_folded(FILE *f, size_t col, size_t indent, const char *text)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;

	pab_fold(&sb, text, col, indent, PAB_TERM_WIDTH);
	pab_strbuf_add(&sb, "\n", 1);
	fwrite(sb.buf, 1, sb.len, f);
	pab_strbuf_release(&sb);
}

int use_color(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if ((nc && *nc) || (term && !strcmp(term, "dumb")))
		return 0;
	return isatty(fd);
}
