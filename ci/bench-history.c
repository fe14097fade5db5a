/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ci/bench-history.c — the record half of ci/bench-history.sh: write
 * MERGES merges of ROWS rows x METRICS metrics into a new history database
 * through pab_history_record, one transaction per merge as `perfab history
 * record` does after judging its artifact, with changes of a few percent
 * and sign-test-like intervals. Prints the seconds and the peak RSS.
 * usage: bench-history DB [MERGES ROWS METRICS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "model/metrics.h"
#include "pab_pcg32.h"
#include "store/history_db.h"
#include "util.h"

int main(int argc, char **argv)
{
	uint64_t merges = 10000, rows = 8, metrics = 6, i, r, m;
	struct pab_history_db *db;
	struct pab_history_cell *cells;
	struct pab_pcg32 rng;
	struct rusage ru;
	char **names, *why, sha[32], commit[32], base[32];
	int64_t start, id;
	int already;

	if (argc != 2 && argc != 5)
		die(PAB_EXIT_USAGE, "usage: bench-history DB [MERGES ROWS METRICS]");
	if (argc == 5 && (parse_u64(argv[2], 1, 10000000, &merges) ||
			  parse_u64(argv[3], 1, 1000, &rows) || parse_u64(argv[4], 1, PAB_M_COUNT, &metrics)))
		die(PAB_EXIT_USAGE, "bad MERGES ROWS METRICS");
	names = xcalloc(rows, sizeof(*names));
	for (r = 0; r < rows; r++)
		names[r] = xasprintf("row-%llu/8", (unsigned long long)r);
	cells = xcalloc(rows * metrics, sizeof(*cells));
	pab_pcg32_seed(&rng, 1, 0);
	start = now_monotonic_ns();
	if (pab_history_open(argv[1], 1, &db, NULL, &why))
		die(PAB_EXIT_RUNTIME, "%s", why);
	for (i = 0; i < merges; i++) {
		struct pab_history_merge mg = { 0 };

		snprintf(sha, sizeof(sha), "a%llu", (unsigned long long)i);
		snprintf(commit, sizeof(commit), "c%llu", (unsigned long long)i + 1);
		snprintf(base, sizeof(base), "c%llu", (unsigned long long)i);
		mg.artifact_sha256 = sha;
		mg.commit = commit;
		mg.base = base;
		mg.branch = "main";
		mg.recorded_at = 1700000000 + (int64_t)i;
		mg.rules = "perfab/2";
		mg.stop_reason = "decided";
		for (r = 0; r < rows; r++)
			for (m = 0; m < metrics; m++) {
				struct pab_history_cell *c = &cells[r * metrics + m];
				double ch = 0.5 * pab_pcg32_normal(&rng);

				c->row = names[r];
				c->arm = "head";
				c->metric = pab_metrics[m].name;
				c->verdict = "INCONCLUSIVE";
				c->base_median = 1.0;
				c->head_median = 1.0 + ch / 100;
				c->change_pct = ch;
				c->lo_pct = ch - 1.5;
				c->hi_pct = ch + 1.5;
				c->coverage = 0.9614;
				c->tolerance_pct = 2.0;
				c->n = 12;
			}
		if (pab_history_record(db, &mg, cells, rows * metrics, &id, &already, &why))
			die(PAB_EXIT_RUNTIME, "%s", why);
	}
	pab_history_close(db);
	getrusage(RUSAGE_SELF, &ru);
	printf("record: %llu merges x %llu rows x %llu metrics (%llu transactions): %.3f s, "
	       "peak RSS %.1f MiB\n", (unsigned long long)merges, (unsigned long long)rows,
	       (unsigned long long)metrics, (unsigned long long)merges,
	       (double)(now_monotonic_ns() - start) / 1e9, ru.ru_maxrss / 1024.0);
	for (r = 0; r < rows; r++)
		free(names[r]);
	free(names);
	free(cells);
	return 0;
}
