/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile.h — a profile as named amounts, and the difference of two: the
 * data every attribution shares (doc/attribution.md). A profile is a list
 * of entries (a function, an allocation site, a stack frame), each with
 * an amount (instructions, bytes live at the peak, CPU seconds) and, for
 * heap profiles, the blocks that amount is made of. The parsers of the
 * profilers' files (probe/profile_*.h) fill one; the attribution phase
 * (run/attribute.h) diffs the base's and the head's. Pure: no I/O.
 */
#ifndef PAB_PROFILE_H
#define PAB_PROFILE_H

#include <stddef.h>

struct pab_profile_entry {
	char *name;    /* what the amount is attributed to (owned) */
	char *where;   /* its file or file:line, or NULL (owned) */
	double amount; /* instructions, bytes or seconds */
	double blocks; /* heap blocks the bytes are in; NaN for other kinds */
};

struct pab_profile {
	struct pab_profile_entry *v;
	size_t n, alloc;
	double total;  /* the sum of every amount added */
	int merged;    /* v is sorted by name, one entry per name */
};

void pab_profile_init(struct pab_profile *p);
void pab_profile_release(struct pab_profile *p);

/* Add amount (and blocks, NaN when none) to name; where (may be NULL) is
 * kept from the largest single amount added for name. Strings copied. */
void pab_profile_add(struct pab_profile *p, const char *name, const char *where,
		     double amount, double blocks);

/* One entry per name, sorted by name (idempotent; the diff calls it). */
void pab_profile_merge(struct pab_profile *p);

/* The amount of name, 0 when p has none (p merged). */
double pab_profile_amount(const struct pab_profile *p, const char *name);

/* A name whose amount moved between two profiles. */
struct pab_profile_move {
	char *name, *where;            /* owned; where the head's, else base's */
	double base, head;             /* amounts (0 where a profile lacks it) */
	double base_blocks, head_blocks;
};

/*
 * pab_profile_diff: the at most top names whose amounts moved most
 * (|head - base| largest first, ties by name) between base and head
 * (both merged here), into a new array *out (caller frees with
 * pab_profile_moves_free) of *n_out. Names that did not move are left
 * out. Returns the sum of the changes of those listed.
 */
double pab_profile_diff(struct pab_profile *base, struct pab_profile *head, size_t top,
			struct pab_profile_move **out, size_t *n_out);
void pab_profile_moves_free(struct pab_profile_move *v, size_t n);

/*
 * pab_profile_join: every name of base or head, moved or not, the at
 * most top largest first (by the larger of its two amounts, ties by
 * name), as pab_profile_diff gives them: what a flame graph of both
 * draws (doc/attribution.md §3).
 */
void pab_profile_join(struct pab_profile *base, struct pab_profile *head, size_t top,
		      struct pab_profile_move **out, size_t *n_out);

#endif /* PAB_PROFILE_H */
