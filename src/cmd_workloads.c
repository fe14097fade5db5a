/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_workloads.c — `perfab workloads [SEL]`: the built-in rows and their
 * parameters, from the one suite table the workload programs also read.
 */
#include "config.h"

#include <stdio.h>

#include "builtin.h"
#include "options.h"
#include "util.h"
#include "common/suite.h"

int cmd_workloads(int argc, char **argv)
{
	const char *usage = "perfab workloads [SEL]";
	struct pab_strlist pos = { 0 };
	const struct pab_option opts[] = { OPT_END() };
	size_t i, p, shown = 0;
	const char *sel;

	pab_parse_options(argc, argv, opts, usage,
			  "List built-in workload rows: SEL is =exact, a substring, or terms joined by '|'.",
			  &pos);
	if (pos.n > 1)
		pab_usage_error(opts, usage, "one selection at a time (join terms with '|')");
	sel = pos.n ? pos.v[0] : NULL;
	for (i = 0; i < pab_suite_count(); i++) {
		const struct pab_row_def *d = pab_suite_row(i);

		if (!pab_suite_select(sel, d->name))
			continue;
		shown++;
		printf("%s%s  (%s)\n  %s\n", d->name, d->control ? " [control]" : "",
		       d->program, d->description);
		for (p = 0; p < d->n_params; p++)
			printf("    %-18s %-10s %s\n", d->params[p].key, d->params[p].value,
			       d->params[p].help);
	}
	pab_strlist_release(&pos);
	if (!shown) {
		pab_error("no row matches '%s' (run perfab workloads)",
			sel ? sel : "");
		return PAB_EXIT_USAGE;
	}
	return 0;
}
