/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * numparse.h — checked number parsing, the one parser perfab (util.h's
 * parse_u64, parse_long, parse_double) and the workload programs
 * (workloads/wl.h's pab_parse_u64, pab_parse_double) share.
 *
 * The whole string must be the number, in [min, max]: no empty input, no
 * trailing junk, no overflow, base 10 only ("0x10" is refused). Each
 * function returns 0 with the value in *out, or -1 with *out untouched;
 * nothing is printed and errno is not left to the caller to read — the
 * caller words the message (its subject, the range, what to do).
 *
 * The two callers have always started a number differently, and the flags
 * keep both: perfab refuses a leading space and (for an unsigned) a sign,
 * but lets strtoull/strtod skip other leading blanks; the workloads want
 * the first character to be a digit (PAB_NUM_DIGIT_FIRST) and refuse a
 * leading tab in a double too (PAB_NUM_NO_TAB).
 */
#ifndef PAB_COMMON_NUMPARSE_H
#define PAB_COMMON_NUMPARSE_H

#include <stdint.h>

enum pab_num_flags {
	PAB_NUM_SIZES = 1 << 0,       /* unsigned: a K, M or G suffix, x 2^10, 2^20, 2^30 */
	PAB_NUM_DIGIT_FIRST = 1 << 1, /* unsigned: the first character is a digit */
	PAB_NUM_NO_TAB = 1 << 2,      /* double: a leading tab is refused like a space */
};

/* An unsigned 64-bit decimal; flags PAB_NUM_SIZES, PAB_NUM_DIGIT_FIRST. A
 * suffixed value must fit 64 bits once multiplied. */
int pab_num_u64(const char *s, uint64_t min, uint64_t max, unsigned flags, uint64_t *out);

/* A signed decimal long (a leading '-' or '+' allowed). */
int pab_num_long(const char *s, long min, long max, long *out);

/* A finite double in strtod's syntax (not "inf", not "nan"); flag
 * PAB_NUM_NO_TAB. */
int pab_num_double(const char *s, double min, double max, unsigned flags, double *out);

#endif /* PAB_COMMON_NUMPARSE_H */
