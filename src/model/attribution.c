/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribution.c — attributions in memory (attribution.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/attribution.h"
#include "util.h"

static const char *const mode_names[] = { "auto", "always", "never" };

const char *pab_attr_mode_name(enum pab_attr_mode m)
{
	return (unsigned)m < 3 ? mode_names[m] : NULL;
}

int pab_attr_mode_parse(const char *s, enum pab_attr_mode *m)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, mode_names[i])) {
			*m = (enum pab_attr_mode)i;
			return 0;
		}
	return -1;
}

void pab_attribution_init(struct pab_attribution *a)
{
	memset(a, 0, sizeof(*a));
	a->base_total = a->head_total = NAN;
}

static void items_free(struct pab_attr_item *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].where);
	}
	free(v);
}

void pab_attribution_release(struct pab_attribution *a)
{
	free(a->row);
	free(a->arm);
	free(a->profiler);
	free(a->source);
	free(a->input);
	free(a->note);
	items_free(a->items, a->n_items);
	items_free(a->lines, a->n_lines);
	items_free(a->stacks, a->n_stacks);
	pab_attribution_init(a);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct pab_attr_item *items_copy(const struct pab_attr_item *v, size_t n)
{
	struct pab_attr_item *out = xcalloc(n ? n : 1, sizeof(*out));
	size_t i;

	for (i = 0; i < n; i++) {
		out[i] = v[i];
		out[i].name = xstrdup(v[i].name);
		out[i].where = dup_or_null(v[i].where);
	}
	return out;
}

void pab_attribution_copy(struct pab_attribution *dst, const struct pab_attribution *src)
{
	*dst = *src;
	dst->row = dup_or_null(src->row);
	dst->arm = dup_or_null(src->arm);
	dst->profiler = dup_or_null(src->profiler);
	dst->source = dup_or_null(src->source);
	dst->input = dup_or_null(src->input);
	dst->note = dup_or_null(src->note);
	dst->items = items_copy(src->items, src->n_items);
	dst->lines = items_copy(src->lines, src->n_lines);
	dst->stacks = items_copy(src->stacks, src->n_stacks);
}

double pab_attribution_change(const struct pab_attribution *a)
{
	return a->head_total - a->base_total;
}

double pab_attribution_explained(const struct pab_attribution *a)
{
	double change = pab_attribution_change(a), sum = 0;
	size_t i;

	if (!isfinite(change) || change == 0)
		return NAN;
	for (i = 0; i < a->n_items; i++)
		sum += a->items[i].head - a->items[i].base;
	return sum / change;
}

void pab_attribution_append(struct pab_attribution **v, size_t *n,
			    const struct pab_attribution *a)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	pab_attribution_copy(&(*v)[(*n)++], a);
}

void pab_attributions_free(struct pab_attribution *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pab_attribution_release(&v[i]);
	free(v);
}
