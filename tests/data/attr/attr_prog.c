/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attr_prog.c — a test program of known causes for the attribution tests
 * (tests/e2e/attribution_*.sh, doc/attribution.md): its work is in named
 * functions and its memory in named allocation sites, and its arguments
 * move one of them:
 *
 *   attr_prog [extra_pct=N] [hold_mib=M] [wait_ms=W]
 *
 * extra_pct: sort_keys() does N% more iterations (the others as they are);
 * hold_mib: grow_cache() holds one block of M MiB until the end; wait_ms:
 * wait_for_reply() sleeps W ms in one usleep (off the CPU: the same
 * instructions and CPU time whatever W). Its counts are the same in every
 * run (no clock, no randomness).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void parse_input(long n)
{
	unsigned long h = 7;
	long i;

	for (i = 0; i < n; i++)
		h = h * 131 + (unsigned long)i;
	sink += h;
}

__attribute__((noinline)) static void hash_rows(long n)
{
	unsigned long h = 1;
	long i;

	for (i = 0; i < n; i++)
		h ^= (h << 5) + (h >> 2) + (unsigned long)i;
	sink += h;
}

__attribute__((noinline)) static void sort_keys(long n)
{
	unsigned long h = 3;
	long i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned long)i) * 2654435761UL;
	sink += h;
}

__attribute__((noinline)) static char *grow_cache(size_t bytes)
{
	char *p = malloc(bytes ? bytes : 1);

	if (p)
		memset(p, 1, bytes);
	return p;
}

__attribute__((noinline)) static char **small_nodes(size_t n)
{
	char **v = calloc(n, sizeof(*v));
	size_t i;

	for (i = 0; v && i < n; i++) {
		v[i] = malloc(256);
		if (v[i])
			memset(v[i], 2, 256);
	}
	return v;
}

__attribute__((noinline)) static void wait_for_reply(long ms)
{
	if (ms > 0)
		usleep((useconds_t)ms * 1000);
	sink += (unsigned long)ms;
}

/* NAME=VALUE's value of argument arg for name, or def. */
static long arg_value(int argc, char **argv, const char *name, long def)
{
	size_t len = strlen(name);
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], name, len) && argv[i][len] == '=')
			return strtol(argv[i] + len + 1, NULL, 10);
	return def;
}

int main(int argc, char **argv)
{
	long extra = arg_value(argc, argv, "extra_pct", 0);
	long hold = arg_value(argc, argv, "hold_mib", 0);
	long wait = arg_value(argc, argv, "wait_ms", 0);
	char *cache, **nodes;

	parse_input(2000000);
	hash_rows(1000000);
	sort_keys(1000000 + 10000 * extra);
	wait_for_reply(wait);
	nodes = small_nodes(2000);
	cache = grow_cache((size_t)hold << 20);
	sink += cache ? (unsigned long)cache[0] : 0;
	sink += nodes && nodes[0] ? (unsigned long)nodes[0][0] : 0;
	printf("%lu\n", (unsigned long)sink);
	return 0;
}
