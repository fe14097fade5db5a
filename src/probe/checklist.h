/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * checklist.h — the noise checklist judged from a host fingerprint
 * (hostinfo.h): this machine's, or one read back from an artifact, in the
 * spirit of `pyperf system show`. Pure: no I/O, no globals; it reads only
 * the fingerprint, so its rules can be tested on made-up machines.
 */
#ifndef PAB_CHECKLIST_H
#define PAB_CHECKLIST_H

struct cJSON; /* cJSON's; a caller includes its header */

/*
 * pab_host_warnings: the checklist for fingerprint (a JSON object with the
 * keys pab_host_fingerprint() writes; missing or null keys are UNKNOWN,
 * with the reason its "unreadable" object gives, else "not recorded in
 * this fingerprint"; NULL reads as an empty fingerprint). A new JSON array
 * (caller deletes) of objects
 *   { "item":   "governor" | "turbo" | "smt" | "thp" | "aslr" |
 *               "isolated_cpus" | "load" | "memory" | "nmi_watchdog" |
 *               "pmu" | "perf_event_paranoid" | "cgroup" | "virtualization",
 *     "status": "OK" | "WARNING" | "UNKNOWN",
 *     "detail": what was found (for UNKNOWN: why it could not be read),
 *     "fix":    the exact command or setting that fixes a WARNING, else null }
 * in that order; every item is always present. Never fails (allocation
 * failure aborts, as everywhere in perfab).
 */
struct cJSON *pab_host_warnings(const struct cJSON *fingerprint);

#endif /* PAB_CHECKLIST_H */
