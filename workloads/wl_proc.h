/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl_proc.h — what a workload program reads of itself (wl_proc.c): the clock, its
 * RSS and high-water mark, the machine's memory, the drain window.
 * The errors follow wl.h: one line printed to stderr, -1 returned.
 */
#ifndef PAB_WL_PROC_H
#define PAB_WL_PROC_H

#include <stddef.h>
#include <stdint.h>

#include "wl.h"

/* Monotonic clock in nanoseconds. */
uint64_t pab_wl_now_ns(void);

/* Resident set size from /proc/self/statm (field 2 × page size), or
 * PAB_WL_NONE when it cannot be read. */
int64_t pab_wl_rss_bytes(void);

/* The process's own RSS high-water mark (VmHWM of /proc/self/status) in
 * bytes, or PAB_WL_NONE when it cannot be read. */
int64_t pab_wl_vmhwm_bytes(void);

/* Physical memory of the machine in bytes, or 0 when unknown: parameters
 * whose working set exceeds it are refused as absurd. */
uint64_t pab_wl_phys_bytes(void);

/*
 * The drain window, starting now (call it right after everything was
 * freed): samples RSS every 10 ms up to release_bound_ms, and at
 * drain_ms; fills drain_rss_bytes, release_bound_rss_bytes and
 * release_ms. Then reads VmHWM into vmhwm_bytes.
 */
void pab_wl_drain(uint64_t drain_ms, uint64_t release_bound_ms,
		  struct pab_wl_report *r);

#endif /* PAB_WL_PROC_H */
