/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * envfacts.h — what `perfab env` shows, gathered: the host fingerprint,
 * the noise checklist judged from it and the children's placement, as
 * cJSON trees (declared, not included) for report/env.h to draw. It only
 * reads: every fix is described, none is applied.
 */
#ifndef PAB_ENVFACTS_H
#define PAB_ENVFACTS_H

struct cJSON;

struct pab_env_facts {
	struct cJSON *host;       /* the fingerprint, its stored checklist removed */
	struct cJSON *checklist;  /* judged from host (hostinfo.h) */
	struct cJSON *placement;  /* where a run started now would put its
				   * children and how busy each PU is; NULL
				   * for a stored fingerprint */
};

/*
 * pab_env_facts_gather: into *f, the fingerprint host_json (JSON text of a
 * fingerprint object, its stored checklist removed; NULL: this machine's,
 * with the placement a run started now would get) and the checklist
 * judged from it. Text that does not parse is a bug (the caller loaded
 * it). Release f with pab_env_facts_release.
 */
void pab_env_facts_gather(const char *host_json, struct pab_env_facts *f);
void pab_env_facts_release(struct pab_env_facts *f);

#endif /* PAB_ENVFACTS_H */
