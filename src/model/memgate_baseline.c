/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memgate_baseline.c — a memory-gate baseline in memory
 * (memgate_baseline.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/memgate_baseline.h"

void pab_memgate_baseline_release(struct pab_memgate_baseline *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->name[i]);
	free(b->name);
	free(b->bytes);
	free(b->arm);
	free(b->cpu_model);
	memset(b, 0, sizeof(*b));
}

int pab_memgate_baseline_has(const struct pab_memgate_baseline *b, const char *name)
{
	size_t k;

	for (k = 0; k < b->n; k++)
		if (!strcmp(b->name[k], name))
			return 1;
	return 0;
}
