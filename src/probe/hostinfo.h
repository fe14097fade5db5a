/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hostinfo.h — the host fingerprint recorded in every artifact (and shown
 * by `perfab env`), and the noise checklist judged from it.
 *
 * The fingerprint is what the machine *is* while perfab measures: CPU
 * model, topology (hwloc), kernel, frequency governor, turbo, SMT, THP,
 * ASLR, isolated CPUs, load, memory, perf_event_paranoid, whether a PMU is
 * there, which cgroup perfab can use. It only reads; it never changes a
 * setting. An item that cannot be read is JSON null, and the object
 * "unreadable" maps its key to the reason — never a guess, never 0.
 * doc/env.md lists every key, the file it comes from and its reasons.
 */
#ifndef PAB_HOSTINFO_H
#define PAB_HOSTINFO_H

#include <cjson/cJSON.h>

/* A new JSON object (caller deletes). Takes tens of milliseconds (hwloc). */
cJSON *pab_host_fingerprint(void);

/*
 * pab_host_warnings: the noise checklist for a fingerprint (this machine's,
 * or one read back from an artifact), in the spirit of `pyperf system
 * show`. A new JSON array (caller deletes) of objects
 *   { "item":   "governor" | "turbo" | "smt" | "thp" | "aslr" |
 *               "isolated_cpus" | "load" | "memory" | "nmi_watchdog" |
 *               "pmu" | "perf_event_paranoid" | "cgroup" | "virtualization",
 *     "status": "OK" | "WARNING" | "UNKNOWN",
 *     "detail": what was found (for UNKNOWN: why it could not be read),
 *     "fix":    the exact command or setting that fixes a WARNING, else null }
 * in that order; every item is always present. Pure: reads only fp.
 */
cJSON *pab_host_warnings(const cJSON *fingerprint);

#endif /* PAB_HOSTINFO_H */
