/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plan_data.c — the options' "not given", a plan's messages and its
 * release (plan_data.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run/plan_data.h"
#include "util.h"

void pab_run_opts_init(struct pab_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = UINT64_MAX;
	o->timeout_s = -1;
	o->margin = -1;
	o->guard_tolerance = -1;
}

/* Add text (taken) to what the command tells. */
void pab_plan_msg_take(struct pab_plan *p, enum pab_plan_msg_kind kind, char *text)
{
	p->msgs = xrealloc(p->msgs, (p->n_msgs + 1) * sizeof(*p->msgs));
	p->msgs[p->n_msgs].kind = kind;
	p->msgs[p->n_msgs].text = text;
	p->n_msgs++;
}

void pab_plan_msg(struct pab_plan *p, enum pab_plan_msg_kind kind, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	pab_plan_msg_take(p, kind, text);
}

void pab_plan_release(struct pab_plan *p)
{
	size_t i;

	pab_experiment_release(&p->e);
	pab_run_settings_release(&p->use);
	free(p->count_cache);
	for (i = 0; i < p->n_events; i++)
		free(p->events[i]);
	free(p->events);
	for (i = 0; i < p->n_msgs; i++)
		free(p->msgs[i].text);
	free(p->msgs);
	memset(p, 0, sizeof(*p));
}
