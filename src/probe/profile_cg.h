/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_cg.h — instructions by function and by source line, read from
 * the output files of valgrind's cachegrind that the counting pass writes
 * (probe/simcount.h; doc/attribution.md §1). cachegrind names each
 * function from the binary's symbol table (a stripped binary's own code
 * is "???") and each line from its debug info (none: file "???").
 */
#ifndef PAB_PROFILE_CG_H
#define PAB_PROFILE_CG_H

#include <stddef.h>

#include "profile.h"

/* The name cachegrind gives code it has no symbol for. */
#define PAB_PROFILE_UNKNOWN "???"

/*
 * pab_profile_cachegrind_parse: the Ir of every function (name: the
 * function, where: its source file) into fns, and of every source line
 * with debug info (name: "file:line", where: its function) into lines,
 * of one cachegrind output file text[0..len). Returns 0, or -1 with *why
 * (new memory): no events: line with Ir, a malformed count line.
 */
int pab_profile_cachegrind_parse(const char *text, size_t len, struct pab_profile *fns,
				 struct pab_profile *lines, char **why);

/*
 * pab_profile_read_files: parse (0, or -1 with *why as new memory) over
 * the text of every file dir/base.* of at most max_bytes, into ctx.
 * Returns the files read (0: none, *why names them as what's output
 * files), or -1 with *why (new memory) naming the file that did not read.
 */
typedef int pab_profile_parse_fn(const char *text, size_t len, void *ctx, char **why);
int pab_profile_read_files(const char *dir, const char *base, size_t max_bytes,
			   const char *what, pab_profile_parse_fn *parse, void *ctx, char **why);

/*
 * pab_profile_cachegrind_files: pab_profile_cachegrind_parse over every
 * file dir/base.* (one per process of the counted tree), summed. Returns
 * the files read (0: none, *why says so), or -1 with *why (new memory).
 */
int pab_profile_cachegrind_files(const char *dir, const char *base, struct pab_profile *fns,
				 struct pab_profile *lines, char **why);

#endif /* PAB_PROFILE_CG_H */
