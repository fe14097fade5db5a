/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_history.c — `perfab history`: a database of every merge's judged
 * A/B (store/history_db.h), and what it shows across merges.
 *
 *   record  judge an artifact with the ledger (judge/ledger.h) and store
 *           its cells, once per artifact
 *   show    the recorded cells, as text, JSON, CSV or Markdown
 *   drift   per row, arm and metric, the per-merge paired changes chained
 *           along the branch (pab_chain_steps) with their interval, the
 *           merges that contributed most, change points (pab_edivisive)
 *           in the per-merge changes, and the steps of the level
 *   html    one self-contained page: the chained level with its band per
 *           series, each merge a point coloured by its verdict
 *
 * The figures are the ledger's; nothing here computes a statistic of
 * reps. doc/method.md ("Drift", "Change points") states the method.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "judge/history.h"
#include "judge/ledger.h"
#include "model/judgeable.h"
#include "model/pool.h"
#include "store/artifact_read.h"
#include "store/digest.h"
#include "options.h"
#include "report/history.h"
#include "report/history_html.h"
#include "report/json.h"
#include "store/history_db.h"
#include "store/history_query.h"
#include "store/tempfile.h"
#include "term.h"
#include "util.h"

/* The usage of each subcommand; `perfab history --help` prints them all
 * (the man page's SYNOPSIS has the same forms). */
#define RECORD_USAGE \
	"perfab history record RUN.json --db FILE [--commit SHA] [--base SHA]\n" \
	"                      [--branch NAME] [--label K=V]..."
#define SHOW_USAGE \
	"perfab history show --db FILE [--format text|json|csv|markdown]\n" \
	"                    [--branch NAME] [--since REF | --last N] [--row R] [--metric LIST]..."
#define DRIFT_USAGE \
	"perfab history drift --db FILE [--format text|json|markdown] [--branch NAME]\n" \
	"                     [--since REF | --last N] [--row R] [--metric LIST]..."
#define HTML_USAGE \
	"perfab history html --db FILE [-o FILE] [--branch NAME]\n" \
	"                    [--since REF | --last N] [--row R] [--metric LIST]..."

static const char history_usage[] =
	RECORD_USAGE "\n   or: " SHOW_USAGE "\n   or: " DRIFT_USAGE "\n   or: " HTML_USAGE;

/* ------------------------------------------------------------------ */
/* record                                                             */

/* The --label K=V list as labels (the keys new memory, the values
 * borrowed); a malformed or repeated key is a usage error. */
static struct pab_history_label *parse_labels(const struct pab_strlist *labels,
					      const struct pab_option *opts, const char *usage)
{
	struct pab_history_label *lv = xcalloc(labels->n + 1, sizeof(*lv));
	size_t i, j;

	for (i = 0; i < labels->n; i++) {
		const char *eq = strchr(labels->v[i], '=');

		if (!eq || eq == labels->v[i])
			pab_usage_error(opts, usage, "--label '%s': use KEY=VALUE", labels->v[i]);
		lv[i].key = xstrndup(labels->v[i], (size_t)(eq - labels->v[i]));
		lv[i].value = eq + 1;
		for (j = 0; j < i; j++)
			if (!strcmp(lv[j].key, lv[i].key))
				pab_usage_error(opts, usage, "--label '%s' given twice", lv[i].key);
	}
	return lv;
}

/* What the artifact e and its ledger l say of the merge into *m: the
 * commits (commit, else the first head arm's revision label; base, else
 * the base arm's), the rules, stop reason, CPU model and counts source,
 * the time now. The strings are borrowed. */
static void merge_of(struct pab_history_merge *m, const struct pab_experiment *e,
		     const struct pab_ledger *l, const char *commit, const char *base)
{
	size_t i;

	m->commit = commit;
	for (i = 0; i < e->n_arms && !m->commit; i++)
		if ((int)i != l->base && (int)i != l->null_arm)
			m->commit = e->arms[i].revision;
	m->base = base ? base : e->arms[l->base].revision;
	m->recorded_at = (int64_t)time(NULL);
	m->perfab_version = e->perfab_version;
	m->rules = pab_rules_name(l->rules);
	m->stop_reason = pab_stop_reason_name(e->settings.stop_reason);
	m->cpu_model = e->cpu_model;
	m->counts_source = e->settings.counters ? e->settings.counters : "default";
}

/* Load the artifact at path into *e and judge it into *l with its
 * recorded rules. Returns 0, or the exit code after saying why on stderr
 * (e and l then hold nothing). */
static int judged_artifact(const char *path, struct pab_experiment *e, struct pab_ledger *l)
{
	struct pab_ledger_opts lo;
	char *why = NULL;
	int ret = pab_artifact_load(path, e, &why);

	if (ret) {
		pab_error("%s", why);
		free(why);
		return pab_artifact_load_exit_code(ret);
	}
	if (pab_artifact_judgeable(e, path, &why) != PAB_JUDGEABLE) {
		fprintf(stderr, "perfab: not recorded: %s; only a judgeable run has a verdict to keep\n",
			why);
		ret = PAB_EXIT_REFUSED;
	} else {
		pab_ledger_opts_init(&lo, e);
		if (pab_ledger_build(e, &lo, l, &why)) {
			fprintf(stderr, "perfab: not recorded: '%s': %s\n", path, why);
			ret = PAB_EXIT_REFUSED;
		}
	}
	free(why);
	if (ret)
		pab_experiment_release(e);
	return ret;
}

/* What made merge m (of the artifact at path) one already recorded, for
 * the note that says so: its runs, its measurements or its file. */
static void say_already(const struct pab_history_merge *m, const char *path, int64_t id)
{
	printf("'%s' is already recorded as merge #%lld; nothing changed", pab_term_safe(path),
	       (long long)id);
	if (m->n_runs == 1)
		printf(" (the same run: journal id %s, seed %.0f)\n",
		       pab_term_safe(m->runs[0].journal), m->runs[0].seed);
	else if (m->n_runs)
		printf(" (the same %zu runs)\n", m->n_runs);
	else
		printf(" (the same measurements)\n");
}

/* Record merge m and its cells[0..n) of the artifact at path into the
 * database at db_path (created when absent) and say what was done: a run
 * is recorded once (store/history_db.h, "Identity"). Returns the exit
 * code. */
static int store_merge(const char *db_path, const struct pab_history_merge *m,
		       const struct pab_history_cell *cells, size_t n, const char *path)
{
	struct pab_history_db *db = NULL;
	char *why = NULL;
	int64_t id = 0;
	int already = 0, migrated = 0;

	if (pab_history_open(db_path, PAB_HISTORY_WRITE, &db, &migrated, &why) ||
	    pab_history_record(db, m, cells, n, &id, &already, &why)) {
		pab_error("%s", why);
		free(why);
		pab_history_close(db);
		return PAB_EXIT_RUNTIME;
	}
	pab_history_close(db);
	if (migrated)
		fprintf(stderr, "perfab: migrated '%s' from schema %d to %d\n", db_path, migrated,
			PAB_HISTORY_SCHEMA);
	if (already == 2) {
		fprintf(stderr, "perfab: not recorded: '%s' shares runs with merge #%lld but is not "
			"that merge's artifact (one is a pooled artifact, the other one of its "
			"sources): a run is recorded once, so that drift chains it once; record "
			"the pooled artifact or its sources, not both\n", pab_term_safe(path),
			(long long)id);
		return PAB_EXIT_REFUSED;
	}
	if (already)
		say_already(m, path, id);
	else
		printf("recorded merge #%lld: %zu cells of '%s'%s%s\n", (long long)id, n,
		       pab_term_safe(path), m->commit ? ", commit " : "",
		       m->commit ? pab_term_safe(m->commit) : "");
	return PAB_EXIT_PASS;
}

static int history_record(int argc, char **argv)
{
	const char *db_path = NULL, *commit = NULL, *base = NULL, *branch = NULL;
	struct pab_strlist labels = { 0 }, pos = { 0 };
	const struct pab_option opts[] = {
		OPT_STRING(0, "db", &db_path, "FILE", "the history database (created when absent)"),
		OPT_STRING(0, "commit", &commit, "SHA", "the merged commit (default: head's revision)"),
		OPT_STRING(0, "base", &base, "SHA", "the commit it was measured against (default: base's revision)"),
		OPT_STRING(0, "branch", &branch, "NAME", "the branch it was merged into"),
		OPT_LIST(0, "label", &labels, "K=V", "a label of the record (repeatable)"),
		OPT_END(),
	};
	const char *usage = RECORD_USAGE;
	struct pab_history_label *lv = NULL;
	struct pab_history_merge m = { 0 };
	struct pab_history_cell *cells = NULL;
	struct pab_run_id *runs = NULL;
	struct pab_experiment e;
	struct pab_ledger l;
	char *sha = NULL, *hd = NULL, *msha = NULL;
	size_t i, n_cells = 0;
	int ret;

	pab_parse_options(argc, argv, opts, usage,
			  "Judge RUN.json with the ledger (its recorded rules) and store, per row,\n"
			  "head arm and metric, the medians, the paired change and its interval, the\n"
			  "tolerance, the verdict and n, with the commits, branch, labels, CPU model\n"
			  "and host. A run is recorded once: the same artifact again, or a copy of\n"
			  "it, changes nothing.", &pos);
	if (pos.n != 1)
		pab_usage_error(opts, usage, pos.n ? "one artifact at a time" : "no artifact given");
	if (!db_path)
		pab_usage_error(opts, usage, "--db FILE is required");
	lv = parse_labels(&labels, opts, usage);

	ret = judged_artifact(pos.v[0], &e, &l);
	if (ret)
		goto out_labels;
	sha = pab_sha256_file(pos.v[0]);
	if (!sha) {
		pab_error("cannot read '%s': %s", pos.v[0], strerror(errno));
		ret = PAB_EXIT_RUNTIME;
		goto out_ledger;
	}
	hd = pab_history_host_digest(e.host_json);
	merge_of(&m, &e, &l, commit, base);
	m.artifact_sha256 = sha;
	m.n_runs = pab_pool_runs_of(&e, &runs);
	m.runs = runs;
	if (!m.n_runs) {
		size_t len;
		void *bytes = pab_history_measurements(&e, &len);

		msha = pab_sha256_buf(bytes, len);
		m.measurements_sha256 = msha;
		free(bytes);
	}
	m.branch = branch;
	m.host_digest = hd;
	m.labels = lv;
	m.n_labels = labels.n;
	cells = pab_history_cells_of(&e, &l, &n_cells);

	ret = store_merge(db_path, &m, cells, n_cells, pos.v[0]);
	free(cells);
	free(runs);
	free(msha);
	free(hd);
	free(sha);
out_ledger:
	pab_ledger_release(&l);
	pab_experiment_release(&e);
out_labels:
	for (i = 0; i < labels.n; i++)
		free((char *)lv[i].key);
	free(lv);
	pab_strlist_release(&labels);
	pab_strlist_release(&pos);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Reading: the filters every reading subcommand shares               */

struct read_args {
	const char *db, *format, *out, *since;
	struct pab_history_filter f;
	uint64_t last;
	struct pab_strlist pos;
	struct pab_strlist metrics;  /* each --metric as given */
	char *metric_list;           /* f.metric: their names, table order */
};

static void read_args_release(struct read_args *a)
{
	pab_strlist_release(&a->pos);
	pab_strlist_release(&a->metrics);
	free(a->metric_list);
	a->metric_list = NULL;
}

#define READ_OPTIONS(a) \
	OPT_STRING(0, "db", &(a)->db, "FILE", "the history database"), \
	OPT_STRING(0, "branch", &(a)->f.branch, "NAME", "only merges into this branch"), \
	OPT_STRING(0, "since", &(a)->since, "REF", "only merges after the commit REF (a prefix)"), \
	OPT_U64(0, "last", &(a)->last, "N", "only the last N merges", 1, 1e9), \
	OPT_STRING(0, "row", &(a)->f.row, "R", "only row R"), \
	OPT_LIST(0, "metric", &(a)->metrics, "LIST", "only these metrics (a,b; repeatable)")

/* Check the shared options and open the database (exits on an error). */
static struct pab_history_db *open_read(struct read_args *a, const struct pab_option *opts,
					const char *usage)
{
	struct pab_history_db *db;
	char *why;

	if (a->pos.n)
		pab_usage_error(opts, usage, "unexpected argument '%s'", a->pos.v[0]);
	if (!a->db)
		pab_usage_error(opts, usage, "--db FILE is required");
	if (a->since && a->last)
		pab_usage_error(opts, usage, "--since and --last exclude each other");
	if (a->metrics.n) {
		struct pab_strbuf given = PAB_STRBUF_INIT, names = PAB_STRBUF_INIT;
		int picked[PAB_M_COUNT];
		size_t i;

		for (i = 0; i < a->metrics.n; i++)
			pab_strbuf_addf(&given, "%s%s", i ? "," : "", a->metrics.v[i]);
		if (pab_parse_metrics(given.buf, picked, &why))
			pab_usage_error(opts, usage, "--metric '%s': %s", given.buf, why);
		for (i = 0; i < PAB_M_COUNT; i++)
			if (picked[i])
				pab_strbuf_addf(&names, "%s%s", names.len ? "," : "",
						pab_metrics[i].name);
		pab_strbuf_release(&given);
		a->metric_list = pab_strbuf_detach(&names);
		a->f.metric = a->metric_list;
	}
	a->f.since = a->since;
	a->f.last = (int64_t)a->last;
	if (pab_history_open(a->db, PAB_HISTORY_READ, &db, NULL, &why)) {
		pab_history_close(db);
		die(PAB_EXIT_USAGE, "%s", why);
	}
	return db;
}

/* Check the shared options, open the database and read the series. */
static void read_series(struct read_args *a, const struct pab_option *opts, const char *usage,
			struct pab_history_set *set)
{
	struct pab_history_db *db = open_read(a, opts, usage);
	char *why;

	if (pab_history_query(db, &a->f, set, &why)) {
		pab_history_close(db);
		die(PAB_EXIT_USAGE, "%s", why);
	}
	pab_history_close(db);
}

/* The drift of every series a's filters select, read as the database
 * streams them: one bounded accumulator a series, never the history
 * itself, so memory does not grow with the number of merges. */
struct drift_scan {
	struct pab_drift_acc **acc;
	size_t n, alloc;
};

static void drift_point(void *ctx, size_t series, const char *row, const char *arm,
			const char *metric, const struct pab_history_point *p)
{
	struct drift_scan *ds = ctx;

	if (series == ds->n) {
		ds->acc = xgrow(ds->acc, sizeof(*ds->acc), ds->n + 1, &ds->alloc);
		ds->acc[ds->n++] = pab_drift_start(row, arm, metric);
	}
	pab_drift_add(ds->acc[series], p);
}

static int cmp_drift(const void *a, const void *b)
{
	const struct pab_drift *x = a, *y = b;

	return pab_history_names_cmp(x->row, x->arm, x->metric, y->row, y->arm, y->metric);
}

/* The drifts, ordered by row, arm and metric, into new memory (*n of
 * them, each released with pab_drift_release), and the merges selected. */
static struct pab_drift *read_drifts(struct read_args *a, const struct pab_option *opts,
				     const char *usage, size_t *n, size_t *merges)
{
	struct pab_history_db *db = open_read(a, opts, usage);
	struct drift_scan ds = { 0 };
	struct pab_drift *d;
	char *why;
	size_t i;

	if (pab_history_scan(db, &a->f, drift_point, &ds, merges, &why)) {
		pab_history_close(db);
		die(PAB_EXIT_USAGE, "%s", why);
	}
	pab_history_close(db);
	d = xcalloc(ds.n ? ds.n : 1, sizeof(*d));
	for (i = 0; i < ds.n; i++)
		pab_drift_finish(ds.acc[i], &d[i]);
	free(ds.acc);
	if (ds.n > 1)
		qsort(d, ds.n, sizeof(*d), cmp_drift);
	*n = ds.n;
	return d;
}

/* ------------------------------------------------------------------ */
/* show                                                               */

static int history_show(int argc, char **argv)
{
	struct read_args a = { 0 };
	const struct pab_option opts[] = {
		READ_OPTIONS(&a),
		OPT_STRING('f', "format", &a.format, "FMT", "text (default), json, csv or markdown"),
		OPT_END(),
	};
	const char *usage = SHOW_USAGE;
	struct pab_history_set set;
	struct pab_history_series *s;
	size_t n, merges;

	a.format = "text";
	pab_parse_options(argc, argv, opts, usage,
			  "The recorded cells, one line per merge, row, arm and metric, in record order.",
			  &a.pos);
	if (strcmp(a.format, "text") && strcmp(a.format, "json") && strcmp(a.format, "csv") &&
	    strcmp(a.format, "markdown"))
		pab_usage_error(opts, usage, "unknown --format '%s'", a.format);
	read_series(&a, opts, usage, &set);
	s = set.series;
	n = set.n;
	merges = set.merges;
	if (!strcmp(a.format, "json"))
		pab_report_history_json(stdout, s, n, merges);
	else if (!strcmp(a.format, "csv"))
		pab_report_history_csv(stdout, s, n);
	else if (!strcmp(a.format, "markdown"))
		pab_report_history_markdown(stdout, s, n, merges);
	else
		pab_report_history_text(stdout, s, n, merges);
	pab_history_set_release(&set);
	read_args_release(&a);
	return PAB_EXIT_PASS;
}

/* ------------------------------------------------------------------ */
/* drift                                                              */

static int history_drift(int argc, char **argv)
{
	struct read_args a = { 0 };
	const struct pab_option opts[] = {
		READ_OPTIONS(&a),
		OPT_STRING('f', "format", &a.format, "FMT", "text (default), json or markdown"),
		OPT_END(),
	};
	const char *usage = DRIFT_USAGE;
	struct pab_drift *d;
	size_t i, n, merges;

	a.format = "text";
	pab_parse_options(argc, argv, opts, usage,
			  "First a summary, one line per row, arm and metric: DRIFT, GAIN or none.\n"
			  "Then per row, arm and metric: the per-merge paired changes chained along the\n"
			  "history (log-ratios summed) with a 95% interval, the verdicts behind it,\n"
			  "the merges that contributed most when the chained change is beyond the\n"
			  "tolerance, change points of the per-merge changes (E-Divisive with means,\n"
			  "seeded) and the merges that stepped the level.", &a.pos);
	if (strcmp(a.format, "text") && strcmp(a.format, "json") && strcmp(a.format, "markdown"))
		pab_usage_error(opts, usage, "unknown --format '%s'", a.format);
	d = read_drifts(&a, opts, usage, &n, &merges);
	if (!strcmp(a.format, "json")) {
		pab_report_history_drift_json(stdout, d, n, merges);
	} else if (!strcmp(a.format, "markdown")) {
		for (i = 0; i < n; i++)
			if (d[i].chain.n)
				pab_report_history_drift_markdown(stdout, &d[i]);
	} else {
		pab_report_history_drift_summary(stdout, d, n, merges);
		for (i = 0; i < n; i++)
			if (d[i].chain.n)
				pab_report_history_drift(stdout, &d[i], merges);
		if (!n)
			printf("no merges selected\n");
	}
	for (i = 0; i < n; i++)
		pab_drift_release(&d[i]);
	free(d);
	read_args_release(&a);
	return PAB_EXIT_PASS;
}

/* ------------------------------------------------------------------ */
/* html                                                               */

/* What `history html -o FILE` holds, for pab_write_file_atomic. */
struct html_job {
	const struct pab_history_set *set;
};

static int write_html(FILE *f, void *arg)
{
	const struct html_job *j = arg;

	pab_report_history_html(f, j->set->series, j->set->n, j->set->merges);
	return ferror(f) ? -1 : 0;
}

static int history_html(int argc, char **argv)
{
	struct read_args a = { 0 };
	const struct pab_option opts[] = {
		READ_OPTIONS(&a),
		OPT_STRING('o', "out", &a.out, "FILE", "write the page to FILE (default: stdout)"),
		OPT_END(),
	};
	const char *usage = HTML_USAGE;
	struct pab_history_set set;

	pab_parse_options(argc, argv, opts, usage,
			  "One self-contained HTML page: per row, arm and metric the chained change\n"
			  "with its 95% band, each merge a point coloured by its verdict (hover for\n"
			  "its commit and figures), change points of the per-merge changes as dashed\n"
			  "lines, the merges that stepped the level ringed.",
			  &a.pos);
	read_series(&a, opts, usage, &set);
	/* -o FILE is written as an artifact is (store/tempfile.h): never
	 * through a symlink, never torn. */
	if (a.out) {
		struct html_job job = { &set };
		char *why;

		if (pab_write_file_atomic(a.out, write_html, &job, &why))
			die(PAB_EXIT_RUNTIME, "cannot write '%s': %s", a.out, why);
	} else {
		pab_report_history_html(stdout, set.series, set.n, set.merges);
	}
	pab_history_set_release(&set);
	read_args_release(&a);
	return PAB_EXIT_PASS;
}

int cmd_history(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} subs[] = {
		{ "record", history_record },
		{ "show", history_show },
		{ "drift", history_drift },
		{ "html", history_html },
	};
	size_t i;

	for (i = 0; argc >= 2 && i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s\n\n"
		       "The history of merges: each merge's judged A/B recorded in a SQLite\n"
		       "database, the paired changes chained across merges (drift), change\n"
		       "points, and a trend page. 'perfab history record --help' (show, drift,\n"
		       "html) shows a subcommand's options.\n", history_usage);
		return PAB_EXIT_PASS;
	}
	pab_error("history needs record, show, drift or html%s%s%s",
		argc >= 2 ? ", not '" : "", argc >= 2 ? pab_term_safe(argv[1]) : "",
		argc >= 2 ? "'" : "");
	fprintf(stderr, "usage: %s\n", history_usage);
	return PAB_EXIT_USAGE;
}
