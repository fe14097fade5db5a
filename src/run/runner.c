/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runner.c — the rotation loop with its checkpoints, the sanity gate and
 * adaptive reps (runner.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/ledger.h"
#include "judge/sanity_gate.h"
#include "store/artifact_write.h"
#include "store/checkpoint.h"
#include "store/digest.h"
#include "model/rotation.h"
#include "model/sanity.h"
#include "store/run_record.h"
#include "pab_stats.h"
#include "probe/guard.h"
#include "probe/proc.h"
#include "probe/runchild.h"
#include "probe/simcount.h"
#include "run/count_batch.h"
#include "run/looks.h"
#include "run/looks_fixed.h"
#include "run/runner.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Setup                                                              */

/* --input, --output and --show-output into the children's descriptors. */
static int open_output(struct pab_runner *r, const struct pab_run_settings *use,
		       struct pab_failure *f)
{
	struct pab_measure *m = &r->m;

	m->input = use->input;
	m->show_output = r->plan->show_output;
	if (!use->output || !strcmp(use->output, "null"))
		return 0;
	if (!strcmp(use->output, "inherit")) {
		fflush(stdout);
		m->stdout_fd = STDOUT_FILENO;
		return 0;
	}
	r->output_fd = open(use->output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (r->output_fd < 0)
		return pab_fail_errno(f, "--output '%s': cannot open it", use->output);
	m->stdout_fd = r->output_fd;
	return 0;
}

/*
 * The count cache for this run's counting pass (run/counting.h): what
 * makes a count of a program valid besides the program's identity —
 * valgrind (its path, digest and version), the working directory, the
 * input and the CPU model (valgrind's CPU, and so the library code paths
 * chosen, follows the host's) — is the start of every key. Without
 * valgrind's version the cache is not used.
 */
static void use_count_cache(struct pab_runner *r, const struct pab_plan *plan)
{
	char *version = pab_measure_count_tool_version(&r->m);
	char *tool_sum = pab_sha256_file(r->count_tool), *in_sum = NULL, *cwd = getcwd(NULL, 0);

	if (r->m.input)
		in_sum = pab_sha256_file(r->m.input);
	if (!version || !tool_sum || !cwd || (r->m.input && !in_sum)) {
		if (!plan->quiet)
			note("the count cache is not used: %s", !version ? "valgrind did not say "
			     "its version (--version)" : "valgrind, the input or the working "
			     "directory cannot be read");
	} else {
		pab_counting_use_cache(&r->counting, plan->count_cache, plan->count_cache_mkdir,
				       xasprintf("%s\nvalgrind %s\nvalgrind-sha256 %s\n"
						 "valgrind-version %s\ncwd %s\nstdin %s\ncpu %s\n",
						 PAB_COUNT_CACHE_SCHEMA, r->count_tool, tool_sum,
						 version, cwd, in_sum ? in_sum : "-",
						 r->e->cpu_model ? r->e->cpu_model : "-"));
	}
	free(version);
	free(tool_sum);
	free(in_sum);
	free(cwd);
}

int pab_runner_start(struct pab_runner *r, struct pab_plan *plan, struct pab_failure *f)
{
	const struct pab_run_settings *use = &plan->use;
	struct pab_experiment *e = &plan->e;
	struct pab_measure *m = &r->m;
	char *why, *binding;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->plan = plan;
	r->e = e;
	m->pin = pab_pin_new(use->cpus, &why);
	if (!m->pin) {
		pab_fail(f, PAB_FAIL_USAGE, "%s", why);
		free(why);
		return -1;
	}
	m->timeout_ns = (int64_t)(use->timeout_s * 1e9);
	m->scale = use->scale;
	m->max_procs = (long)use->max_procs;
	m->use_cgroup = use->cgroup;
	m->ignore_failure = use->ignore_failure;
	m->events = (const char *const *)plan->events;
	m->n_events = plan->n_events;
	if (use->count_source == PAB_COUNT_SIM) {
		r->count_tool = pab_simcount_tool(&why);
		if (!r->count_tool) {
			pab_fail(f, PAB_FAIL_USAGE, "the run counts with valgrind: %s", why);
			free(why);
			return -1;
		}
		m->count_tool = r->count_tool;
	}
	pab_spawn_setup();
	/* Before any thread: the guard is forked. The sampler thread
	 * inherits the blocked stop signals (pab_spawn_setup): only the main
	 * thread takes them, where the run stands is known. */
	if (pab_guard_start())
		warning("cannot start the guard process (%s): if perfab is killed with "
			"SIGKILL, processes its children started may run on", strerror(errno));
	r->guard_started = 1;
	if (m->use_cgroup)
		pab_cgroup_clean_stale();
	m->sampler = pab_sampler_new(m->pin, (int64_t)(use->sample_interval_ms * 1e6));
	if (!m->sampler)
		return pab_fail_errno(f, "cannot start the RSS sampler thread");
	if (!pab_test_without("runner-pin") && pab_pin_runner_thread(m->pin))
		warning("cannot bind perfab to the children's CPUs: %s", strerror(errno));
	r->output_fd = -1;
	if (open_output(r, use, f) || pab_measure_start(m, e->n_arms, f))
		return -1;
	pab_hooks_init(&r->hooks, m, e, use, &r->pg);
	binding = pab_pin_describe_text(m->pin); /* run.binding as the run starts */
	pab_run_record_binding(e, binding);
	free(binding);
	r->n_looks = pab_looks_plan(e->reps, e->max_reps, e->n_arms, r->looks, PAB_MAX_LOOKS);
	r->budget_ns = (int64_t)(use->budget_s * 1e9);
	r->start_ns = now_monotonic_ns();
	r->row_target = xcalloc(e->n_rows ? e->n_rows : 1, sizeof(*r->row_target));
	r->row_undecidable = xcalloc(e->n_rows ? e->n_rows : 1, sizeof(*r->row_undecidable));
	pab_counting_init(&r->counting, e, m->count_tool != NULL, plan->quiet);
	if (m->count_tool && plan->count_cache)
		use_count_cache(r, plan);
	for (i = 0; i < e->n_rows; i++)
		r->row_target[i] = pab_looks_first_target(r->looks, r->n_looks, e->reps, e->n_arms,
							  e->rows[i].n_reps);
	r->pg.e = e;
	r->pg.row_target = r->row_target;
	r->pg.quiet = plan->quiet;
	r->pg.color = use_color(STDERR_FILENO);
	return 0;
}

void pab_runner_release(struct pab_runner *r)
{
	pab_sampler_free(r->m.sampler);
	r->m.sampler = NULL;
	pab_measure_end(&r->m);
	if (r->guard_started)
		pab_guard_done();
	r->guard_started = 0;
	pab_journal_close(r->journal);
	r->journal = NULL;
	free(r->journal_path);
	r->journal_path = NULL;
	pab_pin_free(r->m.pin);
	r->m.pin = NULL;
	free(r->count_tool);
	r->count_tool = NULL;
	r->m.count_tool = NULL;
	free(r->row_target);
	r->row_target = NULL;
	free(r->row_undecidable);
	r->row_undecidable = NULL;
	pab_counting_release(&r->counting);
	pab_hooks_release(&r->hooks);
	if (r->output_fd >= 0)
		close(r->output_fd);
	r->output_fd = -1;
}

/* ------------------------------------------------------------------ */
/* Checkpoints                                                        */

/* What a checkpoint that cannot be written leaves, for its message. */
static const char *checkpoint_advice(size_t written)
{
	return written ? "the previous checkpoint is intact: free space, then perfab run "
		"--resume it" : "nothing was measured yet: choose another --out";
}

/* Fold: the whole artifact, with every rep so far (artifact_write.h). */
static int checkpoint(struct pab_runner *r, struct pab_failure *f)
{
	char *why;

	if (r->journal)
		r->e->journal_folded = pab_journal_last_seq(r->journal);
	if (pab_artifact_save(r->e, r->plan->out, &why)) {
		pab_fail(f, PAB_FAIL_SYSTEM, "cannot write checkpoint '%s': %s (%s)", r->plan->out,
			 why, checkpoint_advice(r->checkpoints));
		free(why);
		return -1;
	}
	r->checkpoints++;
	r->folded_reps = r->total_reps;
	return 0;
}

/*
 * The first checkpoint: the artifact with everything measured so far (none
 * on a fresh run, all the interrupted run's reps on --resume), then a new
 * journal bound to it by its id and seed, numbered on from the last record
 * the artifact holds (doc/artifact-schema.md, the journal).
 */
static int start_journal(struct pab_runner *r, struct pab_failure *f)
{
	struct pab_experiment *e = r->e;
	char *header, *why;
	size_t len, i;
	int ret = 0;

	for (i = 0; i < e->n_rows; i++)
		r->total_reps += e->rows[i].n_reps;
	r->journal_path = pab_artifact_journal_path(r->plan->out);
	if (!e->journal_id) {
		/* A new run: an old run's journal at the path goes before the
		 * new artifact names its own (a resumed run's journal is read
		 * already, and stays until the fold below holds its reps). */
		if (pab_journal_remove(r->journal_path, &why)) {
			pab_fail(f, PAB_FAIL_SYSTEM, "%s: remove it or choose another --out", why);
			free(why);
			return -1;
		}
		e->journal_id = pab_journal_new_id();
	}
	if (checkpoint(r, f))
		return -1;
	header = pab_artifact_journal_header(e, &len, &why);
	if (!header || pab_journal_create(r->journal_path, e->journal_folded, header, len,
					  &r->journal, &why)) {
		ret = pab_fail(f, PAB_FAIL_SYSTEM, "cannot write checkpoint '%s': %s (%s)",
			       r->journal_path, why, checkpoint_advice(r->total_reps));
		free(why);
	}
	free(header);
	return ret;
}

/*
 * Row ri completed a rep: append its record to the journal (one rep's
 * bytes, synced), and fold the journal into the artifact when the reps
 * since the last fold reach the reps folded then — at 8, 16, 32, ...
 * reps (PAB_FOLD_FIRST_REPS, so a short run pays few whole-file syncs) —
 * so all folds together rewrite less than twice the final artifact: a
 * checkpoint costs O(1) bytes per rep, amortised, at rep 10 as at rep
 * 1000 (tests/e2e/reliability_journal.sh measures it). SIGTERM, SIGINT and SIGHUP
 * are taken only while a child runs or between children (runchild.h),
 * never in here: the stop line always counts exactly the reps the files
 * on disk hold, and no record is cut by the signal.
 */
static int checkpoint_rep(struct pab_runner *r, size_t ri, struct pab_failure *f)
{
	char *rec, *why;
	size_t len;

	rec = pab_artifact_rep_record(r->e, ri, &len, &why);
	if (!rec || pab_journal_append(r->journal, rec, len, &why)) {
		pab_fail(f, PAB_FAIL_SYSTEM, "cannot write checkpoint '%s': %s (the previous "
			 "checkpoint is intact: free space, then perfab run --resume %s)",
			 r->journal_path, why, r->plan->out);
		free(why);
		free(rec);
		return -1;
	}
	free(rec);
	r->total_reps++;
	/* Fold also before the journal nears the size readers accept (journal.h). */
	if (((r->total_reps >= 2 * r->folded_reps && r->total_reps >= PAB_FOLD_FIRST_REPS) ||
	     pab_journal_bytes(r->journal) >= PAB_JOURNAL_MAX_BYTES / 2) &&
	    checkpoint(r, f))
		return -1;
	pab_progress_rep_saved(&r->pg, ri);
	return 0;
}

/* After the last checkpoint: the artifact alone is the result. */
static void end_journal(struct pab_runner *r)
{
	char *why;

	pab_journal_close(r->journal);
	r->journal = NULL;
	pab_crash_point("journal: artifact final, journal not removed");
	if (pab_journal_remove(r->journal_path, &why)) {
		warning("%s; the artifact '%s' is complete without it", why, r->plan->out);
		free(why);
	}
	free(r->journal_path);
	r->journal_path = NULL;
}

/* ------------------------------------------------------------------ */
/* The loop                                                           */

/* 1 when a result of row other than rep rep_idx's arm a is a non-zero exit
 * status ignored (--ignore-failure): the row's note was made. */
static int exit_ignored_before(const struct pab_row *row, size_t n_arms, size_t rep_idx,
			       size_t a)
{
	size_t k, b;

	for (k = 0; k <= rep_idx && k < row->n_reps; k++)
		for (b = 0; b < n_arms; b++)
			if ((k != rep_idx || b != a) &&
			    pab_arm_result_exit_ignored(&row->reps[k].result[b]))
				return 1;
	return 0;
}

/*
 * Arm a of row ri, rep rep_idx, into its result slot; a failed child
 * marks the row failed; the first non-zero exit status a row's children
 * have ignored (--ignore-failure) is noted. Returns 0 (*out: what the child told: whether it
 * spoke the protocol, a counting run's outcome), or -1 with f filled; a
 * stop signal sets r->interrupted.
 */
static int run_arm(struct pab_runner *r, size_t ri, size_t rep_idx, size_t a,
		   enum pab_measure_pass pass, uint64_t seed, struct pab_measured *out,
		   struct pab_failure *f)
{
	static const char *const label[] = { "", " (latency replay)", " (counting under valgrind)" };
	struct pab_row *row = &r->e->rows[ri];
	struct pab_arm_result *res = &row->reps[rep_idx].result[a];
	int latency = pass != PAB_MEASURE_TIMED;

	pab_progress_child(&r->pg, ri, rep_idx, a, label[pass]);
	pab_crash_point(pass == PAB_MEASURE_LATENCY ? "before a latency replay" :
			pass == PAB_MEASURE_COUNT ? "before a counting run" : "before a child");
	if (pab_measure_arm(&r->m, r->e, row, a, pass, seed, res, out, f))
		return -1;
	r->interrupted = out->interrupted;
	if (out->report_why)
		warning("row '%s' arm '%s': %s", pab_term_safe(row->name),
			pab_term_safe(r->e->arms[a].name), out->report_why);
	free(out->report_why);
	out->report_why = NULL;
	if (pass == PAB_MEASURE_TIMED && !r->plan->quiet && pab_arm_result_exit_ignored(res) &&
	    !exit_ignored_before(row, r->e->n_arms, rep_idx, a))
		pab_progress_exit_ignored(&r->pg, ri, rep_idx, a, res);
	if (!latency && res->failed) {
		char *what = pab_progress_child_failed(&r->pg, ri, rep_idx, a, res);

		if (!row->failed) {
			row->failed = 1;
			row->failed_arm = xstrdup(r->e->arms[a].name);
			row->fail_reason = what;
		} else {
			free(what);
		}
	}
	return 0;
}

/*
 * The prepare commands before arm a's measured run in row ri's rep in
 * progress. A failed one fails the row and drops that rep (r->rep_dropped):
 * the artifact keeps whole reps only. Returns 0, or -1 with f filled.
 */
static int prepare_arm(struct pab_runner *r, size_t ri, size_t a, struct pab_failure *f)
{
	struct pab_row *row = &r->e->rows[ri];
	int ret = pab_hooks_prepare(&r->hooks, ri, a, f);
	size_t k;

	r->interrupted = r->hooks.interrupted;
	if (ret <= 0 || r->interrupted)
		return ret < 0 ? -1 : 0;
	row->n_reps--;
	for (k = 0; k < r->e->n_arms; k++)
		pab_arm_result_release(&row->reps[row->n_reps].result[k]);
	free(row->reps[row->n_reps].result);
	free(row->reps[row->n_reps].order);
	r->rep_dropped = 1;
	return 0;
}

/* Before row ri's first rep here: its setup and warmup (run/hooks.h).
 * Returns 1 when the row may have its rep, 0 when not (it failed, or a
 * stop signal came: r->interrupted), -1 with f filled. */
static int begin_row(struct pab_runner *r, size_t ri, struct pab_failure *f)
{
	if (pab_hooks_row_begin(&r->hooks, ri, f))
		return -1;
	r->interrupted = r->hooks.interrupted;
	if (r->e->rows[ri].failed)
		pab_hooks_row_end(&r->hooks, ri);
	return !r->interrupted && !r->e->rows[ri].failed;
}

/*
 * The counting pass of row ri's rep rep_idx (run/counting.h): every arm's
 * child again, as the timed pass started it (its prepare first), under
 * valgrind, so no timed child is slowed; an arm whose child is the same
 * program as one counted before it in this rep takes that count, and one
 * whose program's counts agreed in two earlier reps takes theirs. Returns
 * 0, or -1 with f filled.
 */
static int count_rep(struct pab_runner *r, size_t ri, size_t rep_idx, uint64_t seed,
		     struct pab_failure *f)
{
	struct pab_counting *c = &r->counting;
	struct pab_row *row = &r->e->rows[ri];
	struct pab_rep *rep = &row->reps[rep_idx];
	size_t n = r->e->n_arms, k, counted = 0;
	char **ids = xcalloc(n, sizeof(*ids)), *why;
	int64_t t0 = now_monotonic_ns();
	unsigned pus[PAB_MAX_SIDE_BY_SIDE];
	struct pab_count_pass p = { r->e, &r->m, c, &r->pg, r->budget_ns, r->start_ns, pus, 0,
				    0, 0 };
	struct pab_measured out;
	int ret = 0;

	pab_counting_begin_rep(c, ri, rep_idx);
	for (k = 0; pab_counting_rep(c, ri, rep_idx) && k < n; k++)
		ids[k] = pab_measure_identity(&r->m, r->e, row, k);
	/* Side by side on PUs of their own, unless a prepare must run first. */
	if (pab_counting_rep(c, ri, rep_idx) && !pab_count_any_prepare(r->e, &r->plan->use) &&
	    !pab_test_without("count-side-by-side"))
		p.n_pus = pab_pin_count_pus(r->m.pin, pus, PAB_MAX_SIDE_BY_SIDE);
	if (p.n_pus) {
		ret = pab_count_pass_side_by_side(&p, ri, rep_idx, seed, ids, f);
		r->interrupted = p.interrupted;
		counted = p.counted;
	}
	for (k = 0; !p.n_pus && !row->failed && pab_counting_rep(c, ri, rep_idx) && k < n; k++) {
		size_t a = rep->order[k];
		/* -1: no budget; a spent budget is 0 left, never "no budget". */
		int64_t left = r->budget_ns > 0 ? r->budget_ns - (now_monotonic_ns() - r->start_ns) :
			-1;

		if (r->budget_ns > 0 && left < 0)
			left = 0;
		if (pab_counting_share(rep, ids, k) || pab_counting_reuse(c, ri, rep_idx, ids, a) ||
		    pab_counting_cached(c, ri, rep_idx, ids, a))
			continue;
		if (pab_counting_limit(c, ri, rep_idx, a, r->m.timeout_ns, left,
				       (double)r->budget_ns / 1e9,
				       &r->m.count_timeout_ns, &r->m.count_limit_budget, &why)) {
			pab_counting_stop_row(c, ri, why);
			free(why);
			break;
		}
		if (!counted++)
			pab_progress_counting(&r->pg, ri, rep_idx, pab_counting_cost_s(c, ri, rep_idx, a));
		ret = prepare_arm(r, ri, a, f);
		if (ret || r->interrupted || r->rep_dropped)
			break;
		ret = run_arm(r, ri, rep_idx, a, PAB_MEASURE_COUNT, seed, &out, f);
		if (ret || r->interrupted)
			break;
		pab_counting_spent(c, out.count_wall_s);
		if (out.count_stop)
			pab_counting_stop_row(c, ri, rep->result[a].reason[PAB_M_INSTRUCTIONS]);
		else
			pab_counting_learn(c, ri, rep_idx, ids, a);
	}
	pab_progress_counted(&r->pg, (double)(now_monotonic_ns() - t0) / 1e9, counted > 0);
	for (k = 0; k < n; k++)
		free(ids[k]);
	free(ids);
	return ret;
}

/* One rep of row ri: every arm in rotation order, then latency replays
 * (p99 from a separate replay, so the throughput run has no clocks; only
 * where p99 is judged: doc/perfab.1), then the counting pass. */
static int run_rep(struct pab_runner *r, size_t ri, struct pab_failure *f)
{
	struct pab_row *row = &r->e->rows[ri];
	size_t n = r->e->n_arms, k, rep_idx = row->n_reps;
	struct pab_rep *rep = pab_row_add_rep(row, n);
	uint64_t seed = (r->e->seed + rep_idx) & ((1ULL << 53) - 1);
	struct pab_measured out;
	int all_spoke = 1;

	rep->block = pab_rotation_block(n, rep_idx);
	pab_rotation_order(n, rep_idx, rep->order);
	for (k = 0; k < n; k++) {
		if (prepare_arm(r, ri, rep->order[k], f))
			return -1;
		if (r->interrupted || r->rep_dropped)
			return 0;
		if (run_arm(r, ri, rep_idx, rep->order[k], PAB_MEASURE_TIMED, seed, &out, f))
			return -1;
		if (r->interrupted)
			return 0;
		all_spoke &= out.spoke;
	}
	for (k = 0; all_spoke && !row->failed && k < n; k++) {
		if (!r->e->judged.metrics[PAB_M_P99])
			pab_arm_result_null(&rep->result[k], PAB_M_P99, PAB_NO_REPLAY_WHY);
		else if (run_arm(r, ri, rep_idx, rep->order[k], PAB_MEASURE_LATENCY, seed, &out, f))
			return -1;
		if (r->interrupted)
			return 0;
	}
	return count_rep(r, ri, rep_idx, seed, f);
}

/*
 * 1 when row ri of l is undecidable within the cap (pab_cell_outlook;
 * a held time guard's pab_guard_outlook): says which cell and what would
 * decide it, once, on stderr.
 */
static int row_undecidable(struct pab_runner *r, const struct pab_ledger *l, size_t ri)
{
	size_t i, c;

	for (i = 0; i < l->n_rows; i++) {
		if (l->rows[i].row != ri || !l->rows[i].undecidable)
			continue;
		for (c = 0; c < l->n_cells; c++) {
			const struct pab_ledger_cell *cell = &l->cells[c];

			if (cell->row != ri || cell->arm != l->rows[i].arm || !cell->undecidable)
				continue;
			pab_progress_undecidable(&r->pg, r->e->rows[ri].name, cell, l->rows[i].cap_n);
			break;
		}
		return 1;
	}
	return 0;
}

/*
 * Adaptive reps at a look (pab_looks_step() on the ledger's row
 * verdicts). Returns 1 when any row's target rose; sets r->undecided.
 * A ledger that cannot be built decides nothing more.
 */
static int adaptive_step(struct pab_runner *r)
{
	struct pab_experiment *e = r->e;
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	size_t ri, *before;
	int more, *decided;
	char *why;

	r->undecided = 0;
	pab_ledger_opts_init(&lo, e);
	if (pab_ledger_build(e, &lo, &l, &why)) {
		free(why);
		return 0;
	}
	decided = xcalloc(e->n_rows ? e->n_rows : 1, sizeof(*decided));
	before = xcalloc(e->n_rows ? e->n_rows : 1, sizeof(*before));
	for (ri = 0; ri < e->n_rows; ri++) {
		enum pab_verdict v = pab_ledger_row_verdict(&l, ri);

		decided[ri] = e->rows[ri].failed || v == PAB_PASS || v == PAB_FAIL;
		before[ri] = r->row_target[ri];
		if (!decided[ri] && !r->row_undecidable[ri] && row_undecidable(r, &l, ri)) {
			r->row_undecidable[ri] = 1;
			decided[ri] = 1;
		}
		decided[ri] |= r->row_undecidable[ri];
	}
	pab_ledger_release(&l);
	more = pab_looks_step(r->looks, r->n_looks, decided, e->n_rows, r->budget_spent,
			      r->row_target, &r->undecided);
	for (ri = 0; ri < e->n_rows; ri++) {
		if (r->row_target[ri] == before[ri])
			continue;
		pab_progress_clear(&r->pg);
		if (!r->pg.quiet)
			note("row '%s' is undecided after %zu reps: next look at %zu",
			     pab_term_safe(e->rows[ri].name), before[ri], r->row_target[ri]);
	}
	free(decided);
	free(before);
	return more;
}

/*
 * 1 when the run's budget is spent. A row in the middle of a block still
 * completes it: the rotation stays balanced.
 */
static int over_budget(struct pab_runner *r)
{
	if (!r->budget_spent && r->budget_ns > 0 &&
	    now_monotonic_ns() - r->start_ns >= r->budget_ns) {
		r->budget_spent = 1;
		if (!r->pg.quiet)
			note("the run's budget of %.3g s is spent: finishing the current blocks",
			     (double)r->budget_ns / 1e9);
	}
	return r->budget_spent;
}

static void record_stop(struct pab_runner *r, enum pab_stop_reason why)
{
	struct pab_run_settings *s = &r->e->settings;

	s->stop_reason = why;
	s->elapsed_s = (double)(now_monotonic_ns() - r->start_ns) / 1e9;
	s->given |= PAB_RUN_STOP | PAB_RUN_ELAPSED;
}

/* Print the cells the gate added (e->sanity from index from on). */
static void print_sanity(const struct pab_experiment *e, size_t from)
{
	size_t i;

	for (i = from; i < e->n_sanity; i++) {
		char *line = pab_sanity_cell_line(&e->sanity[i]);

		fprintf(stderr, "perfab: sanity gate: %s\n", line);
		free(line);
	}
}

/* The sanity gate after the first pass: 1 when it stopped the run. */
static int apply_sanity_gate(struct pab_runner *r)
{
	size_t before = r->e->n_sanity;

	if (!pab_sanity_gate(r->e))
		return 0;
	print_sanity(r->e, before);
	r->e->stopped_by = PAB_STOP_SANITY_GATE;
	record_stop(r, PAB_STOP_SANITY_GATE);
	return 1;
}

/* Rep-major: one rep of every row that still needs one. Returns 1 when
 * a rep ran, 0 when none did, -1 with f filled. */
static int run_pass(struct pab_runner *r, struct pab_failure *f)
{
	struct pab_experiment *e = r->e;
	size_t ri;
	int any = 0, ok;

	for (ri = 0; ri < e->n_rows; ri++) {
		if (e->rows[ri].n_reps >= r->row_target[ri] || e->rows[ri].failed)
			continue;
		if (e->rows[ri].n_reps % e->n_arms == 0 && e->rows[ri].n_reps > 0 &&
		    over_budget(r))
			continue;
		ok = begin_row(r, ri, f);
		if (ok < 0 || (ok && run_rep(r, ri, f)))
			return -1;
		if (r->interrupted)
			return 1;
		if (!ok || r->rep_dropped) {
			/* Failed by a setup, warmup run or prepare: no rep to
			 * journal, so the artifact records the failure. */
			r->rep_dropped = 0;
			pab_hooks_row_end(&r->hooks, ri);
			if (checkpoint(r, f))
				return -1;
			any = 1;
			continue;
		}
		if (checkpoint_rep(r, ri, f))
			return -1;
		if (e->rows[ri].failed)
			pab_hooks_row_end(&r->hooks, ri);
		pab_progress_rep_done(&r->pg, ri);
		any = 1;
	}
	return any;
}

/* Why the loop ended: every row decided, the budget, rows stopped as
 * undecidable, or the cap. */
static enum pab_stop_reason stop_reason(const struct pab_runner *r)
{
	size_t ri, undecidable = 0, short_of_target = 0;

	for (ri = 0; ri < r->e->n_rows; ri++) {
		undecidable += r->row_undecidable[ri];
		short_of_target += !r->e->rows[ri].failed &&
			r->e->rows[ri].n_reps < r->row_target[ri];
	}
	/* The budget stopped rows before their look: it, not the rules, ended
	 * the run, whatever their verdicts now. */
	if (r->budget_spent && short_of_target)
		return PAB_STOP_BUDGET;
	if (r->undecided)
		return r->budget_spent ? PAB_STOP_BUDGET : PAB_STOP_MAX_REPS;
	return undecidable ? PAB_STOP_UNDECIDABLE : PAB_STOP_DECIDED;
}

/* The loop: passes until every row reached its target and no look
 * raises one, or the sanity gate or a stop signal stops the run. */
static enum pab_run_end run_loop(struct pab_runner *r, struct pab_failure *f)
{
	int first_pass = 1, any;

	for (;;) {
		any = run_pass(r, f);
		if (any < 0)
			return PAB_RUN_ERROR;
		if (r->interrupted)
			return PAB_RUN_INTERRUPTED;
		if (first_pass && r->plan->use.sanity_gate && apply_sanity_gate(r))
			return checkpoint(r, f) ? PAB_RUN_ERROR : PAB_RUN_GATED;
		first_pass = 0;
		pab_looks_stop_fixed(r->e, &r->counting, r->looks[0], r->row_target, r->pg.quiet);
		if (!any && !adaptive_step(r))
			break;
	}
	record_stop(r, stop_reason(r));
	return PAB_RUN_ENDED;
}

enum pab_run_end pab_runner_run(struct pab_runner *r, struct pab_failure *f)
{
	enum pab_run_end end;

	if (start_journal(r, f)) /* the first checkpoint, before any measurement */
		return PAB_RUN_ERROR;
	r->pg.tty = isatty(STDERR_FILENO) && !r->plan->show_output;
	pab_progress_plan(&r->pg);
	end = run_loop(r, f);
	/* A stop signal that came after the last child still stops the run. */
	if (end == PAB_RUN_ENDED || end == PAB_RUN_GATED) {
		r->interrupted = pab_spawn_pending_stop();
		if (r->interrupted)
			end = PAB_RUN_INTERRUPTED;
	}
	pab_hooks_end_all(&r->hooks); /* ended, failed or stopped: every cleanup due */
	return end;
}

/* Record the binding actually obtained, the sampler's cost and perfab's
 * own high-water mark (measuring must stay small). */
static void record_costs(struct pab_runner *r)
{
	char *binding = pab_pin_describe_text(r->m.pin);
	int64_t cpu_ns;
	uint64_t samples, own_hwm;

	pab_sampler_cost(r->m.sampler, &cpu_ns, &samples);
	pab_run_record_costs(r->e, binding, (double)cpu_ns / 1e9, (double)samples,
			     pab_proc_status_bytes(getpid(), "VmHWM", &own_hwm) ? NAN :
			     (double)own_hwm);
	free(binding);
}

int pab_runner_finish(struct pab_runner *r, enum pab_run_end end, struct pab_failure *f)
{
	struct pab_experiment *e = r->e;
	size_t i;

	pab_progress_clear(&r->pg);
	record_costs(r);
	if (end == PAB_RUN_ENDED || end == PAB_RUN_GATED) {
		/* Preserved copies must still match what ran. */
		for (i = 0; i < e->n_arms; i++) {
			char *now = pab_sha256_file(e->arms[i].exe);

			if (!now || strcmp(now, e->arms[i].sha256))
				warning("arm '%s': '%s' changed during the run (sha256 now %s); "
					"the artifact records the digest it started with",
					e->arms[i].name, e->arms[i].exe, now ? now : "unreadable");
			free(now);
		}
		e->complete = 1;
		if (checkpoint(r, f))
			return -1;
	}
	end_journal(r);
	return 0;
}
