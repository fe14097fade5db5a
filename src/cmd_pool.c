/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_pool.c — `perfab pool FILE... -o OUT`: merge artifacts of one
 * experiment (more blocks, or shards of its rows) into one artifact that
 * `perfab ledger` judges once. The rules are pool.h's; this file loads,
 * reports the refusal and saves atomically.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/artifact.h"
#include "store/json_in.h"
#include "store/tempfile.h"
#include "builtin.h"
#include "options.h"
#include "model/pool.h"
#include "model/rotation.h"
#include "util.h"

/*
 * The protocol an unloadable artifact records, when that is why it could
 * not be loaded: "(none)" for none, else a copy of the name. NULL when the
 * protocol is this perfab's (the load failed for another reason) or the
 * file is not JSON the checked reader takes (json_in.h).
 */
static char *foreign_protocol(const char *path)
{
	size_t len;
	char *text = read_file_max(path, PAB_ARTIFACT_MAX_BYTES, &len), *name = NULL, *why;
	cJSON *root;
	const cJSON *v;

	if (!text)
		return NULL;
	root = pab_json_parse(text, len, &why);
	free(text);
	free(why);
	if (!cJSON_IsObject(root))
		goto out_delete;
	v = cJSON_GetObjectItemCaseSensitive(root, "protocol");
	if (!cJSON_IsString(v))
		name = xstrdup("(none)");
	else if (strcmp(v->valuestring, PAB_PROTOCOL_NAME))
		name = xstrdup(v->valuestring);
out_delete:
	cJSON_Delete(root);
	return name;
}

/* builtin.h: shared with cmd_ledger.c. */
int pab_pool_load_input(const char *path, struct pab_experiment *e)
{
	char *why, *proto;
	int ret = pab_artifact_load(path, e, &why);

	if (!ret)
		return 0;
	if (ret == PAB_ARTIFACT_BAD_PROTOCOL) {
		fprintf(stderr, "perfab: error: %s\n", why);
		free(why);
		return PAB_EXIT_REFUSED;
	}
	proto = foreign_protocol(path);
	if (proto) {
		fprintf(stderr, "perfab: refused to pool: protocol differs: '%s' records %s, this "
			"perfab's artifacts use %s; arm orders of different protocols are not "
			"one experiment\n", path, proto, PAB_PROTOCOL_NAME);
		free(proto);
		free(why);
		return PAB_EXIT_REFUSED;
	}
	fprintf(stderr, "perfab: error: %s\n", why);
	free(why);
	return PAB_EXIT_USAGE;
}

/* builtin.h: shared with cmd_ledger.c. */
int pab_pool_load(const char *const *paths, size_t n,
		  struct pab_experiment *out)
{
	struct pab_experiment *in = xcalloc(n, sizeof(*in));
	const struct pab_experiment **ptrs = xcalloc(n, sizeof(*ptrs));
	size_t i, loaded = 0;
	char *why;
	int ret = PAB_EXIT_USAGE;

	for (i = 0; i < n; i++) {
		ret = pab_pool_load_input(paths[i], &in[i]);
		if (ret)
			goto out_release;
		ptrs[i] = &in[i];
		loaded++;
	}
	if (pab_pool(ptrs, paths, n, out, &why)) {
		fprintf(stderr, "perfab: refused to pool: %s\n", why);
		free(why);
		ret = PAB_EXIT_REFUSED;
		goto out_release;
	}
	ret = 0;
out_release:
	for (i = 0; i < loaded; i++)
		pab_experiment_release(&in[i]);
	free(ptrs);
	free(in);
	return ret;
}

int cmd_pool(int argc, char **argv)
{
	const char *outpath = NULL;
	struct pab_strlist pos = { 0 };
	struct pab_experiment e;
	const cJSON *pool, *mode;
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
		fprintf(stderr, "perfab: error: %s\n", why);
		free(why);
		pab_strlist_release(&pos);
		return PAB_EXIT_RUNTIME;
	}
	ret = pab_pool_load(pos.v, pos.n, &e);
	if (ret) {
		pab_artifact_unlock(outpath, lock_fd);
		pab_strlist_release(&pos);
		return ret;
	}
	if (pab_artifact_save(&e, outpath, &why)) {
		fprintf(stderr, "perfab: error: cannot write the pooled artifact: %s\n", why);
		free(why);
		pab_artifact_unlock(outpath, lock_fd);
		pab_experiment_release(&e);
		pab_strlist_release(&pos);
		return PAB_EXIT_RUNTIME;
	}
	pab_artifact_unlock(outpath, lock_fd);
	for (r = 0; r < e.n_rows; r++)
		reps += e.rows[r].n_reps;
	pool = cJSON_GetObjectItemCaseSensitive(e.run, "pool");
	mode = cJSON_GetObjectItemCaseSensitive(pool, "mode");
	fprintf(stderr, "perfab: pooled %zu artifacts (%s): %zu rows, %zu reps -> %s\n", pos.n,
		cJSON_IsString(mode) ? mode->valuestring : "?", e.n_rows, reps, outpath);
	pab_experiment_release(&e);
	pab_strlist_release(&pos);
	return PAB_EXIT_PASS;
}
