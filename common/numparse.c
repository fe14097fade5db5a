/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * numparse.c — checked number parsing for perfab and the workload
 * programs (numparse.h). Only libc and libm: the workloads link nothing
 * else.
 */
#include "common/numparse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

int pab_num_u64(const char *s, uint64_t min, uint64_t max, unsigned flags, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	/* strtoull accepts blanks and a '-' sign (negating!): refuse both. */
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	if ((flags & PAB_NUM_DIGIT_FIRST) && (*s < '0' || *s > '9'))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if ((flags & PAB_NUM_SIZES) && *end) {
		switch (*end) {
		case 'K': mult = 1ULL << 10; break;
		case 'M': mult = 1ULL << 20; break;
		case 'G': mult = 1ULL << 30; break;
		default: return -1;
		}
		end++;
	}
	if (*end)
		return -1;
	if (v > UINT64_MAX / mult)
		return -1;
	v *= mult;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int pab_num_long(const char *s, long min, long max, long *out)
{
	long v;
	char *end;

	if (!s || !*s || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int pab_num_double(const char *s, double min, double max, unsigned flags, double *out)
{
	double v;
	char *end;

	if (!s || !*s || *s == ' ' || ((flags & PAB_NUM_NO_TAB) && *s == '\t'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
