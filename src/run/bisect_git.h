/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_git.h — the revisions of `perfab bisect` and their builds
 * (doc/bisect.md): git asked through its command line (rev-parse,
 * merge-base, rev-list, log, status, worktree), each revision checked out
 * in a worktree of its own under the bisection's directory, never in the
 * user's work tree, and built there by the build command.
 *
 * Every process here runs in a process group of its own with stdin from
 * /dev/null, and is waited for with the stop signals blocked
 * (pab_spawn_setup(), probe/runchild.h, must have been called): a
 * SIGINT, SIGTERM or SIGHUP kills the group and is returned as
 * *interrupted, for the caller to stop as `perfab run` does.
 *
 * Like the rest of run/, nothing here prints: a failure returns -1 with a
 * struct pab_failure (PAB_FAIL_USAGE for what the user can fix: a
 * revision that does not exist, a dirty work tree; PAB_FAIL_SYSTEM when
 * git or a process cannot run).
 */
#ifndef PAB_RUN_BISECT_GIT_H
#define PAB_RUN_BISECT_GIT_H

#include <stddef.h>

#include "run/failure.h"

/* The repository perfab runs in. Strings owned. */
struct pab_git {
	char *top;          /* the work tree's top directory */
	char *common_dir;   /* the repository's common git directory (absolute) */
};

/*
 * pab_git_open: the repository of the current directory. 0, or -1 with f
 * filled (not in a git work tree: PAB_FAIL_USAGE; git cannot run:
 * PAB_FAIL_SYSTEM). Release with pab_git_release() either way.
 */
int pab_git_open(struct pab_git *g, struct pab_failure *f);
void pab_git_release(struct pab_git *g);

/*
 * pab_git_commit: rev (a name given as option opt, "--good") as the full
 * name of a commit, new string in *commit. 0, or -1 with f filled
 * (PAB_FAIL_USAGE: no such commit).
 */
int pab_git_commit(const struct pab_git *g, const char *rev, const char *opt, char **commit,
		   struct pab_failure *f);

/*
 * pab_git_line: the first-parent line from good to bad, oldest first:
 * (*commits)[0] is good, (*commits)[*n - 1] is bad (new strings, the
 * array NULL-ended: pab_argv_free). good must be an ancestor of bad on its
 * first-parent line (merges count as one change each). 0, or -1 with f
 * filled (PAB_FAIL_USAGE naming the fix).
 */
int pab_git_line(const struct pab_git *g, const char *good, const char *bad, char ***commits,
		 size_t *n, struct pab_failure *f);

/*
 * pab_git_check_clean: 0 when the work tree has no change to a tracked
 * file; else -1 with f filled (PAB_FAIL_USAGE: what to do).
 */
int pab_git_check_clean(const struct pab_git *g, struct pab_failure *f);

/* A commit as people read it. Strings owned. */
struct pab_git_info {
	char *abbrev;       /* the short name git would print */
	char *subject;      /* the first line of its message */
	char *date;         /* its author date, ISO 8601 */
};

/* Commit's info into *info (initialised; on failure "?" for each). */
void pab_git_info(const struct pab_git *g, const char *commit, struct pab_git_info *info);
void pab_git_info_release(struct pab_git_info *info);

/*
 * pab_git_build: commit checked out in a worktree of its own at dir
 * (whatever was there is removed first), then build_argv run there, its
 * output and git's appended to the file log. *exit_code is the build's
 * exit status (-1: killed by a signal; 127: it could not be run).
 * Returns 0 when all of it ran (the build may have failed: *exit_code),
 * 1 when a stop signal came (*interrupted; the build was killed), -1 with
 * f filled when the worktree cannot be made or a process cannot start.
 */
int pab_git_build(const struct pab_git *g, const char *commit, const char *dir,
		  const char *log, char *const *build_argv, int *exit_code, int *interrupted,
		  struct pab_failure *f);

/*
 * pab_bisect_build_digest: the digest of a build at dir as the benchmark
 * bench_argv (n words) uses it: SHA-256 over each word that names a
 * regular file of dir (the program, "./prog", and file arguments, a
 * program name without a '/' aside, which is looked up in PATH), with its
 * own SHA-256. New hex string, or NULL when no word names a file of dir.
 */
char *pab_bisect_build_digest(const char *dir, char *const *bench_argv, size_t n);

#endif /* PAB_RUN_BISECT_GIT_H */
