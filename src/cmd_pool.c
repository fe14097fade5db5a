/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_pool.c — `perfab pool FILE... -o OUT`: merge artifacts of one
 * experiment (more blocks, or shards of its rows) into one artifact that
 * `perfab ledger` judges once. The rules are pool.h's, the loading
 * store/load.h's; this file reports the refusal and saves atomically.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/artifact_write.h"
#include "store/load.h"
#include "store/tempfile.h"
#include "builtin.h"
#include "options.h"
#include "model/pool.h"
#include "model/rotation.h"
#include "util.h"

int cmd_pool(int argc, char **argv)
{
	const char *outpath = NULL;
	struct pab_strlist pos = { 0 };
	struct pab_experiment e;
	size_t r, reps = 0;
	char *why;
	int ret, lock_fd;
	const struct pab_option opts[] = {
		OPT_STRING('o', "out", &outpath, "OUT", "write the pooled artifact here (required)"),
		OPT_END(),
	};
	const char *usage = "perfab pool FILE... -o OUT";

	pab_parse_options(argc, argv, opts, usage,
			  "Merge complete artifacts of one experiment: the same rows as more\n"
			  "blocks, disjoint rows (shards) as a union. Shards may come from\n"
			  "different CPU models (each row then records its host and the ledger\n"
			  "shows it); blocks of one row may not. Refused (exit 4) when the arms,\n"
			  "executables, protocol, rows or metric set differ, when blocks of one\n"
			  "row ran on different CPU models, or an input is incomplete, unbalanced\n"
			  "or stopped by the sanity gate.",
			  &pos);
	if (!pos.n)
		pab_usage_error(opts, usage, "no artifact given");
	if (!outpath)
		pab_usage_error(opts, usage, "-o OUT is required");
	for (r = 0; r < pos.n; r++)
		if (!strcmp(pos.v[r], outpath))
			pab_usage_error(opts, usage,
					"-o '%s' is also an input: write the pool to a new file",
					outpath);
	lock_fd = pab_artifact_lock(outpath, &why);
	if (lock_fd < 0) {
		pab_error("%s", why);
		free(why);
		pab_strlist_release(&pos);
		return PAB_EXIT_RUNTIME;
	}
	ret = pab_load_pool(pos.v, pos.n, &e, &why);
	if (ret) {
		fprintf(stderr, "perfab: %s\n", why);
		free(why);
		pab_artifact_unlock(outpath, lock_fd);
		pab_strlist_release(&pos);
		return ret;
	}
	if (pab_artifact_save(&e, outpath, &why)) {
		pab_error("cannot write the pooled artifact: %s", why);
		free(why);
		pab_artifact_unlock(outpath, lock_fd);
		pab_experiment_release(&e);
		pab_strlist_release(&pos);
		return PAB_EXIT_RUNTIME;
	}
	pab_artifact_unlock(outpath, lock_fd);
	for (r = 0; r < e.n_rows; r++)
		reps += e.rows[r].n_reps;
	fprintf(stderr, "perfab: pooled %zu artifacts (%s): %zu rows, %zu reps -> %s\n", pos.n,
		e.pool.mode ? e.pool.mode : "?", e.n_rows, reps, outpath);
	pab_experiment_release(&e);
	pab_strlist_release(&pos);
	return PAB_EXIT_PASS;
}
