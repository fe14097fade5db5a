/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * disposition.c — the words of each disposition class (disposition.h),
 * after the seed's table "Accepting incremental performance improvements".
 */
#include "config.h"

#include "judge/disposition.h"

static const struct pab_disposition_words words[] = {
	[PAB_DISP_ACCEPT_GAIN] = { "accept-gain",
		"supported target gains; remaining metrics PASS",
		"accept the improvement; report its size and scope" },
	[PAB_DISP_ACCEPT] = { "accept",
		"every cell PASSes; no gain demonstrated",
		"accept: the regression gate passed, which proves neither improvement nor equality" },
	[PAB_DISP_LIMITED] = { "accept-with-uncertainty",
		"undecided guarding cells, listed as accepted uncertainty; required cells and controls "
		"PASS; no confirmed FAIL",
		"accept when the full intervals fit the risk you declared acceptable, or with explicit "
		"owner acceptance of the stated uncertainty; preserve the INCONCLUSIVE labels" },
	[PAB_DISP_FOLLOW_UP] = { "follow-up",
		"wide uncertainty or missing coverage: a required or control cell "
		"INCONCLUSIVE, or fewer than 6 paired reps",
		"attribute or run a bounded, planned follow-up; do not claim equivalence" },
	[PAB_DISP_REJECT_CPU] = { "reject-cpu",
		"CPU/throughput FAIL beyond that cell's noise and permitted memory credit",
		"reject or revise, even if other workloads improve" },
	[PAB_DISP_REJECT_OTHER] = { "reject-other",
		"p99, peak/drain RSS, faults or a control FAIL beyond the per-cell allowance",
		"reject or revise; p99 and memory receive no memory credit" },
	[PAB_DISP_REJECT_BROKEN] = { "reject-failure",
		"a child of the head failed (crash, timeout or non-zero exit): a correctness failure",
		"reject or fix before acceptance; an average win cannot compensate" },
	[PAB_DISP_NO_VERDICT] = { "no-verdict",
		"the base arm or the environment failed (a setup, prepare, cleanup or warmup "
		"run): nothing is known of the head",
		"fix the benchmark or the runner and run again; this says nothing of the change" },
};

const struct pab_disposition_words *pab_disposition_words(enum pab_disposition_kind k)
{
	return &words[k];
}
