/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sanity.c — the sanity gate's rule in words (sanity.h).
 */
#include "config.h"

#include "model/metrics.h"
#include "model/sanity.h"
#include "term.h"
#include "util.h"

char *pab_sanity_cell_line(const struct pab_sanity_cell *c)
{
	return xasprintf("[%s] %s: %s %.1f -> %.1f MiB (more than %gx base + %g MiB)",
			 pab_term_safe(c->arm), pab_term_safe(c->row), pab_term_safe(c->metric),
			 pab_bytes_mib(c->base), pab_bytes_mib(c->head), PAB_SANITY_FACTOR,
			 pab_bytes_mib(PAB_SANITY_SLACK_BYTES));
}
