/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * resume.c — the resume plan: --resume FILE continues the interrupted
 * run its artifact records, checked against the options given again and
 * the digests recorded at the start (resume.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "store/artifact_read.h"
#include "store/tempfile.h"
#include "run/arms.h"
#include "run/define.h"
#include "run/resume.h"
#include "run/runconf.h"
#include "term.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* --resume                                                           */

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

/* What the recorded arms rec do differently from given, or NULL. */
static char *arms_mismatch(const struct pab_experiment *given, const struct pab_experiment *rec)
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
		if (!str_same(g->prepare, a->prepare))
			return xasprintf("arm '%s' has another prepare there",
					 pab_term_safe(a->name));
	}
	return NULL;
}

/* What the recorded definition rec does differently from given, or NULL. */
static char *definition_mismatch(const struct pab_experiment *given,
				 const struct pab_experiment *rec)
{
	char *diff = arms_mismatch(given, rec);
	size_t i;

	if (diff)
		return diff;
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
static void add_words(struct pab_strbuf *sb, char *const *argv, size_t argc)
{
	size_t i;

	for (i = 0; i < argc; i++)
		pab_strbuf_addf(sb, " '%s'", pab_term_safe(argv[i]));
}

/* Everything --resume is about to execute, before it executes any of it. */
static char *resume_listing(const struct pab_experiment *e, const char *path)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t a, ri, i;

	pab_strbuf_addf(&sb, "perfab: --resume '%s' runs what it records:\n", pab_term_safe(path));
	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];

		pab_strbuf_addf(&sb, "  arm %s:", pab_term_safe(arm->name));
		if (arm->argc)
			add_words(&sb, arm->argv, arm->argc);
		else
			pab_strbuf_addstr(&sb, " (each row's built-in program)");
		for (i = 0; i < arm->n_env; i++)
			pab_strbuf_addf(&sb, "%s%s=%s", i ? " " : "; env ",
					pab_term_safe(arm->env[i].key), pab_term_safe(arm->env[i].value));
		if (arm->prepare)
			pab_strbuf_addf(&sb, "; prepare '%s'", pab_term_safe(arm->prepare));
		pab_strbuf_addstr(&sb, "\n");
	}
	if (e->settings.prepare)
		pab_strbuf_addf(&sb, "  before every run: '%s'\n", pab_term_safe(e->settings.prepare));
	if (e->settings.setup)
		pab_strbuf_addf(&sb, "  before each row: '%s'\n", pab_term_safe(e->settings.setup));
	if (e->settings.cleanup)
		pab_strbuf_addf(&sb, "  after each row: '%s'\n", pab_term_safe(e->settings.cleanup));
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];

		pab_strbuf_addf(&sb, "  row %s:", pab_term_safe(row->name));
		if (row->program)
			pab_strbuf_addf(&sb, " program %s", pab_term_safe(row->program));
		if (row->argc) {
			pab_strbuf_addstr(&sb, " arguments");
			add_words(&sb, row->argv, row->argc);
		}
		for (i = 0; i < row->n_params; i++)
			pab_strbuf_addf(&sb, "%s%s=%s", i ? "," : " params ",
					pab_term_safe(row->params[i].key),
					pab_term_safe(row->params[i].value));
		if (!row->program && !row->argc)
			pab_strbuf_addstr(&sb, " the arms' commands as they are");
		pab_strbuf_addstr(&sb, "\n");
	}
	return pab_strbuf_detach(&sb);
}

/* Executable exe (digest now) of arm for row against the recorded want. */
static int check_digest(const char *path, const struct pab_arm *arm, const struct pab_row *row,
			const char *exe, const char *now, const char *want, struct pab_failure *f)
{
	if (!want)
		return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume '%s': no digest of '%s' (arm "
				"'%s', row '%s') was recorded when the run started; rerun from "
				"scratch", pab_term_safe(path), pab_term_safe(exe),
				pab_term_safe(arm->name), pab_term_safe(row->name));
	if (strcmp(want, now))
		return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume: arm '%s' executable '%s' (row "
				"'%s') changed since the run started (sha256 %s, recorded %.64s); "
				"rerun from scratch", pab_term_safe(arm->name), pab_term_safe(exe),
				pab_term_safe(row->name), now, pab_term_safe(want));
	return 0;
}

/* The recorded input of row's arm a at path in role, or NULL. */
static const struct pab_input_file *recorded_input(const struct pab_row *row, size_t a,
						   const char *path, const char *role)
{
	size_t i;

	for (i = 0; row->inputs && i < row->n_inputs[a]; i++)
		if (!strcmp(row->inputs[a][i].path, path) && !strcmp(row->inputs[a][i].role, role))
			return &row->inputs[a][i];
	return NULL;
}

/*
 * The files arm a's run of row reads now (now, n) against those recorded
 * when the run started: each must have been recorded with the digest it
 * has now, and each recorded one must still be there. 0 or -1 with f.
 */
static int check_inputs(const struct pab_arm *arm, const struct pab_row *row, size_t a,
			const struct pab_input_file *now, size_t n, struct pab_failure *f)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct pab_input_file *was = recorded_input(row, a, now[i].path, now[i].role);

		if (!was)
			return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume: arm '%s' (row '%s') "
					"reads '%s' (%s, sha256 %s), which was not digested when the "
					"run started; rerun from scratch", pab_term_safe(arm->name),
					pab_term_safe(row->name), pab_term_safe(now[i].path),
					now[i].role, now[i].sha256);
		if (strcmp(was->sha256, now[i].sha256))
			return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume: '%s' (%s of arm '%s', "
					"row '%s') changed since the run started (sha256 %s, recorded "
					"%s); rerun from scratch", pab_term_safe(now[i].path),
					now[i].role, pab_term_safe(arm->name),
					pab_term_safe(row->name), now[i].sha256,
					pab_term_safe(was->sha256));
	}
	for (k = 0; row->inputs && k < row->n_inputs[a]; k++) {
		const struct pab_input_file *was = &row->inputs[a][k];

		for (i = 0; i < n; i++)
			if (!strcmp(now[i].path, was->path) && !strcmp(now[i].role, was->role))
				break;
		if (i == n)
			return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume: '%s' (%s of arm '%s', "
					"row '%s', sha256 %s when the run started) is gone or no "
					"longer a regular file; rerun from scratch",
					pab_term_safe(was->path), pab_term_safe(was->role),
					pab_term_safe(arm->name), pab_term_safe(row->name),
					pab_term_safe(was->sha256));
	}
	return 0;
}

/*
 * Every executable of every (row, arm) against the digest recorded when
 * the run started: rows[].executables, else (artifacts written before it)
 * the arm's digest where it applies — row 0, or an arm's own command. A
 * program without a recorded digest is refused too. So is any file the
 * run reads besides (an argument, an LD_PRELOAD library, an interpreter)
 * that was not recorded, or is not as recorded. What is checked here is
 * what runs: the identities taken now are checked before each exec.
 */
static int verify_executables(struct pab_experiment *e, const char *path, struct pab_failure *f)
{
	struct pab_digest_cache c = { 0 };
	size_t a, ri;
	int ret = -1;

	for (ri = 0; ri < e->n_rows; ri++) {
		struct pab_row *row = &e->rows[ri];

		for (a = 0; a < e->n_arms; a++) {
			struct pab_arm *arm = &e->arms[a];
			const char *want = row->exe_sha256 && row->exe_sha256[a] ?
				row->exe_sha256[a] : (!ri || arm->argc) ? arm->sha256 : NULL;
			struct pab_input_file *now_in;
			struct pab_file_id id;
			size_t n_in;
			char *exe, *now;

			if (pab_arm_exe_digest(arm, row, "cannot resume: ", &c, &exe, &now, &id, f))
				goto out;
			if (check_digest(path, arm, row, exe, now, want, f) ||
			    pab_arm_collect_inputs(arm, row, exe, &c, &now_in, &n_in, f)) {
				free(exe);
				free(now);
				goto out;
			}
			if (check_inputs(arm, row, a, now_in, n_in, f)) {
				pab_input_files_free(now_in, n_in);
				free(exe);
				free(now);
				goto out;
			}
			if (!ri) { /* the arm's executable is row 0's, as a fresh run has it */
				free(arm->exe);
				arm->exe = xstrdup(exe);
				free(arm->sha256);
				arm->sha256 = xstrdup(now);
			}
			pab_row_alloc_files(row, e->n_arms);
			free(row->exes[a]);
			row->exes[a] = exe;
			free(row->exe_sha256[a]);
			row->exe_sha256[a] = now;
			row->exe_id[a] = id;
			pab_input_files_free(row->inputs[a], row->n_inputs[a]);
			row->inputs[a] = now_in;
			row->n_inputs[a] = n_in;
		}
	}
	ret = 0;
out:
	pab_digest_cache_release(&c);
	return ret;
}

/* --resume takes the run's own settings: an option that would set one is refused. */
static int check_resume_options(const struct pab_run_opts *o, struct pab_failure *f)
{
	if (o->reps || o->max_reps || o->seed != UINT64_MAX || o->tolerances.n || o->rules ||
	    o->controls || o->preserve || o->scale > 0 || o->out || o->margin >= 0 ||
	    o->no_sanity || o->max_procs || o->interval_ms > 0 || o->counters || o->no_cgroup ||
	    o->budget || o->metrics || o->require || o->warmup || o->input || o->output ||
	    o->counts || o->count_reps || o->calibration || o->guard_tolerance >= 0 ||
	    o->ignore_failure)
		return pab_fail(f, PAB_FAIL_USAGE, "--resume continues a run with its own settings: "
				"give only --resume FILE, the options that define its arms and rows "
				"again (--config, --arm, --arms, --null-arm or --no-null-arm, "
				"--head-env, --workloads, --parameter-scan, --parameter-step-size, "
				"--parameter-list, --shard, "
				"--literal-argv, --prepare, --setup, --cleanup), and --cpus, --timeout, "
				"--quiet, --show-output, --export-markdown/-csv/-json, --trust-artifact");
	return 0;
}

/* The artifact at o->resume into p->e: one that can be continued. */
static int load_resumable(struct pab_plan *p, const struct pab_run_opts *o,
			  struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct pab_journal_info ji;
	char *why;
	int ret;

	pab_experiment_release(e);
	ret = pab_artifact_load_journaled(o->resume, e, &ji, &why);
	if (ret) {
		pab_experiment_init(e); /* released by the load */
		pab_fail(f, PAB_FAIL_LOAD, "cannot resume: %s", why);
		f->load_ret = ret;
		free(why);
		return -1;
	}
	if (ji.torn && !o->quiet)
		pab_plan_msg(p, PAB_PLAN_NOTE, "'%s.journal': dropped its torn last record (%zu bytes, "
			     "cut short by the interruption); that rep runs again",
			     pab_term_safe(o->resume), ji.torn_bytes);
	if (e->complete)
		return pab_fail(f, PAB_FAIL_USAGE, "'%s' is already complete: nothing to resume "
				"(perfab ledger %s)", o->resume, o->resume);
	if (e->stopped_by == PAB_STOP_SANITY_GATE)
		return pab_fail(f, PAB_FAIL_USAGE, "'%s' was stopped by the sanity gate: rerun with "
				"--no-sanity-gate instead of resuming", o->resume);
	if (!e->n_rows)
		return pab_fail(f, PAB_FAIL_USAGE, "'%s' has no rows to resume", o->resume);
	if (e->settings.invalid)
		return pab_fail(f, PAB_FAIL_USAGE, "cannot resume '%s': %s: the artifact is damaged; "
				"rerun from scratch", o->resume, e->settings.invalid);
	return 0;
}

/* The arms and rows the options define again against the artifact's. */
static int check_definition(const struct pab_plan *p, const struct pab_run_opts *o,
			    struct pab_failure *f)
{
	struct pab_experiment given;
	struct pab_config_settings cs;
	char *diff = NULL;
	int ret;

	pab_experiment_init(&given);
	ret = pab_plan_define(&given, o, &cs, f);
	pab_config_settings_release(&cs);
	if (!ret)
		diff = definition_mismatch(&given, &p->e);
	pab_experiment_release(&given);
	if (diff) {
		ret = pab_fail(f, PAB_FAIL_REFUSED, "cannot resume '%s': it does not match the arms "
			       "and rows given again: %s; resume with the run's own options, or "
			       "rerun from scratch", o->resume, diff);
		free(diff);
	}
	return ret;
}

/*
 * The commands the artifact records beside the arms (--prepare, --setup,
 * --cleanup) against the command line's: they are executed, so like the
 * arms they must be given again, the same, unless --trust-artifact and
 * none is given.
 */
static int check_hooks(const struct pab_run_settings *rec, const struct pab_run_opts *o,
		       struct pab_failure *f)
{
	const char *names[3] = { "prepare", "setup", "cleanup" };
	const char *given[3] = { o->prepare, o->setup, o->cleanup };
	const char *recorded[3] = { rec->prepare, rec->setup, rec->cleanup };
	size_t i;

	if (o->trust && !o->prepare && !o->setup && !o->cleanup)
		return 0;
	for (i = 0; i < 3; i++) {
		if (str_same(given[i], recorded[i]))
			continue;
		if (!recorded[i])
			return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume '%s': it was run without "
					"--%s, the command line gives --%s '%s'; resume with the run's "
					"own options", o->resume, names[i], names[i],
					pab_term_safe(given[i]));
		return pab_fail(f, PAB_FAIL_REFUSED, "cannot resume '%s': it records --%s '%s', "
				"the command line gives %s%s%s; give the run's own --%s again (or "
				"--trust-artifact to run what it records)", o->resume, names[i],
				pab_term_safe(recorded[i]), given[i] ? "'" : "none",
				given[i] ? pab_term_safe(given[i]) : "", given[i] ? "'" : "",
				names[i]);
	}
	return 0;
}

/*
 * --resume FILE: the interrupted run's own arms, rows, seed, protocol and
 * settings. Nothing in the artifact is trusted that can be checked: the
 * arms and rows must be the ones the command line defines again (unless
 * --trust-artifact), every executable must have the digest recorded at
 * the start, every setting must be in its option's range. What will run
 * is listed before anything runs.
 */
int pab_plan_resume(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f)
{
	int defined = o->config || o->arm_specs.n || o->arms || o->null_arm ||
		o->no_null_arm || o->workloads || o->head_env.n || o->shard ||
		o->param_scans.n || o->param_lists.n;

	if (check_resume_options(o, f) || load_resumable(p, o, f))
		return -1;
	pab_plan_msg_take(p, PAB_PLAN_TEXT, resume_listing(&p->e, o->resume));
	if (check_hooks(&p->e.settings, o, f))
		return -1;
	if (defined) {
		if (check_definition(p, o, f))
			return -1;
	} else if (!o->trust) {
		return pab_fail(f, PAB_FAIL_USAGE, "--resume executes what the artifact records "
				"(above): give the run's own --config/--arm/--arms options again so "
				"perfab checks it against them, or --trust-artifact to run it as "
				"recorded");
	}
	if (verify_executables(&p->e, o->resume, f))
		return -1;
	p->out = o->resume;
	p->resumed = 1;
	/* A checkpoint torn by a crash may have left its temp file. */
	pab_artifact_clean_temps(o->resume);
	if (!o->quiet)
		pab_plan_msg(p, PAB_PLAN_NOTE, "resuming '%s': %zu arms, %zu rows, seed %llu", o->resume,
			     p->e.n_arms, p->e.n_rows, (unsigned long long)p->e.seed);
	return 0;
}

char *pab_plan_resume_command(const struct pab_run_opts *o, const char *out)
{
	struct pab_strlist w = { 0 };
	char *cmd;
	size_t i;

#define WORD(s) pab_strlist_push(&w, xstrdup(pab_term_safe(s)))
#define OPTION(name, value) do { if (value) { WORD(name); WORD(value); } } while (0)
	WORD("--resume");
	WORD(out);
	OPTION("--config", o->config);
	for (i = 0; i < o->arm_specs.n; i++)
		OPTION("--arm", o->arm_specs.v[i]);
	OPTION("--arms", o->arms);
	if (o->null_arm)
		WORD("--null-arm");
	if (o->no_null_arm)
		WORD("--no-null-arm");
	for (i = 0; i < o->head_env.n; i++)
		OPTION("--head-env", o->head_env.v[i]);
	OPTION("--workloads", o->workloads);
	for (i = 0; i + 2 < o->param_scans.n; i += 3) {
		WORD("--parameter-scan");
		WORD(o->param_scans.v[i]);
		WORD(o->param_scans.v[i + 1]);
		WORD(o->param_scans.v[i + 2]);
	}
	if (o->param_step > 0) {
		char step[32];

		snprintf(step, sizeof(step), "%.17g", o->param_step);
		WORD("--parameter-step-size");
		WORD(step);
	}
	for (i = 0; i + 1 < o->param_lists.n; i += 2) {
		WORD("--parameter-list");
		WORD(o->param_lists.v[i]);
		WORD(o->param_lists.v[i + 1]);
	}
	OPTION("--shard", o->shard);
	OPTION("--prepare", o->prepare);
	OPTION("--setup", o->setup);
	OPTION("--cleanup", o->cleanup);
	if (o->literal_argv)
		WORD("--literal-argv");
	if (o->trust)
		WORD("--trust-artifact");
#undef OPTION
#undef WORD
	cmd = pab_argv_join((char *const *)w.v, w.n);
	for (i = 0; i < w.n; i++)
		free((char *)w.v[i]);
	pab_strlist_release(&w);
	return cmd;
}
