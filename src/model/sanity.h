/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sanity.h — the sanity gate's rule and what it records: a head whose
 * memory after rep 1 is more than PAB_SANITY_FACTOR times base's plus
 * PAB_SANITY_SLACK_BYTES stops the run, the artifact keeps each cell that
 * tripped it (doc/artifact-schema.md §8), and the ledger FAILs that row.
 * Every message that states the rule prints it from these constants.
 */
#ifndef PAB_SANITY_H
#define PAB_SANITY_H

#define PAB_SANITY_FACTOR 1.5
#define PAB_SANITY_SLACK_BYTES (8.0 * 1024 * 1024)

/* A sanity-gate cell: the head's value of metric at rep 1 against base's.
 * The strings are owned; NULL or NaN where the artifact records none. */
struct pab_sanity_cell {
	char *row, *arm, *metric;
	double base, head;
};

/*
 * pab_sanity_cell_line: c and the rule it broke, for a message:
 * "[head] row: peak_rss 10.0 -> 40.0 MiB (more than 1.5x base + 8 MiB)",
 * the names terminal-safe (term.h). New memory (caller frees).
 */
char *pab_sanity_cell_line(const struct pab_sanity_cell *c);

#endif /* PAB_SANITY_H */
