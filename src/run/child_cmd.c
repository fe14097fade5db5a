/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * child_cmd.c — an arm's child's command, identity and files
 * (child_cmd.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suite.h"
#include "model/argv_split.h"
#include "run/arms.h"
#include "run/child_cmd.h"
#include "store/digest.h"
#include "term.h"
#include "util.h"

static char *params_string(const struct pab_row *row)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t i;

	for (i = 0; i < row->n_params; i++)
		pab_strbuf_addf(&sb, "%s%s=%s", i ? "," : "", row->params[i].key,
				row->params[i].value);
	return pab_strbuf_detach(&sb);
}

/* The environment for (row, arm, mode) into cmd. */
static void make_env(const struct pab_child_shared *sh, const struct pab_row *row,
		     const struct pab_arm *arm, const char *mode, uint64_t seed,
		     struct pab_child_cmd *cmd)
{
	size_t n = 0, i, k, n_own = 0;
	char **env = xcalloc(sh->n_base_env + arm->n_env + 8, sizeof(*env));
	char **own = xcalloc(arm->n_env + 8, sizeof(*own));
	char *params = params_string(row);

	for (i = 0; i < sh->n_base_env; i++) {
		const char *v = sh->base_env[i];
		int overridden = 0;

		for (k = 0; k < arm->n_env; k++) {
			size_t kl = strlen(arm->env[k].key);

			if (!strncmp(v, arm->env[k].key, kl) && v[kl] == '=')
				overridden = 1;
		}
		if (!overridden)
			env[n++] = (char *)v;
	}
	for (k = 0; k < arm->n_env; k++)
		env[n++] = own[n_own++] = xasprintf("%s=%s", arm->env[k].key,
						    arm->env[k].value);
	env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_PROTOCOL,
					    PAB_WORKLOAD_PROTOCOL);
	/* Only built-in rows name a suite row; a plain command keeps its own. */
	if (row->workload) {
		env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_ROW, row->workload);
		env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_PARAMS, params);
	}
	env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_MODE, mode);
	env[n++] = own[n_own++] = xasprintf("%s=%llu", PAB_ENV_SEED,
					    (unsigned long long)seed);
	env[n++] = own[n_own++] = xasprintf("%s=%.17g", PAB_ENV_SCALE, sh->scale);
	env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_REPORT, sh->report_path);
	free(params);
	cmd->env = env;
	cmd->own = own;
}

/*
 * The names and values of row's parameters for {NAME} (a plain command's
 * row from a parameter scan; a built-in row's go to the environment), or
 * 0 pairs. Borrowed from row; the arrays are new.
 */
static size_t row_placeholders(const struct pab_row *row, const char ***names,
			       const char ***values)
{
	size_t i;

	*names = *values = NULL;
	if (row->workload || !row->n_params)
		return 0;
	*names = xcalloc(row->n_params, sizeof(**names));
	*values = xcalloc(row->n_params, sizeof(**values));
	for (i = 0; i < row->n_params; i++) {
		(*names)[i] = row->params[i].key;
		(*values)[i] = row->params[i].value;
	}
	return row->n_params;
}

void pab_child_expand_words(char *const *argv, size_t argc, size_t from,
			    const struct pab_row *row, char **out, size_t *k,
			    char **own, size_t *n_own)
{
	const char **names, **values;
	size_t n = row_placeholders(row, &names, &values), i;

	for (i = from; i < argc; i++) {
		if (!n) {
			out[(*k)++] = argv[i];
			continue;
		}
		out[*k] = own[(*n_own)++] = pab_argv_expand(argv[i], names, values, n);
		++*k;
	}
	free(names);
	free(values);
}

static char **make_argv(const struct pab_arm *arm, const struct pab_row *row,
			const char *exe, char ***own)
{
	size_t n = (arm->argc ? arm->argc : 1) + row->argc, i, k = 0, n_own = 0;
	char **argv = xcalloc(n + 1, sizeof(*argv));

	*own = xcalloc(n + 1, sizeof(**own));
	if (arm->argc) {
		argv[k++] = arm->argv[0];
		pab_child_expand_words(arm->argv, arm->argc, 1, row, argv, &k, *own, &n_own);
	} else {
		argv[k++] = (char *)exe;
	}
	for (i = 0; i < row->argc; i++)
		argv[k++] = row->argv[i];
	return argv;
}

int pab_child_cmd_make(struct pab_child_cmd *cmd, const struct pab_child_shared *sh,
		       const struct pab_row *row, const struct pab_arm *arm, const char *mode,
		       uint64_t seed, char **why)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->exe = pab_arm_exe(arm, row, why);
	if (!cmd->exe)
		return -1;
	cmd->argv = make_argv(arm, row, cmd->exe, &cmd->argv_own);
	make_env(sh, row, arm, mode, seed, cmd);
	return 0;
}

void pab_child_cmd_release(struct pab_child_cmd *cmd)
{
	char **p;

	for (p = cmd->own; p && *p; p++)
		free(*p);
	free(cmd->own);
	for (p = cmd->argv_own; p && *p; p++)
		free(*p);
	free(cmd->argv_own);
	free(cmd->env);
	free(cmd->argv);
	free(cmd->exe);
	memset(cmd, 0, sizeof(*cmd));
}

/* 1 when the environment entry kv ("NAME=value") sets name. */
static int env_is(const char *kv, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(kv, name, n) && kv[n] == '=';
}

/* A variable a CI runner sets anew for every run and job, left out of the
 * identity (doc/method.md, "The count cache"). */
static int per_run_env(const char *kv)
{
	return !strncmp(kv, "GITHUB_", 7) || !strncmp(kv, "RUNNER_", 7) ||
		!strncmp(kv, "ACTIONS_", 8);
}

char *pab_child_identity(const struct pab_child_shared *sh, const struct pab_experiment *e,
			 const struct pab_row *row, size_t arm_idx)
{
	const struct pab_arm *arm = &e->arms[arm_idx];
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	struct pab_child_cmd cmd;
	char *why, **p;
	size_t i;

	if (pab_child_cmd_make(&cmd, sh, row, arm, "throughput", 0, &why)) {
		free(why);
		return NULL;
	}
	/* The program, its digest, argv and environment, one per line; the
	 * input, the working directory and the limits are the run's own. */
	pab_strbuf_addf(&sb, "exe %s\nsha256 %s\n", cmd.exe, arm->sha256 ? arm->sha256 : "-");
	/* What the arm's own prepare leaves, and the files its run reads. */
	pab_strbuf_addf(&sb, "prepare %zu %s\n", arm->prepare ? strlen(arm->prepare) : 0,
			arm->prepare ? arm->prepare : "");
	for (i = 0; row->inputs && row->n_inputs && i < row->n_inputs[arm_idx]; i++)
		pab_strbuf_addf(&sb, "input %s %s\n", row->inputs[arm_idx][i].sha256 ?
				row->inputs[arm_idx][i].sha256 : "-", row->inputs[arm_idx][i].path);
	for (p = cmd.argv; *p; p++)
		pab_strbuf_addf(&sb, "arg %zu %s\n", strlen(*p), *p);
	/* Not the rep's seed: every arm of a rep has the same, and a count is
	 * taken across reps only once two reps' counts, at two seeds, agreed
	 * (run/counting.h); nor the run's report file, the same for every
	 * child of a run. */
	for (p = cmd.env; *p; p++)
		if (!env_is(*p, PAB_ENV_SEED) && !env_is(*p, PAB_ENV_REPORT) && !per_run_env(*p))
			pab_strbuf_addf(&sb, "env %zu %s\n", strlen(*p), *p);
	pab_child_cmd_release(&cmd);
	return pab_strbuf_detach(&sb);
}

/* "changed during the run" for file (role) of arm/row: digest then and now. */
static int file_changed(const char *path, const char *role, const char *then,
			const struct pab_arm *arm, const struct pab_row *row, int at_end,
			struct pab_failure *f)
{
	char *now = pab_sha256_file(path);
	int ret;

	ret = pab_fail(f, PAB_FAIL_REFUSED, "arm '%s' of row '%s': %s '%s' is not the file "
		       "checked when the run started (sha256 %s then, %s %s): the run stops; "
		       "restore it and resume with perfab run --resume, or rerun from scratch",
		       pab_term_safe(arm->name), pab_term_safe(row->name), role,
		       pab_term_safe(path), then, now ? now : "unreadable",
		       at_end ? "at the end of the run" : "before its next exec");
	free(now);
	return ret;
}

int pab_child_check_files(const struct pab_row *row, const struct pab_arm *arm, size_t a,
			  const char *exe, int digest, struct pab_failure *f)
{
	size_t i;

	if (row->exes && row->exes[a] && row->exe_sha256 && row->exe_sha256[a]) {
		int same;

		if (digest) {
			char *now = pab_sha256_file(row->exes[a]);

			same = now && !strcmp(now, row->exe_sha256[a]);
			free(now);
		} else {
			same = !strcmp(exe, row->exes[a]) && row->exe_id &&
			       pab_file_id_same(exe, &row->exe_id[a]);
		}
		if (!same)
			return file_changed(strcmp(exe, row->exes[a]) ? exe : row->exes[a],
					    "program", row->exe_sha256[a], arm, row, digest, f);
	}
	for (i = 0; row->inputs && i < row->n_inputs[a]; i++) {
		const struct pab_input_file *in = &row->inputs[a][i];
		int same;

		if (digest) {
			char *now = pab_sha256_file(in->path);

			same = now && !strcmp(now, in->sha256);
			free(now);
		} else {
			same = pab_file_id_same(in->path, &in->id);
		}
		if (!same)
			return file_changed(in->path, in->role, in->sha256, arm, row, digest, f);
	}
	return 0;
}
