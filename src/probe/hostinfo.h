/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hostinfo.h — the host fingerprint recorded in every artifact (and shown
 * by `perfab env`); the noise checklist judged from it is checklist.h.
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

struct cJSON; /* cJSON's; a caller of pab_host_fingerprint() includes its header */

/* The checklist judged from a fingerprint: pab_host_warnings(). */
#include "probe/checklist.h"

/* A new JSON object (caller deletes). Takes tens of milliseconds (hwloc). */
struct cJSON *pab_host_fingerprint(void);

/*
 * pab_host_record: the fingerprint with its "checklist" (what an artifact
 * records as "host") as JSON text, and its CPU model in *cpu_model (NULL:
 * unreadable). Both new memory (caller frees).
 */
char *pab_host_record(char **cpu_model);

#endif /* PAB_HOSTINFO_H */
