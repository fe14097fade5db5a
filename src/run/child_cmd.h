/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * child_cmd.h — the command of an arm's child in a row, as every pass
 * runs it (the timed, the latency and the counted child alike): the
 * program, its argv (the arm's words with the row's {NAME}s put in, then
 * the row's), and its complete environment (perfab's less what the arm
 * sets, the arm's, the workload protocol's); what makes two children the
 * same program (the identity that keys a count); and the check that the
 * files a child runs and reads are those checked at the start.
 */
#ifndef PAB_RUN_CHILD_CMD_H
#define PAB_RUN_CHILD_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "model/experiment.h"
#include "run/failure.h"

/* What every child of a run shares (struct pab_measure's, borrowed). */
struct pab_child_shared {
	char *const *base_env;   /* perfab's environment minus PERFAB_* */
	size_t n_base_env;
	double scale;            /* PERFAB_SCALE for built-in workloads */
	const char *report_path; /* PERFAB_REPORT: where a workload reports */
};

struct pab_child_cmd {
	char *exe;
	char **argv;  /* the arm's words (or exe), then the row's */
	char **env;   /* base env (less what the arm sets), the arm's, the protocol's */
	char **own;   /* the strings of env allocated here, NULL-terminated */
	char **argv_own; /* the words of argv allocated here, NULL-terminated */
};

/*
 * pab_child_cmd_make: cmd for arm's child in row, in mode ("throughput"
 * or "latency", PERFAB_MODE) with the rep's workload seed; the inherited
 * environment, the scale and the report file are sh's. Returns 0, or -1
 * with *why (new memory) when the arm's program cannot be found (cmd is
 * then empty). pab_child_cmd_release() frees what it made either way.
 */
int pab_child_cmd_make(struct pab_child_cmd *cmd, const struct pab_child_shared *sh,
		       const struct pab_row *row, const struct pab_arm *arm, const char *mode,
		       uint64_t seed, char **why);
void pab_child_cmd_release(struct pab_child_cmd *cmd);

/*
 * pab_child_expand_words: argv[from..argc) with row's {NAME}s put in (a
 * plain command's row from a parameter scan; a built-in row's parameters
 * go to the environment instead), appended to out at *k; the new strings
 * are also listed in own at *n_own. For the hooks' command lines too.
 */
void pab_child_expand_words(char *const *argv, size_t argc, size_t from,
			    const struct pab_row *row, char **out, size_t *k,
			    char **own, size_t *n_own);

/*
 * pab_child_identity: what makes arm arm_idx's child of row the program
 * it is, as text: its program and digest, argv and environment (but the
 * rep's workload seed, the run's report file and the variables a CI
 * runner sets per run: GITHUB_*, RUNNER_*, ACTIONS_*), the arm's own prepare
 * and the digests of the files its run reads (the input, the working
 * directory and the limits are the run's, the same for every child). The
 * same in every rep. Two children with the same identity execute the same
 * instructions wherever counts are exact, so the counting pass counts one
 * of them per rep, and none once two reps' counts agreed (doc/method.md,
 * "Exact counts"). New string, or NULL when the program cannot be found.
 */
char *pab_child_identity(const struct pab_child_shared *sh, const struct pab_experiment *e,
			 const struct pab_row *row, size_t arm_idx);

/*
 * pab_child_check_files: what runs is what was checked. The program arm
 * (index a) runs for row, resolved now as exe, and every input file of
 * row's arm a (arms.c digests them at the start, --resume again): the
 * same files as then — the same path and identity (device, inode, size,
 * mtime; pab_file_id) when digest is 0, as before each exec; the same
 * SHA-256 when digest is 1, as at the end of a run. Returns 0, or -1
 * with f filled (PAB_FAIL_REFUSED) naming the file, its role and both
 * digests. A row that records no digests is not checked.
 */
int pab_child_check_files(const struct pab_row *row, const struct pab_arm *arm, size_t a,
			  const char *exe, int digest, struct pab_failure *f);

#endif /* PAB_RUN_CHILD_CMD_H */
