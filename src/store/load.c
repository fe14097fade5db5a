/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * load.c — the inputs of pool, ledger and gate, loaded, checked and
 * pooled (load.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "model/judgeable.h"
#include "model/pool.h"
#include "model/rotation.h"
#include "model/sanity.h"
#include "store/artifact_read.h"
#include "store/load.h"
#include "term.h"
#include "util.h"

int pab_load_pool_input(const char *path, struct pab_experiment *e, char **why)
{
	char *inner, *proto;
	int ret = pab_artifact_load_foreign(path, e, &proto, &inner);

	*why = NULL;
	if (!ret)
		return 0;
	if (ret == PAB_ARTIFACT_BAD_PROTOCOL) {
		*why = xasprintf("error: %s", inner);
		free(inner);
		return PAB_EXIT_REFUSED;
	}
	if (proto) {
		*why = xasprintf("refused to pool: protocol differs: '%s' records %s, this "
				 "perfab's artifacts use %s; arm orders of different protocols "
				 "are not one experiment", path, proto, PAB_PROTOCOL_NAME);
		free(proto);
		free(inner);
		return PAB_EXIT_REFUSED;
	}
	*why = xasprintf("error: %s", inner);
	free(inner);
	return PAB_EXIT_USAGE;
}

int pab_load_pool(const char *const *paths, size_t n, struct pab_experiment *out,
		  char **why)
{
	struct pab_experiment *in = xcalloc(n, sizeof(*in));
	const struct pab_experiment **ptrs = xcalloc(n, sizeof(*ptrs));
	size_t i, loaded = 0;
	char *inner;
	int ret = PAB_EXIT_USAGE;

	*why = NULL;
	for (i = 0; i < n; i++) {
		ret = pab_load_pool_input(paths[i], &in[i], why);
		if (ret)
			goto out_release;
		ptrs[i] = &in[i];
		loaded++;
	}
	if (pab_pool(ptrs, paths, n, out, &inner)) {
		*why = xasprintf("refused to pool: %s", inner);
		free(inner);
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

/*
 * Check a loaded artifact for a verdict. Returns 0, or the exit code to
 * leave with and why in *why (e released).
 */
static int check_judgeable(const char *path, struct pab_experiment *e, int alone,
			   char **why)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	char *inner;
	size_t i;
	int ret = PAB_EXIT_REFUSED;

	switch (pab_artifact_judgeable(e, path, &inner)) {
	case PAB_JUDGEABLE:
		return 0;
	case PAB_UNJUDGEABLE_SANITY:
		/* Judged on its own, the gated rows FAIL (judge/ledger.h);
		 * a pool has no blocks to add to it. */
		if (alone) {
			free(inner);
			return 0;
		}
		pab_strbuf_addf(&sb, "no verdict: %s (judge it on its own):\n", inner);
		for (i = 0; i < e->n_sanity; i++) {
			const struct pab_sanity_cell *c = &e->sanity[i];

			if (c->row && c->arm && c->metric && isfinite(c->base) && isfinite(c->head)) {
				char *line = pab_sanity_cell_line(c);

				pab_strbuf_addf(&sb, "  %s\n", line);
				free(line);
			}
		}
		pab_strbuf_addstr(&sb, "  fix the head's memory use, or rerun with --no-sanity-gate to measure it anyway");
		*why = pab_strbuf_detach(&sb);
		ret = PAB_EXIT_SANITY;
		break;
	case PAB_UNJUDGEABLE_INCOMPLETE:
		*why = xasprintf("no verdict: %s; finish it with: perfab run --resume %s "
				 "and the run's own --config/--arm options", inner, path);
		break;
	case PAB_UNJUDGEABLE_UNBALANCED:
		*why = xasprintf("no verdict: %s: rerun it", inner);
		break;
	}
	free(inner);
	pab_experiment_release(e);
	return ret;
}

int pab_load_judgeable(const char *const *paths, size_t n, struct pab_experiment *e,
		       char **why)
{
	struct pab_experiment *in = xcalloc(n, sizeof(*in));
	const struct pab_experiment **ptrs = xcalloc(n, sizeof(*ptrs));
	size_t i, loaded = 0;
	char *inner;
	int ret = 0;

	*why = NULL;
	for (i = 0; i < n && !ret; i++) {
		if (n > 1) {
			ret = pab_load_pool_input(paths[i], &in[i], why);
			if (ret)
				break;
		} else if ((ret = pab_artifact_load(paths[i], &in[i], &inner))) {
			*why = xasprintf("error: %s", inner);
			free(inner);
			ret = pab_artifact_load_exit_code(ret);
			break;
		}
		ret = check_judgeable(paths[i], &in[i], n == 1, why);
		if (!ret) {
			ptrs[i] = &in[i];
			loaded++;
		}
	}
	/* Each input was checked above: the pool does not check them again. */
	if (!ret && n == 1) {
		*e = in[0];
		loaded = 0;
	} else if (!ret && pab_pool_judged(ptrs, paths, n, e, &inner)) {
		*why = xasprintf("no verdict: refused to pool: %s", inner);
		free(inner);
		ret = PAB_EXIT_REFUSED;
	}
	for (i = 0; i < loaded; i++)
		pab_experiment_release(&in[i]);
	free(ptrs);
	free(in);
	return ret;
}
