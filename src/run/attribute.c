/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * attribute.c — the attribution phase (attribute.h; doc/attribution.md):
 * which cells get a profile, where each profile comes from, and the
 * difference of base's and head's put into the experiment.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/ledger.h"
#include "probe/elfsyms.h"
#include "probe/profile_cg.h"
#include "probe/profile_dhat.h"
#include "probe/profile_perf.h"
#include "probe/simcount.h"
#include "profile.h"
#include "run/arms.h"
#include "run/attribute.h"
#include "store/run_record.h"
#include "term.h"
#include "util.h"

/* Wall profiles made at most of one arm when perf loses events
 * (wall_profile). */
#define PAB_ATTR_WALL_TRIES 3
/* The least share of its own span a wall profile's record accounts for
 * before it counts as having lost events (wall_profile). */
#define PAB_ATTR_WALL_SEEN_MIN 0.5

typedef char **(*wrap_fn)(const char *tool, const char *out_prefix, char *const *argv,
			  char ***opts_out);

/* dir made (it may exist). 0, or -1. */
static int make_dir(const char *dir)
{
	return mkdir(dir, 0700) && errno != EEXIST ? -1 : 0;
}

void pab_attribute_start(struct pab_attribute *at, struct pab_runner *r,
			 enum pab_attr_mode mode)
{
	memset(at, 0, sizeof(*at));
	at->r = r;
	at->mode = mode;
	if (mode == PAB_ATTR_NEVER || !r->m.tmpdir)
		return;
	at->keep_cg = xasprintf("%s/attr-cg", r->m.tmpdir);
	at->keep_dhat = xasprintf("%s/attr-dhat", r->m.tmpdir);
	at->keep_perf = xasprintf("%s/attr-perf", r->m.tmpdir);
	/* Kept as the counting pass counts: an instructions FAIL then costs
	 * no run of its own (doc/attribution.md §1). */
	if (r->m.count_tool && !make_dir(at->keep_cg))
		r->m.count_keep = at->keep_cg;
}

void pab_attribute_release(struct pab_attribute *at)
{
	if (at->r && at->r->m.count_keep == at->keep_cg)
		at->r->m.count_keep = NULL;
	free(at->keep_cg);
	free(at->keep_dhat);
	free(at->keep_perf);
	free(at->perf);
	free(at->perf_why);
	free(at->valgrind);
	free(at->valgrind_why);
	memset(at, 0, sizeof(*at));
}

/* The valgrind of the extra runs: the counting pass's, else looked up
 * once. NULL with at->valgrind_why. */
static const char *valgrind_of(struct pab_attribute *at)
{
	if (!at->looked_up) {
		at->looked_up = 1;
		at->valgrind = at->r->count_tool ? xstrdup(at->r->count_tool) :
			pab_simcount_tool(&at->valgrind_why);
	}
	return at->valgrind;
}

/*
 * One extra run of arm a of row ri under tool with wrap's command line
 * (NULL: the counting pass's), its files kept in keep, as the counting
 * pass runs a child (rep 1's seed, --timeout x PAB_SIMCOUNT_SLOWDOWN).
 * Returns 0, or -1 with *why (new memory): it could not run or failed.
 */
static int extra_run(struct pab_attribute *at, size_t ri, size_t a, const char *tool,
		     wrap_fn wrap, const char *keep, char **why)
{
	struct pab_runner *r = at->r;
	struct pab_measure *m = &r->m;
	const char *saved_tool = m->count_tool, *saved_keep = m->count_keep;
	uint64_t seed = r->e->seed & ((1ULL << 53) - 1);
	struct pab_failure f = { 0 };
	struct pab_arm_result res;
	struct pab_measured out;
	int ret;

	*why = NULL;
	at->run_signal = 0;
	if (make_dir(keep)) {
		*why = xasprintf("cannot make '%s': %s", keep, strerror(errno));
		return -1;
	}
	pab_arm_result_init(&res);
	m->count_tool = tool;
	m->count_keep = keep;
	m->wrap = wrap;
	m->profiling = 1;
	m->count_timeout_ns = m->timeout_ns * PAB_SIMCOUNT_SLOWDOWN;
	m->count_limit_budget = 0;
	ret = pab_measure_arm(m, r->e, &r->e->rows[ri], a, PAB_MEASURE_COUNT, seed, &res, &out,
			      &f);
	m->count_tool = saved_tool;
	m->count_keep = saved_keep;
	m->wrap = NULL;
	m->profiling = 0;
	if (ret) {
		*why = f.why ? f.why : xstrdup("the profiling run could not start");
		f.why = NULL;
	} else {
		at->cost_s += out.count_wall_s;
		at->run_signal = out.count_signal;
		if (out.interrupted) {
			at->stopped = 1;
			*why = xstrdup("a stop signal ended the profiling run");
			ret = -1;
		} else if (out.count_stop) {
			*why = xstrdup(res.reason[PAB_M_INSTRUCTIONS] ?
				       res.reason[PAB_M_INSTRUCTIONS] : "the profiling run failed");
			ret = -1;
		}
	}
	pab_arm_result_release(&res);
	free(f.why);
	return ret;
}

/* 1 when arm a's program for row ri keeps no symbol table. */
static int stripped(const struct pab_experiment *e, size_t ri, size_t a)
{
	struct pab_elf_names names;
	char *why = NULL, *exe = pab_arm_exe(&e->arms[a], &e->rows[ri], &why);
	int ret = exe && !pab_elf_names(exe, &names, &why) && !names.symtab;

	free(why);
	free(exe);
	return ret;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

/* The moves of a diff as the attribution's items. */
static void take_moves(struct pab_profile_move *v, size_t n, struct pab_attr_item **items,
		       size_t *n_items)
{
	size_t i;

	*items = xcalloc(n ? n : 1, sizeof(**items));
	for (i = 0; i < n; i++) {
		struct pab_attr_item *x = &(*items)[i];

		x->name = v[i].name;
		x->where = v[i].where;
		x->base = v[i].base;
		x->head = v[i].head;
		x->base_blocks = v[i].base_blocks;
		x->head_blocks = v[i].head_blocks;
	}
	*n_items = n;
	free(v);
}

/* Add a note (a sentence) to a's. */
static void add_note(struct pab_attribution *a, const char *text)
{
	char *both = a->note ? xasprintf("%s; %s", a->note, text) : xstrdup(text);

	free(a->note);
	a->note = both;
}

/* The file prefix (basename) of arm a's counted child of row ri:
 * measure.c's count_arm() names it so. */
static char *prefix_of(size_t ri, size_t a)
{
	return xasprintf("count-%zu-%zu", ri, a);
}

/* The arm of row ri whose child is the same program as arm a's (the
 * counting pass counted one of them: run/counting.h), other than a, or a. */
static size_t same_program(struct pab_attribute *at, size_t ri, size_t a)
{
	struct pab_experiment *e = at->r->e;
	char *id = pab_measure_identity(&at->r->m, e, &e->rows[ri], a), *other;
	size_t b, found = a;

	for (b = 0; id && b < e->n_arms && found == a; b++) {
		if (b == a)
			continue;
		other = pab_measure_identity(&at->r->m, e, &e->rows[ri], b);
		if (other && !strcmp(id, other))
			found = b;
		free(other);
	}
	free(id);
	return found;
}

/* Instructions by function of arm a of row ri into fns and lines: the
 * counting pass's kept files (its own, or those of an arm running the
 * same program, whose count it shared), else an extra run. 0, or -1 with
 * *why. */
static int instr_profile(struct pab_attribute *at, size_t ri, size_t a, struct pab_profile *fns,
			 struct pab_profile *lines, int *extra, char **why)
{
	int kept = at->r->m.count_keep == at->keep_cg;
	char *base = prefix_of(ri, a), *other;
	const char *tool;
	int n = kept ? pab_profile_cachegrind_files(at->keep_cg, base, fns, lines, why) : 0;
	size_t same;

	if (kept && n <= 0 && (same = same_program(at, ri, a)) != a) {
		free(*why);
		*why = NULL;
		other = prefix_of(ri, same);
		n = pab_profile_cachegrind_files(at->keep_cg, other, fns, lines, why);
		free(other);
	}
	if (n <= 0) {
		free(*why);
		*why = NULL;
		/* A file that read in part must not count twice. */
		pab_profile_release(fns);
		pab_profile_release(lines);
		tool = valgrind_of(at);
		*extra = 1;
		if (!tool)
			*why = xstrdup(at->valgrind_why);
		else if (!extra_run(at, ri, a, tool, NULL, at->keep_cg, why))
			n = pab_profile_cachegrind_files(at->keep_cg, base, fns, lines, why);
	}
	free(base);
	return n > 0 ? 0 : -1;
}

static void attribute_instructions(struct pab_attribute *at, size_t ri, size_t base,
				   size_t head, struct pab_attribution *out)
{
	struct pab_profile fb, fh, lb, lh;
	struct pab_profile_move *moves;
	size_t n;
	char *why = NULL;
	int extra = 0;

	pab_profile_init(&fb), pab_profile_init(&fh), pab_profile_init(&lb), pab_profile_init(&lh);
	out->profiler = xstrdup(PAB_ATTR_CACHEGRIND);
	if (instr_profile(at, ri, base, &fb, &lb, &extra, &why) ||
	    instr_profile(at, ri, head, &fh, &lh, &extra, &why)) {
		char *note = xasprintf("no profile: %s", why ? why : "?");

		add_note(out, note);
		free(note);
		goto out_release;
	}
	out->source = xstrdup(extra ? "extra run" : "counting pass");
	out->base_total = fb.total;
	out->head_total = fh.total;
	pab_profile_diff(&fb, &fh, PAB_ATTR_TOP, &moves, &n);
	take_moves(moves, n, &out->items, &out->n_items);
	pab_profile_diff(&lb, &lh, PAB_ATTR_TOP_LINES, &moves, &n);
	take_moves(moves, n, &out->lines, &out->n_lines);
out_release:
	free(why);
	pab_profile_release(&fb), pab_profile_release(&fh);
	pab_profile_release(&lb), pab_profile_release(&lh);
}

static void attribute_heap(struct pab_attribute *at, size_t ri, size_t base, size_t head,
			   struct pab_attribution *out)
{
	struct pab_profile pb, ph;
	struct pab_profile_move *moves;
	const char *tool = valgrind_of(at);
	char *why = NULL, *pre_b = prefix_of(ri, base), *pre_h = prefix_of(ri, head);
	size_t n;

	pab_profile_init(&pb), pab_profile_init(&ph);
	out->profiler = xstrdup(PAB_ATTR_DHAT);
	out->source = xstrdup("extra run");
	if (!tool)
		why = xstrdup(at->valgrind_why);
	else if (extra_run(at, ri, base, tool, pab_dhat_argv, at->keep_dhat, &why) ||
		 pab_profile_dhat_files(at->keep_dhat, pre_b, &pb, &why) <= 0 ||
		 extra_run(at, ri, head, tool, pab_dhat_argv, at->keep_dhat, &why) ||
		 pab_profile_dhat_files(at->keep_dhat, pre_h, &ph, &why) <= 0)
		;
	else {
		out->base_total = pb.total;
		out->head_total = ph.total;
		pab_profile_diff(&pb, &ph, PAB_ATTR_TOP, &moves, &n);
		take_moves(moves, n, &out->items, &out->n_items);
	}
	if (why) {
		char *note = xasprintf("no profile: %s", why);

		add_note(out, note);
		free(note);
	}
	free(why);
	free(pre_b);
	free(pre_h);
	pab_profile_release(&pb), pab_profile_release(&ph);
}

/* The median of arm a's seconds of metric m (cpu or wall) over row ri's
 * reps; NaN: none. */
static double median_seconds(const struct pab_row *row, size_t a, enum pab_metric_id m)
{
	double *v = xcalloc(row->n_reps + 1, sizeof(*v)), med = NAN;
	size_t i, n = 0;

	for (i = 0; i < row->n_reps; i++)
		if (isfinite(row->reps[i].result[a].m[m]))
			v[n++] = row->reps[i].result[a].m[m];
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return med;
}

/* Every amount of p times k. */
static void scale(struct pab_profile *p, double k)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		p->v[i].amount *= k;
	p->total *= k;
}

/* The wall profile of arm a of row ri into p and stacks (unscaled): one
 * extra run under perf, made again when its record accounts (on the CPU,
 * waiting, or preempted) for under half of its own span — perf lost
 * events (its reader fell behind on a loaded machine), a wait with them —
 * PAB_ATTR_WALL_TRIES runs at most (doc/attribution.md §3). *seen: the
 * share the kept profile accounted for. 0, or -1 with *why. */
static int wall_profile(struct pab_attribute *at, size_t ri, size_t a, const char *data,
			const char *script, struct pab_profile *p, struct pab_profile *stacks,
			double *seen, char **why)
{
	struct pab_perf_wall_times tm;
	int attempt;

	for (attempt = 1;; attempt++) {
		if (extra_run(at, ri, a, at->perf, pab_perf_wall_argv, at->keep_perf, why)) {
			/* perf ends the run with SIGTERM at its file's cap. */
			if (at->run_signal == SIGTERM) {
				free(*why);
				*why = xasprintf("perf's file reached its %u MiB cap and perf ended "
						 "the run (a long run, or one that waits very often): "
						 "profile it by hand", pab_perf_wall_max_mib());
			}
			return -1;
		}
		if (pab_profile_perf_wall_file(at->perf, data, script, p, stacks, &tm, why) <= 0)
			return -1;
		*seen = tm.span_ns > 0 ? (tm.on_ns + tm.off_ns + tm.ready_ns) / tm.span_ns : 1;
		if (*seen >= PAB_ATTR_WALL_SEEN_MIN || attempt == PAB_ATTR_WALL_TRIES)
			return 0;
		pab_profile_release(p), pab_profile_init(p);
		pab_profile_release(stacks), pab_profile_init(stacks);
	}
}

/* Seconds by function (and by folded stack) of arm a of row ri, one extra
 * run under perf, scaled so that they sum to the arm's median of metric m:
 * for cpu, the CPU's samples; for wall, those and the time off the CPU,
 * waiting (doc/attribution.md §3). *seen: the share of its run a wall
 * profile accounted for (1 for cpu). 0, or -1 with *why. */
static int time_profile(struct pab_attribute *at, size_t ri, size_t a, enum pab_metric_id m,
			struct pab_profile *p, struct pab_profile *stacks, double *seen,
			char **why)
{
	char *pre = prefix_of(ri, a), *data = xasprintf("%s/%s.data", at->keep_perf, pre);
	char *script = xasprintf("%s/%s.script", at->keep_perf, pre);
	double med = median_seconds(&at->r->e->rows[ri], a, m), k;
	int ret = -1;

	*seen = 1;
	if (m == PAB_M_WALL) {
		if (wall_profile(at, ri, a, data, script, p, stacks, seen, why))
			goto out;
	} else if (extra_run(at, ri, a, at->perf, pab_perf_argv, at->keep_perf, why) ||
		   pab_profile_perf_file(at->perf, data, script, p, stacks, why) <= 0) {
		goto out;
	}
	/* perf's periods are its clock's view of the time; the ledger's is
	 * the timed reps' (doc/attribution.md §3). */
	k = isfinite(med) && p->total > 0 ? med / p->total : 1e-9;
	scale(p, k);
	scale(stacks, k);
	ret = 0;
out:
	free(pre);
	free(data);
	free(script);
	return ret;
}

static void attribute_time(struct pab_attribute *at, size_t ri, size_t base, size_t head,
			   enum pab_metric_id m, struct pab_attribution *out)
{
	struct pab_profile pb, ph, sb, sh;
	struct pab_profile_move *moves;
	char *why = NULL;
	double seen_base, seen_head;
	size_t n;

	if (!at->perf_looked_up) {
		at->perf_looked_up = 1;
		at->perf = pab_perf_tool(&at->perf_why);
	}
	pab_profile_init(&pb), pab_profile_init(&ph), pab_profile_init(&sb), pab_profile_init(&sh);
	out->profiler = xstrdup(PAB_ATTR_PERF);
	out->source = xstrdup("extra run");
	if (!at->perf)
		why = xstrdup(at->perf_why);
	else if (!time_profile(at, ri, base, m, &pb, &sb, &seen_base, &why) &&
		 !time_profile(at, ri, head, m, &ph, &sh, &seen_head, &why)) {
		if (seen_base < PAB_ATTR_WALL_SEEN_MIN || seen_head < PAB_ATTR_WALL_SEEN_MIN) {
			char *note = xasprintf("perf's record of %s's run accounted for only "
					       "%.0f%% of its time in %d runs (it lost events: a "
					       "loaded machine?); what it saw is scaled up to the "
					       "arm's median",
					       at->r->e->arms[seen_base < seen_head ? base : head].name,
					       100 * (seen_base < seen_head ? seen_base : seen_head),
					       PAB_ATTR_WALL_TRIES);
			add_note(out, note);
			free(note);
		}
		out->base_total = pb.total;
		out->head_total = ph.total;
		pab_profile_diff(&pb, &ph, PAB_ATTR_TOP, &moves, &n);
		take_moves(moves, n, &out->items, &out->n_items);
		pab_profile_join(&sb, &sh, PAB_ATTR_TOP_STACKS, &moves, &n);
		take_moves(moves, n, &out->stacks, &out->n_stacks);
	}
	if (why) {
		char *note = xasprintf("no profile: %s", why);

		add_note(out, note);
		free(note);
	}
	free(why);
	pab_profile_release(&pb), pab_profile_release(&ph);
	pab_profile_release(&sb), pab_profile_release(&sh);
}

/* 1 when row × head arm lr's cell of metric m gets an attribution. A wall
 * FAIL whose cpu FAILs too is the cpu profile's (the time is on the CPU);
 * alone, it is the wall profile's, which sees the time spent waiting. */
static int wanted(const struct pab_attribute *at, const struct pab_ledger *l,
		  const struct pab_ledger_row *lr, enum pab_metric_id m)
{
	const struct pab_ledger_cell *c = pab_ledger_find_cell(l, lr->row, lr->arm, m);
	const struct pab_ledger_cell *cpu = m == PAB_M_WALL ?
		pab_ledger_find_cell(l, lr->row, lr->arm, PAB_M_CPU) : NULL;

	if (lr->no_verdict || at->r->e->rows[lr->row].failed)
		return 0;
	return at->mode == PAB_ATTR_ALWAYS ||
		(c && c->res.verdict == PAB_FAIL && !(cpu && cpu->res.verdict == PAB_FAIL));
}

/* a into e, in place of an attribution of the same row, arm and metric
 * that an earlier invocation made (--resume), else appended. */
static void put(struct pab_experiment *e, const struct pab_attribution *a)
{
	size_t i;

	for (i = 0; i < e->n_attr; i++) {
		struct pab_attribution *x = &e->attr[i];

		if (!x->input && x->metric == a->metric && !strcmp(x->row, a->row) &&
		    !strcmp(x->arm, a->arm)) {
			pab_attribution_release(x);
			pab_attribution_copy(x, a);
			return;
		}
	}
	pab_attribution_append(&e->attr, &e->n_attr, a);
}

/* The line a log keeps of a: its first mover, or why it has none. */
static void say(const struct pab_attribution *a)
{
	double share = pab_attribution_explained(a);

	if (!a->n_items) {
		note("attribution: row '%s' arm '%s' %s: %s", pab_term_safe(a->row),
		     pab_term_safe(a->arm), pab_metrics[a->metric].name,
		     a->note ? a->note : "nothing moved");
		return;
	}
	note("attribution: row '%s' arm '%s' %s: %s moved most; the %zu listed explain %.0f%% "
	     "of the change (%s, %s)", pab_term_safe(a->row), pab_term_safe(a->arm),
	     pab_metrics[a->metric].name, pab_term_safe(a->items[0].name), a->n_items,
	     isfinite(share) ? share * 100 : 0.0, a->profiler, a->source);
}

/* The profile of lr × m into a (named, noted, costed). */
static void attribute_one(struct pab_attribute *at, const struct pab_ledger *l,
			  const struct pab_ledger_row *lr, enum pab_metric_id m,
			  struct pab_attribution *a)
{
	const struct pab_experiment *e = at->r->e;
	double cost0 = at->cost_s;

	a->row = xstrdup(e->rows[lr->row].name);
	a->arm = xstrdup(e->arms[lr->arm].name);
	a->metric = m;
	/* The phase's progress: what is profiled now, and how. */
	if (!at->r->plan->quiet) {
		fprintf(stderr, "perfab: attribution of row '%s' arm '%s', %s: %s\n",
			pab_term_safe(a->row), pab_term_safe(a->arm), pab_metrics[m].name,
			m == PAB_M_INSTRUCTIONS ? "cachegrind's counts by function" :
			m == PAB_M_PEAK_RSS ? "one extra run of each arm under DHAT" :
			m == PAB_M_WALL ? "one extra run of each arm under perf, on and off the CPU" :
			"one extra run of each arm under perf");
		fflush(stderr);
	}
	if (m == PAB_M_INSTRUCTIONS)
		attribute_instructions(at, lr->row, (size_t)l->base, lr->arm, a);
	else if (m == PAB_M_PEAK_RSS)
		attribute_heap(at, lr->row, (size_t)l->base, lr->arm, a);
	else
		attribute_time(at, lr->row, (size_t)l->base, lr->arm, m, a);
	a->base_stripped = stripped(e, lr->row, (size_t)l->base);
	a->head_stripped = stripped(e, lr->row, lr->arm);
	if (a->base_stripped || a->head_stripped)
		add_note(a, a->base_stripped && a->head_stripped ?
			 "both programs are stripped (no symbol table): their own code shows as ???" :
			 a->head_stripped ? "head's program is stripped (no symbol table): its own "
			 "code shows as ???" : "base's program is stripped (no symbol table): its "
			 "own code shows as ???");
	a->cost_s = at->cost_s - cost0;
}

void pab_attribute_run(struct pab_attribute *at)
{
	static const enum pab_metric_id metrics[] = { PAB_M_INSTRUCTIONS, PAB_M_PEAK_RSS,
						      PAB_M_CPU, PAB_M_WALL };
	struct pab_experiment *e = at->r->e;
	struct pab_ledger_opts lo;
	struct pab_ledger l;
	char *why = NULL, *rec;
	size_t i, k;

	if (at->mode != PAB_ATTR_NEVER) {
		pab_ledger_opts_init(&lo, e);
		if (pab_ledger_build(e, &lo, &l, &why)) {
			free(why);
			memset(&l, 0, sizeof(l));
		}
		pab_progress_clear(&at->r->pg);
		for (i = 0; i < l.n_rows && !at->stopped; i++)
			for (k = 0; k < sizeof(metrics) / sizeof(metrics[0]) && !at->stopped; k++) {
				struct pab_attribution a;

				if (!wanted(at, &l, &l.rows[i], metrics[k]))
					continue;
				pab_attribution_init(&a);
				attribute_one(at, &l, &l.rows[i], metrics[k], &a);
				put(e, &a);
				at->made++;
				if (!at->r->plan->quiet)
					say(&a);
				pab_attribution_release(&a);
			}
		pab_ledger_release(&l);
		if (at->stopped)
			warning("a stop signal ended the attribution phase; the run's results "
				"are complete, its attribution is not");
	}
	rec = xasprintf("{\"mode\":\"%s\",\"cost_s\":%.3f,\"made\":%zu}",
			pab_attr_mode_name(at->mode), at->cost_s, at->made);
	pab_run_record_attribution(e, rec);
	free(rec);
}
