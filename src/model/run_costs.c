/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_costs.c — a run's binding and costs in memory (run_costs.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run_costs.h"
#include "util.h"

void pab_run_costs_init(struct pab_run_costs *c)
{
	memset(c, 0, sizeof(*c));
	c->sampler_cpu_s = c->sampler_samples = c->perfab_peak_rss_bytes = NAN;
}

void pab_run_costs_release(struct pab_run_costs *c)
{
	free(c->binding_json);
	free(c->attribution_json);
	pab_run_costs_init(c);
}

void pab_run_costs_copy(struct pab_run_costs *dst, const struct pab_run_costs *src)
{
	*dst = *src;
	dst->binding_json = src->binding_json ? xstrdup(src->binding_json) : NULL;
	dst->attribution_json = src->attribution_json ? xstrdup(src->attribution_json) : NULL;
}
