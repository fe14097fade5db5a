/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_hooks.h — every PERFAB_TEST_* variable perfab reads, in one table:
 * hooks by which the tests (and ci/bench-*.sh) make perfab crash, wait,
 * log or leave a piece out, so that behaviour no ordinary run shows can be
 * checked. No hook changes what an ordinary run does: without its variable
 * each is a no-op. Code reads a hook only through pab_test_hook(), so the
 * table is the whole list.
 */
#ifndef PAB_TEST_HOOKS_H
#define PAB_TEST_HOOKS_H

#include <stdint.h>

enum pab_test_hook {
	PAB_TEST_CRASH_AT,
	PAB_TEST_IO_LOG,
	PAB_TEST_WITHOUT,
	PAB_TEST_CPU_MODEL,
	PAB_TEST_SAMPLER_IDLE,
	PAB_TEST_SAMPLER_FOLD_DELAY_MS,
	PAB_TEST_EXIT_HOLD_MS,
	PAB_TEST_BALLAST_MIB,
	PAB_TEST_HISTORY_HOLD,
	PAB_TEST_HISTORY_BUSY,
	PAB_TEST_GATE_SWAP,
	PAB_TEST_PERF_WALL_MAX_MIB,
	PAB_TEST_PERF_WALL_LOSE_WAITS,
	PAB_TEST_HOOK_COUNT
};

struct pab_test_hook_def {
	const char *name; /* the environment variable */
	const char *what; /* what it does, one line */
	const char *test; /* the test (or benchmark) that sets it */
};

/* The table, PAB_TEST_HOOK_COUNT entries in enum order. */
extern const struct pab_test_hook_def pab_test_hooks[PAB_TEST_HOOK_COUNT];

/* The hook's value from the environment, or NULL when it is not set (an
 * empty value is returned as ""; each hook says what that means). */
const char *pab_test_hook(enum pab_test_hook hook);

/*
 * Test hook for the crash matrix (tests/e2e/reliability_crash_matrix.sh): with
 * PERFAB_TEST_CRASH_AT=N in the environment, the N-th call (counting from
 * 1, over the whole process) kills perfab with SIGKILL on the spot, as a
 * power cut or the OOM killer would. name says where, for the test's log
 * (printed to stderr just before dying). PERFAB_TEST_CRASH_AT=list prints
 * every point passed, numbered, and kills nothing, so a test can find the
 * points worth killing at. Without the variable: a no-op.
 */
void pab_crash_point(const char *name);

/*
 * Test hook for checkpoint costs (tests/e2e/reliability_journal.sh): with
 * PERFAB_TEST_IO_LOG=FILE in the environment, every checkpoint write
 * appends "WHAT BYTES" (e.g. "journal 1234", "artifact 56789") as a line
 * to FILE, so a test can measure bytes written per rep. Without the
 * variable: a no-op.
 */
void pab_test_io_log(const char *what, uint64_t bytes);

/*
 * Benchmark hook for the measuring window (ci/bench-overhead.sh): 1 when
 * piece ("ptrace", "sampler", "pin", "runner-pin", "counters",
 * "count-side-by-side": counting children one at a time) is named in the
 * comma-separated PERFAB_TEST_WITHOUT, so the cost of each piece of
 * perfab's own work around a child can be measured by leaving it out.
 * Without the variable: 0.
 */
int pab_test_without(const char *piece);

#endif /* PAB_TEST_HOOKS_H */
