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
/* The same for the wall profile, whose samples carry a copy of the
 * stack (8 KiB each) for perf to unwind through the C library. */
#define PAB_PERF_WALL_HZ 2000
/* The largest file perf writes for a wall profile (its --max-size): a long
 * run, or one that waits very often, stops being recorded there. */
#define PAB_PERF_WALL_MAX_MIB 256
/* The frame that ends a folded stack of time off the CPU, and follows
 * the function that waited in the wall profile's list. */
#define PAB_PERF_OFF_CPU "[off-CPU]"

/* The perf executable, or NULL with *why (new memory): not installed. */
char *pab_perf_tool(char **why);

/*
 * pab_perf_argv: `tool record -q -e cpu-clock -F PAB_PERF_HZ --call-graph fp -o
 * out_prefix.data -- argv...`; the contract of pab_simcount_argv (free
 * with pab_simcount_argv_free).
 */
char **pab_perf_argv(const char *tool, const char *out_prefix, char *const *argv,
		     char ***opts_out);

/*
 * pab_perf_wall_argv: the same for the wall profile: `tool record -q -e
 * cpu-clock -e sched:sched_switch -F PAB_PERF_WALL_HZ --call-graph dwarf
 * --max-size=pab_perf_wall_max_mib() M -o out_prefix.data -- argv...`:
 * the CPU's samples, and each switch away from the CPU with its stack
 * unwound from a copy (frame pointers lose usleep's caller when the C
 * library has none).
 */
char **pab_perf_wall_argv(const char *tool, const char *out_prefix, char *const *argv,
			  char ***opts_out);

/* The wall profile's cap in MiB: PAB_PERF_WALL_MAX_MIB, or the test hook
 * PERFAB_TEST_PERF_WALL_MAX_MIB's (test_hooks.h). At the cap perf ends its
 * child with SIGTERM. */
unsigned pab_perf_wall_max_mib(void);

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

/*
 * pab_profile_perf_wall_parse: `perf script -F
 * tid,time,period,event,trace,ip,sym,dso --show-task-events` output of a
 * wall profile into p
 * and stacks (may be NULL), in ns: a cpu-clock sample as
 * pab_profile_perf_parse counts it (*on_ns sums them); a switch away from
 * the CPU to sleep or wait (prev_state S or D; not a preemption, R) opens
 * a wait of its thread that the thread's next event closes, its time
 * (*off_ns sums them) to "FUNCTION [off-CPU]", FUNCTION the innermost
 * frame outside the kernel, the C library and the loader (usleep's
 * caller), and to the folded stack ending in ";[off-CPU]". The thread's
 * exit (a PERF_RECORD_EXIT line: the kernel records no switch after it)
 * closes its wait too: a program that sleeps and then exits within one
 * sample period still shows its sleep. A wait nothing closes (the data
 * ends first) counts nothing. A preemption opens the thread's time ready
 * to run, closed the same way (*ready_ns, in no profile). *span_ns: from
 * the first event to the last. Returns the samples read (both kinds).
 */
struct pab_perf_wall_times {
	double on_ns, off_ns; /* on the CPU (sampled), waiting */
	double ready_ns;      /* preempted, ready to run (a loaded machine) */
	double span_ns;       /* the record's first event to its last */
};
size_t pab_profile_perf_wall_parse(const char *text, size_t len, struct pab_profile *p,
				   struct pab_profile *stacks, struct pab_perf_wall_times *times);

/* pab_profile_perf_file for a wall profile (pab_profile_perf_wall_parse). */
long pab_profile_perf_wall_file(const char *tool, const char *data, const char *out_path,
				struct pab_profile *p, struct pab_profile *stacks,
				struct pab_perf_wall_times *times, char **why);

#endif /* PAB_PROFILE_PERF_H */
