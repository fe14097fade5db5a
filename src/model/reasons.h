/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * reasons.h — one copy of each null reason. A run records why each metric
 * it could not measure is null, for every arm of every rep, and the same
 * few sentences repeat thousands of times ("no hardware PMU ..."): one
 * copy each keeps perfab's memory flat in the reps (a 1,600-rep run held
 * ~2.6 MB of copies).
 *
 * pab_reason_intern(s): the pooled copy of s, equal to it, the same pointer
 * for every call with equal text, valid for the life of the process (never
 * freed: do not free it). NULL for NULL. Thread-safe.
 */
#ifndef PAB_REASONS_H
#define PAB_REASONS_H

const char *pab_reason_intern(const char *s);

#endif /* PAB_REASONS_H */
