/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_hooks.c — the table of perfab's test hooks, and the three hooks
 * more than one module calls (test_hooks.h).
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/numparse.h"
#include "test_hooks.h"

const struct pab_test_hook_def pab_test_hooks[PAB_TEST_HOOK_COUNT] = {
	[PAB_TEST_CRASH_AT] = { "PERFAB_TEST_CRASH_AT",
		"N: SIGKILL perfab at its N-th crash point; list: print every point passed",
		"tests/e2e/reliability_crash_matrix.sh" },
	[PAB_TEST_IO_LOG] = { "PERFAB_TEST_IO_LOG",
		"FILE: append \"WHAT BYTES\" to FILE for every checkpoint written",
		"tests/e2e/reliability_journal.sh" },
	[PAB_TEST_WITHOUT] = { "PERFAB_TEST_WITHOUT",
		"ptrace,sampler,pin,runner-pin,counters,count-side-by-side: leave those pieces of "
		"perfab's work out",
		"ci/bench-overhead.sh" },
	[PAB_TEST_CPU_MODEL] = { "PERFAB_TEST_CPU_MODEL",
		"MODEL: the host fingerprint's CPU model is MODEL (a mixed fleet's shards)",
		"tests/e2e/pool_cpu_shards.sh" },
	[PAB_TEST_SAMPLER_IDLE] = { "PERFAB_TEST_SAMPLER_IDLE",
		"set: the process-tree sampler never samples (starved of CPU for the run)",
		"tests/e2e/measure_tree_sample.sh" },
	[PAB_TEST_SAMPLER_FOLD_DELAY_MS] = { "PERFAB_TEST_SAMPLER_FOLD_DELAY_MS",
		"N: the sampler waits N ms between its look at the tree and acting on it",
		"tests/e2e/reliability_hostile_children.sh" },
	[PAB_TEST_EXIT_HOLD_MS] = { "PERFAB_TEST_EXIT_HOLD_MS",
		"N: perfab dawdles N ms at every child's exit stop (outside its wall time)",
		"tests/e2e/measure_window.sh" },
	[PAB_TEST_BALLAST_MIB] = { "PERFAB_TEST_BALLAST_MIB",
		"N: perfab itself holds N MiB resident before it spawns anything",
		"tests/e2e/measure_peak_rss.sh" },
	[PAB_TEST_HISTORY_HOLD] = { "PERFAB_TEST_HISTORY_HOLD",
		"FILE: a history record holds its write lock until FILE is removed",
		"tests/e2e/history_concurrent.sh" },
	[PAB_TEST_HISTORY_BUSY] = { "PERFAB_TEST_HISTORY_BUSY",
		"FILE: a history writer creates FILE when it first waits for another's lock",
		"tests/e2e/history_concurrent.sh" },
	[PAB_TEST_GATE_SWAP] = { "PERFAB_TEST_GATE_SWAP",
		"FILE: at each child's gate, after the program's check, rename FILE.swap over FILE",
		"tests/e2e/measure_exec_window.sh" },
	[PAB_TEST_PERF_WALL_MAX_MIB] = { "PERFAB_TEST_PERF_WALL_MAX_MIB",
		"N: the wall profile's perf file is capped at N MiB, not 256",
		"tests/e2e/attribution_time.sh" },
	[PAB_TEST_PERF_WALL_LOSE_WAITS] = { "PERFAB_TEST_PERF_WALL_LOSE_WAITS",
		"N: the first N wall profiles read lose their waits, as when perf drops events",
		"tests/e2e/attribution_time.sh" },
};

const char *pab_test_hook(enum pab_test_hook hook)
{
	return getenv(pab_test_hooks[hook].name);
}

void pab_crash_point(const char *name)
{
	static long calls, target = -1;
	static int list;
	const char *s;

	if (target < 0) {
		s = pab_test_hook(PAB_TEST_CRASH_AT);
		list = s && !strcmp(s, "list");
		if (!s || pab_num_long(s, 1, 1000000, &target))
			target = 0;
	}
	if (list) {
		fprintf(stderr, "perfab: crash point %ld: %s (listed)\n", ++calls, name);
		return;
	}
	if (!target || ++calls != target)
		return;
	fprintf(stderr, "perfab: crash point %ld: %s\n", calls, name);
	fflush(stderr);
	kill(getpid(), SIGKILL);
}

void pab_test_io_log(const char *what, uint64_t bytes)
{
	static int checked;
	static const char *path;
	char line[96];
	int fd, n;

	if (!checked) {
		path = pab_test_hook(PAB_TEST_IO_LOG);
		if (path && !*path)
			path = NULL;
		checked = 1;
	}
	if (!path)
		return;
	n = snprintf(line, sizeof(line), "%s %llu\n", what, (unsigned long long)bytes);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n)
		n = -1; /* a test hook: the test sees the short log */
	close(fd);
}

int pab_test_without(const char *piece)
{
	const char *s = pab_test_hook(PAB_TEST_WITHOUT), *p;
	size_t n = strlen(piece);

	for (p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, piece, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}
