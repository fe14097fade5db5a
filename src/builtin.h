/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * builtin.h — the subcommands (git's builtin.h): each is
 * int cmd_NAME(int argc, char **argv) with argv[0] the subcommand name,
 * returning the process exit code (diag.h enum pab_exit).
 */
#ifndef PAB_BUILTIN_H
#define PAB_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

struct pab_experiment;

int cmd_run(int argc, char **argv);
int cmd_ledger(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_pool(int argc, char **argv);
int cmd_memgate(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/*
 * pab_pool_load (cmd_pool.c; also used by ledger and gate given several
 * files): load paths[0..n) and pool them into *out (pool.h). Returns 0, or
 * the exit code after saying why on stderr: PAB_EXIT_USAGE for a file that
 * cannot be read or parsed, PAB_EXIT_REFUSED when pooling is refused.
 */
int pab_pool_load(const char *const *paths, size_t n,
		  struct pab_experiment *out);

/*
 * pab_pool_load_input: load one input of a pool into *e. Returns 0, or the
 * exit code after saying why on stderr: PAB_EXIT_REFUSED for an artifact
 * of another (or no) arm-order protocol — not poolable, whatever else it
 * holds — and PAB_EXIT_USAGE for anything else that cannot be loaded.
 */
int pab_pool_load_input(const char *path, struct pab_experiment *e);

#endif /* PAB_BUILTIN_H */
