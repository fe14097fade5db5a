/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * builtin.h — the subcommands (git's builtin.h): each is
 * int cmd_NAME(int argc, char **argv) with argv[0] the subcommand name,
 * returning the process exit code (diag.h enum pab_exit).
 */
#ifndef PAB_BUILTIN_H
#define PAB_BUILTIN_H

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
int cmd_bisect(int argc, char **argv);

#endif /* PAB_BUILTIN_H */
