/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * envshow.h — the output of `perfab env`: the host fingerprint, the noise
 * checklist judged from it and the children's placement, as text or JSON.
 * It only reads: every fix is printed, none is applied.
 */
#ifndef PAB_ENVSHOW_H
#define PAB_ENVSHOW_H

/*
 * pab_env_show: to stdout, the fingerprint host_json (JSON text of a
 * fingerprint object, its stored checklist removed; NULL: this machine's,
 * with the placement a run started now would get) and the checklist
 * judged from it: as text, or with json as one JSON document {"host",
 * "checklist"[, "placement"]}.
 */
void pab_env_show(const char *host_json, int json);

#endif /* PAB_ENVSHOW_H */
