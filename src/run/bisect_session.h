/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_session.h — a bisection, as `perfab bisect` carries it out
 * (doc/bisect.md): the revisions resolved and checked, each built once in
 * a worktree of its own (run/bisect_git.h), the first comparison that
 * must find BAD worse than GOOD, then the search (run/bisect.h) driven by
 * comparisons (run/bisect_compare.h), every build and comparison kept in
 * the journal (store/bisect_journal.h) so that the same command again
 * goes on where an interrupted one stopped, rebuilding and re-measuring
 * nothing it kept.
 *
 * The bisection's directory (default GIT_COMMON_DIR/perfab-bisect) holds
 * journal.json, builds/COMMIT (the worktrees), logs/COMMIT.log (their
 * build output) and runs/ (the comparisons' artifacts). One bisection at
 * a time holds it (the journal's lock).
 *
 * Progress goes to stderr (one line per build and comparison, and the
 * runner's own lines unless quiet); the answer is returned, for the
 * command to print. Errors return -1 with a struct pab_failure.
 */
#ifndef PAB_RUN_BISECT_SESSION_H
#define PAB_RUN_BISECT_SESSION_H

#include <stddef.h>

#include "run/bisect.h"
#include "run/bisect_git.h"
#include "run/failure.h"
#include "run/plan_data.h"
#include "store/bisect_journal.h"

struct pab_bisect_opts {
	const char *good, *bad;       /* the revisions as given */
	const char *build, *bench;    /* the commands as given (split, never
				       * a shell) */
	const char *dir;              /* the bisection's directory; NULL:
				       * the default */
	const char *metric;           /* --metric: the one metric judged
				       * (o->run then judges and requires it
				       * alone); NULL: the row as run judges it */
	const struct pab_run_opts *run; /* the run options given */
	const char *run_words;        /* the same options as words of a
				       * command line (keys, the reproducing
				       * command) */
	size_t retries;               /* runs added to an undecided comparison */
	int quiet;
};

/* How the bisection ended. */
enum pab_bisect_outcome {
	PAB_BISECT_OUT_FOUND,          /* every change found names its commit */
	PAB_BISECT_OUT_NO_REGRESSION,  /* BAD is not worse than GOOD (a PASS) */
	PAB_BISECT_OUT_UNDECIDED,      /* BAD vs GOOD undecided, or a range
					* ended without one commit */
};

/* A comparison of this search, in the order made. */
struct pab_bisect_made {
	struct pab_bisect_comparison c;
	enum pab_bisect_mark mark;     /* what it made of mid (UNTESTED for
					* the first comparison, SKIPPED when
					* mid's benchmark failed) */
	int reused;                    /* taken from the journal */
};

/* A finished range of the answer, with the comparison that judged its
 * ends (bad vs good): for a first bad commit, it against its parent. */
struct pab_bisect_found {
	struct pab_bisect_result res;  /* indices into line[] */
	struct pab_bisect_side side;   /* its bad end vs its good end */
	int judged;                    /* side was found in a comparison */
	char *reproduce;               /* perfab run ... of that pair (owned) */
};

struct pab_bisect_answer {
	enum pab_bisect_outcome outcome;
	char **line;                   /* the commits, good first (owned) */
	size_t n;
	struct pab_git_info *info;     /* per commit; abbrev NULL until asked
				        * for (pab_bisect_answer_info) */
	int metric;                    /* the metric followed (-1: none) */
	char *dir;                     /* the bisection's directory */
	struct pab_bisect_made *made;  /* the comparisons of this search */
	size_t n_made;
	struct pab_bisect_found *found; /* the finished ranges, line order */
	size_t n_found;
	size_t *skipped;               /* commits set aside: no build or a
				        * failed benchmark (indices) */
	char **skipped_why;
	size_t n_skipped;
	size_t builds_made, builds_reused;
	size_t reps;                   /* paired reps of every comparison */
	double seconds;                /* their runs' elapsed time */
	int interrupted;               /* the stop signal that ended it, or 0 */
	struct pab_git git;            /* the repository (for the infos) */
};

/*
 * pab_bisect_run: carry out the bisection o describes into *a
 * (initialised by the call; release with pab_bisect_answer_release()
 * whatever it returns). Returns 0 with a->outcome, or with a->interrupted
 * set when a stop signal came (the journal keeps what was done; the same
 * command resumes); -1 with f filled: PAB_FAIL_USAGE for what the user
 * must fix (a revision that does not exist, GOOD not an ancestor of BAD
 * on its first-parent line, a dirty work tree, a build that fails at an
 * end, a benchmark that fails at an end), PAB_FAIL_SYSTEM when git, a
 * process or a file fails, PAB_FAIL_REFUSED when another bisection holds
 * the directory or a comparison cannot be judged.
 */
int pab_bisect_run(const struct pab_bisect_opts *o, struct pab_bisect_answer *a,
		   struct pab_failure *f);

/* Commit i's info, asked of git once (borrowed from a). */
const struct pab_git_info *pab_bisect_answer_info(struct pab_bisect_answer *a, size_t i);

/* The index of commit in a's line, or -1. */
long pab_bisect_answer_index(const struct pab_bisect_answer *a, const char *commit);

void pab_bisect_answer_release(struct pab_bisect_answer *a);

#endif /* PAB_RUN_BISECT_SESSION_H */
