/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * env.h — the output of `perfab env`, drawn from what probe/envfacts.h
 * gathered: the host fingerprint, the noise checklist judged from it and
 * the children's placement, as text or JSON, to stdout. The trees are
 * cJSON's (declared, not included).
 */
#ifndef PAB_REPORT_ENV_H
#define PAB_REPORT_ENV_H

struct cJSON;

/*
 * pab_report_env: to stdout, the fingerprint host and its checklist, and
 * the placement when not NULL (this machine's): as text, or with json as
 * one JSON document {"host", "checklist"[, "placement"]}. The trees are
 * only read.
 */
void pab_report_env(const struct cJSON *host, const struct cJSON *checklist,
		    const struct cJSON *placement, int json);

#endif /* PAB_REPORT_ENV_H */
