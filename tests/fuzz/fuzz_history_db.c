/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_history_db.c — libFuzzer harness for the history database reader:
 * the raw bytes are written to a scratch file, which `perfab history show`
 * and drift read through pab_history_open(PAB_HISTORY_READ) (the checked,
 * read-only open; perfab's own or refused) and pab_history_query(), with
 * no filter and with every filter, then pab_history_count(); the series
 * read are checked against the contract of model/history.h (each point's
 * merge is one of the set's, each series sorted and within the merges
 * selected). A refusal says why. The scratch file and its SQLite
 * companions are removed after every input, and everything is released on
 * every path, so LeakSanitizer sees any leak and no state carries over.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/history_db.h"
#include "store/history_query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch file of this process, and what SQLite may put beside it. */
static char path[64];

static void remove_scratch(void)
{
	static const char *const sides[] = { "", "-wal", "-shm", "-journal" };
	char p[80];
	size_t i;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, sides[i]);
		unlink(p);
	}
}

/* The set's contract: every point's merge is one of its merge rows, at
 * most one point per merge in a series, series in order. */
static void check_set(const struct pab_history_set *set)
{
	size_t i, k;

	if (set->n_merge_rows > set->merges)
		abort();
	for (i = 0; i < set->n; i++) {
		const struct pab_history_series *s = &set->series[i];

		if (!s->row || !s->arm || !s->metric || s->n > set->merges)
			abort();
		for (k = 0; k < s->n; k++)
			if (s->pts[k].merge < set->merge_rows ||
			    s->pts[k].merge >= set->merge_rows + set->n_merge_rows ||
			    !s->pts[k].verdict)
				abort();
	}
}

static void query(struct pab_history_db *db, const struct pab_history_filter *f)
{
	struct pab_history_set set;
	char *why = NULL;

	if (pab_history_query(db, f, &set, &why)) {
		if (!why || !*why)
			abort();
		free(why);
		return;
	}
	check_set(&set);
	pab_history_set_release(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pab_history_filter f = { "main", "c1", "command", "cpu", 2 };
	struct pab_history_filter all = { 0 };
	struct pab_history_db *db = NULL;
	int64_t merges, cells;
	char *why = NULL;
	int fd;

	if (!*path)
		snprintf(path, sizeof(path), "/tmp/perfab-fuzz-history-%ld.db", (long)getpid());
	remove_scratch();
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd))
		abort(); /* no scratch file: the machine's fault; stop, loudly */
	if (pab_history_open(path, PAB_HISTORY_READ, &db, NULL, &why)) {
		if (!why || !*why || db)
			abort();
		free(why);
		remove_scratch();
		return 0;
	}
	query(db, &all);
	query(db, &f);
	f.since = NULL;
	query(db, &f);
	if (pab_history_count(db, &merges, &cells, &why))
		free(why);
	pab_history_close(db);
	remove_scratch();
	return 0;
}
