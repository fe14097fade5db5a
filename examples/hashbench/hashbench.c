/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hashbench.c — a small benchmark of an open-addressing hash table: insert
 * N keys, then look each up ROUNDS times. It stands for "an outside C
 * project" in perfab's GitHub Actions examples (README).
 *
 * usage: hashbench [N [ROUNDS]]   (default 8192 keys, 150 rounds)
 * Prints the sum of the looked-up values, so the work cannot be optimised
 * away; exits 1 when a lookup misses (a broken table).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "table.h"

static unsigned long arg(const char *s, unsigned long dflt)
{
	char *end;
	unsigned long v;

	if (!s)
		return dflt;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v == 0 || v > 100000000UL) {
		fprintf(stderr, "hashbench: '%s' is not a count from 1 to 100000000\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long n = arg(argc > 1 ? argv[1] : NULL, 8192);
	unsigned long rounds = arg(argc > 2 ? argv[2] : NULL, 150);
	struct table *t = table_new(n);
	uint64_t sum = 0, k, r;

	if (!t) {
		fprintf(stderr, "hashbench: out of memory\n");
		return 1;
	}
	for (k = 1; k <= n; k++)
		table_put(t, k * 0x9E3779B97F4A7C15ULL, k);
	for (r = 0; r < rounds; r++)
		for (k = 1; k <= n; k++) {
			uint64_t v;

			if (!table_get(t, k * 0x9E3779B97F4A7C15ULL, &v)) {
				fprintf(stderr, "hashbench: key %llu lost\n", (unsigned long long)k);
				return 1;
			}
			sum += v;
		}
	printf("%llu\n", (unsigned long long)sum);
	table_free(t);
	return 0;
}
