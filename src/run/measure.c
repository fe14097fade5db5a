/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * measure.c — one arm of one rep (measure.h): argv and environment, the
 * probes at the gate, the spawn, and the child's cost into its result.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/argv_split.h"
#include "probe/counters.h"
#include "probe/guard.h"
#include "probe/runchild.h"
#include "probe/simcount.h"
#include "run/arms.h"
#include "run/child_cmd.h"
#include "run/measure.h"
#include "run/workload.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

extern char **environ;

/* ------------------------------------------------------------------ */
/* The run's shared state                                             */

static void build_base_env(struct pab_measure *m)
{
	char **p;

	for (p = environ; *p; p++)
		if (strncmp(*p, "PERFAB_", 7))
			m->n_base_env++;
	m->base_env = xcalloc(m->n_base_env + 1, sizeof(*m->base_env));
	m->n_base_env = 0;
	for (p = environ; *p; p++)
		if (strncmp(*p, "PERFAB_", 7))
			m->base_env[m->n_base_env++] = *p;
}

int pab_measure_start(struct pab_measure *m, size_t n_arms, struct pab_failure *f)
{
	m->n_arms = n_arms;
	m->cg = xcalloc(n_arms ? n_arms : 1, sizeof(*m->cg));
	m->cg_why = xcalloc(n_arms ? n_arms : 1, sizeof(*m->cg_why));
	build_base_env(m);
	m->tmpdir = pab_scratch_create();
	if (!m->tmpdir)
		return pab_fail_errno(f, "cannot create a temporary directory in '%s'",
				      getenv("TMPDIR") && *getenv("TMPDIR") ?
				      getenv("TMPDIR") : "/tmp");
	m->report_path = xasprintf("%s/report.json", m->tmpdir);
	if (m->use_cgroup)
		m->resetter = pab_cgroup_resetter_new(m->pin);
	return 0;
}

/* Kill what is in arm's cgroup, remove it, tell the guard. */
static void release_cgroup(struct pab_measure *m, size_t arm)
{
	if (!m->cg[arm])
		return;
	if (m->resetter)
		(void)pab_cgroup_resetter_wait(m->resetter, m->cg[arm]);
	pab_guard_cgroup_done(pab_cgroup_path(m->cg[arm]));
	if (pab_cgroup_freezer_path(m->cg[arm]))
		pab_guard_cgroup_done(pab_cgroup_freezer_path(m->cg[arm]));
	pab_cgroup_free(m->cg[arm]);
	m->cg[arm] = NULL;
}

void pab_measure_end(struct pab_measure *m)
{
	size_t a;

	for (a = 0; m->cg && a < m->n_arms; a++) {
		release_cgroup(m, a);
		free(m->cg_why[a]);
	}
	pab_cgroup_resetter_free(m->resetter);
	m->resetter = NULL;
	free(m->cg);
	free(m->cg_why);
	m->cg = NULL;
	m->cg_why = NULL;
	pab_kill_orphans();
	if (m->tmpdir)
		pab_scratch_remove(m->tmpdir);
	free(m->report_path);
	free(m->tmpdir);
	m->report_path = m->tmpdir = NULL;
	free(m->base_env);
	m->base_env = NULL;
	m->n_base_env = 0;
}

/* What every child of the run shares, for run/child_cmd.h. */
static struct pab_child_shared child_shared(const struct pab_measure *m)
{
	struct pab_child_shared sh = { m->base_env, m->n_base_env, m->scale, m->report_path };

	return sh;
}

char *pab_measure_identity(const struct pab_measure *m, const struct pab_experiment *e,
			   const struct pab_row *row, size_t arm_idx)
{
	struct pab_child_shared sh = child_shared(m);

	return pab_child_identity(&sh, e, row, arm_idx);
}

/* ------------------------------------------------------------------ */
/* Probes at the gate                                                 */

/* What at_gate() attached to one child. */
struct gate_probes {
	struct pab_measure *m;
	size_t arm;
	pid_t pid;
	struct pab_counters *counters;
	struct pab_cgroup *cgroup;
	const char *cgroup_why;
};

/* The arm's cgroup, made at its first child and reused once its reset is
 * done (a new one when it could not be reset); NULL + why. */
static struct pab_cgroup *arm_cgroup(struct pab_measure *m, size_t arm)
{
	if (m->cg[arm] && m->resetter && pab_cgroup_resetter_wait(m->resetter, m->cg[arm]))
		release_cgroup(m, arm);
	if (!m->cg[arm] && !m->cg_why[arm]) {
		m->cg[arm] = pab_cgroup_new(&m->cg_why[arm]);
		if (m->cg[arm])
			pab_guard_cgroup(pab_cgroup_path(m->cg[arm]));
		if (m->cg[arm] && pab_cgroup_freezer_path(m->cg[arm]))
			pab_guard_cgroup(pab_cgroup_freezer_path(m->cg[arm]));
	}
	return m->cg[arm];
}

/* Runs while the child waits at the gate: counters and cgroup on it. */
static void at_gate(pid_t pid, void *arg)
{
	struct gate_probes *g = arg;
	struct pab_measure *m = g->m;

	g->pid = pid;
	pab_guard_group(pid);
	if (!pab_test_without("counters"))
		g->counters = pab_counters_open(pid, m->events, m->n_events);
	if (!m->use_cgroup) {
		g->cgroup_why = "cgroup placement disabled (--no-cgroup)";
		return;
	}
	g->cgroup = arm_cgroup(m, g->arm);
	g->cgroup_why = m->cg_why[g->arm];
	if (g->cgroup && pab_cgroup_attach(g->cgroup, pid)) {
		free(m->cg_why[g->arm]);
		m->cg_why[g->arm] = xasprintf("cannot move the child into '%s': %s",
					      pab_cgroup_path(g->cgroup), strerror(errno));
		g->cgroup_why = m->cg_why[g->arm];
		release_cgroup(m, g->arm);
		g->cgroup = NULL;
	}
}

/* A latency replay's gate: no probes, only the guard told of its group. */
static void at_gate_group(pid_t pid, void *arg)
{
	struct gate_probes *g = arg;

	g->pid = pid;
	pab_guard_group(pid);
}

/*
 * Read what at_gate() attached into res: the counters (then closed) and
 * the cgroup's peak. The cgroup is emptied for the next child of the arm
 * (or released, and a new one made then, when it cannot be).
 */
static void collect_probes(struct gate_probes *g, struct pab_arm_result *res)
{
	size_t i;

	for (i = 0; g->counters && i < pab_counters_count(g->counters); i++) {
		const struct pab_metric *met =
			pab_metric_find(pab_counters_name(g->counters, i));
		const char *why;
		double v;

		if (!met)
			continue;
		if (!pab_counters_read(g->counters, i, &v, &why))
			res->m[met->id] = v;
		else
			pab_arm_result_null(res, met->id, why);
	}
	pab_counters_close(g->counters);
	g->counters = NULL;
	if (g->cgroup) {
		const char *why;
		double peak;

		if (!pab_cgroup_peak(g->cgroup, &peak, &why))
			res->m[PAB_M_CGROUP_PEAK] = peak;
		else
			pab_arm_result_null(res, PAB_M_CGROUP_PEAK, why);
		if (g->m->resetter) {
			/* Nothing the child left runs on; the rest of the reset
			 * overlaps the next children (arm_cgroup waits). */
			pab_cgroup_kill(g->cgroup);
			pab_cgroup_resetter_start(g->m->resetter, g->cgroup);
			g->cgroup = NULL;
		} else if (pab_cgroup_reset(g->cgroup)) {
			release_cgroup(g->m, g->arm); /* a new one for the next child */
		}
	} else {
		pab_arm_result_null(res, PAB_M_CGROUP_PEAK,
				    g->cgroup_why ? g->cgroup_why : "no cgroup");
	}
}

/* After a child: nothing it started runs on, whatever happened (perfab
 * is the subreaper of every orphan it left). */
static void end_child(struct gate_probes *g)
{
	pab_counters_close(g->counters);
	g->counters = NULL;
	if (g->cgroup)
		pab_cgroup_kill(g->cgroup);
	if (!g->m->side_by_side)
		pab_kill_orphans();
	if (g->pid > 0)
		pab_guard_group_done(g->pid);
}

/* ------------------------------------------------------------------ */
/* One child                                                          */

/*
 * How every child of an arm starts, whichever pass runs it: its program,
 * argv and environment (cmd), the run's stdin (--input), output handling,
 * CPU binding and limits, and perfab's working directory (inherited).
 * The counting pass wraps this same description in valgrind
 * (count_arm), so the counted child is the timed child.
 */
static void child_opts(const struct pab_measure *m, const struct pab_child_cmd *cmd,
		       struct pab_spawn_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->exe = cmd->exe;
	o->argv = cmd->argv;
	o->envp = cmd->env;
	o->pin = m->pin;
	o->timeout_ns = m->timeout_ns;
	o->kill_grace_ns = 2000000000;
	o->max_procs = m->max_procs;
	o->stdin_path = m->input;
	o->stdout_fd = m->show_output ? STDERR_FILENO : m->stdout_fd;
	o->echo_stderr = m->show_output;
}

/* Spawn cmd with m's limits and the probes at its gate; 0 or -1 (errno). */
static int spawn(struct pab_measure *m, const struct pab_child_cmd *cmd, int latency,
		 struct gate_probes *probes, struct pab_spawn_result *sr)
{
	struct pab_spawn_opts o;

	unlink(m->report_path);
	child_opts(m, cmd, &o);
	o.sampler = latency || pab_test_without("sampler") ? NULL : m->sampler;
	o.at_gate = latency ? at_gate_group : at_gate;
	o.at_gate_arg = probes;
	return pab_spawn_measure(&o, sr);
}

/* How the child ended; a non-zero exit status fails it unless the run
 * ignores them (--ignore-failure). */
static void record_status(const struct pab_measure *m, struct pab_arm_result *res,
			  const struct pab_spawn_result *sr)
{
	res->exit_code = sr->exit_code;
	res->term_signal = sr->term_signal;
	res->timed_out = sr->timed_out;
	res->tree_limit = sr->tree_limit_hit;
	res->failed = (sr->exit_code != 0 && !m->ignore_failure) || sr->term_signal ||
		sr->timed_out;
	if (res->failed && sr->stderr_tail[0]) {
		free(res->stderr_tail);
		res->stderr_tail = xstrdup(sr->stderr_tail);
	}
}

/* The child's rusage, own peak and sampled tree peaks. */
static void record_rusage(struct pab_arm_result *res, const struct pab_spawn_result *sr)
{
	const char *tree_why = sr->tree.why ? sr->tree.why : "not sampled";

	res->m[PAB_M_WALL] = (double)sr->wall_ns / 1e9;
	res->m[PAB_M_USER] = (double)sr->ru.ru_utime.tv_sec + sr->ru.ru_utime.tv_usec / 1e6;
	res->m[PAB_M_SYS] = (double)sr->ru.ru_stime.tv_sec + sr->ru.ru_stime.tv_usec / 1e6;
	res->m[PAB_M_CPU] = res->m[PAB_M_USER] + res->m[PAB_M_SYS];
	res->m[PAB_M_MINOR_FAULTS] = (double)sr->ru.ru_minflt;
	res->m[PAB_M_MAJOR_FAULTS] = (double)sr->ru.ru_majflt;
	res->m[PAB_M_VOL_CTX] = (double)sr->ru.ru_nvcsw;
	res->m[PAB_M_INVOL_CTX] = (double)sr->ru.ru_nivcsw;
	if (!sr->own_hwm_why)
		res->m[PAB_M_PEAK_RSS] = (double)sr->own_hwm_bytes;
	if (sr->tree.samples) {
		res->m[PAB_M_TREE_PEAK_RSS] = (double)sr->tree.rss_bytes;
		res->m[PAB_M_TREE_PEAK_PSS] = (double)sr->tree.pss_bytes;
	} else {
		pab_arm_result_null(res, PAB_M_TREE_PEAK_RSS, tree_why);
		pab_arm_result_null(res, PAB_M_TREE_PEAK_PSS, tree_why);
	}
}

/*
 * A throughput run's report into res; without one (or a refused one) the
 * throughput is 1/wall and the report's metrics are null with the reason.
 * Returns pab_workload_report_collect()'s value; a refusal's reason goes
 * to out->report_why.
 */
static int record_report(const struct pab_measure *m, const struct pab_spawn_result *sr,
			 struct pab_arm_result *res, struct pab_measured *out)
{
	static const enum pab_metric_id by_report[] = {
		PAB_M_DRAIN_RSS, PAB_M_RELEASE_BOUND_RSS, PAB_M_RELEASE_MS,
		PAB_M_RSS_FLOOR, PAB_M_P99,
	};
	char *why = NULL;
	int spoke = pab_workload_report_collect(m->report_path, 0, res, &why);
	size_t i;

	if (spoke <= 0) {
		res->m[PAB_M_THROUGHPUT] = sr->wall_ns > 0 ? 1e9 / (double)sr->wall_ns : NAN;
		for (i = 0; i < sizeof(by_report) / sizeof(by_report[0]); i++)
			pab_arm_result_null(res, by_report[i], spoke < 0 && why ? why :
					    "the command does not speak perfab-workload/1");
	}
	if (spoke < 0)
		out->report_why = why;
	else
		free(why);
	return spoke;
}

/* Whatever is still NaN without a reason gets one: never a silent null. */
static void fill_not_probed(struct pab_arm_result *res, const struct pab_spawn_result *sr)
{
	size_t i;

	if (!isfinite(res->m[PAB_M_PEAK_RSS]))
		pab_arm_result_null(res, PAB_M_PEAK_RSS,
				    sr->own_hwm_why ? sr->own_hwm_why : "not read");
	for (i = 0; i < PAB_M_COUNT; i++)
		if (!isfinite(res->m[i]) && !res->reason[i])
			pab_arm_result_null(res, (enum pab_metric_id)i,
					    "not measured for this arm");
}

/* A latency replay's report: p99, else null with the reason. */
static int record_latency(const struct pab_measure *m, struct pab_arm_result *res)
{
	char *why = NULL;
	int spoke = pab_workload_report_collect(m->report_path, 1, res, &why);

	if (spoke <= 0)
		pab_arm_result_null(res, PAB_M_P99,
				    why ? why : "the latency replay wrote no report");
	free(why);
	return spoke;
}

/* The counted child's result from how it ended and what valgrind wrote. */
static void record_count(struct pab_measure *m, const struct pab_spawn_result *sr,
			 const char *prefix, pid_t pid, const char *exe,
			 struct pab_arm_result *res, struct pab_measured *out)
{
	struct pab_simcount_tree t;
	char *why = NULL;

	out->count_wall_s = (double)sr->wall_ns / 1e9;
	out->count_signal = sr->term_signal;
	/* valgrind exits with the program's status: --ignore-failure counts
	 * a program that exits non-zero as its timed run measured it. */
	if (sr->timed_out || (sr->exit_code && !m->ignore_failure) || sr->term_signal) {
		why = sr->timed_out ?
			xasprintf("the counting run passed its limit of %.0f s (%s%d) and was "
				  "stopped", (double)m->count_timeout_ns / 1e9, m->count_limit_budget ?
				  "what was left of the run's budget, below --timeout x " :
				  "--timeout x ", PAB_SIMCOUNT_SLOWDOWN) :
			sr->term_signal ? xasprintf("the counting run was killed by signal %d",
						    sr->term_signal) :
			xasprintf("the counting run exited %d (the timed run exited 0)",
				  sr->exit_code);
		out->count_stop = 1;
	} else if (!pab_simcount_collect_keep(prefix, (long)pid, exe, m->count_keep, &t, &why)) {
		why = pab_simcount_not_exact(&t);
		out->count_stop = why != NULL;
		if (!why)
			res->m[PAB_M_INSTRUCTIONS] = t.ir;
		pab_simcount_tree_release(&t);
	}
	if (why)
		pab_arm_result_null(res, PAB_M_INSTRUCTIONS, why);
	else
		res->reason[PAB_M_INSTRUCTIONS] = NULL;
	free(why);
	/* Whatever a stopped run left behind goes too. */
	if (!pab_simcount_collect(prefix, 0, NULL, &t, &why))
		pab_simcount_tree_release(&t);
	free(why);
}

/* A counting run: the arm's child as child_opts() starts it, under the
 * count tool, bound by m->count_timeout_ns; its count into res's
 * instructions (the other slots are the timed run's). Returns 0, or -1
 * (errno) when it could not be spawned. */
static int count_arm(struct pab_measure *m, const struct pab_child_cmd *cmd, size_t ri, size_t arm_idx,
		     struct pab_arm_result *res, struct pab_measured *out)
{
	struct gate_probes probes = { m, arm_idx, 0, NULL, NULL, NULL };
	char *prefix = xasprintf("%s/count-%zu-%zu", m->tmpdir, ri, arm_idx), **opts, **argv;
	char *first = cmd->argv[0];
	struct pab_spawn_opts o;
	struct pab_spawn_result sr;
	int ret;

	/* valgrind runs the program the timed child ran (its resolved and
	 * digest-checked path), not whatever argv[0] finds on PATH. */
	cmd->argv[0] = cmd->exe;
	argv = (m->wrap ? m->wrap : pab_simcount_argv)(m->count_tool, prefix, cmd->argv, &opts);
	cmd->argv[0] = first;
	unlink(m->report_path);
	child_opts(m, cmd, &o);
	o.exe = m->count_tool;
	o.argv = argv;
	o.timeout_ns = m->count_timeout_ns;
	o.pu_given = m->count_pu_given;
	o.pu = m->count_pu;
	o.stop_shared = m->count_stop_shared;
	if (!m->profiling)
		o.hide_dir = PAB_SIMCOUNT_DEBUG_DIR;
	o.at_gate = at_gate_group;
	o.at_gate_arg = &probes;
	ret = pab_spawn_measure(&o, &sr);
	if (!ret)
		end_child(&probes);
	if (ret || sr.interrupted || sr.spawn_errno) {
		out->interrupted = ret ? 0 : sr.interrupted; /* the signal, not 1 */
		if (!ret && sr.spawn_errno)
			pab_arm_result_null(res, PAB_M_INSTRUCTIONS, "the counting run could not "
					    "start valgrind");
	} else {
		record_count(m, &sr, prefix, probes.pid, cmd->exe, res, out);
	}
	if (!ret)
		memcpy(out->count_cpus, sr.pu_obtained, sizeof(out->count_cpus));
	pab_simcount_argv_free(argv, opts);
	free(prefix);
	return ret;
}

int pab_measure_arm(struct pab_measure *m, const struct pab_experiment *e,
		    const struct pab_row *row, size_t arm_idx, enum pab_measure_pass pass,
		    uint64_t seed, struct pab_arm_result *res, struct pab_measured *out,
		    struct pab_failure *f)
{
	int latency = pass == PAB_MEASURE_LATENCY;
	const struct pab_arm *arm = &e->arms[arm_idx];
	struct gate_probes probes = { m, arm_idx, 0, NULL, NULL, NULL };
	struct pab_spawn_result sr;
	struct pab_child_shared sh = child_shared(m);
	struct pab_child_cmd cmd;
	char *why;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (pab_child_cmd_make(&cmd, &sh, row, arm, latency ? "latency" : "throughput", seed,
			       &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "%s", why);
		free(why);
		return -1;
	}
	if (pab_child_check_files(row, arm, arm_idx, cmd.exe, 0, f)) {
		ret = -1;
		goto out;
	}
	if (pass == PAB_MEASURE_COUNT) {
		if (count_arm(m, &cmd, (size_t)(row - e->rows), arm_idx, res, out))
			ret = pab_fail_errno(f, "cannot count arm '%s' of row '%s'",
					     pab_term_safe(arm->name), pab_term_safe(row->name));
		goto out;
	}
	if (spawn(m, &cmd, latency, &probes, &sr)) {
		ret = pab_fail_errno(f, "cannot run arm '%s' of row '%s'",
				     pab_term_safe(arm->name), pab_term_safe(row->name));
		goto out;
	}
	/* A replay, a stop or a failed exec reads no probes: still no child of
	 * this one may run on. */
	if (latency || sr.interrupted || sr.spawn_errno)
		end_child(&probes);
	out->interrupted = sr.interrupted;
	if (sr.interrupted)
		goto out;
	if (sr.spawn_errno) {
		ret = pab_fail(f, PAB_FAIL_USAGE, "arm '%s': cannot execute '%s': %s", arm->name,
			       cmd.exe, strerror(sr.spawn_errno));
		goto out;
	}
	record_status(m, res, &sr);
	if (latency) {
		out->spoke = record_latency(m, res) > 0;
		goto out;
	}
	collect_probes(&probes, res);
	end_child(&probes);
	/* The counting pass counts; a timed child's own count is not one. */
	if (m->count_tool)
		pab_arm_result_null(res, PAB_M_INSTRUCTIONS, "not counted in this rep "
				    "(see run.counts.reps)");
	record_rusage(res, &sr);
	out->spoke = record_report(m, &sr, res, out) > 0;
	fill_not_probed(res, &sr);
out:
	pab_child_cmd_release(&cmd);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Unmeasured commands                                                */

/* The environment of a hook: perfab's (less PERFAB_*), then arm's. */
static char **hook_env(const struct pab_measure *m, const struct pab_arm *arm, char ***own)
{
	size_t n_arm = arm ? arm->n_env : 0, n = 0, i, k;
	char **env = xcalloc(m->n_base_env + n_arm + 1, sizeof(*env));

	*own = xcalloc(n_arm + 1, sizeof(**own));
	for (i = 0; i < m->n_base_env; i++) {
		int overridden = 0;

		for (k = 0; k < n_arm; k++) {
			size_t kl = strlen(arm->env[k].key);

			if (!strncmp(m->base_env[i], arm->env[k].key, kl) &&
			    m->base_env[i][kl] == '=')
				overridden = 1;
		}
		if (!overridden)
			env[n++] = m->base_env[i];
	}
	for (k = 0; k < n_arm; k++)
		env[n++] = (*own)[k] = xasprintf("%s=%s", arm->env[k].key, arm->env[k].value);
	return env;
}

/* Only the guard is told of a hook's group: it is not measured. */
static void at_gate_hook(pid_t pid, void *arg)
{
	*(pid_t *)arg = pid;
	pab_guard_group(pid);
}

int pab_measure_hook(struct pab_measure *m, const struct pab_row *row,
		     const struct pab_arm *arm, const char *line,
		     struct pab_spawn_result *sr, struct pab_failure *f)
{
	struct pab_spawn_opts o = { 0 };
	struct pab_child_cmd cmd = { 0 };
	char **words = NULL, *exe;
	const char *why;
	size_t n_words, k = 0, n_own = 0;
	pid_t pid = 0;
	int ret = 0;

	if (pab_argv_split(line, &words, &n_words, &why))
		return pab_fail(f, PAB_FAIL_USAGE, "cannot run '%s': %s", pab_term_safe(line), why);
	cmd.argv = xcalloc(n_words + 1, sizeof(*cmd.argv));
	cmd.argv_own = xcalloc(n_words + 1, sizeof(*cmd.argv_own));
	cmd.argv[k++] = words[0];
	pab_child_expand_words(words, n_words, 1, row, cmd.argv, &k, cmd.argv_own, &n_own);
	exe = pab_resolve_exe(words[0]);
	if (!exe) {
		ret = pab_fail(f, PAB_FAIL_USAGE, "cannot run '%s': '%s': %s (give a path or put "
			       "it on PATH)", pab_term_safe(line), pab_term_safe(words[0]),
			       strerror(errno));
		goto out;
	}
	cmd.exe = exe;
	cmd.env = hook_env(m, arm, &cmd.own);
	o.exe = cmd.exe;
	o.argv = cmd.argv;
	o.envp = cmd.env;
	o.pin = m->pin;
	o.timeout_ns = m->timeout_ns;
	o.kill_grace_ns = 2000000000;
	o.max_procs = 0;
	o.at_gate = at_gate_hook;
	o.at_gate_arg = &pid;
	o.stdout_fd = m->show_output ? STDERR_FILENO : 0;
	o.echo_stderr = m->show_output;
	if (pab_spawn_measure(&o, sr))
		ret = pab_fail_errno(f, "cannot run '%s'", pab_term_safe(line));
	else if (sr->spawn_errno)
		ret = pab_fail(f, PAB_FAIL_USAGE, "cannot execute '%s': %s", cmd.exe,
			       strerror(sr->spawn_errno));
	pab_kill_orphans();
	if (pid > 0)
		pab_guard_group_done(pid);
out:
	pab_child_cmd_release(&cmd);
	pab_argv_free(words);
	return ret;
}

char *pab_measure_count_tool_version(struct pab_measure *m)
{
	char *out = xasprintf("%s/tool-version", m->tmpdir), *text = NULL, *nl;
	char *argv[] = { (char *)m->count_tool, (char *)"--version", NULL };
	struct pab_spawn_opts o = { 0 };
	struct pab_spawn_result sr;
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	pid_t pid = 0;

	if (fd < 0)
		goto out_free;
	o.exe = m->count_tool;
	o.argv = argv;
	o.envp = m->base_env;
	o.timeout_ns = 30 * (int64_t)1000000000;
	o.kill_grace_ns = 1000000000;
	o.stdout_fd = fd;
	o.at_gate = at_gate_hook;
	o.at_gate_arg = &pid;
	if (!pab_spawn_measure(&o, &sr) && !sr.spawn_errno && !sr.interrupted &&
	    sr.exit_code == 0) {
		text = pab_read_regular_file(out, "valgrind's version", 4096, NULL, &nl);
		if (!text)
			free(nl);
	}
	pab_kill_orphans();
	if (pid > 0)
		pab_guard_group_done(pid);
	close(fd);
	if (text && (nl = strchr(text, '\n')))
		*nl = '\0';
	if (text && !*text) {
		free(text);
		text = NULL;
	}
out_free:
	unlink(out);
	free(out);
	return text;
}
