/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile.c — profiles as named amounts and their difference (profile.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "util.h"

void pab_profile_init(struct pab_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->merged = 1;
}

void pab_profile_release(struct pab_profile *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].where);
	}
	free(p->v);
	pab_profile_init(p);
}

void pab_profile_add(struct pab_profile *p, const char *name, const char *where,
		     double amount, double blocks)
{
	struct pab_profile_entry *x;

	ALLOC_GROW(p->v, p->n + 1, p->alloc);
	x = &p->v[p->n++];
	x->name = xstrdup(name);
	x->where = where ? xstrdup(where) : NULL;
	x->amount = amount;
	x->blocks = blocks;
	p->total += amount;
	p->merged = 0;
}

static int by_name(const void *pa, const void *pb)
{
	const struct pab_profile_entry *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	/* The largest amount first, so that its where is kept. */
	if (c)
		return c;
	return a->amount > b->amount ? -1 : a->amount < b->amount;
}

void pab_profile_merge(struct pab_profile *p)
{
	size_t i, k = 0;

	if (p->merged)
		return;
	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), by_name);
	for (i = 0; i < p->n; i++) {
		struct pab_profile_entry *x = &p->v[i];

		if (k && !strcmp(p->v[k - 1].name, x->name)) {
			struct pab_profile_entry *y = &p->v[k - 1];

			y->amount += x->amount;
			if (!isnan(x->blocks))
				y->blocks = isnan(y->blocks) ? x->blocks : y->blocks + x->blocks;
			if (!y->where) {
				y->where = x->where;
				x->where = NULL;
			}
			free(x->name);
			free(x->where);
			continue;
		}
		p->v[k++] = *x;
	}
	p->n = k;
	p->merged = 1;
}

/* The entry of name in merged p, or NULL. */
static const struct pab_profile_entry *find(const struct pab_profile *p, const char *name)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->v[mid].name, name);

		if (!c)
			return &p->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

double pab_profile_amount(const struct pab_profile *p, const char *name)
{
	const struct pab_profile_entry *x = find(p, name);

	return x ? x->amount : 0;
}

static int by_change(const void *pa, const void *pb)
{
	const struct pab_profile_move *a = pa, *b = pb;
	double ca = fabs(a->head - a->base), cb = fabs(b->head - b->base);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* A move of name from base entry x and head entry y (either NULL). */
static void move_of(struct pab_profile_move *m, const struct pab_profile_entry *x,
		    const struct pab_profile_entry *y)
{
	const struct pab_profile_entry *any = y ? y : x;

	m->name = xstrdup(any->name);
	m->where = y && y->where ? xstrdup(y->where) : x && x->where ? xstrdup(x->where) : NULL;
	m->base = x ? x->amount : 0;
	m->head = y ? y->amount : 0;
	m->base_blocks = x ? x->blocks : NAN;
	m->head_blocks = y ? y->blocks : NAN;
	if (!x && !isnan(m->head_blocks))
		m->base_blocks = 0;
	if (!y && !isnan(m->base_blocks))
		m->head_blocks = 0;
}

static int by_size(const void *pa, const void *pb)
{
	const struct pab_profile_move *a = pa, *b = pb;
	double sa = fmax(a->base, a->head), sb = fmax(b->base, b->head);

	if (sa != sb)
		return sa > sb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The merge of base and head: moved names only, or all (every). */
static size_t walk(struct pab_profile *base, struct pab_profile *head, int every,
		   struct pab_profile_move **out)
{
	struct pab_profile_move *v;
	size_t i = 0, j = 0, n = 0;

	pab_profile_merge(base);
	pab_profile_merge(head);
	v = xcalloc(base->n + head->n + 1, sizeof(*v));
	while (i < base->n || j < head->n) {
		int c = i == base->n ? 1 : j == head->n ? -1 :
			strcmp(base->v[i].name, head->v[j].name);
		const struct pab_profile_entry *x = c <= 0 ? &base->v[i++] : NULL;
		const struct pab_profile_entry *y = c >= 0 ? &head->v[j++] : NULL;

		if (!every && (x ? x->amount : 0) == (y ? y->amount : 0))
			continue;
		move_of(&v[n++], x, y);
	}
	*out = v;
	return n;
}

/* Keep the first top of v[0..n) in sort order cmp; the rest freed. */
static size_t keep_top(struct pab_profile_move *v, size_t n, size_t top,
		       int (*cmp)(const void *, const void *))
{
	size_t i;

	if (n)
		qsort(v, n, sizeof(*v), cmp);
	for (i = top; i < n; i++) {
		free(v[i].name);
		free(v[i].where);
	}
	return n > top ? top : n;
}

void pab_profile_join(struct pab_profile *base, struct pab_profile *head, size_t top,
		      struct pab_profile_move **out, size_t *n_out)
{
	size_t n = walk(base, head, 1, out);

	*n_out = keep_top(*out, n, top, by_size);
}

double pab_profile_diff(struct pab_profile *base, struct pab_profile *head, size_t top,
			struct pab_profile_move **out, size_t *n_out)
{
	struct pab_profile_move *v;
	size_t i, n;
	double sum = 0;

	n = walk(base, head, 0, &v);
	n = keep_top(v, n, top, by_change);
	for (i = 0; i < n; i++)
		sum += v[i].head - v[i].base;
	*out = v;
	*n_out = n;
	return sum;
}

void pab_profile_moves_free(struct pab_profile_move *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].where);
	}
	free(v);
}
