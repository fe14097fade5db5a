/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_run.c — `perfab run`: set up arms and rows, run the rotate-reverse/1
 * rotation on pinned cores, measure every child, checkpoint after every
 * rep, apply the sanity gate and adaptive reps, and print the ledger.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "model/argv_split.h"
#include "model/artifact.h"
#include "builtin.h"
#include "probe/cgroup.h"
#include "probe/counters.h"
#include "model/digest.h"
#include "report/format.h"
#include "probe/guard.h"
#include "probe/hostinfo.h"
#include "model/journal.h"
#include "judge/ledger.h"
#include "report/report.h"
#include "options.h"
#include "probe/pin.h"
#include "probe/proc.h"
#include "model/rotation.h"
#include "run/runconf.h"
#include "probe/sampler.h"
#include "probe/runchild.h"
#include "util.h"
#include "run/workload.h"
#include "common/suite.h"

extern char **environ;

static const char run_usage[] =
	"perfab run [OPTIONS] CMD_BASE CMD_HEAD\n"
	"       perfab run [--config FILE] [--arms base,head] [--no-null-arm] [--arm NAME=COMMAND]...\n"
	"                  [--head-env 'K=V || K=V'] [--workloads SEL] [--reps N] [--max-reps N]\n"
	"                  [--budget DURATION] [--metrics LIST]\n"
	"                  [--out FILE] [--cpus LIST] [--no-sanity-gate] [--preserve-builds DIR]\n"
	"                  [--seed N] [--shard I/N] [--timeout S] [--tolerance [METRIC=]PCT]...\n"
	"                  [--rules perfab/2|perfab/1|rule12] [--controls SEL] [--scale X]\n"
	"                  [--literal-argv]\n"
	"       perfab run --resume FILE [--config FILE] [--arm NAME=COMMAND]... [--trust-artifact]";

#define FOLD_FIRST_REPS 8 /* reps (all rows) before the first fold of the journal */

/* Adaptive by default: the first look, the cap, the whole run's budget. */
#define DEFAULT_FIRST_LOOK 12
#define DEFAULT_MAX_REPS 96
#define DEFAULT_BUDGET_S 600.0
#define SANITY_FACTOR 1.5
#define SANITY_SLACK_BYTES (8.0 * 1024 * 1024)

struct run {
	struct pab_experiment e;
	struct pab_pin *pin;
	struct pab_sampler *sampler;
	const char *out;
	char *tmpdir, *report_path;
	char **base_env;           /* inherited environment minus PERFAB_* */
	size_t n_base_env;
	double scale;
	int64_t timeout_ns;
	int quiet;
	int color;
	size_t *row_target;        /* reps each row should reach */
	size_t *looks, n_looks;    /* planned looks (adaptive reps) */
	int64_t start_ns, budget_ns; /* --budget (0 = none) */
	int budget_spent;
	size_t undecided;          /* rows undecided at the last look */
	const char **events;       /* --counters (NULL: the default set) */
	size_t n_events;
	int use_cgroup;
	long max_procs;
	size_t checkpoints;        /* written so far */
	int tty;                   /* stderr is a terminal: one status line */
	int status_shown;          /* a status line is on screen */
	int64_t t0_ns;             /* the loop's start */
	size_t reps_done;          /* reps completed in this invocation */
	int estimated;             /* the first block's estimate was printed */
	struct pab_journal *journal; /* the checkpoint journal beside out */
	char *journal_path;
	size_t total_reps;         /* reps of all rows measured so far */
	size_t folded_reps;        /* of those, in the artifact at the last fold */
	int lock_fd;               /* pab_artifact_lock() on out */
	struct pab_cgroup **cg;    /* per arm, created at its first child, reused */
	char **cg_why;             /* per arm: why it has no cgroup */
	char stop_where[512];      /* where the run stands, for the last line */
	size_t stop_completed;     /* reps the checkpoint holds at that point */
	char *resume_cmd;          /* "--resume FILE ..." that continues the run */
};

static void release_cgroup(struct run *r, size_t arm);
static void cleanup_tmp(struct run *r);
static void progress_clear(struct run *r);

/* What at_gate() attached to one child. */
struct gate_probes {
	struct run *r;
	size_t arm;
	pid_t pid;
	struct pab_counters *counters;
	struct pab_cgroup *cgroup;
	const char *cgroup_why;
};

/* Runs while the child waits at the gate: counters and cgroup on it. */
static void at_gate(pid_t pid, void *arg)
{
	struct gate_probes *g = arg;
	struct run *r = g->r;

	g->pid = pid;
	pab_guard_group(pid);
	if (!pab_test_without("counters"))
		g->counters = pab_counters_open(pid, r->events, r->n_events);
	if (!r->use_cgroup) {
		g->cgroup_why = "cgroup placement disabled (--no-cgroup)";
		return;
	}
	/* One cgroup per arm, made at its first child and reused. */
	if (!r->cg[g->arm] && !r->cg_why[g->arm]) {
		r->cg[g->arm] = pab_cgroup_new(&r->cg_why[g->arm]);
		if (r->cg[g->arm])
			pab_guard_cgroup(pab_cgroup_path(r->cg[g->arm]));
		if (r->cg[g->arm] && pab_cgroup_freezer_path(r->cg[g->arm]))
			pab_guard_cgroup(pab_cgroup_freezer_path(r->cg[g->arm]));
	}
	g->cgroup = r->cg[g->arm];
	g->cgroup_why = r->cg_why[g->arm];
	if (g->cgroup && pab_cgroup_attach(g->cgroup, pid)) {
		free(r->cg_why[g->arm]);
		r->cg_why[g->arm] = xasprintf("cannot move the child into '%s': %s",
					      pab_cgroup_path(g->cgroup), strerror(errno));
		g->cgroup_why = r->cg_why[g->arm];
		release_cgroup(r, g->arm);
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

/* Kill what is in arm's cgroup, remove it, tell the guard. */
static void release_cgroup(struct run *r, size_t arm)
{
	if (!r->cg[arm])
		return;
	pab_guard_cgroup_done(pab_cgroup_path(r->cg[arm]));
	if (pab_cgroup_freezer_path(r->cg[arm]))
		pab_guard_cgroup_done(pab_cgroup_freezer_path(r->cg[arm]));
	pab_cgroup_free(r->cg[arm]);
	r->cg[arm] = NULL;
}

/*
 * Read what at_gate() attached into res, then leave nothing of the child
 * running: its cgroup is emptied (killed) for the next child of the arm,
 * and every orphan it left (perfab is their subreaper) is killed.
 */
static void collect_probes(struct gate_probes *g, struct pab_arm_result *res)
{
	size_t i;

	for (i = 0; g->counters && i < pab_counters_count(g->counters); i++) {
		const struct pab_metric *m =
			pab_metric_find(pab_counters_name(g->counters, i));
		const char *why;
		double v;

		if (!m)
			continue;
		if (!pab_counters_read(g->counters, i, &v, &why))
			res->m[m->id] = v;
		else
			pab_arm_result_null(res, m->id, why);
	}
	pab_counters_close(g->counters);
	if (g->cgroup) {
		const char *why;
		double peak;

		if (!pab_cgroup_peak(g->cgroup, &peak, &why))
			res->m[PAB_M_CGROUP_PEAK] = peak;
		else
			pab_arm_result_null(res, PAB_M_CGROUP_PEAK, why);
		if (pab_cgroup_reset(g->cgroup))
			release_cgroup(g->r, g->arm); /* a new one for the next child */
	} else {
		pab_arm_result_null(res, PAB_M_CGROUP_PEAK,
				    g->cgroup_why ? g->cgroup_why : "no cgroup");
	}
}

/* After a child: nothing it started runs on, whatever happened. */
static void end_child(struct gate_probes *g)
{
	if (g->cgroup)
		pab_cgroup_kill(g->cgroup);
	pab_kill_orphans();
	if (g->pid > 0)
		pab_guard_group_done(g->pid);
}

/* Every cgroup, every orphan, the scratch directory, the lock. */
static void release_run(struct run *r)
{
	size_t a;

	for (a = 0; r->cg && a < r->e.n_arms; a++) {
		release_cgroup(r, a);
		free(r->cg_why[a]);
		r->cg_why[a] = NULL;
	}
	pab_kill_orphans();
	cleanup_tmp(r);
	pab_artifact_unlock(r->out, r->lock_fd);
	r->lock_fd = -1;
	pab_guard_done();
}

/*
 * SIGTERM, SIGINT or SIGHUP (taken only while a child runs or between
 * children, runchild.h): the child's group is already dead; say where
 * the run stopped and the command that resumes it, kill the rest, clean
 * up, and die of the signal. The last checkpoint stays as it was: the
 * rep in progress is not in it.
 */
_Noreturn static void stop_on_signal(struct run *r, int sig)
{
	sigset_t set;

	progress_clear(r);
	fprintf(stderr, "perfab: interrupted by signal %d (%s) %s; '%s' keeps the %zu reps "
		"completed before it; resume with: perfab run %s\n", sig, strsignal(sig),
		r->stop_where[0] ? r->stop_where : "before the first rep",
		pab_term_safe(r->out), r->stop_completed,
		r->resume_cmd ? r->resume_cmd : "--resume FILE");
	fflush(stderr); /* fully buffered during a run; raise() flushes nothing */
	release_run(r);
	fflush(stderr);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* ------------------------------------------------------------------ */
/* Setup                                                              */

/* Die on a bad --arms list before anything is allocated or moved. */
static void check_arm_list(const struct pab_experiment *e, const char *list)
{
	const char *p = list, *comma, *q;
	size_t i;

	for (;; p = comma + 1) {
		size_t len;

		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len)
			die(PAB_EXIT_USAGE, "--arms '%s' has an empty name", list);
		for (i = 0; i < e->n_arms; i++)
			if (strlen(e->arms[i].name) == len && !strncmp(e->arms[i].name, p, len))
				break;
		if (i == e->n_arms) {
			struct pab_strbuf known = PAB_STRBUF_INIT;

			for (i = 0; i < e->n_arms; i++)
				pab_strbuf_addf(&known, "%s'%s'", i ? ", " : "", e->arms[i].name);
			die(PAB_EXIT_USAGE, "unknown arm '%.*s' in --arms (defined: %s)", (int)len,
			    p, known.buf ? known.buf : "none");
		}
		for (q = list; q < p; q++)
			if ((q == list || q[-1] == ',') && !strncmp(q, p, len) &&
			    (q[len] == ',' || !q[len]))
				die(PAB_EXIT_USAGE, "arm '%.*s' is listed twice in --arms", (int)len, p);
		if (!comma)
			break;
	}
}

static void select_arms(struct pab_experiment *e, const char *list)
{
	struct pab_arm *picked;
	size_t n = 0, i;
	char *copy, *p, *comma;

	check_arm_list(e, list);
	copy = xstrdup(list);
	p = copy;
	picked = xcalloc(e->n_arms ? e->n_arms : 1, sizeof(*picked));
	for (;; p = comma + 1) {
		int idx;

		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		idx = pab_experiment_arm_index(e, p); /* found: checked above */
		picked[n++] = e->arms[idx];
		memset(&e->arms[idx], 0, sizeof(e->arms[idx]));
		e->arms[idx].name = xstrdup(""); /* moved out */
		if (!comma)
			break;
	}
	/* Arms not selected are dropped. */
	for (i = 0; i < e->n_arms; i++)
		pab_arm_release(&e->arms[i]);
	free(e->arms);
	e->arms = picked;
	e->n_arms = n;
	free(copy);
}

static void add_null_arm(struct pab_experiment *e)
{
	int b = pab_ledger_base_arm(e);
	struct pab_arm *base, *null;
	size_t i;

	if (pab_experiment_null_index(e) >= 0)
		die(PAB_EXIT_USAGE, "--null-arm: an arm is already called 'null'");
	e->arms = xrealloc(e->arms, (e->n_arms + 1) * sizeof(*e->arms));
	base = &e->arms[b];
	null = &e->arms[e->n_arms++];
	memset(null, 0, sizeof(*null));
	null->name = xstrdup("null");
	null->argv = pab_argv_dup(base->argv, base->argc);
	null->argc = base->argc;
	for (i = 0; i < base->n_env; i++)
		pab_kv_set(&null->env, &null->n_env, base->env[i].key,
			   base->env[i].value);
	if (base->revision)
		null->revision = xstrdup(base->revision);
}

static const char *workload_dir(void)
{
	const char *d = getenv("PERFAB_WORKLOAD_DIR");

	return d && *d ? d : PKGLIBEXECDIR;
}

/* The executable that arm runs for row (new string) or NULL + reason. */
static char *exe_for(const struct pab_arm *arm, const struct pab_row *row,
		     char **why)
{
	char *exe, *cand;

	*why = NULL;
	if (arm->argc) {
		exe = pab_resolve_exe(arm->argv[0]);
		if (!exe)
			*why = xasprintf("arm '%s': cannot run '%s': %s (give a path or put it on PATH)",
					 arm->name, arm->argv[0], strerror(errno));
		return exe;
	}
	if (!row->program) {
		*why = xasprintf("arm '%s' has no command, and row '%s' is not a built-in workload",
				 arm->name, pab_term_safe(row->name));
		return NULL;
	}
	cand = xasprintf("%s/%s", workload_dir(), row->program);
	exe = pab_resolve_exe(cand);
	if (!exe)
		*why = xasprintf("built-in program '%s' not found (%s); set PERFAB_WORKLOAD_DIR",
				 cand, strerror(errno));
	free(cand);
	return exe;
}

/*
 * Resolve and digest every executable of every (row, arm): arm->exe and
 * arm->sha256 are row 0's (the artifact's arms[].exe and sha256), each
 * row's own go to row->exes and row->exe_sha256 (rows[].executables), so
 * --resume can verify every program it runs, not only the first row's.
 */
static void resolve_arms(struct run *r)
{
	struct pab_experiment *e = &r->e;
	size_t a, ri, len0 = 0;

	for (a = 0; a < e->n_arms; a++) {
		struct pab_arm *arm = &e->arms[a];
		char *why;

		arm->exe = exe_for(arm, &e->rows[0], &why);
		if (!arm->exe)
			die(PAB_EXIT_USAGE, "%s", why);
		arm->sha256 = pab_sha256_file(arm->exe);
		if (!arm->sha256)
			die_errno("cannot read '%s' to digest it", arm->exe);
		if (!a)
			len0 = strlen(arm->exe);
		else if (strlen(arm->exe) != len0)
			warning("arm executables have paths of different lengths ('%s' vs '%s'): "
				"identical binaries have measured 17%% apart for that alone; "
				"use paths of equal length", e->arms[0].exe, arm->exe);
	}
	for (ri = 0; ri < e->n_rows; ri++) {
		struct pab_row *row = &e->rows[ri];

		row->exes = xcalloc(e->n_arms, sizeof(*row->exes));
		row->exe_sha256 = xcalloc(e->n_arms, sizeof(*row->exe_sha256));
		for (a = 0; a < e->n_arms; a++) {
			struct pab_arm *arm = &e->arms[a];
			char *why;

			if (!ri || arm->argc) { /* the arm's own executable */
				row->exes[a] = xstrdup(arm->exe);
				row->exe_sha256[a] = xstrdup(arm->sha256);
				continue;
			}
			row->exes[a] = exe_for(arm, row, &why);
			if (!row->exes[a])
				die(PAB_EXIT_USAGE, "%s", why);
			row->exe_sha256[a] = pab_sha256_file(row->exes[a]);
			if (!row->exe_sha256[a])
				die_errno("cannot read '%s' to digest it", row->exes[a]);
		}
	}
}

static void build_base_env(struct run *r)
{
	char **p;

	for (p = environ; *p; p++)
		if (strncmp(*p, "PERFAB_", 7))
			r->n_base_env++;
	r->base_env = xcalloc(r->n_base_env + 1, sizeof(*r->base_env));
	r->n_base_env = 0;
	for (p = environ; *p; p++)
		if (strncmp(*p, "PERFAB_", 7))
			r->base_env[r->n_base_env++] = *p;
}

/* ------------------------------------------------------------------ */
/* Measuring one child                                                */

static char *params_string(const struct pab_row *row)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t i;

	for (i = 0; i < row->n_params; i++)
		pab_strbuf_addf(&sb, "%s%s=%s", i ? "," : "", row->params[i].key,
				row->params[i].value);
	return pab_strbuf_detach(&sb);
}

/* The full environment for (row, arm, mode); strings freed by free_env. */
static char **make_env(const struct run *r, const struct pab_row *row,
		       const struct pab_arm *arm, const char *mode,
		       uint64_t seed, char ***owned)
{
	size_t n = 0, i, k, n_own = 0;
	char **env = xcalloc(r->n_base_env + arm->n_env + 8, sizeof(*env));
	char **own = xcalloc(arm->n_env + 8, sizeof(*own));
	char *params = params_string(row);

	for (i = 0; i < r->n_base_env; i++) {
		const char *v = r->base_env[i];
		int overridden = 0;

		for (k = 0; k < arm->n_env; k++) {
			size_t kl = strlen(arm->env[k].key);

			if (!strncmp(v, arm->env[k].key, kl) && v[kl] == '=')
				overridden = 1;
		}
		if (!overridden)
			env[n++] = (char *)v;
	}
	for (k = 0; k < arm->n_env; k++)
		env[n++] = own[n_own++] = xasprintf("%s=%s", arm->env[k].key,
						    arm->env[k].value);
	env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_PROTOCOL,
					    PAB_WORKLOAD_PROTOCOL);
	/* Only built-in rows name a suite row; a plain command keeps its own. */
	if (row->workload) {
		env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_ROW, row->workload);
		env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_PARAMS, params);
	}
	env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_MODE, mode);
	env[n++] = own[n_own++] = xasprintf("%s=%llu", PAB_ENV_SEED,
					    (unsigned long long)seed);
	env[n++] = own[n_own++] = xasprintf("%s=%.17g", PAB_ENV_SCALE, r->scale);
	env[n++] = own[n_own++] = xasprintf("%s=%s", PAB_ENV_REPORT,
					    r->report_path);
	free(params);
	*owned = own;
	return env;
}

static void free_env(char **env, char **own)
{
	char **p;

	for (p = own; *p; p++)
		free(*p);
	free(own);
	free(env);
}

static char **make_argv(const struct pab_arm *arm, const struct pab_row *row,
			const char *exe)
{
	size_t n = (arm->argc ? arm->argc : 1) + row->argc, i, k = 0;
	char **argv = xcalloc(n + 1, sizeof(*argv));

	if (arm->argc)
		for (i = 0; i < arm->argc; i++)
			argv[k++] = arm->argv[i];
	else
		argv[k++] = (char *)exe;
	for (i = 0; i < row->argc; i++)
		argv[k++] = row->argv[i];
	return argv;
}

/*
 * Read the workload's report into res (wreport.h: the child controls that
 * path). Returns 1 when the child spoke the protocol, 0 when there was no
 * report, -1 when the report was refused or malformed (*why says why).
 */
static int read_report(const struct run *r, struct pab_arm_result *res,
		       int latency, char **why)
{
	char *text;
	size_t len;
	int ret = pab_report_read(r->report_path, &text, &len, why);

	if (ret <= 0)
		return ret;
	ret = pab_report_parse(text, len, latency, res, why);
	free(text);
	return ret;
}

/* Whatever is still NaN without a reason gets one: never a silent null. */
static void fill_not_probed(struct pab_arm_result *res)
{
	size_t i;

	for (i = 0; i < PAB_M_COUNT; i++)
		if (!isfinite(res->m[i]) && !res->reason[i])
			pab_arm_result_null(res, (enum pab_metric_id)i,
					    "not measured for this arm");
}

/* Run one child; fill res. Returns 1 when it spoke the protocol. */
static int measure(struct run *r, struct pab_row *row, size_t arm_idx,
		   int latency, uint64_t seed, struct pab_arm_result *res)
{
	struct pab_arm *arm = &r->e.arms[arm_idx];
	struct pab_spawn_opts o = { 0 };
	struct pab_spawn_result sr;
	struct gate_probes probes = { r, arm_idx, 0, NULL, NULL, NULL };
	char **env, **own, **argv, *exe, *why = NULL;
	int spoke;

	exe = exe_for(arm, row, &why);
	if (!exe)
		die(PAB_EXIT_USAGE, "%s", why);
	argv = make_argv(arm, row, exe);
	env = make_env(r, row, arm, latency ? "latency" : "throughput", seed, &own);
	unlink(r->report_path);
	o.exe = exe;
	o.argv = argv;
	o.envp = env;
	o.pin = r->pin;
	o.sampler = latency || pab_test_without("sampler") ? NULL : r->sampler;
	o.timeout_ns = r->timeout_ns;
	o.kill_grace_ns = 2000000000;
	o.max_procs = r->max_procs;
	o.at_gate = latency ? at_gate_group : at_gate;
	o.at_gate_arg = &probes;
	if (pab_spawn_measure(&o, &sr))
		die_errno("cannot run arm '%s' of row '%s'", pab_term_safe(arm->name),
			  pab_term_safe(row->name));
	free_env(env, own);
	free(argv);
	if (latency || sr.interrupted || sr.spawn_errno) {
		/* at_gate() never ran or its probes are not read: still no
		 * child of this one may run on. */
		pab_counters_close(probes.counters);
		probes.counters = NULL;
		end_child(&probes);
	}
	if (sr.interrupted) {
		free(exe);
		stop_on_signal(r, sr.interrupted);
	}
	if (sr.spawn_errno)
		die(PAB_EXIT_USAGE, "arm '%s': cannot execute '%s': %s", arm->name, exe,
		    strerror(sr.spawn_errno));
	free(exe);

	res->exit_code = sr.exit_code;
	res->term_signal = sr.term_signal;
	res->timed_out = sr.timed_out;
	res->tree_limit = sr.tree_limit_hit;
	res->failed = sr.exit_code != 0 || sr.term_signal || sr.timed_out;
	if (res->failed && sr.stderr_tail[0]) {
		free(res->stderr_tail);
		res->stderr_tail = xstrdup(sr.stderr_tail);
	}
	if (latency) {
		spoke = read_report(r, res, 1, &why);
		if (spoke <= 0)
			pab_arm_result_null(res, PAB_M_P99,
					    why ? why : "the latency replay wrote no report");
		free(why);
		return spoke > 0;
	}
	collect_probes(&probes, res);
	end_child(&probes);
	res->m[PAB_M_WALL] = (double)sr.wall_ns / 1e9;
	res->m[PAB_M_USER] = (double)sr.ru.ru_utime.tv_sec + sr.ru.ru_utime.tv_usec / 1e6;
	res->m[PAB_M_SYS] = (double)sr.ru.ru_stime.tv_sec + sr.ru.ru_stime.tv_usec / 1e6;
	res->m[PAB_M_CPU] = res->m[PAB_M_USER] + res->m[PAB_M_SYS];
	res->m[PAB_M_MINOR_FAULTS] = (double)sr.ru.ru_minflt;
	res->m[PAB_M_MAJOR_FAULTS] = (double)sr.ru.ru_majflt;
	res->m[PAB_M_VOL_CTX] = (double)sr.ru.ru_nvcsw;
	res->m[PAB_M_INVOL_CTX] = (double)sr.ru.ru_nivcsw;
	if (!sr.own_hwm_why)
		res->m[PAB_M_PEAK_RSS] = (double)sr.own_hwm_bytes;
	if (sr.tree.samples) {
		res->m[PAB_M_TREE_PEAK_RSS] = (double)sr.tree.rss_bytes;
		res->m[PAB_M_TREE_PEAK_PSS] = (double)sr.tree.pss_bytes;
	} else {
		pab_arm_result_null(res, PAB_M_TREE_PEAK_RSS, sr.tree.why ? sr.tree.why : "not sampled");
		pab_arm_result_null(res, PAB_M_TREE_PEAK_PSS, sr.tree.why ? sr.tree.why : "not sampled");
	}
	spoke = read_report(r, res, 0, &why);
	if (spoke < 0)
		warning("row '%s' arm '%s': %s", pab_term_safe(row->name),
			pab_term_safe(arm->name), why);
	if (spoke <= 0) {
		static const enum pab_metric_id by_report[] = {
			PAB_M_DRAIN_RSS, PAB_M_RELEASE_BOUND_RSS, PAB_M_RELEASE_MS,
			PAB_M_RSS_FLOOR, PAB_M_P99,
		};
		size_t i;

		res->m[PAB_M_THROUGHPUT] = sr.wall_ns > 0 ? 1e9 / (double)sr.wall_ns : NAN;
		for (i = 0; i < sizeof(by_report) / sizeof(by_report[0]); i++)
			pab_arm_result_null(res, by_report[i], spoke < 0 && why ? why :
					    "the command does not speak perfab-workload/1");
	}
	free(why);
	if (!isfinite(res->m[PAB_M_PEAK_RSS]))
		pab_arm_result_null(res, PAB_M_PEAK_RSS,
				    sr.own_hwm_why ? sr.own_hwm_why : "not read");
	fill_not_probed(res);
	return spoke > 0;
}

/* ------------------------------------------------------------------ */
/* The loop                                                           */

/* Fold: the whole artifact, with every rep so far (artifact.h). */
static void checkpoint(struct run *r)
{
	char *why;

	if (r->journal)
		r->e.journal_folded = pab_journal_last_seq(r->journal);
	if (pab_artifact_save(&r->e, r->out, &why))
		die(PAB_EXIT_RUNTIME, "cannot write checkpoint '%s': %s (%s)", r->out, why,
		    r->checkpoints ?
		    "the previous checkpoint is intact: free space, then perfab run --resume it" :
		    "nothing was measured yet: choose another --out");
	r->checkpoints++;
	r->folded_reps = r->total_reps;
}

/* A new journal id: 32 hex digits, random. */
static char *new_journal_id(void)
{
	uint64_t w[2];
	size_t i;

	for (i = 0; i < 2; i++)
		if (getrandom(&w[i], sizeof(w[i]), 0) != (ssize_t)sizeof(w[i]))
			w[i] = (uint64_t)now_monotonic_ns() ^ ((uint64_t)getpid() << 32) ^ i;
	return xasprintf("%016llx%016llx", (unsigned long long)w[0],
			 (unsigned long long)w[1]);
}

/*
 * The first checkpoint: the artifact with everything measured so far (none
 * on a fresh run, all the interrupted run's reps on --resume), then a new
 * journal bound to it by its id and seed, numbered on from the last record
 * the artifact holds (doc/artifact-schema.md, the journal).
 */
static void start_journal(struct run *r)
{
	char *header, *why;
	size_t len, i;

	for (i = 0; i < r->e.n_rows; i++)
		r->total_reps += r->e.rows[i].n_reps;
	r->journal_path = pab_artifact_journal_path(r->out);
	if (!r->e.journal_id) {
		/* A new run: an old run's journal at the path goes before the
		 * new artifact names its own (a resumed run's journal is read
		 * already, and stays until the fold below holds its reps). */
		if (pab_journal_remove(r->journal_path, &why))
			die(PAB_EXIT_RUNTIME, "%s: remove it or choose another --out", why);
		r->e.journal_id = new_journal_id();
	}
	checkpoint(r);
	header = pab_artifact_journal_header(&r->e, &len, &why);
	if (!header || pab_journal_create(r->journal_path, r->e.journal_folded, header, len,
					  &r->journal, &why))
		die(PAB_EXIT_RUNTIME, "cannot write checkpoint '%s': %s (%s)", r->journal_path,
		    why, r->total_reps ?
		    "the previous checkpoint is intact: free space, then perfab run --resume it" :
		    "nothing was measured yet: choose another --out");
	free(header);
}

/*
 * Row ri completed a rep: append its record to the journal (one rep's
 * bytes, synced), and fold the journal into the artifact when the reps
 * since the last fold reach the reps folded then — at 8, 16, 32, ...
 * reps (FOLD_FIRST_REPS, so a short run pays few whole-file syncs) — so
 * all folds together rewrite less than twice the final artifact: a
 * checkpoint costs O(1) bytes per rep, amortised, at rep 10 as at rep
 * 1000 (tests/cli_journal.sh measures it).
 */
static void rep_completed(struct run *r, size_t ri)
{
	char *rec, *why;
	size_t len;

	rec = pab_artifact_rep_record(&r->e, ri, &len, &why);
	if (!rec || pab_journal_append(r->journal, rec, len, &why))
		die(PAB_EXIT_RUNTIME, "cannot write checkpoint '%s': %s (the previous checkpoint "
		    "is intact: free space, then perfab run --resume %s)", r->journal_path, why,
		    r->out);
	free(rec);
	r->total_reps++;
	if (r->total_reps >= 2 * r->folded_reps && r->total_reps >= FOLD_FIRST_REPS)
		checkpoint(r);
}

/* After the last checkpoint: the artifact alone is the result. */
static void end_journal(struct run *r)
{
	char *why;

	pab_journal_close(r->journal);
	r->journal = NULL;
	pab_crash_point("journal: artifact final, journal not removed");
	if (pab_journal_remove(r->journal_path, &why)) {
		warning("%s; the artifact '%s' is complete without it", why, r->out);
		free(why);
	}
	free(r->journal_path);
	r->journal_path = NULL;
}

/*
 * stderr is fully buffered during a run (cmd_run), so progress costs no
 * write per child: flush when 100 ms passed since the last flush, or when
 * the child before took 50 ms or more (then a line waiting behind a long
 * child would mislead, and one write per child costs nothing).
 */
static void flush_progress(void)
{
	static int64_t flushed_ns, last_ns;
	int64_t now = now_monotonic_ns();

	if (now - flushed_ns >= 100000000 || now - last_ns >= 50000000) {
		fflush(stderr);
		flushed_ns = now;
	}
	last_ns = now;
}

/*
 * Progress on stderr. A plan line first; on a terminal one status line
 * rewritten in place before every child (row, rep, arm, elapsed, ETA);
 * otherwise one line per completed rep. The ETA scales the time so far by
 * the reps still planned (adaptive reps may add more).
 */
static size_t reps_planned(const struct run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->e.n_rows; i++)
		if (!r->e.rows[i].failed)
			n += r->row_target[i];
	return n;
}

static size_t reps_recorded(const struct run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->e.n_rows; i++)
		if (!r->e.rows[i].failed)
			n += r->e.rows[i].n_reps;
	return n;
}

/* "0:42 elapsed · ETA 1:10" (the ETA once a rep is done). */
static void elapsed_eta(const struct run *r, char *buf, size_t len)
{
	double el = (double)(now_monotonic_ns() - r->t0_ns) / 1e9;
	size_t planned = reps_planned(r), have = reps_recorded(r);
	int n = snprintf(buf, len, "%d:%02d elapsed", (int)el / 60, (int)el % 60);

	if (r->reps_done && planned > have && n > 0 && (size_t)n < len) {
		double eta = el / (double)r->reps_done * (double)(planned - have);

		snprintf(buf + n, len - (size_t)n, " \u00b7 ETA %d:%02d", (int)eta / 60,
			 (int)eta % 60);
	}
}

/* Clear the status line before other stderr output. */
static void progress_clear(struct run *r)
{
	if (r->status_shown) {
		fputs("\r\033[K", stderr);
		r->status_shown = 0;
	}
}

/* Every rep of every row, failed rows included: what a checkpoint holds. */
static size_t reps_held(const struct run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->e.n_rows; i++)
		n += r->e.rows[i].n_reps;
	return n;
}

/*
 * Where the run stands, for the last line stop_on_signal() prints: set
 * before the first rep, inside every rep (which the row already counts,
 * so the reps completed are one fewer) and after each rep's checkpoint.
 */
static void set_stop_where(struct run *r, const char *where, size_t completed)
{
	snprintf(r->stop_where, sizeof(r->stop_where), "%s", where);
	r->stop_completed = completed;
}

/* Inside rep `rep` of `row`, arm `arm` running (the row counts the rep). */
static void update_stop_line(struct run *r, size_t row, size_t rep, size_t arm)
{
	char where[512];

	snprintf(where, sizeof(where), "at row %zu/%zu '%s', rep %zu/%zu, arm %s", row + 1,
		 r->e.n_rows, pab_term_safe(r->e.rows[row].name), rep + 1, r->row_target[row],
		 r->e.arms[arm].name);
	set_stop_where(r, where, reps_held(r) - 1);
}

/*
 * Checkpoint a completed rep of row (its journal record), and move the
 * last line past it. SIGTERM, SIGINT and SIGHUP are blocked from
 * pab_spawn_setup() on and taken only while a child runs or between
 * children (runchild.h), never in here: the line always counts exactly
 * the reps the files on disk hold, and no record is cut by the signal.
 */
static void checkpoint_rep(struct run *r, size_t row)
{
	char where[512];

	rep_completed(r, row);
	snprintf(where, sizeof(where), "after rep %zu/%zu of row %zu/%zu '%s'",
		 r->e.rows[row].n_reps, r->row_target[row], row + 1, r->e.n_rows,
		 pab_term_safe(r->e.rows[row].name));
	set_stop_where(r, where, reps_held(r));
}

static void progress_plan(struct run *r)
{
	size_t planned = reps_planned(r), have = reps_recorded(r);
	char upto[96] = "";

	r->t0_ns = now_monotonic_ns();
	set_stop_where(r, "before the next rep", reps_held(r));
	if (r->quiet)
		return;
	if (r->e.max_reps > r->e.reps)
		snprintf(upto, sizeof(upto), " (up to %zu reps per row while cells stay undecided)",
			 r->e.max_reps);
	fprintf(stderr, "perfab: plan: %zu row%s \u00d7 %zu arms \u00d7 %zu reps = %zu children"
		"%s; an estimate of the time follows the first block\n", r->e.n_rows,
		r->e.n_rows == 1 ? "" : "s", r->e.n_arms, planned > have ?
		(planned - have) / (r->e.n_rows ? r->e.n_rows : 1) : 0,
		(planned - have) * r->e.n_arms, upto);
}

static void progress(struct run *r, size_t row, size_t rep,
		     size_t arm, const char *what)
{
	char times[64];

	update_stop_line(r, row, rep, arm);
	if (r->quiet || !r->tty) {
		flush_progress(); /* the per-rep lines of a log */
		return;
	}
	elapsed_eta(r, times, sizeof(times));
	fprintf(stderr, "\r\033[K%srow %zu/%zu %s \u00b7 rep %zu/%zu \u00b7 arm %s%s \u00b7 %s%s",
		r->color ? "\033[2m" : "", row + 1, r->e.n_rows, pab_term_safe(r->e.rows[row].name),
		rep + 1, r->row_target[row], r->e.arms[arm].name, what, times,
		r->color ? "\033[0m" : "");
	r->status_shown = 1;
}

/* After a rep of row: the line a log keeps, and the first block's estimate. */
static void progress_rep_done(struct run *r, size_t row)
{
	char times[64];

	r->reps_done++;
	if (r->quiet)
		return;
	elapsed_eta(r, times, sizeof(times));
	if (!r->tty)
		fprintf(stderr, "row %zu/%zu %s \u00b7 rep %zu/%zu done \u00b7 %s\n", row + 1,
			r->e.n_rows, pab_term_safe(r->e.rows[row].name), r->e.rows[row].n_reps,
			r->row_target[row], times);
	if (!r->estimated && r->reps_done >= r->e.n_arms * r->e.n_rows) {
		double el = (double)(now_monotonic_ns() - r->t0_ns) / 1e9;
		double left = el / (double)r->reps_done *
			(double)(reps_planned(r) - reps_recorded(r));
		char a[32], b[32];

		r->estimated = 1;
		pab_fmt_duration(a, sizeof(a), el);
		pab_fmt_duration(b, sizeof(b), left);
		progress_clear(r);
		fprintf(stderr, "perfab: the first block took %s; about %s more for the planned reps\n",
			a, b);
	}
}

/* "exited with status 2", "was killed by signal 11 (...)", "timed out". */
static char *describe_failure(const struct pab_arm *arm, size_t rep,
			      const struct pab_arm_result *res)
{
	if (res->timed_out)
		return xasprintf("arm '%s' rep %zu timed out", arm->name, rep + 1);
	if (res->tree_limit)
		return xasprintf("arm '%s' rep %zu was killed: its process tree passed --max-procs",
				 arm->name, rep + 1);
	if (res->term_signal)
		return xasprintf("arm '%s' rep %zu was killed by signal %d (%s)",
				 arm->name, rep + 1, res->term_signal,
				 strsignal(res->term_signal));
	return xasprintf("arm '%s' rep %zu exited with status %d", arm->name,
			 rep + 1, res->exit_code);
}

/* Print the last lines a failed child wrote to stderr, indented. */
static void show_stderr_tail(const char *text)
{
	size_t len = text ? strlen(text) : 0;
	const char *p, *line;
	int lines = 0;

	if (!len)
		return;
	for (p = text + len; p > text && lines < 6; p--)
		if (p[-1] == '\n' && p != text + len)
			lines++;
	for (line = p; *line;) {
		const char *nl = strchr(line, '\n');

		fprintf(stderr, "  | %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
		if (!nl)
			break;
		line = nl + 1;
	}
}

/* One rep of one row: every arm in rotation order, then latency replays. */
static void run_rep(struct run *r, size_t ri)
{
	struct pab_row *row = &r->e.rows[ri];
	size_t n = r->e.n_arms, k, rep_idx = row->n_reps;
	struct pab_rep *rep = pab_row_add_rep(row, n);
	uint64_t seed = (r->e.seed + rep_idx) & ((1ULL << 53) - 1);
	int spoke = 1;

	rep->block = pab_rotation_block(n, rep_idx);
	pab_rotation_order(n, rep_idx, rep->order);
	for (k = 0; k < n; k++) {
		size_t a = rep->order[k];

		progress(r, ri, rep_idx, a, "");
		pab_crash_point("before a child");
		if (!measure(r, row, a, 0, seed, &rep->result[a]))
			spoke = 0;
		if (rep->result[a].failed) {
			char *what = describe_failure(&r->e.arms[a], rep_idx,
						      &rep->result[a]);

			progress_clear(r);
			warning("row '%s': %s; the row is marked failed and gets no more reps",
				pab_term_safe(row->name), what);
			show_stderr_tail(rep->result[a].stderr_tail);
			if (!row->failed) {
				row->failed = 1;
				row->fail_reason = what;
			} else {
				free(what);
			}
		}
	}
	/* p99 from a separate replay, so the throughput run has no clocks. */
	for (k = 0; spoke && !row->failed && k < n; k++) {
		size_t a = rep->order[k];

		progress(r, ri, rep_idx, a, " (latency replay)");
		pab_crash_point("before a latency replay");
		measure(r, row, a, 1, seed, &rep->result[a]);
	}
}

/* Sanity gate after rep 0: 1 when a head's memory blew up. */
static int sanity_gate(struct run *r)
{
	static const enum pab_metric_id checked[] = {
		PAB_M_PEAK_RSS, PAB_M_DRAIN_RSS, PAB_M_RELEASE_BOUND_RSS,
	};
	struct pab_experiment *e = &r->e;
	int base = pab_ledger_base_arm(e), tripped = 0;
	size_t ri, a, i;

	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_rep *rep = &e->rows[ri].reps[0];

		for (a = 0; a < e->n_arms; a++) {
			if ((int)a == base || !strcmp(e->arms[a].name, "null"))
				continue;
			for (i = 0; i < 3; i++) {
				double b = rep->result[base].m[checked[i]];
				double h = rep->result[a].m[checked[i]];
				cJSON *cell;

				if (!isfinite(b) || !isfinite(h) ||
				    h <= SANITY_FACTOR * b + SANITY_SLACK_BYTES)
					continue;
				if (!e->sanity)
					e->sanity = cJSON_CreateArray();
				cell = cJSON_CreateObject();
				cJSON_AddStringToObject(cell, "row", e->rows[ri].name);
				cJSON_AddStringToObject(cell, "arm", e->arms[a].name);
				cJSON_AddStringToObject(cell, "metric",
							pab_metrics[checked[i]].name);
				cJSON_AddNumberToObject(cell, "base", b);
				cJSON_AddNumberToObject(cell, "head", h);
				cJSON_AddItemToArray(e->sanity, cell);
				fprintf(stderr,
					"perfab: sanity gate: [%s] %s: %s %.1f -> %.1f MiB "
					"(more than 1.5x base + 8 MiB)\n",
					e->arms[a].name, pab_term_safe(e->rows[ri].name),
					pab_metrics[checked[i]].name, b / 1048576.0,
					h / 1048576.0);
				tripped = 1;
			}
		}
	}
	return tripped;
}

/*
 * The next planned look above n for a row (looks are the rows' targets:
 * --reps, then doubling, capped at --max-reps, in whole blocks); 0 when
 * n is at or past the last look.
 */
static size_t next_look(const struct run *r, size_t n)
{
	size_t k;

	for (k = 0; k < r->n_looks; k++)
		if (r->looks[k] > n)
			return r->looks[k];
	return 0;
}

/*
 * Adaptive reps at a look: every row whose verdict is PASS or FAIL (over
 * all its head arms: one FAIL cell decides the row) stops; the others go
 * on to the next planned look, until --max-reps. Returns 1 when any
 * row's target rose; sets r->undecided to the rows left undecided.
 */
static int adaptive_step(struct run *r)
{
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	size_t ri;
	int more = 0;
	char *why;

	r->undecided = 0;
	pab_ledger_opts_init(&lo, &r->e);
	if (pab_ledger_build(&r->e, &lo, &l, &why)) {
		free(why);
		return 0;
	}
	for (ri = 0; ri < r->e.n_rows; ri++) {
		enum pab_verdict v = pab_ledger_row_verdict(&l, ri);
		size_t target;

		if (r->e.rows[ri].failed || v == PAB_PASS || v == PAB_FAIL)
			continue;
		r->undecided++;
		target = next_look(r, r->row_target[ri]);
		if (!target || r->budget_spent)
			continue;
		progress_clear(r);
		if (!r->quiet)
			note("row '%s' is undecided after %zu reps: next look at %zu",
			     pab_term_safe(r->e.rows[ri].name), r->row_target[ri], target);
		r->row_target[ri] = target;
		more = 1;
	}
	pab_ledger_release(&l);
	return more;
}

/*
 * 1 when the run's --budget is spent. A row in the middle of a block
 * still completes it: the rotation stays balanced.
 */
static int over_budget(struct run *r)
{
	if (!r->budget_spent && r->budget_ns > 0 &&
	    now_monotonic_ns() - r->start_ns >= r->budget_ns) {
		r->budget_spent = 1;
		if (!r->quiet)
			note("the run's budget of %.0f s is spent: finishing the current blocks",
			     (double)r->budget_ns / 1e9);
	}
	return r->budget_spent;
}

static void record_stop(struct run *r, const char *why)
{
	cJSON_DeleteItemFromObjectCaseSensitive(r->e.run, "stop_reason");
	cJSON_AddStringToObject(r->e.run, "stop_reason", why);
	cJSON_DeleteItemFromObjectCaseSensitive(r->e.run, "elapsed_s");
	cJSON_AddNumberToObject(r->e.run, "elapsed_s",
				(double)(now_monotonic_ns() - r->start_ns) / 1e9);
}

static int run_loop(struct run *r, int sanity_enabled)
{
	struct pab_experiment *e = &r->e;
	size_t ri, n = e->n_arms;
	int first_pass = 1;

	for (;;) {
		int any = 0;

		/* Rep-major: one rep of every row that still needs one. */
		for (ri = 0; ri < e->n_rows; ri++) {
			if (e->rows[ri].n_reps >= r->row_target[ri] || e->rows[ri].failed)
				continue;
			if (e->rows[ri].n_reps % n == 0 && e->rows[ri].n_reps > 0 &&
			    over_budget(r))
				continue;
			run_rep(r, ri);
			checkpoint_rep(r, ri);
			progress_rep_done(r, ri);
			any = 1;
		}
		if (first_pass && sanity_enabled && sanity_gate(r)) {
			e->stopped_by = xstrdup("sanity-gate");
			record_stop(r, "sanity-gate");
			checkpoint(r);
			return PAB_EXIT_SANITY;
		}
		first_pass = 0;
		if (any)
			continue;
		if (!adaptive_step(r))
			break;
	}
	record_stop(r, !r->undecided ? "decided" : r->budget_spent ? "budget" : "max-reps");
	return 0;
}

/* ------------------------------------------------------------------ */

static void setup_tmp(struct run *r)
{
	r->tmpdir = pab_scratch_create();
	if (!r->tmpdir)
		die_errno("cannot create a temporary directory in '%s'",
			  getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	r->report_path = xasprintf("%s/report.json", r->tmpdir);
}

static void cleanup_tmp(struct run *r)
{
	if (!r->tmpdir)
		return;
	pab_scratch_remove(r->tmpdir);
	free(r->report_path);
	free(r->tmpdir);
	r->report_path = r->tmpdir = NULL;
}

static uint64_t random_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = (uint64_t)now_monotonic_ns() ^ ((uint64_t)getpid() << 32);
	return s & ((1ULL << 53) - 1);
}

static void print_medians(FILE *f, const struct pab_experiment *e);

static cJSON *string_or_null_json(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* --counters a,b,c: checked up front; only metrics perfab records. */
static void parse_counters(struct run *r, const char *list)
{
	char *copy = xstrdup(list), *p = copy, *comma, *why;
	size_t i;

	for (;; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p)
			die(PAB_EXIT_USAGE, "--counters '%s' has an empty event name", list);
		r->events = xrealloc(r->events, (r->n_events + 1) * sizeof(*r->events));
		r->events[r->n_events++] = xstrdup(p);
		if (!comma)
			break;
	}
	free(copy);
	if (pab_counters_check_events(r->events, r->n_events, &why))
		die(PAB_EXIT_USAGE, "--counters: %s", why);
	for (i = 0; i < r->n_events; i++) {
		char *name = xstrdup(r->events[i]), *colon = strchr(name, ':');

		if (colon)
			*colon = '\0';
		if (!pab_metric_find(name))
			die(PAB_EXIT_USAGE,
			    "--counters: '%s' is not a counter perfab records: hardware events "
			    "instructions and cycles (task-clock, page-faults and context-switches "
			    "are always recorded)",
			    r->events[i]);
		free(name);
	}
}

/*
 * Test hook: PERFAB_TEST_BALLAST_MIB=N makes perfab itself resident by N
 * MiB before it spawns anything, to prove children's peak_rss does not
 * inherit perfab's peak (tests/cli_peak_rss.sh). Never freed: it must
 * stay resident for the whole run.
 */
static void test_ballast(void)
{
	const char *s = getenv("PERFAB_TEST_BALLAST_MIB");
	uint64_t mib;
	char *p;

	if (!s || parse_u64(s, 1, 1 << 16, &mib))
		return;
	p = xmalloc(mib << 20);
	memset(p, 1, mib << 20);
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* Options of `perfab run`, as parsed. */
struct run_opts {
	const char *config, *arms, *workloads, *cpus, *out, *rules, *controls;
	const char *counters, *resume, *shard, *preserve, *budget, *metrics;
	struct pab_strlist arm_specs, tolerances, head_env;
	int null_arm, no_null_arm, no_sanity, quiet, no_cgroup, literal_argv, trust;
	uint64_t reps, max_reps, seed, max_procs;
	double timeout_s, interval_ms, scale, margin, budget_s;
	int judged[PAB_M_COUNT];   /* --metrics (or the default set) */
};

/*
 * What the ledger needs to judge the run as it was planned, in the
 * artifact's "run" object: the judged metrics, the tolerance floors, the
 * budget and the planned looks (doc/artifact-schema.md).
 */
static void record_verdict_settings(struct run *r, struct run_opts *o)
{
	cJSON *arr, *floors;
	size_t i, looks[64], n;

	arr = cJSON_AddArrayToObject(r->e.run, "metrics");
	for (i = 0; i < PAB_M_COUNT; i++)
		if (o->judged[i])
			cJSON_AddItemToArray(arr, cJSON_CreateString(pab_metrics[i].name));
	floors = cJSON_AddObjectToObject(r->e.run, "floors");
	cJSON_AddNumberToObject(floors, "bytes", PAB_FLOOR_BYTES);
	cJSON_AddNumberToObject(floors, "count", PAB_FLOOR_COUNT);
	cJSON_AddNumberToObject(r->e.run, "budget_s", o->budget_s);
	n = pab_looks_plan(r->e.reps, r->e.max_reps, r->e.n_arms, looks, 64);
	arr = cJSON_AddArrayToObject(r->e.run, "looks");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)looks[i]));
}

/* "K=V K2=V2" into kv; every word must be K=V with a valid K. */
static void parse_env_item(const char *item, struct pab_kv **kv, size_t *n)
{
	char **words;
	size_t nw, i;
	const char *why;

	if (pab_argv_split(item, &words, &nw, &why))
		die(PAB_EXIT_USAGE, "--head-env: empty variant in '%s': every item between "
		    "'||' needs at least one K=V", item);
	for (i = 0; i < nw; i++) {
		char *eq = strchr(words[i], '='), *key;

		if (!eq || eq == words[i])
			die(PAB_EXIT_USAGE, "--head-env: '%s' is not K=V", words[i]);
		key = xstrndup(words[i], (size_t)(eq - words[i]));
		pab_kv_set(kv, n, key, eq + 1);
		free(key);
	}
	pab_argv_free(words);
}

/* Split "a || b || c" into items; an empty item is an error. */
static size_t split_variants(const char *list, char ***items)
{
	size_t n = 0;
	const char *p = list;

	*items = NULL;
	for (;;) {
		const char *bar = strstr(p, "||");
		size_t len = bar ? (size_t)(bar - p) : strlen(p), k = 0;
		char *item;

		while (k < len && (p[k] == ' ' || p[k] == '\t'))
			k++;
		if (k == len) {
			size_t i;

			for (i = 0; i < n; i++)
				free((*items)[i]);
			free(*items);
			*items = NULL;
			die(PAB_EXIT_USAGE, "--head-env '%s' has an empty variant", list);
		}
		item = xstrndup(p, len);
		*items = xrealloc(*items, (n + 1) * sizeof(**items));
		(*items)[n++] = item;
		if (!bar)
			break;
		p = bar + 2;
	}
	return n;
}

/*
 * --head-env lists: variant v of the head arm gets item v of every list
 * (a one-item list applies to all). Arms: head, hd01, hd02, ... — four
 * characters like base/head/null, so argv and env lengths stay equal.
 */
static void add_head_variants(struct pab_experiment *e,
			      const struct pab_strlist *lists)
{
	size_t n_var = 1, l, v, i;
	int h = pab_experiment_arm_index(e, "head");
	char ***items = xcalloc(lists->n, sizeof(*items));
	size_t *counts = xcalloc(lists->n, sizeof(*counts));
	struct pab_arm *arms;

	if (h < 0)
		die(PAB_EXIT_USAGE, "--head-env needs an arm called 'head' to vary");
	for (l = 0; l < lists->n; l++) {
		counts[l] = split_variants(lists->v[l], &items[l]);
		if (counts[l] > 1) {
			if (n_var > 1 && counts[l] != n_var)
				die(PAB_EXIT_USAGE, "--head-env lists have %zu and %zu variants: "
				    "they must match (or have one item)", n_var, counts[l]);
			n_var = counts[l];
		}
	}
	if (n_var > 99)
		die(PAB_EXIT_USAGE, "--head-env: %zu variants is more than 99", n_var);
	/* New arm list: everything up to head, head and its variants, the rest. */
	arms = xcalloc(e->n_arms + n_var - 1, sizeof(*arms));
	for (i = 0; i <= (size_t)h; i++)
		arms[i] = e->arms[i];
	for (v = 1; v < n_var; v++) {
		struct pab_arm *a = &arms[h + v];
		const struct pab_arm *head = &e->arms[h];

		a->name = xasprintf("hd%02zu", v);
		if (pab_experiment_arm_index(e, a->name) >= 0)
			die(PAB_EXIT_USAGE, "--head-env: an arm is already called '%s'", a->name);
		a->argv = pab_argv_dup(head->argv, head->argc);
		a->argc = head->argc;
		for (i = 0; i < head->n_env; i++)
			pab_kv_set(&a->env, &a->n_env, head->env[i].key, head->env[i].value);
		if (head->revision)
			a->revision = xstrdup(head->revision);
	}
	for (i = (size_t)h + 1; i < e->n_arms; i++)
		arms[i + n_var - 1] = e->arms[i];
	free(e->arms);
	e->arms = arms;
	e->n_arms += n_var - 1;
	for (v = 0; v < n_var; v++)
		for (l = 0; l < lists->n; l++)
			parse_env_item(items[l][counts[l] > 1 ? v : 0],
				       &e->arms[h + v].env, &e->arms[h + v].n_env);
	for (l = 0; l < lists->n; l++) {
		for (i = 0; i < counts[l]; i++)
			free(items[l][i]);
		free(items[l]);
	}
	free(items);
	free(counts);
}

/* --shard I/N: keep rows i with i % N == I - 1 (deterministic). */
static void apply_shard(struct pab_experiment *e, const char *spec)
{
	const char *slash = strchr(spec, '/');
	char *left;
	uint64_t k, n;
	size_t i, kept = 0;
	int bad;

	left = slash ? xstrndup(spec, (size_t)(slash - spec)) : xstrdup("");
	bad = !slash || parse_u64(left, 1, 1000, &k) || parse_u64(slash + 1, 1, 1000, &n) || k > n;
	free(left);
	if (bad)
		die(PAB_EXIT_USAGE, "--shard '%s': write I/N with 1 <= I <= N <= 1000", spec);
	for (i = 0; i < e->n_rows; i++) {
		if (i % n == k - 1) {
			if (kept != i) {
				struct pab_row tmp = e->rows[kept];

				e->rows[kept] = e->rows[i];
				e->rows[i] = tmp;
			}
			kept++;
		}
	}
	if (!kept)
		die(PAB_EXIT_USAGE, "--shard %s gets no rows: there are only %zu rows", spec,
		    e->n_rows);
	while (e->n_rows > kept)
		pab_row_release(&e->rows[--e->n_rows], e->n_arms);
}

/* --preserve-builds DIR: copy each arm's executable, digest-checked. */
static void preserve_builds(struct pab_experiment *e, const char *dir)
{
	size_t a;

	if (mkdir(dir, 0755) && errno != EEXIST)
		die_errno("cannot create --preserve-builds directory '%s'", dir);
	for (a = 0; a < e->n_arms; a++) {
		struct pab_arm *arm = &e->arms[a];
		const char *base = strrchr(arm->exe, '/');
		char *sub = xasprintf("%s/%s", dir, arm->name), *dst, *sum;

		if (mkdir(sub, 0755) && errno != EEXIST)
			die_errno("cannot create '%s'", sub);
		dst = xasprintf("%s/%s", sub, base ? base + 1 : arm->exe);
		sum = pab_copy_file(arm->exe, dst);
		if (!sum)
			die_errno("cannot copy '%s' to '%s'", arm->exe, dst);
		if (strcmp(sum, arm->sha256))
			die(PAB_EXIT_RUNTIME, "'%s' changed while it was being copied (sha256 %s, then %s)",
			    arm->exe, arm->sha256, sum);
		free(arm->preserved);
		arm->preserved = dst;
		free(sum);
		free(sub);
	}
}

/*
 * Refuse an arm whose argv was plainly written for a shell (a pipe, a
 * redirection, NAME=value in front, $VAR, ~): without a shell those words
 * reach the program as arguments, and it measures the wrong thing.
 */
static void check_shell_syntax(const struct pab_experiment *e)
{
	size_t a;

	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];
		const char *hint;
		long at = pab_argv_shell_syntax(arm->argv, arm->argc, &hint);

		if (at >= 0)
			die(PAB_EXIT_USAGE, "arm '%s': '%s' is shell syntax, but perfab runs the "
			    "command without a shell, so the program would get it as an argument; "
			    "%s (or pass --literal-argv if the program really takes '%s')",
			    arm->name, pab_term_safe(arm->argv[at]), hint,
			    pab_term_safe(arm->argv[at]));
	}
}

/*
 * The experiment's definition — arms (argv, env) and rows (program, argv,
 * params) — from --config, --arm (or CMD_BASE CMD_HEAD), --arms,
 * --head-env, --null-arm / --no-null-arm (the null arm is on by default),
 * --workloads and --shard into r->e, the config's settings into *cs; an
 * argv written for a shell is refused unless --literal-argv. A fresh run
 * continues from it; --resume checks the artifact against it.
 */
static void define_experiment(struct run *r, struct run_opts *o,
			      struct pab_config_settings *cs)
{
	size_t i;
	char *why;

	cs->reps = cs->max_reps = cs->seed = cs->timeout_s = cs->scale = NAN;
	cs->budget_s = NAN;
	cs->null_arm = -1;
	cs->controls = cs->workloads = cs->metrics = NULL;
	if (o->null_arm && o->no_null_arm)
		die(PAB_EXIT_USAGE, "--null-arm and --no-null-arm contradict each other: give one");
	if (o->config && pab_config_load(o->config, pab_run_options(), &r->e, cs, &why))
		die(PAB_EXIT_USAGE, "%s", why);
	for (i = 0; i < o->arm_specs.n; i++)
		if (pab_arm_from_spec(&r->e, o->arm_specs.v[i], &why))
			die(PAB_EXIT_USAGE, "%s", why);
	if (!r->e.n_arms)
		die(PAB_EXIT_USAGE, "no arms: give two commands (perfab run CMD_BASE CMD_HEAD), "
		    "--arm NAME=COMMAND twice or more, or --config FILE");
	if (!o->literal_argv)
		check_shell_syntax(&r->e);
	if (o->arms)
		select_arms(&r->e, o->arms);
	if (o->head_env.n)
		add_head_variants(&r->e, &o->head_env);
	if (r->e.n_arms < 2 && !o->null_arm)
		die(PAB_EXIT_USAGE, "one arm ('%s') is nothing to compare: add a head arm "
		    "(or --null-arm for base against itself)", r->e.arms[0].name);
	/* The null arm is on by default; an arm already called null is one. */
	if (o->null_arm ||
	    (!o->no_null_arm && cs->null_arm != 0 && pab_experiment_null_index(&r->e) < 0))
		add_null_arm(&r->e);
	if (r->e.n_arms < 2)
		die(PAB_EXIT_USAGE, "one arm ('%s') is nothing to compare: add a head arm",
		    r->e.arms[0].name);
	if (!o->workloads)
		o->workloads = cs->workloads;
	for (i = 0; i < r->e.n_arms; i++)
		if (!r->e.arms[i].argc && !(o->workloads || r->e.n_rows))
			die(PAB_EXIT_USAGE, "arm '%s' has an empty command", r->e.arms[i].name);

	/* Rows: config rows, then built-in rows by --workloads, else one row. */
	if (o->workloads) {
		size_t before = r->e.n_rows;

		for (i = 0; i < pab_suite_count(); i++) {
			const char *name = pab_suite_row(i)->name;
			size_t k;

			if (!pab_suite_select(o->workloads, name))
				continue;
			for (k = 0; k < r->e.n_rows; k++)
				if (!strcmp(r->e.rows[k].name, name))
					die(PAB_EXIT_USAGE, "row '%s' comes both from the config and from "
					    "--workloads: rename the config row or narrow the selection", name);
			pab_add_builtin_row(&r->e, pab_suite_row(i));
		}
		if (r->e.n_rows == before)
			die(PAB_EXIT_USAGE, "--workloads '%s' selects no row (see perfab workloads)",
			    o->workloads);
	}
	if (!r->e.n_rows) {
		r->e.rows = xcalloc(1, sizeof(*r->e.rows));
		r->e.n_rows = 1;
		r->e.rows[0].name = xstrdup("command");
		r->e.rows[0].argv = xcalloc(1, sizeof(char *));
	}
	if (o->shard)
		apply_shard(&r->e, o->shard);
}

/* Build a fresh experiment from config and options. */
static void setup_fresh(struct run *r, struct run_opts *o)
{
	struct pab_config_settings cs;
	size_t i;
	char *why;

	define_experiment(r, o, &cs);
	if (!o->controls)
		o->controls = cs.controls;
	if (o->controls)
		for (i = 0; i < r->e.n_rows; i++)
			if (pab_suite_select(o->controls, r->e.rows[i].name))
				r->e.rows[i].control = 1;
	for (i = 0; i < o->tolerances.n; i++)
		if (pab_parse_tolerance(&r->e, o->tolerances.v[i], &why))
			die(PAB_EXIT_USAGE, "%s", why);
	if (o->rules) {
		enum pab_rules rr;

		if (pab_rules_parse(o->rules, &rr))
			die(PAB_EXIT_USAGE, "--rules '%s': use perfab/2, perfab/1 or rule12", o->rules);
		r->e.rules = rr;
	}
	if (o->margin >= 0)
		r->e.equivalence_margin = o->margin;

	/* Reps, seed, timeout, scale: CLI over config over defaults. */
	if (!o->reps)
		o->reps = isfinite(cs.reps) ? (uint64_t)cs.reps : DEFAULT_FIRST_LOOK;
	if (!o->max_reps)
		o->max_reps = isfinite(cs.max_reps) ? (uint64_t)cs.max_reps :
			o->reps > DEFAULT_MAX_REPS ? o->reps : DEFAULT_MAX_REPS;
	if (o->max_reps < o->reps)
		die(PAB_EXIT_USAGE, "--max-reps %llu is below --reps %llu",
		    (unsigned long long)o->max_reps, (unsigned long long)o->reps);
	r->e.reps = pab_rotation_round_up(r->e.n_arms, o->reps);
	r->e.max_reps = pab_rotation_round_up(r->e.n_arms, o->max_reps);
	if (r->e.reps != o->reps)
		note("--reps %llu rounded up to %zu: complete blocks of %zu arms",
		     (unsigned long long)o->reps, r->e.reps, r->e.n_arms);
	if (o->seed == UINT64_MAX)
		o->seed = isfinite(cs.seed) ? (uint64_t)cs.seed : random_seed();
	r->e.seed = o->seed;
	if (o->timeout_s < 0)
		o->timeout_s = isfinite(cs.timeout_s) ? cs.timeout_s : 600;
	if (!(o->scale > 0))
		o->scale = isfinite(cs.scale) ? cs.scale : 1.0;
	if (o->budget) {
		if (pab_parse_duration(o->budget, &o->budget_s))
			die(PAB_EXIT_USAGE, "--budget '%s': give seconds or a duration such as 90s, "
			    "10m or 1h (more than 0, at most a week)", o->budget);
	} else {
		o->budget_s = isfinite(cs.budget_s) ? cs.budget_s : DEFAULT_BUDGET_S;
	}
	{
		const char *list = o->metrics ? o->metrics : cs.metrics;

		if (list && pab_parse_metrics(list, o->judged, &why))
			die(PAB_EXIT_USAGE, "--metrics: %s", why ? why : "give at least one metric");
		for (i = 0; !list && i < PAB_M_COUNT; i++)
			o->judged[i] = pab_metrics[i].judged;
	}
	pab_config_settings_release(&cs);
	if (r->e.rules == PAB_RULES_RULE12 && pab_experiment_null_index(&r->e) < 0)
		warning("rule12 without a null arm judges against a noise of 0: on a 24-cell run its "
			"familywise false-FAIL rate measured 21-39%% (keep the null arm, or use perfab/2)");

	resolve_arms(r);
	if (o->preserve)
		preserve_builds(&r->e, o->preserve);
	r->e.host = pab_host_fingerprint();
	cJSON_AddItemToObject(r->e.host, "checklist", pab_host_warnings(r->e.host));
	r->e.run = cJSON_CreateObject();
	cJSON_AddNumberToObject(r->e.run, "sample_interval_ms", o->interval_ms);
	cJSON_AddNumberToObject(r->e.run, "timeout_s", o->timeout_s);
	cJSON_AddNumberToObject(r->e.run, "scale", o->scale);
	cJSON_AddNumberToObject(r->e.run, "max_procs", (double)o->max_procs);
	cJSON_AddBoolToObject(r->e.run, "cgroup", !o->no_cgroup);
	cJSON_AddBoolToObject(r->e.run, "sanity_gate", !o->no_sanity);
	cJSON_AddItemToObject(r->e.run, "shard", string_or_null_json(o->shard));
	cJSON_AddItemToObject(r->e.run, "counters", string_or_null_json(o->counters));
	cJSON_AddItemToObject(r->e.run, "cpus", string_or_null_json(o->cpus));
	record_verdict_settings(r, o);
}

/*
 * The options of `perfab run`, declared once: the parser, --help and the
 * range checks of settings read back from an artifact (--resume) all use
 * this table. cmd_run() parses into opt and works on a copy.
 */
static struct run_opts opt;
static const struct pab_option run_options[] = {
	OPT_STRING(0, "config", &opt.config, "FILE", "arms, rows and settings from a JSON file"),
	OPT_LIST(0, "arm", &opt.arm_specs, "NAME=COMMAND", "define an arm (split into argv, never a shell)"),
	OPT_STRING(0, "arms", &opt.arms, "A,B", "select and order arms (base: the arm named base, else the first)"),
	OPT_FLAG(0, "null-arm", &opt.null_arm, "add arm 'null': base's exact argv and env again (the default)"),
	OPT_FLAG(0, "no-null-arm", &opt.no_null_arm, "no null arm: FAIL rests on head vs base alone"),
	OPT_LIST(0, "head-env", &opt.head_env, "'K=V || K=V2'", "head variants in one rotation: arms head, hd01, ..."),
	OPT_STRING('w', "workloads", &opt.workloads, "SEL", "built-in rows: =exact, substring, '|'"),
	OPT_U64('n', "reps", &opt.reps, "N", "first look: reps per row before any verdict, in complete blocks (default 12)", 1, 1000000),
	OPT_U64(0, "max-reps", &opt.max_reps, "N", "cap of the looks (doubling from --reps) for undecided rows (default 96)", 1, 1000000),
	OPT_STRING(0, "budget", &opt.budget, "DURATION", "time for the whole run, e.g. 90s, 10m (default 10m)"),
	OPT_STRING(0, "metrics", &opt.metrics, "LIST", "judged metrics, e.g. cpu,peak_rss (default: see METRICS)"),
	OPT_STRING('o', "out", &opt.out, "FILE", "artifact path (default perfab-run.json)"),
	OPT_STRING(0, "resume", &opt.resume, "FILE", "continue an interrupted run from its checkpoint"),
	OPT_FLAG(0, "trust-artifact", &opt.trust, "--resume: run the arms and rows the artifact records unchecked"),
	OPT_STRING(0, "shard", &opt.shard, "I/N", "run only rows i with i mod N = I-1 (for pooling)"),
	OPT_STRING(0, "cpus", &opt.cpus, "LIST", "CPUs for the children, e.g. 1-3"),
	OPT_FLAG(0, "no-sanity-gate", &opt.no_sanity, "do not stop when a head's RSS blows up at rep 0"),
	OPT_STRING(0, "preserve-builds", &opt.preserve, "DIR", "copy each arm's executable (SHA-256 checked) first"),
	OPT_U64(0, "seed", &opt.seed, "N", "seed for workloads (default: random, recorded)", 0, 9007199254740991.0),
	OPT_DOUBLE(0, "timeout", &opt.timeout_s, "S", "kill a child (its whole group) after S seconds (default 600, 0 = none)", 0, 1e7),
	OPT_U64(0, "max-procs", &opt.max_procs, "N", "kill a child whose process tree exceeds N processes (default 512)", 1, 1000000),
	OPT_DOUBLE(0, "sample-interval", &opt.interval_ms, "MS", "tree RSS/PSS sampling interval (default 10)", 0.1, 60000),
	OPT_LIST(0, "tolerance", &opt.tolerances, "[METRIC=]PCT", "tolerance (default 2 for every metric)"),
	OPT_STRING(0, "rules", &opt.rules, "RULES", "perfab/2 (default), perfab/1 or rule12"),
	OPT_STRING(0, "controls", &opt.controls, "SEL", "rows that must stay unchanged"),
	OPT_DOUBLE(0, "equivalence-margin", &opt.margin, "PCT", "controls' equivalence margin (default 3)", 0, 1000),
	OPT_DOUBLE(0, "scale", &opt.scale, "X", "scale built-in workloads' work (default 1)", 1e-6, 1e6),
	OPT_STRING(0, "counters", &opt.counters, "LIST", "libpfm4 events, e.g. instructions:u,cycles:u (the default)"),
	OPT_FLAG(0, "no-cgroup", &opt.no_cgroup, "do not place children in cgroups of their own"),
	OPT_FLAG(0, "literal-argv", &opt.literal_argv, "pass words such as '|', '>' or $X to the program as they are"),
	OPT_FLAG('q', "quiet", &opt.quiet, "no progress lines"),
	OPT_END(),
};

const struct pab_option *pab_run_options(void)
{
	return run_options;
}

static const struct pab_option *run_option(const char *long_name)
{
	const struct pab_option *o;

	for (o = run_options; o->type != PAB_OPT_END; o++)
		if (!strcmp(o->long_name, long_name))
			return o;
	BUG("no option --%s", long_name);
}

/*
 * One number of the artifact's "run" object, checked against [min, max]
 * (whole: an integer), the range of the option `option`, before any cast.
 * Absent or null: dflt.
 */
static int run_number_in(const cJSON *run, const char *key, const char *option,
			 double min, double max, int whole, double dflt, double *out,
			 char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);
	double x;

	*out = dflt;
	if (!v || cJSON_IsNull(v))
		return 0;
	x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (!isfinite(x) || x < min || x > max || (whole && x != floor(x))) {
		*why = xasprintf("run.%s must be %s in [%g, %g] (the range of --%s)", key,
				 whole ? "a whole number" : "a number", min, max, option);
		return -1;
	}
	*out = x;
	return 0;
}

/* run_number_in() with the range the option table gives --option. */
static int run_setting(const cJSON *run, const char *key, const char *option,
		       double dflt, double *out, char **why)
{
	const struct pab_option *o = run_option(option);

	return run_number_in(run, key, option, o->min, o->max, o->type == PAB_OPT_U64,
			     dflt, out, why);
}

int pab_resume_settings_read(const cJSON *run, struct pab_resume_settings *s,
			     char **why)
{
	static const char *const flags[] = { "cgroup", "sanity_gate", NULL };
	static const char *const strings[] = { "counters", "cpus", NULL };
	double max_procs;
	size_t i;

	*why = NULL;
	memset(s, 0, sizeof(*s));
	if (!cJSON_IsObject(run)) {
		*why = xstrdup("'run' must be an object");
		return -1;
	}
	if (run_setting(run, "sample_interval_ms", "sample-interval", 10, &s->interval_ms, why) ||
	    run_setting(run, "timeout_s", "timeout", 600, &s->timeout_s, why) ||
	    run_setting(run, "scale", "scale", 1, &s->scale, why) ||
	    run_setting(run, "max_procs", "max-procs", 512, &max_procs, why) ||
	    /* --budget takes a duration (pab_parse_duration: at most a week);
	     * 0 or absent, as artifacts before budgets have it: none. */
	    run_number_in(run, "budget_s", "budget", 0, PAB_MAX_DURATION_S, 0, 0, &s->budget_s, why))
		return -1;
	s->max_procs = (uint64_t)max_procs;
	for (i = 0; flags[i]; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, flags[i]);

		if (v && !cJSON_IsBool(v) && !cJSON_IsNull(v)) {
			*why = xasprintf("run.%s must be true or false", flags[i]);
			return -1;
		}
	}
	s->no_cgroup = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "cgroup"));
	s->no_sanity = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "sanity_gate"));
	for (i = 0; strings[i]; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, strings[i]);

		if (v && !cJSON_IsString(v) && !cJSON_IsNull(v)) {
			*why = xasprintf("run.%s must be a string or null", strings[i]);
			return -1;
		}
	}
	s->counters = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "counters"));
	s->cpus = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "cpus"));
	return 0;
}

static int kv_same(const struct pab_kv *a, size_t na, const struct pab_kv *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		const char *v = pab_kv_get(b, nb, a[i].key);

		if (!v || strcmp(v, a[i].value))
			return 0;
	}
	return 1;
}

static int argv_same(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

static int str_same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* What the recorded definition rec does differently from given, or NULL. */
static char *definition_mismatch(const struct pab_experiment *given,
				 const struct pab_experiment *rec)
{
	size_t i;

	if (given->n_arms != rec->n_arms)
		return xasprintf("it records %zu arms, the command line defines %zu",
				 rec->n_arms, given->n_arms);
	for (i = 0; i < rec->n_arms; i++) {
		const struct pab_arm *g = &given->arms[i], *a = &rec->arms[i];

		if (strcmp(g->name, a->name))
			return xasprintf("arm %zu is '%s' there, '%s' here", i + 1,
					 pab_term_safe(a->name), pab_term_safe(g->name));
		if (!argv_same(g->argv, g->argc, a->argv, a->argc))
			return xasprintf("arm '%s' runs another command there",
					 pab_term_safe(a->name));
		if (!kv_same(g->env, g->n_env, a->env, a->n_env))
			return xasprintf("arm '%s' has another environment there",
					 pab_term_safe(a->name));
	}
	if (given->n_rows != rec->n_rows)
		return xasprintf("it records %zu rows, the command line defines %zu",
				 rec->n_rows, given->n_rows);
	for (i = 0; i < rec->n_rows; i++) {
		const struct pab_row *g = &given->rows[i], *r = &rec->rows[i];

		if (strcmp(g->name, r->name))
			return xasprintf("row %zu is '%s' there, '%s' here", i + 1,
					 pab_term_safe(r->name), pab_term_safe(g->name));
		if (!str_same(g->workload, r->workload) || !str_same(g->program, r->program) ||
		    !argv_same(g->argv, g->argc, r->argv, r->argc) ||
		    !kv_same(g->params, g->n_params, r->params, r->n_params))
			return xasprintf("row '%s' runs another program, arguments or "
					 "parameters there", pab_term_safe(r->name));
	}
	return NULL;
}

/* argv as one line, each word quoted and terminal-safe. */
static void print_words(FILE *f, char *const *argv, size_t argc)
{
	size_t i;

	for (i = 0; i < argc; i++)
		fprintf(f, " '%s'", pab_term_safe(argv[i]));
}

/* Everything --resume is about to execute, before it executes any of it. */
static void print_resume_plan(const struct pab_experiment *e, const char *path)
{
	size_t a, ri, i;

	fprintf(stderr, "perfab: --resume '%s' runs what it records:\n", pab_term_safe(path));
	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];

		fprintf(stderr, "  arm %s:", pab_term_safe(arm->name));
		if (arm->argc)
			print_words(stderr, arm->argv, arm->argc);
		else
			fputs(" (each row's built-in program)", stderr);
		for (i = 0; i < arm->n_env; i++)
			fprintf(stderr, "%s%s=%s", i ? " " : "; env ",
				pab_term_safe(arm->env[i].key), pab_term_safe(arm->env[i].value));
		fputc('\n', stderr);
	}
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];

		fprintf(stderr, "  row %s:", pab_term_safe(row->name));
		if (row->program)
			fprintf(stderr, " program %s", pab_term_safe(row->program));
		if (row->argc) {
			fputs(" arguments", stderr);
			print_words(stderr, row->argv, row->argc);
		}
		for (i = 0; i < row->n_params; i++)
			fprintf(stderr, "%s%s=%s", i ? "," : " params ",
				pab_term_safe(row->params[i].key), pab_term_safe(row->params[i].value));
		if (!row->program && !row->argc)
			fputs(" the arms' commands as they are", stderr);
		fputc('\n', stderr);
	}
}

/*
 * Every executable of every (row, arm) against the digest recorded when
 * the run started: rows[].executables, else (artifacts written before it)
 * the arm's digest where it applies — row 0, or an arm's own command. A
 * program without a recorded digest is refused too.
 */
static void verify_executables(struct pab_experiment *e, const char *path)
{
	size_t a, ri;

	for (ri = 0; ri < e->n_rows; ri++) {
		struct pab_row *row = &e->rows[ri];

		for (a = 0; a < e->n_arms; a++) {
			struct pab_arm *arm = &e->arms[a];
			const char *want = row->exe_sha256 && row->exe_sha256[a] ?
				row->exe_sha256[a] : (!ri || arm->argc) ? arm->sha256 : NULL;
			char *why, *exe = exe_for(arm, row, &why), *now, *msg = NULL;

			if (!exe)
				die(PAB_EXIT_USAGE, "cannot resume: %s", why);
			now = pab_sha256_file(exe);
			if (!now)
				die_errno("cannot read '%s' to digest it", exe);
			if (!want)
				msg = xasprintf("cannot resume '%s': no digest of '%s' (arm '%s', row '%s') "
						"was recorded when the run started; rerun from scratch",
						pab_term_safe(path), pab_term_safe(exe),
						pab_term_safe(arm->name), pab_term_safe(row->name));
			else if (strcmp(want, now))
				msg = xasprintf("cannot resume: arm '%s' executable '%s' (row '%s') "
						"changed since the run started (sha256 %s, recorded "
						"%.64s); rerun from scratch", pab_term_safe(arm->name),
						pab_term_safe(exe), pab_term_safe(row->name), now,
						pab_term_safe(want));
			if (msg) {
				free(exe);
				free(now);
				die(PAB_EXIT_REFUSED, "%s", msg);
			}
			if (!ri) { /* the arm's executable is row 0's, as a fresh run has it */
				free(arm->exe);
				arm->exe = exe;
				free(arm->sha256);
				arm->sha256 = now;
			} else {
				free(exe);
				free(now);
			}
		}
	}
}

/*
 * The arguments of `perfab run` that continue this run: --resume out and
 * the options that defined its arms and rows, as given (--resume checks
 * the artifact against them), or --trust-artifact where that is how it
 * was resumed. Each word terminal-safe, the whole quoted for a shell
 * (new string).
 */
static char *resume_command(const struct run_opts *o, const char *out)
{
	struct pab_strlist w = { 0 };
	char *cmd;
	size_t i;

#define WORD(s) pab_strlist_push(&w, xstrdup(pab_term_safe(s)))
	WORD("--resume");
	WORD(out);
	if (o->config) {
		WORD("--config");
		WORD(o->config);
	}
	for (i = 0; i < o->arm_specs.n; i++) {
		WORD("--arm");
		WORD(o->arm_specs.v[i]);
	}
	if (o->arms) {
		WORD("--arms");
		WORD(o->arms);
	}
	if (o->null_arm)
		WORD("--null-arm");
	if (o->no_null_arm)
		WORD("--no-null-arm");
	for (i = 0; i < o->head_env.n; i++) {
		WORD("--head-env");
		WORD(o->head_env.v[i]);
	}
	if (o->workloads) {
		WORD("--workloads");
		WORD(o->workloads);
	}
	if (o->shard) {
		WORD("--shard");
		WORD(o->shard);
	}
	if (o->literal_argv)
		WORD("--literal-argv");
	if (o->trust)
		WORD("--trust-artifact");
#undef WORD
	cmd = pab_argv_join((char *const *)w.v, w.n);
	for (i = 0; i < w.n; i++)
		free((char *)w.v[i]);
	pab_strlist_release(&w);
	return cmd;
}

/*
 * --resume FILE: the interrupted run's own arms, rows, seed, protocol and
 * settings. Nothing in the artifact is trusted that can be checked: the
 * arms and rows must be the ones the command line defines again (unless
 * --trust-artifact), every executable must have the digest recorded at
 * the start, every setting must be in its option's range. What will run
 * is printed before anything runs.
 */
static void setup_resume(struct run *r, struct run_opts *o)
{
	struct pab_experiment *e = &r->e;
	struct pab_resume_settings rs;
	struct pab_journal_info ji;
	int defined = o->config || o->arm_specs.n || o->arms || o->null_arm ||
		o->no_null_arm || o->workloads || o->head_env.n || o->shard;
	char *why;
	int ret;

	if (o->reps || o->max_reps || o->seed != UINT64_MAX || o->tolerances.n || o->rules ||
	    o->controls || o->preserve || o->scale > 0 || o->out || o->margin >= 0 ||
	    o->no_sanity || o->max_procs || o->interval_ms > 0 || o->counters || o->no_cgroup ||
	    o->budget || o->metrics)
		die(PAB_EXIT_USAGE, "--resume continues a run with its own settings: give only "
		    "--resume FILE, the options that define its arms and rows again (--config, "
		    "--arm, --arms, --null-arm or --no-null-arm, --head-env, --workloads, --shard, "
		    "--literal-argv), and --cpus, --timeout, --quiet, --trust-artifact");
	pab_experiment_release(e);
	ret = pab_artifact_load_journaled(o->resume, e, &ji, &why);
	if (ret)
		die(pab_artifact_load_exit_code(ret), "cannot resume: %s", why);
	if (ji.torn && !o->quiet)
		note("'%s.journal': dropped its torn last record (%zu bytes, cut short by the "
		     "interruption); that rep runs again", pab_term_safe(o->resume), ji.torn_bytes);
	if (e->complete)
		die(PAB_EXIT_USAGE, "'%s' is already complete: nothing to resume (perfab ledger %s)",
		    o->resume, o->resume);
	if (e->stopped_by && !strcmp(e->stopped_by, "sanity-gate"))
		die(PAB_EXIT_USAGE, "'%s' was stopped by the sanity gate: rerun with --no-sanity-gate "
		    "instead of resuming", o->resume);
	if (!e->n_rows)
		die(PAB_EXIT_USAGE, "'%s' has no rows to resume", o->resume);
	if (pab_resume_settings_read(e->run, &rs, &why))
		die(PAB_EXIT_USAGE, "cannot resume '%s': %s: the artifact is damaged; rerun from "
		    "scratch", o->resume, why);
	print_resume_plan(e, o->resume);
	if (defined) {
		struct run given;
		struct pab_config_settings cs;
		char *diff;

		memset(&given, 0, sizeof(given));
		pab_experiment_init(&given.e);
		define_experiment(&given, o, &cs);
		pab_config_settings_release(&cs);
		diff = definition_mismatch(&given.e, e);
		pab_experiment_release(&given.e);
		if (diff)
			die(PAB_EXIT_REFUSED, "cannot resume '%s': it does not match the arms and "
			    "rows given again: %s; resume with the run's own options, or rerun "
			    "from scratch", o->resume, diff);
	} else if (!o->trust) {
		die(PAB_EXIT_USAGE, "--resume executes what the artifact records (above): give the "
		    "run's own --config/--arm/--arms options again so perfab checks it against "
		    "them, or --trust-artifact to run it as recorded");
	}
	verify_executables(e, o->resume);
	o->out = o->resume;
	o->interval_ms = rs.interval_ms;
	o->budget_s = rs.budget_s;
	if (o->timeout_s < 0)
		o->timeout_s = rs.timeout_s;
	o->scale = rs.scale;
	o->max_procs = rs.max_procs;
	o->no_cgroup = rs.no_cgroup;
	o->no_sanity = rs.no_sanity;
	o->counters = rs.counters;
	if (!o->cpus)
		o->cpus = rs.cpus;
	/* A checkpoint torn by a crash may have left its temp file. */
	pab_artifact_clean_temps(o->resume);
	if (!o->quiet)
		note("resuming '%s': %zu arms, %zu rows, seed %llu", o->resume, e->n_arms,
		     e->n_rows, (unsigned long long)e->seed);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct pab_strlist pos = { 0 };
	struct run r;
	size_t i;
	int ret;
	char *why, *positional[2] = { NULL, NULL };

	/* Zero / negative = "not given", so --resume can refuse what it ignores. */
	memset(&opt, 0, sizeof(opt));
	opt.seed = UINT64_MAX;
	opt.timeout_s = -1;
	opt.margin = -1;
	pab_parse_options(argc, argv, run_options, run_usage,
			  "Run arms through balanced rotated blocks, measure every child, checkpoint\n"
			  "an artifact after every rep, and print the ledger.",
			  &pos);
	o = opt;
	memset(&opt, 0, sizeof(opt));
	/* perfab run CMD_BASE CMD_HEAD: the two arms base and head. */
	if (pos.n == 2 && (o.arm_specs.n || o.resume))
		pab_usage_error(run_options, run_usage, "two commands define arms base and head: "
				"do not also give --arm or --resume");
	if (pos.n && pos.n != 2)
		pab_usage_error(run_options, run_usage, "give two commands, base then head "
				"(perfab run './old' './new'), not %zu ('%s' is %s)", pos.n,
				pab_term_safe(pos.v[0]), pos.n == 1 ? "alone" : "one of several");
	if (pos.n == 2) {
		positional[0] = xasprintf("base=%s", pos.v[0]);
		positional[1] = xasprintf("head=%s", pos.v[1]);
		pab_strlist_push(&o.arm_specs, positional[0]);
		pab_strlist_push(&o.arm_specs, positional[1]);
	}

	test_ballast();
	/* Progress and notes reach stderr in batches (flush_progress); exit,
	 * die() and the crash points flush it. */
	setvbuf(stderr, NULL, _IOFBF, 8192);
	memset(&r, 0, sizeof(r));
	pab_experiment_init(&r.e);
	r.quiet = o.quiet;
	r.color = use_color(STDERR_FILENO);
	r.resume_cmd = resume_command(&o, o.resume ? o.resume : o.out ? o.out : "perfab-run.json");
	/* One writer per artifact, for the whole run (a --resume included). */
	if (o.resume && access(o.resume, F_OK))
		die(PAB_EXIT_USAGE, "cannot resume: cannot read '%s': %s", o.resume,
		    strerror(errno));
	r.lock_fd = pab_artifact_lock(o.resume ? o.resume : o.out ? o.out : "perfab-run.json",
				      &why);
	if (r.lock_fd < 0)
		die(PAB_EXIT_RUNTIME, "%s%s", why, errno == EWOULDBLOCK ? "" :
		    o.resume ? " (the artifact is untouched)" :
		    " (nothing was measured yet: choose another --out)");
	if (o.resume) {
		setup_resume(&r, &o);
	} else {
		if (!o.out)
			o.out = "perfab-run.json";
		if (!(o.interval_ms > 0))
			o.interval_ms = 10;
		if (!o.max_procs)
			o.max_procs = 512;
		setup_fresh(&r, &o);
	}
	r.out = o.out;
	r.timeout_ns = (int64_t)(o.timeout_s * 1e9);
	r.scale = o.scale;
	r.max_procs = (long)o.max_procs;
	r.use_cgroup = !o.no_cgroup;
	if (o.counters)
		parse_counters(&r, o.counters);
	r.pin = pab_pin_new(o.cpus, &why);
	if (!r.pin)
		die(PAB_EXIT_USAGE, "%s", why);
	pab_spawn_setup();
	/* Before any thread: the guard is forked. The sampler thread
	 * inherits the blocked stop signals (pab_spawn_setup): only the main
	 * thread takes them, where the run stands is known (stop_on_signal). */
	if (pab_guard_start())
		warning("cannot start the guard process (%s): if perfab is killed with "
			"SIGKILL, processes its children started may run on", strerror(errno));
	if (r.use_cgroup)
		pab_cgroup_clean_stale();
	r.cg = xcalloc(r.e.n_arms, sizeof(*r.cg));
	r.cg_why = xcalloc(r.e.n_arms, sizeof(*r.cg_why));
	r.sampler = pab_sampler_new(r.pin, (int64_t)(o.interval_ms * 1e6));
	if (!r.sampler)
		die_errno("cannot start the RSS sampler thread");
	if (!pab_test_without("runner-pin") && pab_pin_runner_thread(r.pin))
		warning("cannot bind perfab to the children's CPUs: %s", strerror(errno));
	build_base_env(&r);
	setup_tmp(&r);
	cJSON_DeleteItemFromObject(r.e.run, "binding");
	cJSON_AddItemToObject(r.e.run, "binding", pab_pin_describe(r.pin));
	r.looks = xcalloc(64, sizeof(*r.looks));
	r.n_looks = pab_looks_plan(r.e.reps, r.e.max_reps, r.e.n_arms, r.looks, 64);
	r.budget_ns = (int64_t)(o.budget_s * 1e9);
	r.start_ns = now_monotonic_ns();
	r.row_target = xcalloc(r.e.n_rows, sizeof(*r.row_target));
	for (i = 0; i < r.e.n_rows; i++) {
		/* A resumed row goes on to the look it was heading for. */
		size_t done = pab_rotation_round_up(r.e.n_arms, r.e.rows[i].n_reps);
		size_t look = done > r.e.reps ? next_look(&r, done - 1) : 0;

		r.row_target[i] = done <= r.e.reps || !r.e.rows[i].n_reps ? r.e.reps :
				  look ? look : done;
	}

	start_journal(&r); /* the first checkpoint, before any measurement */
	r.tty = isatty(STDERR_FILENO);
	progress_plan(&r);
	ret = run_loop(&r, !o.no_sanity);
	/* A stop signal that came after the last child still stops the run. */
	if ((i = (size_t)pab_spawn_pending_stop()))
		stop_on_signal(&r, (int)i);
	progress_clear(&r);
	{
		/* Record the binding actually obtained and the sampler's cost. */
		int64_t cpu_ns;
		uint64_t samples, own_hwm;

		pab_sampler_cost(r.sampler, &cpu_ns, &samples);
		cJSON_ReplaceItemInObject(r.e.run, "binding", pab_pin_describe(r.pin));
		cJSON_DeleteItemFromObject(r.e.run, "sampler_cpu_s");
		cJSON_DeleteItemFromObject(r.e.run, "sampler_samples");
		cJSON_AddNumberToObject(r.e.run, "sampler_cpu_s", (double)cpu_ns / 1e9);
		cJSON_AddNumberToObject(r.e.run, "sampler_samples", (double)samples);
		/* perfab's own high-water mark: measuring must stay small. */
		cJSON_DeleteItemFromObject(r.e.run, "perfab_peak_rss");
		if (!pab_proc_status_bytes(getpid(), "VmHWM", &own_hwm))
			cJSON_AddNumberToObject(r.e.run, "perfab_peak_rss", (double)own_hwm);
	}
	if (!ret) {
		/* Preserved copies must still match what ran. */
		for (i = 0; i < r.e.n_arms; i++) {
			char *now = pab_sha256_file(r.e.arms[i].exe);

			if (!now || strcmp(now, r.e.arms[i].sha256))
				warning("arm '%s': '%s' changed during the run (sha256 now %s); "
					"the artifact records the digest it started with",
					r.e.arms[i].name, r.e.arms[i].exe, now ? now : "unreadable");
			free(now);
		}
		r.e.complete = 1;
		checkpoint(&r);
	}
	end_journal(&r);
	pab_sampler_free(r.sampler);
	release_run(&r);
	free(r.cg);
	free(r.cg_why);
	if (!o.quiet)
		note("artifact written to '%s'", r.out);
	fflush(stderr);

	print_medians(stdout, &r.e);
	if (ret == PAB_EXIT_SANITY) {
		fprintf(stderr, "perfab: the sanity gate stopped the run after rep 1; the artifact "
			"'%s' keeps the samples (rerun with --no-sanity-gate to measure anyway)\n",
			r.out);
	} else {
		struct pab_ledger l;
		struct pab_ledger_opts lo;

		pab_ledger_opts_init(&lo, &r.e);
		if (pab_ledger_build(&r.e, &lo, &l, &why)) {
			fprintf(stderr, "perfab: no verdict: %s\n", why);
			free(why);
			ret = PAB_EXIT_REFUSED;
		} else {
			struct pab_text_opts to = { 0, use_color(STDOUT_FILENO) };

			fputc('\n', stdout);
			pab_report_print_text(stdout, &r.e, &l, &to);
			ret = pab_verdict_exit_code(l.overall);
			pab_ledger_release(&l);
		}
	}
	pab_pin_free(r.pin);
	free(r.row_target);
	free(r.looks);
	free(r.resume_cmd);
	free(r.base_env);
	for (i = 0; i < r.n_events; i++)
		free((char *)r.events[i]);
	free(r.events);
	pab_experiment_release(&r.e);
	pab_strlist_release(&o.arm_specs);
	free(positional[0]);
	free(positional[1]);
	pab_strlist_release(&o.tolerances);
	pab_strlist_release(&o.head_env);
	pab_strlist_release(&pos);
	return ret;
}

/* Per row and arm: the median of the headline metrics, fit for 100 columns. */
static void print_medians(FILE *f, const struct pab_experiment *e)
{
	static const enum pab_metric_id shown[] = {
		PAB_M_THROUGHPUT, PAB_M_WALL, PAB_M_CPU, PAB_M_PEAK_RSS,
		PAB_M_MINOR_FAULTS,
	};
	size_t ri, a, k, rep;

	fprintf(f, "%-24s %-6s %4s %14s %10s %10s %10s %9s   (medians)\n", "row", "arm", "n",
		"throughput", "wall", "cpu", "peak RSS", "minor flt");
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];

		for (a = 0; a < e->n_arms; a++) {
			char cell[5][32];
			double *xs = xcalloc(row->n_reps ? row->n_reps : 1, sizeof(*xs));

			for (k = 0; k < 5; k++) {
				double med;

				for (rep = 0; rep < row->n_reps; rep++)
					xs[rep] = row->reps[rep].result[a].m[shown[k]];
				if (pab_median(xs, row->n_reps, &med))
					med = NAN;
				pab_fmt_value(cell[k], sizeof(cell[k]), shown[k], med);
			}
			free(xs);
			fprintf(f, "%-24s %-6s %4zu %14s %10s %10s %10s %9s\n",
				pab_term_safe(row->name), e->arms[a].name, row->n_reps, cell[0],
				cell[1], cell[2], cell[3], cell[4]);
		}
	}
}
