/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reasons.c — the pool of null reasons (reasons.h): a chained hash set. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/reasons.h"
#include "util.h"

struct entry {
	struct entry *next;
	uint64_t hash;
	char text[]; /* NUL-terminated */
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry **buckets; /* n_buckets, a power of two */
static size_t n_buckets, n_entries;

/* FNV-1a, 64 bits. */
static uint64_t hash_text(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Twice the buckets (at least 64), the entries moved over. */
static void grow(void)
{
	size_t n = n_buckets ? 2 * n_buckets : 64, i;
	struct entry **b = xcalloc(n, sizeof(*b)), *e, *next;

	for (i = 0; i < n_buckets; i++)
		for (e = buckets[i]; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
		}
	free(buckets);
	buckets = b;
	n_buckets = n;
}

const char *pab_reason_intern(const char *s)
{
	uint64_t h;
	struct entry *e;
	size_t len;

	if (!s)
		return NULL;
	h = hash_text(s);
	pthread_mutex_lock(&pool_lock);
	for (e = n_buckets ? buckets[h & (n_buckets - 1)] : NULL; e; e = e->next)
		if (e->hash == h && !strcmp(e->text, s))
			goto out;
	if (n_entries >= n_buckets)
		grow();
	len = strlen(s);
	e = xmalloc(sizeof(*e) + len + 1);
	memcpy(e->text, s, len + 1);
	e->hash = h;
	e->next = buckets[h & (n_buckets - 1)];
	buckets[h & (n_buckets - 1)] = e;
	n_entries++;
out:
	pthread_mutex_unlock(&pool_lock);
	return e->text;
}
