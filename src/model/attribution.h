/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribution.h — what a FAIL is made of (doc/attribution.md): for a row ×
 * head arm × metric, the names whose amounts moved most between base and
 * head in a profile of each — instructions by function and by source line
 * (the counting pass's cachegrind files), bytes live at the peak by
 * allocation site (DHAT), CPU time by function (perf's cpu-clock). It explains a verdict; it never makes one: the
 * ledger does not read it.
 *
 * Ownership: the experiment owns its attributions (e->attr), each its
 * strings and lists; pab_attribution_release() frees one.
 */
#ifndef PAB_MODEL_ATTRIBUTION_H
#define PAB_MODEL_ATTRIBUTION_H

#include <stddef.h>

#include "model/metrics.h"

/* --attribute: which cells get one. */
enum pab_attr_mode {
	PAB_ATTR_AUTO = 0, /* the cells that FAIL (the default) */
	PAB_ATTR_ALWAYS,   /* every cell of a metric a profile explains */
	PAB_ATTR_NEVER,
};

/* "auto", "always", "never". */
const char *pab_attr_mode_name(enum pab_attr_mode m);
/* The mode called s into *m. Returns 0, or -1 when s names none. */
int pab_attr_mode_parse(const char *s, enum pab_attr_mode *m);

/* The profiles there are, by the metric they explain. */
#define PAB_ATTR_CACHEGRIND "cachegrind"
#define PAB_ATTR_DHAT "dhat"
#define PAB_ATTR_PERF "perf"

/* The at most PAB_ATTR_TOP names an attribution keeps of each list. */
#define PAB_ATTR_TOP 10
#define PAB_ATTR_TOP_LINES 5
/* Folded stacks a time attribution keeps for its flame graph. */
#define PAB_ATTR_TOP_STACKS 300

/* A name whose amount moved: per run of the arm, in the metric's unit. */
struct pab_attr_item {
	char *name;          /* function, "file:line", allocation site (owned) */
	char *where;         /* its file, function or stack, or NULL (owned) */
	double base, head;   /* amounts (0 when the profile lacks the name) */
	double base_blocks, head_blocks; /* heap blocks at the peak; NaN: n/a */
};

struct pab_attribution {
	char *row, *arm;     /* the row and head arm, by name (owned) */
	enum pab_metric_id metric;
	char *profiler;      /* PAB_ATTR_CACHEGRIND, ... (owned) */
	char *source;        /* "counting pass" (the counted children's own
			      * files) or "extra run" (a run of its own,
			      * after the timed reps) (owned) */
	char *input;         /* pooled: the artifact it came from, else NULL */
	char *note;          /* why there is none, or what limits it; NULL */
	double base_total, head_total; /* the profiles' totals; NaN: none */
	double cost_s;       /* wall time its extra runs took (0: none) */
	int base_stripped, head_stripped; /* a program without a symbol table */
	struct pab_attr_item *items;  /* moved most first */
	size_t n_items;
	struct pab_attr_item *lines;  /* source lines (instructions), or none */
	size_t n_lines;
	struct pab_attr_item *stacks; /* folded stacks "main;f;g" (time), the
				       * largest first, moved or not: the
				       * differential flame graph's input */
	size_t n_stacks;
};

/* Zeroed, totals NaN. */
void pab_attribution_init(struct pab_attribution *a);
void pab_attribution_release(struct pab_attribution *a);
/* A deep copy of src into dst (zeroed first). */
void pab_attribution_copy(struct pab_attribution *dst, const struct pab_attribution *src);

/* head_total - base_total; NaN without both. */
double pab_attribution_change(const struct pab_attribution *a);
/* The share of the change the listed items explain, their changes summed
 * over pab_attribution_change(); NaN without a change. */
double pab_attribution_explained(const struct pab_attribution *a);

/* Append a copy of a to *v of *n (grown). */
void pab_attribution_append(struct pab_attribution **v, size_t *n,
			    const struct pab_attribution *a);
/* Free v's n attributions and v. */
void pab_attributions_free(struct pab_attribution *v, size_t n);

#endif /* PAB_MODEL_ATTRIBUTION_H */
