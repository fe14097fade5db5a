/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * term.h — text as it may reach a terminal: perfab's one UTF-8 decoder,
 * the terminal-safe printer every name from outside goes through, and
 * whether to colour a stream.
 */
#ifndef PAB_TERM_H
#define PAB_TERM_H

#include <stddef.h>
#include <stdint.h>

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
 * 1 when stream fd is a terminal, NO_COLOR is unset or empty (no-color.org:
 * set and non-empty disables colour) and TERM is not "dumb".
 */
int use_color(int fd);

#endif /* PAB_TERM_H */
