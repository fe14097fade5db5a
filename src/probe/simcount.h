/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * simcount.h — exact instruction counts by simulation: a child run under
 * valgrind's cachegrind with its cache simulation off
 * (`valgrind --tool=cachegrind --cache-sim=no`), which counts every
 * instruction the child and its descendants execute in user space (I
 * refs). The same binary with the same input executes the same count
 * every time, whatever the load on the machine, so a change of work shows
 * however noisy the clock is; the price is a run about 5 to 20 times
 * slower, which is why the runner counts in a pass of its own, never in
 * the timed children (doc/method.md, "Exact counts").
 *
 * Valgrind is a program perfab runs, not a library it links: when it is
 * not installed, pab_simcount_tool() says so and why, and the callers ask
 * nothing else of this module.
 */
#ifndef PAB_SIMCOUNT_H
#define PAB_SIMCOUNT_H

#include <stddef.h>

/* The environment variable that names the valgrind to run (tests point it
 * at a missing file); unset or empty: `valgrind` on PATH. */
#define PAB_SIMCOUNT_ENV "PERFAB_VALGRIND"

/* A counted child may run this many times --timeout (and never past the
 * run's budget): valgrind runs a program 5 to 20 times slower. */
#define PAB_SIMCOUNT_SLOWDOWN 20
/* What a count is expected to cost before one was measured: valgrind's
 * own start-up (seconds), then this many times the timed run. */
#define PAB_SIMCOUNT_START_S 0.6
#define PAB_SIMCOUNT_TYPICAL_SLOWDOWN 10

/* The system's detached debug information (Debian's libc6-dbg, on which
 * valgrind depends, and any -dbgsym package). Valgrind reads the
 * libraries' at every start: 0.25 s of its ~0.4 s start-up for /bin/true.
 * A count does not depend on it, only the names of a system library's
 * internal functions in a profile, so every counting child runs with it
 * hidden where perfab may (runchild.h, hide_dir), and attribution's
 * profiling runs see it (doc/method.md, "Exact counts"). */
#define PAB_SIMCOUNT_DEBUG_DIR "/usr/lib/debug"

/*
 * pab_simcount_tool: the valgrind executable to count with, $PERFAB_VALGRIND
 * when set, else `valgrind` on PATH, checked to be executable. New string,
 * or NULL with *why (new memory, caller frees) saying it is unavailable,
 * why, and what to install.
 */
char *pab_simcount_tool(char **why);

/*
 * pab_simcount_argv: the command that counts argv (NULL-terminated) under
 * tool, writing one output file per process to out_prefix.PID: tool's
 * options, then argv's words. New NULL-terminated array (caller frees the
 * array; the words are borrowed from tool, argv and *opts_out, the option
 * strings this call made, which the caller frees with
 * pab_simcount_argv_free()).
 */
char **pab_simcount_argv(const char *tool, const char *out_prefix, char *const *argv,
			 char ***opts_out);
void pab_simcount_argv_free(char **argv, char **opts);
/*
 * pab_valgrind_argv: what pab_simcount_argv and the heap profile's
 * command share: tool, the n_fixed options of fixed, out_opt (the output
 * file option, which becomes (*opts_out)[0]), then argv's words; the
 * same contract.
 */
char **pab_valgrind_argv(const char *tool, const char *const *fixed, size_t n_fixed,
			 char *out_opt, char *const *argv, char ***opts_out);

/*
 * pab_simcount_parse: the instructions a cachegrind output file counted:
 * its `summary:` line's value of the event Ir (the `events:` line names
 * the columns). text[0..len) need not be NUL-terminated. Returns 0 with
 * *ir, or -1 with *why (new memory) naming what is missing or malformed.
 */
int pab_simcount_parse(const char *text, size_t len, double *ir, char **why);

/*
 * What a counted tree executed, and what about it a PMU would count
 * otherwise (doc/method.md, "Exact counts"):
 *   replaced: the top process (the one perfab started) ended as another
 *             program: it replaced itself with exec after it started, and
 *             valgrind counts a process image only from its start to its
 *             exit, so what ran before the exec is missing (a PMU counts
 *             it). top_cmd says what it ended as. A wrapper that only
 *             execs its command (env, nice, taskset, numactl, ...: its own
 *             work is a few thousand instructions, the same for any
 *             command) is not a replacement: its command's count is the
 *             count.
 *   threads:  some process started threads (glibc's start_thread ran):
 *             valgrind runs them one at a time, so the count depends on
 *             its schedule (spinning, work stealing).
 */
struct pab_simcount_tree {
	double ir;       /* instructions of every process of the tree */
	size_t n_files;  /* processes counted (at least 1) */
	int replaced;
	int threads;
	char *top_cmd;   /* the top process's last program and arguments as
			  * valgrind's cmd: line gives them (owned; NULL when
			  * its file was not found) */
};

/*
 * pab_simcount_collect: the sum of the counts of every output file
 * out_prefix.PID (one per process of the counted tree), each removed
 * once read; top_pid and top_exe (the program perfab started, as given
 * to valgrind) tell which file is the top process's and whether it
 * replaced itself (top_exe NULL: not checked). Returns 0 with *t
 * filled (release with pab_simcount_tree_release), or -1 with *why (new
 * memory): no file (the child did not run under valgrind), or one that
 * does not parse. Every file of out_prefix is removed either way.
 */
int pab_simcount_collect(const char *out_prefix, long top_pid, const char *top_exe,
			 struct pab_simcount_tree *t, char **why);
void pab_simcount_tree_release(struct pab_simcount_tree *t);

/*
 * pab_simcount_collect_keep: pab_simcount_collect, after every output
 * file out_prefix.PID is linked into keep_dir under its own name, those
 * of an earlier count of the same prefix removed first: the last count's
 * files stay there for attribution (doc/attribution.md §1), read by
 * probe/profile_cg.h. keep_dir NULL: pab_simcount_collect alone. A file
 * that cannot be kept is left out of the kept set, never an error.
 */
int pab_simcount_collect_keep(const char *out_prefix, long top_pid, const char *top_exe,
			      const char *keep_dir, struct pab_simcount_tree *t, char **why);

/* Why a counted tree that ran to its end gives no exact count (replaced
 * or threads, above), for the artifact; NULL when its count is exact.
 * New string. */
char *pab_simcount_not_exact(const struct pab_simcount_tree *t);

#endif /* PAB_SIMCOUNT_H */
