/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proc.h — readers for /proc figures of a live process. Each returns 0 and
 * the figure, or -1 with errno set (the process is gone, the file is
 * unreadable, the field is absent): callers turn -1 into JSON null plus a
 * reason, never into 0.
 */
#ifndef PAB_PROC_H
#define PAB_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A "Name:   N kB" field of /proc/PID/status (e.g. "VmHWM"), in bytes. */
int pab_proc_status_bytes(pid_t pid, const char *field, uint64_t *bytes);

/* Rss and Pss of /proc/PID/smaps_rollup, in bytes. */
int pab_proc_smaps_rollup(pid_t pid, uint64_t *rss, uint64_t *pss);

/*
 * pab_proc_tree: pid and all its descendants (via /proc/PID/task/TID/
 * children), at most max entries written to out; returns the count found
 * (which may exceed max), or -1 when pid itself is gone.
 */
int pab_proc_tree(pid_t pid, pid_t *out, size_t max);

#endif /* PAB_PROC_H */
