/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * progress.h — what a run tells while it runs, on stderr: a plan line
 * first; on a terminal one status line rewritten in place before every
 * child (row, rep, arm, elapsed, ETA), otherwise one line per completed
 * rep; the first block's estimate; a failed child's last stderr lines;
 * where the run stands, for the line an interrupted run ends with. And
 * the medians table a run prints on stdout at its end.
 *
 * stderr is fully buffered during a run (cmd_run), so every line goes out
 * whole, in one write: a terminal's status line is flushed as it is
 * drawn; a log's per-rep lines when 100 ms passed since the last flush,
 * or when the child before took 50 ms or more; notes and warnings clear
 * the status line first and are flushed at once (diag.h). A counting
 * pass under valgrind is named in the plan, on the status line, and on a
 * line of its own in a log, and the ETA counts it.
 */
#ifndef PAB_RUN_PROGRESS_H
#define PAB_RUN_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/experiment.h"

struct pab_progress {
	const struct pab_experiment *e; /* borrowed: the experiment running */
	const size_t *row_target;       /* borrowed: reps each row should reach */
	int quiet;                      /* no progress lines (notes still come) */
	int color;                      /* dim the status line */
	int tty;                        /* stderr is a terminal: a status line */
	int status_shown;               /* a status line is on screen */
	int estimated;                  /* the first block's estimate was printed */
	int64_t t0_ns;                  /* the loop's start */
	size_t reps_done;               /* reps completed in this invocation */
	double count_s;                 /* of the time so far, the counting passes' */
	size_t count_reps_done;         /* counting passes (reps) so far */
	char stop_where[512];           /* where the run stands */
	size_t stop_completed;          /* reps the checkpoint holds there */
	int attribute;                  /* enum pab_attr_mode: the plan names it */
};

/* The plan line; starts the clock. */
void pab_progress_plan(struct pab_progress *p);
/* Before a child: rep rep of row, arm arm running (what: " (latency replay)"). */
void pab_progress_child(struct pab_progress *p, size_t row, size_t rep, size_t arm,
			const char *what);
/* The counting pass of rep rep of row begins, about about_s a counted
 * child: a log gets a line of it (a terminal's status line names each
 * counted arm). */
void pab_progress_counting(struct pab_progress *p, size_t row, size_t rep, double about_s);
/* A rep's counting pass took secs (counted: it counted any arm): the
 * ETA paces the counting passes apart from the timed reps. */
void pab_progress_counted(struct pab_progress *p, double secs, int counted);
/* Row's rep was checkpointed: the stop line moves past it. */
void pab_progress_rep_saved(struct pab_progress *p, size_t row);
/* After a rep of row: the line a log keeps, and the first block's estimate. */
void pab_progress_rep_done(struct pab_progress *p, size_t row);
/* Clear the status line before other stderr output. */
void pab_progress_clear(struct pab_progress *p);

/* Arm arm's child exited non-zero in rep rep of row and the run measured
 * it (--ignore-failure): a note, made once per row by the caller. */
void pab_progress_exit_ignored(struct pab_progress *p, size_t row, size_t rep, size_t arm,
			       const struct pab_arm_result *res);
/* Arm arm failed in rep rep of row: a warning and its last stderr lines.
 * Returns the failure described ("arm 'x' rep 3 timed out"; caller frees). */
char *pab_progress_child_failed(struct pab_progress *p, size_t row, size_t rep, size_t arm,
				const struct pab_arm_result *res);

/* Row row_name stops undecidable within cap_n reps: which cell, what it
 * resolves, and what would decide it (a held time guard's own words). */
struct pab_ledger_cell;
void pab_progress_undecidable(struct pab_progress *p, const char *row_name,
			      const struct pab_ledger_cell *cell, size_t cap_n);

/* The last line of a run a stop signal ended: where, how many reps the
 * artifact out keeps, and resume_cmd (the arguments that continue it). */
void pab_progress_interrupted(struct pab_progress *p, int sig, const char *out,
			      const char *resume_cmd);

/* Per row and arm: the median of the headline metrics, fit for 100 columns. */
void pab_print_medians(FILE *f, const struct pab_experiment *e);

#endif /* PAB_RUN_PROGRESS_H */
