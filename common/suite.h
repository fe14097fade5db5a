/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * suite.h — the built-in workload suite: the table of rows perfab knows by
 * name, their programs and their default parameters.
 *
 * This is pure data plus lookup: no I/O, no allocation, no dependencies.
 * It is compiled into both the workload programs (perfab-alloc,
 * perfab-spin), which resolve their parameters from it, and the perfab CLI,
 * which lists, selects and records rows from it. Keeping one table for both
 * is what makes "the row perfab asked for" and "the row the child ran" the
 * same thing.
 *
 * The wire contract between the two sides (argv, environment, report) is
 * doc/workload-protocol.md; its version string is PAB_WORKLOAD_PROTOCOL.
 */
#ifndef PAB_SUITE_H
#define PAB_SUITE_H

#include <stddef.h>

/* The protocol spoken between perfab and a workload program. */
#define PAB_WORKLOAD_PROTOCOL "perfab-workload/1"

/* Environment variables of the protocol (doc/workload-protocol.md §2). */
#define PAB_ENV_PROTOCOL "PERFAB_PROTOCOL"
#define PAB_ENV_ROW "PERFAB_ROW"
#define PAB_ENV_PARAMS "PERFAB_PARAMS"
#define PAB_ENV_MODE "PERFAB_MODE"
#define PAB_ENV_SEED "PERFAB_SEED"
#define PAB_ENV_SCALE "PERFAB_SCALE"
#define PAB_ENV_REPORT "PERFAB_REPORT"

/* Latency mode takes at most this many samples per worker thread. */
#define PAB_LATENCY_MAX_SAMPLES 4096

/*
 * One parameter of a row: its key, its default value as the string a user
 * would type (sizes may carry a K, M or G suffix: powers of 1024), and one
 * line of help. Programs parse the strings; the CLI only records them.
 */
struct pab_param {
	const char *key;
	const char *value;
	const char *help;
};

/*
 * One row of the suite. `program` is the basename of the workload program
 * that runs it ("perfab-alloc" or "perfab-spin"). `control` is 1 for rows
 * that a change is expected to leave unchanged (the ledger's equivalence
 * check), else 0. `params` holds `n_params` entries, every parameter the
 * program accepts for this row, in a fixed order. The thread count of a
 * row named "name/N" is N, and its "threads" parameter defaults to N.
 */
struct pab_row_def {
	const char *name;
	const char *program;
	int control;
	const char *description;
	const struct pab_param *params;
	size_t n_params;
};

/* Number of rows in the suite. */
size_t pab_suite_count(void);

/* Row i (0 <= i < pab_suite_count()), or NULL when i is out of range.
 * Rows are static: never free them. */
const struct pab_row_def *pab_suite_row(size_t i);

/* The row whose name is exactly `name`, or NULL if there is none. */
const struct pab_row_def *pab_suite_find(const char *name);

/*
 * Whether `row_name` is selected by `sel`: 1 if yes, 0 if no.
 * `sel` is a '|'-separated list of terms; a term "=name" matches that name
 * exactly, a bare term matches any name containing it. Blanks around terms
 * are ignored, and so are empty terms. A NULL or empty `sel` selects every
 * row; a `sel` made only of empty terms selects none.
 */
int pab_suite_select(const char *sel, const char *row_name);

/* The parameter `key` of `row`, or NULL if the row has no such key. */
const struct pab_param *pab_row_param(const struct pab_row_def *row,
				      const char *key);

#endif /* PAB_SUITE_H */
