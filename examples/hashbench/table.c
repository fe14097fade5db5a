/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * table.c — the hash table of table.h. The hash is a multiply-xorshift
 * mixer applied MIX_ROUNDS times (the example's slowdown branch raises it:
 * README).
 */
#include <stdlib.h>

#include "table.h"

#ifndef MIX_ROUNDS
#define MIX_ROUNDS 4
#endif

struct slot {
	uint64_t key, value;
};

struct table {
	struct slot *slots;
	uint64_t mask;
};

static uint64_t hash(uint64_t x)
{
	int i;

	for (i = 0; i < MIX_ROUNDS; i++) {
		x ^= x >> 31;
		x *= 0x7FB5D329728EA185ULL;
		x ^= x >> 27;
		x *= 0x81DADEF4BC2DD44DULL;
		x ^= x >> 33;
	}
	return x;
}

struct table *table_new(uint64_t n)
{
	struct table *t = malloc(sizeof(*t));
	uint64_t size = 16;

	if (!t)
		return NULL;
	while (size < 2 * n)
		size *= 2;
	t->slots = calloc(size, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	t->mask = size - 1;
	return t;
}

void table_put(struct table *t, uint64_t key, uint64_t value)
{
	uint64_t i = hash(key) & t->mask;

	while (t->slots[i].key && t->slots[i].key != key)
		i = (i + 1) & t->mask;
	t->slots[i].key = key;
	t->slots[i].value = value;
}

int table_get(const struct table *t, uint64_t key, uint64_t *value)
{
	uint64_t i = hash(key) & t->mask;

	while (t->slots[i].key) {
		if (t->slots[i].key == key) {
			*value = t->slots[i].value;
			return 1;
		}
		i = (i + 1) & t->mask;
	}
	return 0;
}

void table_free(struct table *t)
{
	free(t->slots);
	free(t);
}
