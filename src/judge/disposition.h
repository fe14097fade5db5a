/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * disposition.h — the classes of the disposition, what to do with a
 * change, and the words of each: the ledger (ledger.h) decides which
 * applies, every report prints its words.
 */
#ifndef PAB_DISPOSITION_H
#define PAB_DISPOSITION_H

#include <stddef.h>

/*
 * The disposition: what to do with the change, after the seed's table
 * "Accepting incremental performance improvements". It never changes a
 * verdict (INCONCLUSIVE stays INCONCLUSIVE); it maps the cells to the
 * action the table prescribes. pab_ledger_build (judge/ledger.h) decides
 * it once, into l->disposition. First match wins, in this order:
 *   REJECT_BROKEN   a row failed (a child crashed, timed out or exited
 *                   non-zero): a correctness failure; reject or fix
 *   REJECT_CPU      a throughput or cpu cell FAILs beyond its noise and
 *                   memory credit: reject or revise, even if others improve
 *   REJECT_OTHER    any other cell FAILs (p99, peak or drain RSS, faults,
 *                   a control that changed), or the sanity gate stopped a
 *                   row: reject or revise
 *   FOLLOW_UP       no FAIL, but a required cell or a control row is
 *                   INCONCLUSIVE, or a row has fewer than 6 paired reps:
 *                   wide uncertainty or missing coverage; run a bounded
 *                   follow-up (a metric a row cannot have, such as p99 of
 *                   a plain command, is listed "not measured", not held)
 *   LIMITED         no FAIL; only guarding cells of non-control rows
 *                   INCONCLUSIVE (accepted uncertainty): accept within the risk
 *                   declared acceptable or with explicit owner acceptance, keeping
 *                   the INCONCLUSIVE labels
 *   ACCEPT_GAIN     everything PASSes and some throughput/cpu cell of a
 *                   non-control row is a supported gain (whole interval
 *                   below 0 and beyond noise): accept, report its size
 *   ACCEPT          everything PASSes, no gain demonstrated: the
 *                   regression gate passed; that proves neither
 *                   improvement nor equality
 */
enum pab_disposition_kind {
	PAB_DISP_ACCEPT_GAIN,
	PAB_DISP_ACCEPT,
	PAB_DISP_LIMITED,
	PAB_DISP_FOLLOW_UP,
	PAB_DISP_REJECT_CPU,
	PAB_DISP_REJECT_OTHER,
	PAB_DISP_REJECT_BROKEN,
	PAB_DISP_NO_VERDICT,
};

struct pab_disposition {
	enum pab_disposition_kind kind;
	const char *name;      /* stable key: "accept-gain", "accept",
				* "accept-with-uncertainty", "follow-up",
				* "reject-cpu", "reject-other", "reject-failure",
				* "no-verdict" */
	const char *evidence;  /* the table's evidence column (static) */
	const char *action;    /* the table's disposition column (static) */
	char *summary;         /* "ACTION (EVIDENCE; N judged cells: ...)",
				* the line every report prints after its
				* "disposition" label (owned by the ledger) */
	size_t cells, pass, inconclusive, fail, not_measured;
	size_t gains;          /* supported throughput/cpu gains */
	size_t deciding;       /* cells that put it in this class */
};

/* The words of disposition class k: its stable key and the table's
 * evidence and disposition columns (static strings). */
struct pab_disposition_words {
	const char *name, *evidence, *action;
};
const struct pab_disposition_words *pab_disposition_words(enum pab_disposition_kind k);

#endif /* PAB_DISPOSITION_H */
