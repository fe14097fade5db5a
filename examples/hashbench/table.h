/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * table.h — an open-addressing (linear probing) hash table from 64-bit
 * keys to 64-bit values. Key 0 is reserved (it marks an empty slot).
 */
#ifndef HASHBENCH_TABLE_H
#define HASHBENCH_TABLE_H

#include <stdint.h>

struct table;

/* A table sized for n keys, or NULL when out of memory. */
struct table *table_new(uint64_t n);
/* Insert or replace key (not 0). */
void table_put(struct table *t, uint64_t key, uint64_t value);
/* 1 and *value when key is present, else 0. */
int table_get(const struct table *t, uint64_t key, uint64_t *value);
void table_free(struct table *t);

#endif
