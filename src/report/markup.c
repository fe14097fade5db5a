/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * markup.c — strings from artifacts made safe for XML, HTML and CSV
 * (markup.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "report/markup.h"
#include "term.h"

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one (XML
 * has no U+FFFE or U+FFFF either). */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n = pab_utf8_decode(s, &cp);

	if (n && (cp == 0xfffe || cp == 0xffff))
		return 0;
	return n;
}

void pab_fmt_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
		case '\n':
		case '\r':
			fputc(*s, f);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fputs("\xef\xbf\xbd", f);
			else
				fputc(*s, f);
		}
		s++;
	}
}

void pab_fmt_csv_field(FILE *f, const char *s)
{
	const char *p;

	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}
