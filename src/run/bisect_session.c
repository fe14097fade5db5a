/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_session.c — a bisection carried out (bisect_session.h): the
 * line of commits, the builds kept with their digests, the first
 * comparison, the search, and the answer with the comparison that judged
 * each change; everything made goes to the journal as it is made.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/argv_split.h"
#include "model/metrics.h"
#include "probe/runchild.h"
#include "run/bisect_compare.h"
#include "run/bisect_session.h"
#include "store/digest.h"
#include "store/tempfile.h"
#include "term.h"
#include "util.h"

/* What a bisection works with. */
struct ctx {
	const struct pab_bisect_opts *o;
	struct pab_bisect_answer *a;
	struct pab_bisect_journal j;
	char *journal_path;
	char **build_argv, **bench_argv;
	size_t build_n, bench_n;
	struct pab_bisect_cmp_opts co;
	char **dirs;         /* per commit: its build's directory */
	int *built;          /* per commit: -1 not yet, 0 failed, 1 built */
	char **digest;       /* per commit: its build's digest, or NULL */
};

/* "perfab: bisect: ..." on stderr, unless quiet. */
static void PAB_PRINTF(2, 3) say(const struct ctx *x, const char *fmt, ...)
{
	va_list ap;

	if (x->o->quiet)
		return;
	fputs("perfab: bisect: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static const char *abbrev(struct ctx *x, size_t i)
{
	return pab_bisect_answer_info(x->a, i)->abbrev;
}

static int save_journal(struct ctx *x, struct pab_failure *f)
{
	char *why;

	if (!pab_bisect_journal_save(x->journal_path, &x->j, &why))
		return 0;
	pab_fail(f, PAB_FAIL_SYSTEM, "%s", why);
	free(why);
	return -1;
}

/* mkdir -p of a directory of ours. */
static int make_dir(const char *path, struct pab_failure *f)
{
	char *p = xstrdup(path);
	size_t i, n = strlen(p);
	int ret = 0;

	for (i = 1; i <= n && !ret; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			ret = pab_fail_errno(f, "cannot make the directory '%s'", pab_term_safe(p));
		if (i < n)
			p[i] = '/';
	}
	free(p);
	return ret;
}

/* The directory of commit i's build (kept in x->dirs). */
static const char *dir_of(struct ctx *x, size_t i)
{
	if (!x->dirs[i])
		x->dirs[i] = xasprintf("%s/builds/%s", x->a->dir, x->a->line[i]);
	return x->dirs[i];
}

/* ------------------------------------------------------------------ */
/* Builds                                                             */

/*
 * Commit i built, or known not to build: from the journal when its build
 * is there with the same digest, else made now. Returns 0 (x->built[i]
 * says which), 1 when a stop signal came, -1 with f filled.
 */
static int ensure_build(struct ctx *x, size_t i, struct pab_failure *f)
{
	const char *commit = x->a->line[i];
	const struct pab_bisect_build *old = pab_bisect_journal_build(&x->j, commit, x->o->build);
	struct pab_bisect_build b;
	int code, sig, ret;

	if (x->built[i] >= 0)
		return 0;
	dir_of(x, i);
	if (old && !old->ok) {
		x->built[i] = 0;
		x->a->builds_reused++;
		return 0;
	}
	if (old && old->ok && !access(x->dirs[i], F_OK)) {
		char *now = pab_bisect_build_digest(x->dirs[i], x->bench_argv, x->bench_n);

		if ((!now && !old->digest) || (now && old->digest && !strcmp(now, old->digest))) {
			x->digest[i] = now;
			x->built[i] = 1;
			x->a->builds_reused++;
			return 0;
		}
		note("the build of %s changed since it was made: building it again", abbrev(x, i));
		free(now);
	}
	memset(&b, 0, sizeof(b));
	b.commit = (char *)commit;
	b.command = (char *)x->o->build;
	b.dir = x->dirs[i];
	b.log = xasprintf("%s/logs/%s.log", x->a->dir, commit);
	say(x, "building %s (its output: %s)", abbrev(x, i), b.log);
	ret = pab_git_build(&x->a->git, commit, x->dirs[i], b.log, x->build_argv, &code, &sig, f);
	if (ret) {
		x->a->interrupted = sig;
		free(b.log);
		return ret;
	}
	x->a->builds_made++;
	b.ok = code == 0;
	b.exit_code = code;
	if (b.ok)
		b.digest = x->digest[i] = pab_bisect_build_digest(x->dirs[i], x->bench_argv,
								  x->bench_n);
	x->built[i] = b.ok;
	pab_bisect_journal_put_build(&x->j, &b);
	free(b.log);
	ret = save_journal(x, f);
	/* A stop that came as the build ended (after its process was reaped)
	 * stops here, the build kept: the next step would not see it before
	 * its own children. */
	if (!ret && (x->a->interrupted = pab_spawn_pending_stop()))
		ret = 1;
	return ret;
}

/* The log of commit i's build (borrowed from the journal). */
static const char *build_log(const struct ctx *x, size_t i)
{
	const struct pab_bisect_build *b = pab_bisect_journal_build(&x->j, x->a->line[i],
								    x->o->build);

	return b && b->log ? b->log : "?";
}

static int build_exit(const struct ctx *x, size_t i)
{
	const struct pab_bisect_build *b = pab_bisect_journal_build(&x->j, x->a->line[i],
								    x->o->build);

	return b ? b->exit_code : -1;
}

static void add_skipped(struct pab_bisect_answer *a, size_t i, char *why)
{
	a->skipped = xrealloc(a->skipped, (a->n_skipped + 1) * sizeof(*a->skipped));
	a->skipped_why = xrealloc(a->skipped_why, (a->n_skipped + 1) * sizeof(*a->skipped_why));
	a->skipped[a->n_skipped] = i;
	a->skipped_why[a->n_skipped++] = why;
}

/* ------------------------------------------------------------------ */
/* Comparisons                                                        */

/* The key of comparing good, mid (or none) and bad: everything that
 * defines what is measured and how it is judged (new hex string). */
static char *cmp_key(const struct ctx *x, size_t g, long m, size_t b)
{
	char *text = xasprintf("perfab-bisect/1\ngood=%s %s\nmid=%s %s\nbad=%s %s\nbench=%s\n"
			       "build=%s\nrun=%s\nmetric=%s\nretries=%zu\n",
			       x->a->line[g], x->digest[g] ? x->digest[g] : "-",
			       m >= 0 ? x->a->line[m] : "-",
			       m >= 0 && x->digest[m] ? x->digest[m] : "-",
			       x->a->line[b], x->digest[b] ? x->digest[b] : "-", x->o->bench,
			       x->o->build, x->o->run_words, x->o->metric ? x->o->metric : "-",
			       x->o->retries);
	char *key = pab_sha256_buf(text, strlen(text));

	free(text);
	return key;
}

/*
 * Compare g, m (-1: none) and b: from the journal, or measured now (and
 * journaled). The comparison is appended to a->made. Returns 0, 1 when a
 * stop signal came, -1 with f filled.
 */
static int compare(struct ctx *x, size_t g, long m, size_t b, struct pab_failure *f)
{
	struct pab_bisect_answer *a = x->a;
	char *key = cmp_key(x, g, m, b);
	const struct pab_bisect_comparison *old = pab_bisect_journal_cmp(&x->j, key);
	struct pab_bisect_made *made;
	int ret = 0, sig = 0;

	a->made = xrealloc(a->made, (a->n_made + 1) * sizeof(*a->made));
	made = &a->made[a->n_made];
	memset(made, 0, sizeof(*made));
	if (old) {
		pab_bisect_comparison_copy(&made->c, old);
		made->reused = 1;
	} else {
		const char *commits[3] = { a->line[g], m >= 0 ? a->line[m] : NULL, a->line[b] };
		const char *dirs[3] = { x->dirs[g], m >= 0 ? x->dirs[m] : NULL, x->dirs[b] };

		if (m >= 0)
			say(x, "comparison %zu: %s between %s and %s", a->n_made + 1, abbrev(x, m),
			    abbrev(x, g), abbrev(x, b));
		else
			say(x, "comparison 1: %s (bad) against %s (good)", abbrev(x, b),
			    abbrev(x, g));
		ret = pab_bisect_compare(&x->co, key, commits, dirs, &made->c, &sig, f);
		if (ret) {
			pab_bisect_comparison_release(&made->c);
			a->interrupted = sig;
			free(key);
			return ret;
		}
		pab_bisect_journal_put_cmp(&x->j, &made->c);
		ret = save_journal(x, f);
	}
	a->n_made++;
	a->reps += made->c.reps;
	a->seconds += made->c.seconds;
	free(key);
	return ret;
}

/* The side that judged commit y against commit x (indices), from the
 * latest comparison holding both; NULL when none did. */
static const struct pab_bisect_side *side_of(const struct pab_bisect_answer *a, size_t gx,
					     size_t by)
{
	const char *g = a->line[gx], *b = a->line[by];
	size_t i = a->n_made;

	while (i--) {
		const struct pab_bisect_comparison *c = &a->made[i].c;

		if (c->failed)
			continue;
		if (!strcmp(c->good, g) && !strcmp(c->bad, b))
			return &c->bad_good;
		if (c->mid && !strcmp(c->good, g) && !strcmp(c->mid, b))
			return &c->mid_good;
		if (c->mid && !strcmp(c->mid, g) && !strcmp(c->bad, b))
			return &c->bad_mid;
	}
	return NULL;
}

/* perfab run ... comparing the builds of commits g and b (new string). */
static char *reproduce(struct ctx *x, size_t g, size_t b)
{
	char *arms[2], *words, *cmd;

	arms[0] = pab_bisect_arm_command(dir_of(x, g), x->bench_argv, x->bench_n);
	arms[1] = pab_bisect_arm_command(dir_of(x, b), x->bench_argv, x->bench_n);
	words = pab_argv_join(arms, 2);
	cmd = xasprintf("perfab run%s%s %s", *x->o->run_words ? " " : "", x->o->run_words, words);
	free(arms[0]);
	free(arms[1]);
	free(words);
	return cmd;
}

/* ------------------------------------------------------------------ */
/* The search                                                         */

/* What a failed benchmark at an end of a comparison means: an error. */
static int end_failed(struct ctx *x, const struct pab_bisect_comparison *c,
		      struct pab_failure *f)
{
	long i = pab_bisect_answer_index(x->a, c->failed);

	return pab_fail(f, PAB_FAIL_USAGE, "the benchmark fails at %s %s (%s): make --bench "
			"'%s' run at both ends; its artifact: %s", i == 0 ? "GOOD" :
			(size_t)i == x->a->n - 1 ? "BAD" : "the end",
			i >= 0 ? abbrev(x, (size_t)i) : "?", pab_term_safe(c->failed_why),
			pab_term_safe(x->o->bench), c->artifact ? c->artifact : "?");
}

/* The first comparison: is BAD worse than GOOD? 0 with *start set when
 * the search should begin, 1 interrupted, -1 with f filled. */
static int confirm(struct ctx *x, int *start, struct pab_failure *f)
{
	struct pab_bisect_answer *a = x->a;
	const struct pab_bisect_comparison *c;
	int ret;

	*start = 0;
	ret = compare(x, 0, -1, a->n - 1, f);
	if (ret)
		return ret;
	c = &a->made[a->n_made - 1].c;
	if (c->failed)
		return end_failed(x, c, f);
	if (a->metric < 0)
		a->metric = c->bad_good.metric;
	x->co.followed = a->metric;
	if (c->bad_good.verdict == PAB_FAIL) {
		*start = 1;
		say(x, "BAD is worse than GOOD: searching %zu commits", a->n - 2);
	} else {
		a->outcome = c->bad_good.verdict == PAB_PASS ? PAB_BISECT_OUT_NO_REGRESSION :
			PAB_BISECT_OUT_UNDECIDED;
	}
	return 0;
}

/* The search after a FAIL of bad vs good. 0, 1 interrupted, -1 with f. */
static int search(struct ctx *x, struct pab_bisect *b, struct pab_failure *f)
{
	struct pab_bisect_answer *a = x->a;
	struct pab_bisect_step s;
	int ret = 0;

	pab_bisect_start(b);
	while (!ret && pab_bisect_next(b, &s)) {
		const struct pab_bisect_comparison *c;
		enum pab_bisect_mark mark;

		if ((a->interrupted = pab_spawn_pending_stop()))
			return 1;
		if ((ret = ensure_build(x, s.mid, f)))
			break;
		if (!x->built[s.mid]) {
			note("%s does not build (exit %d; its output: %s): skipped",
			     abbrev(x, s.mid), build_exit(x, s.mid), build_log(x, s.mid));
			add_skipped(a, s.mid, xasprintf("does not build (exit %d)",
							build_exit(x, s.mid)));
			pab_bisect_skip(b, s.mid);
			continue;
		}
		if ((ret = compare(x, s.good, (long)s.mid, s.bad, f)))
			break;
		c = &a->made[a->n_made - 1].c;
		if (c->failed && strcmp(c->failed, a->line[s.mid]))
			return end_failed(x, c, f);
		if (c->failed) {
			note("the benchmark fails at %s (%s): skipped", abbrev(x, s.mid),
			     pab_term_safe(c->failed_why));
			add_skipped(a, s.mid, xasprintf("its benchmark fails"));
			a->made[a->n_made - 1].mark = PAB_BISECT_SKIPPED;
			pab_bisect_skip(b, s.mid);
			continue;
		}
		mark = pab_bisect_classify(c->mid_good.verdict, c->bad_mid.verdict);
		a->made[a->n_made - 1].mark = mark;
		say(x, "%s is %s (against %s: %s; %s against it: %s)", abbrev(x, s.mid),
		    pab_bisect_mark_name(mark), abbrev(x, s.good),
		    pab_verdict_name(c->mid_good.verdict), abbrev(x, s.bad),
		    pab_verdict_name(c->bad_mid.verdict));
		pab_bisect_record(b, &s, mark);
	}
	return ret;
}

/* The finished ranges into a->found, each with the comparison of its ends. */
static void collect(struct ctx *x, const struct pab_bisect *b)
{
	struct pab_bisect_answer *a = x->a;
	size_t i;

	a->found = xcalloc(b->n_done, sizeof(*a->found));
	a->n_found = b->n_done;
	a->outcome = PAB_BISECT_OUT_FOUND;
	for (i = 0; i < b->n_done; i++) {
		struct pab_bisect_found *fd = &a->found[i];
		const struct pab_bisect_side *s;

		fd->res = b->done[i];
		s = side_of(a, fd->res.r.good, fd->res.r.bad);
		if (s) {
			fd->side = *s;
			fd->judged = 1;
		}
		fd->reproduce = reproduce(x, fd->res.r.good, fd->res.r.bad);
		if (fd->res.end != PAB_BISECT_FOUND)
			a->outcome = PAB_BISECT_OUT_UNDECIDED;
	}
}

/* ------------------------------------------------------------------ */
/* The bisection                                                      */

/* The line, the directory, the journal and the commands: 0 or -1 with f. */
static int prepare(struct ctx *x, int *lock_fd, struct pab_failure *f)
{
	const struct pab_bisect_opts *o = x->o;
	struct pab_bisect_answer *a = x->a;
	char *good = NULL, *bad = NULL, *why = NULL, *sub;
	const char *hint, *split_why;
	long bad_word;
	int ret = -1;

	if (pab_argv_split(o->build, &x->build_argv, &x->build_n, &split_why))
		return pab_fail(f, PAB_FAIL_USAGE, "--build '%s': %s", pab_term_safe(o->build),
				split_why);
	if (pab_argv_split(o->bench, &x->bench_argv, &x->bench_n, &split_why))
		return pab_fail(f, PAB_FAIL_USAGE, "--bench '%s': %s", pab_term_safe(o->bench),
				split_why);
	bad_word = pab_argv_shell_syntax(x->bench_argv, x->bench_n, &hint);
	if (bad_word >= 0 && !o->run->literal_argv)
		return pab_fail(f, PAB_FAIL_USAGE, "--bench '%s': '%s' is shell syntax, and the "
				"benchmark runs without a shell: %s", pab_term_safe(o->bench),
				pab_term_safe(x->bench_argv[bad_word]), hint);
	bad_word = pab_argv_shell_syntax(x->build_argv, x->build_n, &hint);
	if (bad_word >= 0)
		return pab_fail(f, PAB_FAIL_USAGE, "--build '%s': '%s' is shell syntax, and the "
				"build runs without a shell: %s", pab_term_safe(o->build),
				pab_term_safe(x->build_argv[bad_word]), hint);
	if (pab_git_open(&a->git, f) || pab_git_commit(&a->git, o->good, "--good", &good, f) ||
	    pab_git_commit(&a->git, o->bad, "--bad", &bad, f) ||
	    pab_git_line(&a->git, good, bad, &a->line, &a->n, f) ||
	    pab_git_check_clean(&a->git, f))
		goto out;
	a->info = xcalloc(a->n, sizeof(*a->info));
	a->dir = o->dir ? xstrdup(o->dir) : xasprintf("%s/perfab-bisect", a->git.common_dir);
	x->journal_path = xasprintf("%s/journal.json", a->dir);
	x->co.runs_dir = sub = xasprintf("%s/runs", a->dir);
	if (make_dir(sub, f))
		goto out;
	sub = xasprintf("%s/builds", a->dir);
	ret = make_dir(sub, f);
	free(sub);
	sub = xasprintf("%s/logs", a->dir);
	if (!ret)
		ret = make_dir(sub, f);
	free(sub);
	if (ret)
		goto out;
	ret = -1;
	*lock_fd = pab_artifact_lock(x->journal_path, &why);
	if (*lock_fd < 0) {
		pab_fail(f, errno == EWOULDBLOCK ? PAB_FAIL_REFUSED : PAB_FAIL_SYSTEM, "%s%s", why,
			 errno == EWOULDBLOCK ? " (another perfab bisect works in this directory: "
			 "wait for it, or give --dir another)" : "");
		goto out;
	}
	if (pab_bisect_journal_load(x->journal_path, &x->j, &why)) {
		pab_fail(f, PAB_FAIL_REFUSED, "%s (remove it to start this bisection afresh)", why);
		goto out;
	}
	x->dirs = xcalloc(a->n, sizeof(*x->dirs));
	x->digest = xcalloc(a->n, sizeof(*x->digest));
	x->built = xcalloc(a->n, sizeof(*x->built));
	memset(x->built, -1, a->n * sizeof(*x->built));
	ret = 0;
out:
	free(why);
	free(good);
	free(bad);
	return ret;
}

/* The builds of GOOD and BAD, which must both build. */
static int build_ends(struct ctx *x, struct pab_failure *f)
{
	size_t n = x->a->n;
	int ret = ensure_build(x, 0, f);

	if (!ret)
		ret = ensure_build(x, n - 1, f);
	if (ret)
		return ret;
	if (!x->built[0] && !x->built[n - 1])
		return pab_fail(f, PAB_FAIL_USAGE, "the build command '%s' fails at both GOOD %s "
				"and BAD %s (exit %d; its output: %s): fix --build so that it "
				"builds both", pab_term_safe(x->o->build), abbrev(x, 0),
				abbrev(x, n - 1), build_exit(x, 0), build_log(x, 0));
	if (!x->built[0] || !x->built[n - 1]) {
		size_t i = x->built[0] ? n - 1 : 0;

		return pab_fail(f, PAB_FAIL_USAGE, "the build command '%s' fails at %s %s (exit "
				"%d; its output: %s): give as %s a commit that builds",
				pab_term_safe(x->o->build), i ? "BAD" : "GOOD", abbrev(x, i),
				build_exit(x, i), build_log(x, i), i ? "--bad" : "--good");
	}
	return 0;
}

int pab_bisect_run(const struct pab_bisect_opts *o, struct pab_bisect_answer *a,
		   struct pab_failure *f)
{
	struct ctx x;
	struct pab_bisect b = { 0 };
	int lock_fd = -1, start = 0, ret;
	size_t i;

	memset(a, 0, sizeof(*a));
	memset(&x, 0, sizeof(x));
	a->metric = -1;
	if (o->metric) {
		const struct pab_metric *m = pab_metric_find(o->metric);

		if (!m)
			return pab_fail(f, PAB_FAIL_USAGE, "--metric '%s': no such metric (perfab "
					"help metrics lists them)", pab_term_safe(o->metric));
		a->metric = (int)(m - pab_metrics);
	}
	x.o = o;
	x.a = a;
	x.co.run = o->run;
	x.co.retries = o->retries;
	x.co.followed = a->metric;
	pab_spawn_setup();
	ret = prepare(&x, &lock_fd, f);
	if (ret)
		goto out;
	x.co.bench = x.bench_argv;
	x.co.bench_n = x.bench_n;
	say(&x, "%zu commits from %s (GOOD) to %s (BAD); builds, logs and runs in %s", a->n - 1,
	    abbrev(&x, 0), abbrev(&x, a->n - 1), a->dir);
	ret = build_ends(&x, f);
	if (!ret)
		ret = confirm(&x, &start, f);
	if (!ret && start) {
		pab_bisect_init(&b, a->n);
		ret = search(&x, &b, f);
		if (!ret)
			collect(&x, &b);
		pab_bisect_release(&b);
	}
out:
	if (ret > 0)
		ret = 0; /* interrupted: a->interrupted says so */
	if (lock_fd >= 0)
		pab_artifact_unlock(x.journal_path, lock_fd);
	for (i = 0; x.dirs && i < a->n; i++) {
		free(x.dirs[i]);
		free(x.digest[i]);
	}
	free(x.dirs);
	free(x.digest);
	free(x.built);
	free(x.journal_path);
	free((char *)x.co.runs_dir);
	pab_bisect_cmp_opts_release(&x.co);
	pab_bisect_journal_release(&x.j);
	pab_argv_free(x.build_argv);
	pab_argv_free(x.bench_argv);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The answer                                                         */

const struct pab_git_info *pab_bisect_answer_info(struct pab_bisect_answer *a, size_t i)
{
	if (i >= a->n)
		BUG("commit %zu of a line of %zu", i, a->n);
	if (!a->info[i].abbrev)
		pab_git_info(&a->git, a->line[i], &a->info[i]);
	return &a->info[i];
}

long pab_bisect_answer_index(const struct pab_bisect_answer *a, const char *commit)
{
	size_t i;

	for (i = 0; commit && i < a->n; i++)
		if (!strcmp(a->line[i], commit))
			return (long)i;
	return -1;
}

void pab_bisect_answer_release(struct pab_bisect_answer *a)
{
	size_t i;

	for (i = 0; a->info && i < a->n; i++)
		pab_git_info_release(&a->info[i]);
	for (i = 0; i < a->n_made; i++)
		pab_bisect_comparison_release(&a->made[i].c);
	for (i = 0; i < a->n_found; i++)
		free(a->found[i].reproduce);
	for (i = 0; i < a->n_skipped; i++)
		free(a->skipped_why[i]);
	free(a->info);
	pab_argv_free(a->line);
	free(a->dir);
	free(a->made);
	free(a->found);
	free(a->skipped);
	free(a->skipped_why);
	pab_git_release(&a->git);
	memset(a, 0, sizeof(*a));
}
