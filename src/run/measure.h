/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * measure.h — one arm of one rep: the child's argv and environment, its
 * spawn (probe/runchild.h), the probes attached while it waits at the
 * gate (counters, its arm's cgroup), its rusage and the workload's report
 * (run/workload.h) turned into one struct pab_arm_result.
 *
 * A struct pab_measure holds what every child of a run shares: the CPU
 * binding, the RSS sampler, the limits, the inherited environment, the
 * scratch directory the report goes to, and one cgroup per arm (made at
 * the arm's first child, reused, emptied after every child). After each
 * child nothing it started runs on.
 */
#ifndef PAB_RUN_MEASURE_H
#define PAB_RUN_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "model/experiment.h"
#include "probe/cgroup.h"
#include "probe/cgroup_reset.h"
#include "probe/pin.h"
#include "probe/sampler.h"
#include "run/failure.h"

struct pab_measure {
	/* Set by the caller before pab_measure_start(), borrowed: */
	struct pab_pin *pin;
	struct pab_sampler *sampler;
	int64_t timeout_ns;        /* per child; 0 = none */
	long max_procs;            /* process-tree limit per child */
	double scale;              /* PERFAB_SCALE for built-in workloads */
	const char *const *events; /* --counters; NULL: the default set */
	size_t n_events;
	int use_cgroup;            /* a cgroup per arm (else --no-cgroup) */
	const char *input;         /* the children's stdin; NULL: /dev/null */
	int stdout_fd;             /* > 0: the children's stdout; 0: dropped */
	int show_output;           /* their stdout and stderr on perfab's stderr */
	int ignore_failure;        /* --ignore-failure: a measured child's
				    * non-zero exit status is no failure (a
				    * signal or a timeout still is) */
	const char *count_tool;    /* valgrind for the counting pass, or NULL
				    * (no pass: --counts pmu or off) */
	int64_t count_timeout_ns;  /* the next counted child's limit (0 = none),
				    * and 1 when what is left of the run's budget
				    * set it (else --timeout x PAB_SIMCOUNT_SLOWDOWN),
				    * both set by the runner */
	int count_limit_budget;
	/* Attribution (run/attribute.h), set by its phase: the directory the
	 * counted child's output files are kept in (NULL: none kept), and
	 * the command line of a profiling run in place of the counting one
	 * (NULL: pab_simcount_argv's; same contract, its files out_prefix.*). */
	const char *count_keep;
	char **(*wrap)(const char *tool, const char *out_prefix, char *const *argv,
		       char ***opts_out);
	/* 1 in attribution's profiling runs: the tool sees the system's
	 * debug information, which every counting child has hidden
	 * (simcount.h, PAB_SIMCOUNT_DEBUG_DIR). */
	int profiling;
	/* Counting children side by side (run/count_batch.h), each with its
	 * own copy of this struct and its own tmpdir: */
	int count_pu_given;        /* the counted child goes on PU count_pu alone */
	unsigned count_pu;
	int *count_stop_shared;    /* runchild.h's stop_shared */
	int side_by_side;          /* other children run: leave orphans to the
				    * caller (pab_kill_orphans would kill them) */
	/* Owned, made by pab_measure_start(): */
	char **base_env;           /* perfab's environment minus PERFAB_* */
	size_t n_base_env;
	char *tmpdir, *report_path;
	struct pab_cgroup **cg;    /* per arm, or NULL before its first child */
	char **cg_why;             /* per arm: why it has no cgroup */
	struct pab_cgroup_resetter *resetter; /* resets off the children's PU
				    * (probe/cgroup_reset.h), or NULL: in line */
	size_t n_arms;
};

/* What pab_measure_arm() tells besides the result. */
struct pab_measured {
	int spoke;        /* the child spoke perfab-workload/1 */
	int interrupted;  /* a stop signal (SIGTERM, ...) ended the child: stop */
	char *report_why; /* throughput run: its report was refused, why (owned) */
	/* Counting run: its wall time, and 1 when counting the row further is
	 * of no use (the count is not exact, or the run timed out or failed:
	 * its instructions are null with the reason). */
	double count_wall_s;
	int count_stop;
	int count_signal;     /* the signal that ended the counting run (0: none) */
	char count_cpus[64];  /* with count_pu_given: where it ran ("" unread) */
};

/*
 * pab_measure_start: the scratch directory, the inherited environment and
 * n_arms empty cgroup slots. Returns 0, or -1 with f filled (the scratch
 * directory could not be made); pab_measure_end() releases either way.
 */
int pab_measure_start(struct pab_measure *m, size_t n_arms, struct pab_failure *f);

/* Kill and remove every arm's cgroup, kill every orphan, remove the
 * scratch directory, free what pab_measure_start() made. Safe to call
 * twice. */
void pab_measure_end(struct pab_measure *m);

/* p99's reason in a rep whose latency replays were not run: a replay
 * doubles a workload row's children, so it runs only where p99 is judged. */
#define PAB_NO_REPLAY_WHY "not judged in this run (--metrics ...,p99 runs the latency replay)"

/* Which run of an arm pab_measure_arm() makes. */
enum pab_measure_pass {
	PAB_MEASURE_TIMED = 0,   /* the throughput run: every probe */
	PAB_MEASURE_LATENCY = 1, /* a latency replay: p99 only, no probes */
	PAB_MEASURE_COUNT = 2,   /* the counting pass: the child under
				  * count_tool, instructions only */
};

/*
 * pab_measure_arm: run arm arm of e for row once — a throughput run, a
 * latency replay or a counting run (pass) — with workload seed seed, into
 * res (whose slots start "not measured"; a latency replay and a counting
 * run write their one metric only). A failed child is no error: res says
 * how it failed (a failed counting run: its instructions are null with
 * the reason). With m->ignore_failure a child that exits with a non-zero
 * status is measured as one that exits 0 (res->exit_code keeps the
 * status, res->failed stays 0); one killed by a signal or the timeout
 * still fails. Returns 0 (see *out), or -1 with f
 * filled when the arm's program cannot be found or executed
 * (PAB_FAIL_USAGE) or the child could not be spawned (PAB_FAIL_SYSTEM).
 */
int pab_measure_arm(struct pab_measure *m, const struct pab_experiment *e,
		    const struct pab_row *row, size_t arm, enum pab_measure_pass pass,
		    uint64_t seed,
		    struct pab_arm_result *res, struct pab_measured *out,
		    struct pab_failure *f);

/*
 * pab_measure_identity: pab_child_identity (run/child_cmd.h) of arm
 * arm_idx's child of row in this run: what makes it the program it is,
 * as text, the key of its count. New string, or NULL when the program
 * cannot be found.
 */
char *pab_measure_identity(const struct pab_measure *m, const struct pab_experiment *e,
			   const struct pab_row *row, size_t arm_idx);

/*
 * pab_measure_count_tool_version: the first line valgrind (m->count_tool)
 * prints for --version ("valgrind-3.19.0"), run with perfab's environment,
 * or NULL when it printed none or failed. New string. No counted child.
 */
char *pab_measure_count_tool_version(struct pab_measure *m);

/*
 * pab_measure_hook: run the command line cmd (split, never a shell; {NAME}
 * put in from row's parameters) for row — --prepare, --setup, --cleanup,
 * an arm's prepare — unmeasured: no probes, no cgroup, perfab's
 * environment plus arm's (arm may be NULL), stdin /dev/null, stdout
 * dropped (or shown, like the children's), bound by the run's timeout.
 * Nothing of it runs on afterwards. Into *sr how it went (exit status,
 * signal, timeout, stderr tail; sr->interrupted for a stop signal).
 * Returns 0, or -1 with f filled when cmd does not split, its program is
 * not found (PAB_FAIL_USAGE) or it cannot be spawned (PAB_FAIL_SYSTEM).
 */
struct pab_spawn_result;
int pab_measure_hook(struct pab_measure *m, const struct pab_row *row,
		     const struct pab_arm *arm, const char *cmd,
		     struct pab_spawn_result *sr, struct pab_failure *f);

#endif /* PAB_RUN_MEASURE_H */
