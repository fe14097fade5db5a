/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_dhat.h — bytes live at the heap's peak by allocation site, from
 * valgrind's DHAT (`valgrind --tool=dhat`, doc/attribution.md §2): its
 * command line, run in place of the counting pass's (run/measure.h's
 * wrap), and its output files read back. A site is the first frame of an
 * allocation's stack that is not the allocator itself; its amount is the
 * bytes its blocks held at the moment the heap was largest (DHAT's "gb"),
 * its blocks how many they were ("gbk"): one large block or many small.
 */
#ifndef PAB_PROFILE_DHAT_H
#define PAB_PROFILE_DHAT_H

#include <stddef.h>

#include "profile.h"

/*
 * pab_dhat_argv: the command that runs argv under tool (valgrind) with
 * DHAT, one output file per process at out_prefix.PID; the contract of
 * pab_simcount_argv (free with pab_simcount_argv_free).
 */
char **pab_dhat_argv(const char *tool, const char *out_prefix, char *const *argv,
		     char ***opts_out);

/*
 * pab_profile_dhat_parse: the sites of one DHAT output file
 * text[0..len) (dhatFileVersion 2) into p: name "function (file:line)" as
 * DHAT gives it, where the two callers above it. Returns 0, or -1 with
 * *why (new memory).
 */
int pab_profile_dhat_parse(const char *text, size_t len, struct pab_profile *p, char **why);

/* pab_profile_dhat_parse over every file dir/base.*, summed (the heaps
 * of the tree's processes). Returns the files read (0: none, *why says
 * so), or -1 with *why (new memory). */
int pab_profile_dhat_files(const char *dir, const char *base, struct pab_profile *p,
			   char **why);

#endif /* PAB_PROFILE_DHAT_H */
