/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_perf.h — CPU time by function from perf's software cpu-clock
 * event with call graphs (doc/attribution.md §3): no hardware PMU needed.
 * `perf record -e cpu-clock -g` runs in place of the counting pass's
 * command (run/measure.h's wrap), and `perf script` reads its file back.
 * A sample's time goes to the first frame of its stack that is not the
 * kernel's (the kernel's work on the program's behalf, a page fault in
 * memset, is memset's); a stack of kernel frames only is "[kernel]".
 */
#ifndef PAB_PROFILE_PERF_H
#define PAB_PROFILE_PERF_H

#include <stddef.h>

#include "profile.h"

/* The environment variable naming the perf to run (tests point it at a
 * missing file); unset or empty: `perf` on PATH. */
#define PAB_PERF_ENV "PERFAB_PERF"
/* Samples per second of CPU time. */
#define PAB_PERF_HZ 10000

/* The perf executable, or NULL with *why (new memory): not installed. */
char *pab_perf_tool(char **why);

/*
 * pab_perf_argv: `tool record -q -e cpu-clock -F PAB_PERF_HZ -g -o
 * out_prefix.data -- argv...`; the contract of pab_simcount_argv (free
 * with pab_simcount_argv_free).
 */
char **pab_perf_argv(const char *tool, const char *out_prefix, char *const *argv,
		     char ***opts_out);

/*
 * pab_profile_perf_parse: `perf script -F period,ip,sym,dso` output
 * text[0..len) into p: each sample's period (ns) to its function (name:
 * the symbol, where: its object's file name); and, when stacks is not
 * NULL, to its stack of user frames folded outermost first ("main;
 * sort_keys" without the blank), the flame graph's input. Returns the
 * samples read.
 */
size_t pab_profile_perf_parse(const char *text, size_t len, struct pab_profile *p,
			      struct pab_profile *stacks);

/*
 * pab_profile_perf_file: run `tool script` on data (perf's file) into
 * out_path, then parse it into p and stacks (may be NULL). Returns the
 * samples (0: none, *why says so), or -1 with *why (new memory): perf
 * script failed.
 */
long pab_profile_perf_file(const char *tool, const char *data, const char *out_path,
			   struct pab_profile *p, struct pab_profile *stacks, char **why);

#endif /* PAB_PROFILE_PERF_H */
