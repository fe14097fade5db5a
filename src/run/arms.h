/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arms.h — the arms of the experiment a plan makes: defined from --config
 * and --arm (or CMD_BASE CMD_HEAD), then --arms, --head-env and the null
 * arm; and every executable and input file of every (row, arm) resolved
 * and digested, for the fresh plan (plan.c) to record and the resume plan
 * (resume.c) to check against what was recorded.
 *
 * Like the rest of the plan nothing here prints or exits: failures return
 * -1 with a struct pab_failure (run/failure.h) filled, warnings go to the
 * plan's messages.
 */
#ifndef PAB_RUN_ARMS_H
#define PAB_RUN_ARMS_H

#include <stddef.h>

#include "model/experiment.h"
#include "run/failure.h"
#include "run/plan_data.h"

struct pab_config_settings;

/* A list of strings and its length (owned: pab_items_release frees the
 * strings and the array, and empties it). */
struct pab_items {
	char **v;
	size_t n;
};

void pab_items_release(struct pab_items *it);

/*
 * pab_arms_define: the arms of --config (already in e) and --arm, then
 * --arms (select and order), --head-env (variants hd01.. of head) and the
 * null arm (on by default, off with --no-null-arm or the config's
 * "null_arm": false). An argv written for a shell is refused unless
 * --literal-argv. 0, or -1 with f filled (PAB_FAIL_USAGE); e holds what
 * was defined so far either way (the caller releases it).
 */
int pab_arms_define(struct pab_experiment *e, const struct pab_run_opts *o,
		    const struct pab_config_settings *cs, struct pab_failure *f);

/*
 * The files a plan digests, each once: a program shared by rows, or an
 * LD_PRELOAD library of every arm, is read once per plan.
 */
struct pab_digest_cache {
	struct pab_digest_cached {
		char *path;
		char *sha256;
		struct pab_file_id id;
	} *v;
	size_t n, alloc;
};

/* Free what c holds and empty it (a zeroed cache needs no release). */
void pab_digest_cache_release(struct pab_digest_cache *c);

/*
 * pab_arm_exe: the executable arm runs for row: its command's program
 * (looked up on PATH), else row's built-in program in
 * $PERFAB_WORKLOAD_DIR (default PKGLIBEXECDIR). New string, or NULL with
 * a reason (caller frees) in *why.
 */
char *pab_arm_exe(const struct pab_arm *arm, const struct pab_row *row, char **why);

/*
 * pab_arm_exe_digest: the executable arm runs for row (new string in
 * *exe), its digest (new string in *sha) and, when id is not NULL, its
 * identity, digested through c. 0, or -1 with f filled (PAB_FAIL_USAGE
 * when there is no executable, its message prefixed by fail_prefix; a
 * system failure when it cannot be read) and nothing in *exe or *sha.
 */
int pab_arm_exe_digest(const struct pab_arm *arm, const struct pab_row *row,
		       const char *fail_prefix, struct pab_digest_cache *c, char **exe,
		       char **sha, struct pab_file_id *id, struct pab_failure *f);

/*
 * pab_arm_collect_inputs: the files arm's run of row reads besides its
 * program exe — every word of its command line after the program that
 * names a regular file, every LD_PRELOAD entry that does, the interpreter
 * of a "#!" program — digested through c, into *v, *n (new array:
 * pab_input_files_free). 0, or -1 with f filled and *v NULL.
 */
int pab_arm_collect_inputs(const struct pab_arm *arm, const struct pab_row *row,
			   const char *exe, struct pab_digest_cache *c,
			   struct pab_input_file **v, size_t *n, struct pab_failure *f);

/* Room in row for per-arm executables, inputs and identities (what is
 * there already is kept). */
void pab_row_alloc_files(struct pab_row *row, size_t n_arms);

/*
 * pab_arms_resolve: resolve and digest every executable of every (row,
 * arm) of p->e — arm->exe and arm->sha256 row 0's, each row's own in
 * row->exes and row->exe_sha256 — and every file each reads besides into
 * row->inputs. A warning in p's messages when the arms' executables have
 * paths of different lengths. 0, or -1 with f filled.
 */
int pab_arms_resolve(struct pab_plan *p, struct pab_failure *f);

/*
 * pab_arms_preserve_builds: --preserve-builds DIR: copy each arm's
 * executable to DIR/ARM/, checked against its digest, and record the copy
 * in arm->preserved. 0, or -1 with f filled (a system failure, or
 * PAB_FAIL_SYSTEM when a program changed while it was copied).
 */
int pab_arms_preserve_builds(struct pab_experiment *e, const char *dir, struct pab_failure *f);

#endif /* PAB_RUN_ARMS_H */
