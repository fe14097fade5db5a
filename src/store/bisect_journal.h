/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_journal.h — what `perfab bisect` keeps between invocations
 * (doc/bisect.md, "Resuming"): every build of a revision with its digest,
 * and every comparison with its verdicts and changes, in one JSON file of
 * schema perfab-bisect-journal/1 in the bisection's directory. A repeat
 * of a bisection (after an interrupt, or the same command again) takes
 * its builds and comparisons from here instead of making them again.
 *
 * The file is rewritten whole, atomically (store/tempfile.h), after each
 * build and each comparison, so a kill at any instant leaves the journal
 * as it was before that record or after it. Its writer holds its lock
 * (pab_artifact_lock) for the whole bisection.
 *
 * The comparison record is also the shape of the comparisons in the
 * answer's JSON (pab_bisect_json_comparison), so tools read one format.
 */
#ifndef PAB_STORE_BISECT_JOURNAL_H
#define PAB_STORE_BISECT_JOURNAL_H

#include <stddef.h>

#include "pab_stats.h"
#include "store/json_out.h"

#define PAB_BISECT_JOURNAL_SCHEMA "perfab-bisect-journal/1"

/* One revision built with one build command. Strings owned. */
struct pab_bisect_build {
	char *commit;       /* the full object name */
	char *command;      /* the build command as given */
	int ok;             /* it exited 0 */
	int exit_code;      /* its status; -1: killed by a signal */
	char *digest;       /* SHA-256 over the files of the build the
			     * benchmark names (pab_bisect_build_digest);
			     * NULL: it names none, or the build failed */
	char *dir;          /* the build's directory, a worktree */
	char *log;          /* the build's output */
};

/*
 * One side of a comparison: head vs base, judged as `perfab run` judges
 * it. verdict is the row's (the one metric's with --metric); the change
 * shown is of metric (enum pab_metric_id; -1: none could be shown).
 */
struct pab_bisect_side {
	enum pab_verdict verdict;
	int metric;
	struct pab_interval change;   /* paired change, percent, + = worse */
	double base_median, head_median;
	int exact;                    /* the change is of exact counts */
};

/*
 * One comparison: good, mid and bad measured in one rotation (mid NULL:
 * the first comparison, bad against good alone), judged from both ends.
 * Strings owned.
 */
struct pab_bisect_comparison {
	char *key;          /* SHA-256 of what defines it: the commits, the
			     * benchmark and the run options */
	char *good, *mid, *bad;
	struct pab_bisect_side mid_good; /* mid vs good (mid only) */
	struct pab_bisect_side bad_mid;  /* bad vs mid (mid only) */
	struct pab_bisect_side bad_good; /* bad vs good */
	size_t runs;        /* runs judged together (1 + the retries used) */
	size_t reps;        /* paired reps judged */
	double seconds;     /* the runs' elapsed time */
	char *artifact;     /* the last run's artifact */
	char *failed;       /* a commit whose benchmark failed (no verdicts
			     * then), else NULL */
	char *failed_why;
};

struct pab_bisect_journal {
	struct pab_bisect_build *builds;
	size_t n_builds, builds_alloc;
	struct pab_bisect_comparison *cmps;
	size_t n_cmps, cmps_alloc;
};

/*
 * pab_bisect_journal_load: the journal at path into j (initialised by the
 * call); an absent file is an empty journal. Returns 0, or -1 with a
 * reason (caller frees) naming the file: it cannot be read, or is not a
 * perfab-bisect-journal/1 document. j is empty after a failure.
 */
int pab_bisect_journal_load(const char *path, struct pab_bisect_journal *j, char **why);

/* Write j to path atomically. Returns 0, or -1 with a reason (caller frees). */
int pab_bisect_journal_save(const char *path, const struct pab_bisect_journal *j, char **why);

/* Free what j owns and empty it. */
void pab_bisect_journal_release(struct pab_bisect_journal *j);

/* The build of commit made with command, or NULL. Borrowed from j. */
const struct pab_bisect_build *pab_bisect_journal_build(const struct pab_bisect_journal *j,
							const char *commit, const char *command);
/* The comparison of key, or NULL. Borrowed from j. */
const struct pab_bisect_comparison *pab_bisect_journal_cmp(const struct pab_bisect_journal *j,
							   const char *key);

/* A copy of b into j, in place of the build of the same commit and
 * command. */
void pab_bisect_journal_put_build(struct pab_bisect_journal *j, const struct pab_bisect_build *b);
/* A copy of c into j, in place of the comparison of the same key. */
void pab_bisect_journal_put_cmp(struct pab_bisect_journal *j, const struct pab_bisect_comparison *c);

/* Deep copies (dst initialised by the call) and releases. */
void pab_bisect_build_copy(struct pab_bisect_build *dst, const struct pab_bisect_build *src);
void pab_bisect_build_release(struct pab_bisect_build *b);
void pab_bisect_comparison_copy(struct pab_bisect_comparison *dst,
				const struct pab_bisect_comparison *src);
void pab_bisect_comparison_release(struct pab_bisect_comparison *c);

/*
 * c as a JSON object, as the journal holds it; for the answer, with what
 * the search made of its mid ("mid_is": mid_is, unless NULL) and whether
 * it was kept from an earlier invocation ("kept", unless kept < 0).
 */
void pab_bisect_json_comparison(struct jw *w, const struct pab_bisect_comparison *c,
				const char *mid_is, int kept);
/* s as a JSON object {"verdict", "metric", "change": {...}, ...}. */
void pab_bisect_json_side(struct jw *w, const struct pab_bisect_side *s);

#endif /* PAB_STORE_BISECT_JOURNAL_H */
