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
#include "judge/ledger.h"
#include "model/judgeable.h"
#include "store/artifact.h"
#include "store/digest.h"
#include "options.h"
#include "report/report.h"
#include "store/history_db.h"
#include "util.h"

/* Change points are searched in at most the last CP_WINDOW merges of a
 * series (the search is quadratic), with these settings. */
#define CP_WINDOW 500
#define CP_MIN_SIZE 3
#define CP_SIG 0.01
#define CP_PERMUTATIONS 499
#define CP_SEED 20140101u
#define CP_MAX 16

/* The confidence of every chained interval. */
#define DRIFT_CONF 0.95

/* The usage of each subcommand; `perfab history --help` prints them all
 * (the man page's SYNOPSIS has the same forms). */
#define RECORD_USAGE \
	"perfab history record RUN.json --db FILE [--commit SHA] [--base SHA]\n" \
	"                      [--branch NAME] [--label K=V]..."
#define SHOW_USAGE \
	"perfab history show --db FILE [--format text|json|csv|markdown]\n" \
	"                    [--branch NAME] [--since REF | --last N] [--row R] [--metric M]"
#define DRIFT_USAGE \
	"perfab history drift --db FILE [--format text|json] [--branch NAME]\n" \
	"                     [--since REF | --last N] [--row R] [--metric M]"
#define HTML_USAGE \
	"perfab history html --db FILE [-o FILE] [--branch NAME]\n" \
	"                    [--since REF | --last N] [--row R] [--metric M]"

static const char history_usage[] =
	RECORD_USAGE "\n   or: " SHOW_USAGE "\n   or: " DRIFT_USAGE "\n   or: " HTML_USAGE;

/* ------------------------------------------------------------------ */
/* record                                                             */

/* A digest of the host fingerprint without what changes from run to run
 * on the same machine (load, free memory, running processes), so two
 * runs of one runner share it. New memory. */
static char *host_digest(const cJSON *host)
{
	static const char *const volatile_keys[] = {
		"load_1min", "load_5min", "load_15min", "procs_running", "mem_available_bytes",
	};
	cJSON *copy;
	char *text, *sum;
	size_t i;

	if (!host)
		return NULL;
	copy = cJSON_Duplicate(host, 1);
	if (!copy)
		die(PAB_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < sizeof(volatile_keys) / sizeof(volatile_keys[0]); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(copy, volatile_keys[i]);
	text = cJSON_PrintUnformatted(copy);
	cJSON_Delete(copy);
	if (!text)
		die(PAB_EXIT_RUNTIME, "out of memory");
	sum = pab_sha256_buf(text, strlen(text));
	cJSON_free(text);
	return sum;
}

/* The history cells of ledger l of e into new memory (*n of them); the
 * strings are borrowed from e and the static tables. */
static struct pab_history_cell *ledger_cells(const struct pab_experiment *e,
					     const struct pab_ledger *l, size_t *n)
{
	struct pab_history_cell *v = xcalloc(l->n_cells ? l->n_cells : 1, sizeof(*v));
	size_t i;

	for (i = 0; i < l->n_cells; i++) {
		const struct pab_ledger_cell *c = &l->cells[i];
		const struct pab_cell_result *r = &c->res;
		int judged = r->verdict != PAB_NOT_MEASURED;

		v[i].row = e->rows[c->row].name;
		v[i].arm = e->arms[c->arm].name;
		v[i].metric = pab_metrics[c->metric].name;
		/* A plain command's wall: its change is history, not a verdict. */
		v[i].verdict = c->role == PAB_ROLE_SHOWN ? "SHOWN" : pab_verdict_name(r->verdict);
		v[i].base_median = r->base_median;
		v[i].head_median = r->head_median;
		v[i].change_pct = judged ? r->change.median : NAN;
		v[i].lo_pct = judged ? r->change.lo : NAN;
		v[i].hi_pct = judged ? r->change.hi : NAN;
		v[i].coverage = judged ? r->change.coverage : NAN;
		v[i].tolerance_pct = r->tolerance;
		v[i].n = (int64_t)r->change.n;
	}
	*n = l->n_cells;
	return v;
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
	struct pab_history_db *db = NULL;
	struct pab_experiment e;
	struct pab_ledger_opts lo;
	struct pab_ledger l;
	char *why = NULL, *sha = NULL, *hd = NULL;
	size_t i, n_cells = 0;
	int64_t id = 0;
	int ret, already = 0, migrated = 0, b;

	pab_parse_options(argc, argv, opts, usage,
			  "Judge RUN.json with the ledger (its recorded rules) and store, per row,\n"
			  "head arm and metric, the medians, the paired change and its interval, the\n"
			  "tolerance, the verdict and n, with the commits, branch, labels, CPU model\n"
			  "and host. The same artifact twice is one record.", &pos);
	if (pos.n != 1)
		pab_usage_error(opts, usage, pos.n ? "one artifact at a time" : "no artifact given");
	if (!db_path)
		pab_usage_error(opts, usage, "--db FILE is required");
	lv = xcalloc(labels.n + 1, sizeof(*lv));
	for (i = 0; i < labels.n; i++) {
		const char *eq = strchr(labels.v[i], '=');
		size_t j;

		if (!eq || eq == labels.v[i])
			pab_usage_error(opts, usage, "--label '%s': use KEY=VALUE", labels.v[i]);
		lv[i].key = xstrndup(labels.v[i], (size_t)(eq - labels.v[i]));
		lv[i].value = eq + 1;
		for (j = 0; j < i; j++)
			if (!strcmp(lv[j].key, lv[i].key))
				pab_usage_error(opts, usage, "--label '%s' given twice", lv[i].key);
	}

	ret = pab_artifact_load(pos.v[0], &e, &why);
	if (ret) {
		fprintf(stderr, "perfab: error: %s\n", why);
		ret = pab_artifact_load_exit_code(ret);
		goto out_labels;
	}
	if (pab_artifact_judgeable(&e, pos.v[0], &why) != PAB_JUDGEABLE) {
		fprintf(stderr, "perfab: not recorded: %s; only a judgeable run has a verdict to keep\n",
			why);
		ret = PAB_EXIT_REFUSED;
		goto out_experiment;
	}
	pab_ledger_opts_init(&lo, &e);
	if (pab_ledger_build(&e, &lo, &l, &why)) {
		fprintf(stderr, "perfab: not recorded: '%s': %s\n", pos.v[0], why);
		ret = PAB_EXIT_REFUSED;
		goto out_experiment;
	}
	sha = pab_sha256_file(pos.v[0]);
	if (!sha) {
		fprintf(stderr, "perfab: error: cannot read '%s': %s\n", pos.v[0], strerror(errno));
		ret = PAB_EXIT_RUNTIME;
		goto out_ledger;
	}
	b = l.base;
	hd = host_digest(e.host);
	m.artifact_sha256 = sha;
	m.commit = commit;
	if (!m.commit) /* the first head arm's revision label */
		for (i = 0; i < e.n_arms && !m.commit; i++)
			if ((int)i != b && (int)i != l.null_arm)
				m.commit = e.arms[i].revision;
	m.base = base ? base : e.arms[b].revision;
	m.branch = branch;
	m.recorded_at = (int64_t)time(NULL);
	m.perfab_version = e.perfab_version;
	m.rules = pab_rules_name(l.rules);
	m.stop_reason = pab_stop_reason_name(e.settings.stop_reason);
	m.cpu_model = pab_host_cpu_model(e.host);
	m.host_digest = hd;
	m.counts_source = e.settings.counters ? e.settings.counters : "default";
	m.labels = lv;
	m.n_labels = labels.n;
	cells = ledger_cells(&e, &l, &n_cells);

	if (pab_history_open(db_path, 1, &db, &migrated, &why) ||
	    pab_history_record(db, &m, cells, n_cells, &id, &already, &why)) {
		fprintf(stderr, "perfab: error: %s\n", why);
		ret = PAB_EXIT_RUNTIME;
		goto out_db;
	}
	if (migrated)
		fprintf(stderr, "perfab: migrated '%s' from schema %d to %d\n", db_path, migrated,
			PAB_HISTORY_SCHEMA);
	if (already)
		printf("'%s' is already recorded as merge #%lld; nothing changed\n",
		       pab_term_safe(pos.v[0]), (long long)id);
	else
		printf("recorded merge #%lld: %zu cells of '%s'%s%s\n", (long long)id, n_cells,
		       pab_term_safe(pos.v[0]), m.commit ? ", commit " : "",
		       m.commit ? pab_term_safe(m.commit) : "");
	ret = PAB_EXIT_PASS;
out_db:
	pab_history_close(db);
	free(cells);
	free(hd);
	free(sha);
out_ledger:
	pab_ledger_release(&l);
out_experiment:
	pab_experiment_release(&e);
out_labels:
	free(why);
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
};

#define READ_OPTIONS(a) \
	OPT_STRING(0, "db", &(a)->db, "FILE", "the history database"), \
	OPT_STRING(0, "branch", &(a)->f.branch, "NAME", "only merges into this branch"), \
	OPT_STRING(0, "since", &(a)->since, "REF", "only merges after the commit REF (a prefix)"), \
	OPT_U64(0, "last", &(a)->last, "N", "only the last N merges", 1, 1e9), \
	OPT_STRING(0, "row", &(a)->f.row, "R", "only row R"), \
	OPT_STRING(0, "metric", &(a)->f.metric, "M", "only metric M")

/* Check the shared options, open the database and read the series. */
static void read_series(struct read_args *a, const struct pab_option *opts, const char *usage,
			struct pab_history_set *set)
{
	struct pab_history_db *db;
	char *why;

	if (a->pos.n)
		pab_usage_error(opts, usage, "unexpected argument '%s'", a->pos.v[0]);
	if (!a->db)
		pab_usage_error(opts, usage, "--db FILE is required");
	if (a->since && a->last)
		pab_usage_error(opts, usage, "--since and --last exclude each other");
	if (a->f.metric && !pab_metric_find(a->f.metric))
		pab_usage_error(opts, usage, "--metric '%s': no such metric (perfab help metrics)",
				a->f.metric);
	a->f.since = a->since;
	a->f.last = (int64_t)a->last;
	if (pab_history_open(a->db, 0, &db, NULL, &why) ||
	    pab_history_query(db, &a->f, set, &why)) {
		pab_history_close(db);
		die(PAB_EXIT_USAGE, "%s", why);
	}
	pab_history_close(db);
}

/* The coverage a point's interval is read at: as recorded, else (a
 * migrated schema-1 cell) the nominal 95%. */
static double point_coverage(const struct pab_history_point *p)
{
	return isnan(p->coverage) ? DRIFT_CONF : p->coverage;
}

static struct pab_step point_step(const struct pab_history_point *p)
{
	struct pab_step s = { p->change_pct, p->lo_pct, p->hi_pct, point_coverage(p) };

	return s;
}

/* "+1.23%" or "-" for NaN, into buf. */
static void fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%+.2f%%", v);
}

/* s cut to at most w bytes on a character boundary, "~" marking a cut,
 * made safe for a terminal; into buf (of at least w + 1 bytes). */
static const char *fit(char *buf, size_t w, const char *s)
{
	const char *safe = pab_term_safe(s ? s : "-");
	size_t n = strlen(safe);

	if (n <= w)
		return safe;
	n = w - 1;
	while (n && ((unsigned char)safe[n] & 0xC0) == 0x80)
		n--;
	memcpy(buf, safe, n);
	buf[n] = '~';
	buf[n + 1] = '\0';
	return buf;
}

static void csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A Markdown table cell: | and backslash escaped (and what would start
 * emphasis, code, links or HTML), & as &amp;, control characters and
 * newlines as spaces. */
static void md_field(FILE *f, const char *s)
{
	for (s = s ? s : "-"; *s; s++) {
		if (*s == '&') { /* an entity would render as its character */
			fputs("&amp;", f);
			continue;
		}
		if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_' ||
		    *s == '[' || *s == ']' || *s == '<' || *s == '>')
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	}
}

static void json_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void json_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void print_json(cJSON *root)
{
	char *text = cJSON_Print(root);

	if (!text)
		die(PAB_EXIT_RUNTIME, "out of memory");
	puts(text);
	cJSON_free(text);
	cJSON_Delete(root);
}

/* ------------------------------------------------------------------ */
/* show                                                               */

static void show_text(const struct pab_history_series *s, size_t n, size_t merges)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32], w1[80], w2[16], w3[40];
	size_t i, j;

	printf("%zu merges, %zu series (row, arm, metric)\n", merges, n);
	for (i = 0; i < n; i++) {
		/* A header per series, then at most 2+8+13+10+22+10+13+5 = 83
		 * columns a merge. */
		printf("\n%s of '%s' [%s]\n", fit(w3, 24, s[i].metric), fit(w1, 48, s[i].row),
		       fit(w2, 12, s[i].arm));
		printf("  %-7s %-12s %9s %-21s %9s %-12s %4s\n", "merge", "commit", "change",
		       "interval", "tolerance", "verdict", "n");
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			char iv[80];

			fmt_pct(b1, sizeof(b1), p->change_pct);
			fmt_pct(b2, sizeof(b2), p->lo_pct);
			fmt_pct(b3, sizeof(b3), p->hi_pct);
			if (isnan(p->lo_pct))
				snprintf(iv, sizeof(iv), "-");
			else
				snprintf(iv, sizeof(iv), "[%s, %s]", b2, b3);
			snprintf(b4, sizeof(b4), "#%lld", (long long)p->merge->id);
			if (isfinite(p->tolerance_pct))
				snprintf(b5, sizeof(b5), "%.2f%%", p->tolerance_pct);
			else
				snprintf(b5, sizeof(b5), "-");
			printf("  %-7s %-12s %9s %-21s %9s %-12s %4lld\n", b4, fit(w1, 12, p->merge->commit),
			       b1, iv, b5, p->verdict, (long long)p->n);
		}
	}
}

static void show_json(const struct pab_history_series *s, size_t n, size_t merges)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "cells");
	size_t i, j;

	cJSON_AddNumberToObject(root, "merges", (double)merges);
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "merge", (double)p->merge->id);
			json_str(o, "commit", p->merge->commit);
			json_str(o, "base", p->merge->base);
			json_str(o, "branch", p->merge->branch);
			cJSON_AddNumberToObject(o, "recorded_at", (double)p->merge->recorded_at);
			json_str(o, "row", s[i].row);
			json_str(o, "arm", s[i].arm);
			json_str(o, "metric", s[i].metric);
			json_num(o, "base_median", p->base_median);
			json_num(o, "head_median", p->head_median);
			json_num(o, "change_pct", p->change_pct);
			json_num(o, "lo_pct", p->lo_pct);
			json_num(o, "hi_pct", p->hi_pct);
			json_num(o, "coverage", p->coverage);
			json_num(o, "tolerance_pct", p->tolerance_pct);
			json_str(o, "verdict", p->verdict);
			cJSON_AddNumberToObject(o, "n", (double)p->n);
			cJSON_AddItemToArray(arr, o);
		}
	print_json(root);
}

/* %.17g of v, or nothing for NaN (an empty CSV field). */
static void csv_num(double v)
{
	if (isfinite(v))
		printf("%.17g", v);
}

static void show_csv(const struct pab_history_series *s, size_t n)
{
	size_t i, j;

	puts("merge,commit,base,branch,recorded_at,row,arm,metric,base_median,head_median,"
	     "change_pct,lo_pct,hi_pct,coverage,tolerance_pct,verdict,n");
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];
			const double v[] = { p->base_median, p->head_median, p->change_pct,
					     p->lo_pct, p->hi_pct, p->coverage, p->tolerance_pct };
			size_t k;

			printf("%lld,", (long long)p->merge->id);
			csv_field(stdout, p->merge->commit);
			putchar(',');
			csv_field(stdout, p->merge->base);
			putchar(',');
			csv_field(stdout, p->merge->branch);
			printf(",%lld,", (long long)p->merge->recorded_at);
			csv_field(stdout, s[i].row);
			putchar(',');
			csv_field(stdout, s[i].arm);
			printf(",%s,", s[i].metric);
			for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
				csv_num(v[k]);
				putchar(',');
			}
			printf("%s,%lld\n", p->verdict, (long long)p->n);
		}
}

static void show_markdown(const struct pab_history_series *s, size_t n, size_t merges)
{
	char b1[32], b2[32], b3[32];
	size_t i, j;

	printf("**%zu merges**\n\n", merges);
	puts("| merge | commit | row | arm | metric | change | interval | verdict | n |");
	puts("|---:|---|---|---|---|---:|---|---|---:|");
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			const struct pab_history_point *p = &s[i].pts[j];

			fmt_pct(b1, sizeof(b1), p->change_pct);
			fmt_pct(b2, sizeof(b2), p->lo_pct);
			fmt_pct(b3, sizeof(b3), p->hi_pct);
			printf("| %lld | ", (long long)p->merge->id);
			md_field(stdout, p->merge->commit);
			fputs(" | ", stdout);
			md_field(stdout, s[i].row);
			fputs(" | ", stdout);
			md_field(stdout, s[i].arm);
			printf(" | %s | %s | [%s, %s] | %s | %lld |\n", s[i].metric, b1, b2, b3,
			       p->verdict, (long long)p->n);
		}
}

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
		show_json(s, n, merges);
	else if (!strcmp(a.format, "csv"))
		show_csv(s, n);
	else if (!strcmp(a.format, "markdown"))
		show_markdown(s, n, merges);
	else
		show_text(s, n, merges);
	pab_history_set_release(&set);
	pab_strlist_release(&a.pos);
	return PAB_EXIT_PASS;
}

/* ------------------------------------------------------------------ */
/* drift                                                              */

/* What drift computes for one series. */
struct drift {
	const struct pab_history_series *s;
	struct pab_chain chain;
	size_t inconclusive, fail, pass;
	double tolerance;            /* the last merge's */
	int beyond;                  /* the whole interval beyond +tolerance */
	int better;                  /* ... or beyond -tolerance */
	size_t top[3], n_top;        /* points contributing most, by size */
	size_t cp_step[CP_MAX], n_cp_step; /* change points (point indices) */
	double p_step[CP_MAX];
	/* Steps of the level: the last CP_MAX merges whose own interval lies
	 * wholly beyond their tolerance (point indices, ascending). */
	size_t jump[CP_MAX], n_jump;
};

/* Change points of x[0..n), the last CP_WINDOW of them, as indices of x. */
static size_t change_points(const double *x, size_t n, size_t *cp, double *p)
{
	struct pab_pcg32 rng;
	size_t off = n > CP_WINDOW ? n - CP_WINDOW : 0, i;
	int k;

	pab_pcg32_seed(&rng, CP_SEED, 0);
	k = pab_edivisive(x + off, n - off, CP_MIN_SIZE, CP_SIG, CP_PERMUTATIONS, &rng, cp, p,
			  CP_MAX);
	if (k < 0)
		return 0;
	for (i = 0; i < (size_t)k; i++)
		cp[i] += off;
	return (size_t)k;
}

/* The log-ratio of a point, NaN when it cannot be chained. */
static double point_log(const struct pab_history_point *p)
{
	struct pab_step st = point_step(p);
	struct pab_chain c;

	if (pab_chain_steps(&st, 1, DRIFT_CONF, &c) || !c.n)
		return NAN;
	return c.log_sum;
}

static void drift_of(const struct pab_history_series *s, struct drift *d)
{
	struct pab_step *steps = xcalloc(s->n ? s->n : 1, sizeof(*steps));
	double *steps_log = xcalloc(s->n ? s->n : 1, sizeof(*steps_log));
	size_t *idx = xcalloc(s->n ? s->n : 1, sizeof(*idx));
	size_t i, j, m = 0;

	memset(d, 0, sizeof(*d));
	d->s = s;
	d->tolerance = NAN;
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];
		double l = point_log(p);

		steps[i] = point_step(p);
		if (!strcmp(p->verdict, "INCONCLUSIVE"))
			d->inconclusive++;
		else if (!strcmp(p->verdict, "FAIL"))
			d->fail++;
		else if (!strcmp(p->verdict, "PASS"))
			d->pass++;
		if (isfinite(p->tolerance_pct))
			d->tolerance = p->tolerance_pct;
		if (isnan(l))
			continue;
		idx[m] = i;
		steps_log[m] = l;
		m++;
	}
	pab_chain_steps(steps, s->n, DRIFT_CONF, &d->chain);
	if (d->chain.n && isfinite(d->tolerance)) {
		d->beyond = d->chain.lo_pct > d->tolerance;
		d->better = d->chain.hi_pct < -d->tolerance;
	}
	/* The merges that pushed the chain furthest in its direction: an
	 * insertion into the three largest so far. */
	for (i = 0; i < m && d->chain.n; i++) {
		double sign = d->chain.log_sum < 0 ? -1.0 : 1.0, top_v[3];

		if (steps_log[i] * sign <= 0.0)
			continue;
		for (j = 0; j < d->n_top; j++)
			top_v[j] = point_log(&s->pts[d->top[j]]) * sign;
		for (j = d->n_top; j > 0 && top_v[j - 1] < steps_log[i] * sign; j--)
			if (j < 3)
				d->top[j] = d->top[j - 1];
		if (j < 3) {
			d->top[j] = idx[i];
			if (d->n_top < 3)
				d->n_top++;
		}
	}
	d->n_cp_step = change_points(steps_log, m, d->cp_step, d->p_step);
	for (i = 0; i < d->n_cp_step; i++)
		d->cp_step[i] = idx[d->cp_step[i]];
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];

		if (!(isfinite(p->tolerance_pct) && (p->lo_pct > p->tolerance_pct ||
						     p->hi_pct < -p->tolerance_pct)))
			continue;
		if (d->n_jump == CP_MAX) /* keep the last ones */
			memmove(d->jump, d->jump + 1, (CP_MAX - 1) * sizeof(*d->jump));
		else
			d->n_jump++;
		d->jump[d->n_jump - 1] = i;
	}
	free(idx);
	free(steps_log);
	free(steps);
}

static const char *short_commit(const struct pab_history_point *p, char *buf, size_t len)
{
	if (!p->merge->commit)
		snprintf(buf, len, "#%lld", (long long)p->merge->id);
	else
		snprintf(buf, len, "#%lld %.12s", (long long)p->merge->id, pab_term_safe(p->merge->commit));
	return buf;
}

static void drift_text_cps(const char *what, const struct pab_history_series *s,
			   const size_t *cp, const double *p, size_t n)
{
	char b[64];
	size_t i;

	if (!n)
		return;
	printf("  change points in the %s:", what);
	for (i = 0; i < n; i++)
		printf("%s %s (p = %.3f)", i ? "," : "", short_commit(&s->pts[cp[i]], b, sizeof(b)),
		       p[i]);
	putchar('\n');
}

static void drift_text(const struct drift *d, size_t merges)
{
	const struct pab_history_series *s = d->s;
	const struct pab_history_point *first = &s->pts[0], *last = &s->pts[s->n - 1];
	char b1[32], b2[32], b3[32], b4[64];
	size_t i;

	char line[512], tail[96];

	snprintf(b1, sizeof(b1), "%+.1f%%", d->chain.change_pct);
	snprintf(b2, sizeof(b2), "%+.1f", d->chain.lo_pct);
	snprintf(b3, sizeof(b3), "%+.1f", d->chain.hi_pct);
	snprintf(line, sizeof(line), "%s of '%s' [%s] is %s [%s, %s] over the last %zu merge%s",
		 s->metric, pab_term_safe(s->row), pab_term_safe(s->arm), b1, b2, b3, d->chain.n,
		 d->chain.n == 1 ? "" : "s");
	if (d->fail)
		snprintf(tail, sizeof(tail), "; %zu of them were INCONCLUSIVE, %zu FAIL",
			 d->inconclusive, d->fail);
	else
		snprintf(tail, sizeof(tail), "; %zu of them were INCONCLUSIVE", d->inconclusive);
	/* One line when it fits in 100 columns, else the counts below. */
	if (strlen(line) + strlen(tail) <= 100)
		printf("%s%s\n", line, tail);
	else
		printf("%s\n  %s\n", line, tail + 2);
	if (d->chain.skipped)
		printf("  %zu merges left out: no finite change or interval\n", d->chain.skipped);
	if (s->n < merges)
		printf("  (recorded in %zu of the %zu merges selected)\n", s->n, merges);
	if (d->beyond || d->better) {
		printf("  %s: the whole interval is beyond the tolerance of %.2f%%%s\n",
		       d->beyond ? "DRIFT" : "GAIN", d->tolerance,
		       d->beyond ? " (worse)" : " (better)");
		if (d->n_top) {
			printf("  most of it from:");
			for (i = 0; i < d->n_top; i++) {
				fmt_pct(b1, sizeof(b1), s->pts[d->top[i]].change_pct);
				printf("%s %s %s", i ? "," : "",
				       short_commit(&s->pts[d->top[i]], b4, sizeof(b4)), b1);
			}
			putchar('\n');
		}
		printf("  confirm it directly, the two endpoints in one A/B on one runner:\n"
		       "    perfab run BUILD_AT_%s BUILD_AT_%s\n",
		       first->merge->base ? pab_term_safe(first->merge->base) : "FIRST_BASE",
		       last->merge->commit ? pab_term_safe(last->merge->commit) : "LAST_COMMIT");
	}
	drift_text_cps("per-merge changes", s, d->cp_step, d->p_step, d->n_cp_step);
	if (d->n_jump) {
		printf("  steps of the level (a merge's own interval beyond its tolerance):");
		for (i = 0; i < d->n_jump; i++) {
			fmt_pct(b1, sizeof(b1), s->pts[d->jump[i]].change_pct);
			printf("%s %s %s", i ? "," : "", short_commit(&s->pts[d->jump[i]], b4, sizeof(b4)),
			       b1);
		}
		putchar('\n');
	}
}

static cJSON *json_cps(const struct pab_history_series *s, const size_t *cp,
		       const double *p, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "merge", (double)s->pts[cp[i]].merge->id);
		json_str(o, "commit", s->pts[cp[i]].merge->commit);
		cJSON_AddNumberToObject(o, "p", p[i]);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *drift_json(const struct drift *d)
{
	const struct pab_history_series *s = d->s;
	cJSON *o = cJSON_CreateObject(), *top;
	size_t i;

	json_str(o, "row", s->row);
	json_str(o, "arm", s->arm);
	json_str(o, "metric", s->metric);
	cJSON_AddNumberToObject(o, "merges", (double)d->chain.n);
	cJSON_AddNumberToObject(o, "skipped", (double)d->chain.skipped);
	json_num(o, "change_pct", d->chain.change_pct);
	json_num(o, "lo_pct", d->chain.lo_pct);
	json_num(o, "hi_pct", d->chain.hi_pct);
	json_num(o, "se_log", d->chain.se_log);
	cJSON_AddNumberToObject(o, "conf", DRIFT_CONF);
	json_num(o, "tolerance_pct", d->tolerance);
	cJSON_AddStringToObject(o, "drift", d->beyond ? "worse" : d->better ? "better" : "none");
	cJSON_AddNumberToObject(o, "pass", (double)d->pass);
	cJSON_AddNumberToObject(o, "inconclusive", (double)d->inconclusive);
	cJSON_AddNumberToObject(o, "fail", (double)d->fail);
	json_str(o, "first_base", s->pts[0].merge->base);
	json_str(o, "last_commit", s->pts[s->n - 1].merge->commit);
	top = cJSON_AddArrayToObject(o, "top");
	for (i = 0; i < d->n_top; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddNumberToObject(t, "merge", (double)s->pts[d->top[i]].merge->id);
		json_str(t, "commit", s->pts[d->top[i]].merge->commit);
		json_num(t, "change_pct", s->pts[d->top[i]].change_pct);
		cJSON_AddItemToArray(top, t);
	}
	cJSON_AddItemToObject(o, "change_points",
			      json_cps(s, d->cp_step, d->p_step, d->n_cp_step));
	top = cJSON_AddArrayToObject(o, "steps");
	for (i = 0; i < d->n_jump; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddNumberToObject(t, "merge", (double)s->pts[d->jump[i]].merge->id);
		json_str(t, "commit", s->pts[d->jump[i]].merge->commit);
		json_num(t, "change_pct", s->pts[d->jump[i]].change_pct);
		cJSON_AddItemToArray(top, t);
	}
	return o;
}

static int history_drift(int argc, char **argv)
{
	struct read_args a = { 0 };
	const struct pab_option opts[] = {
		READ_OPTIONS(&a),
		OPT_STRING('f', "format", &a.format, "FMT", "text (default) or json"),
		OPT_END(),
	};
	const char *usage = DRIFT_USAGE;
	struct pab_history_set set;
	struct pab_history_series *s;
	struct drift d;
	cJSON *root = NULL, *arr = NULL;
	size_t i, n, merges, flagged = 0;

	a.format = "text";
	pab_parse_options(argc, argv, opts, usage,
			  "Per row, arm and metric: the per-merge paired changes chained along the\n"
			  "history (log-ratios summed) with a 95% interval, the verdicts behind it,\n"
			  "the merges that contributed most when the chained change is beyond the\n"
			  "tolerance, change points of the per-merge changes (E-Divisive with means,\n"
			  "seeded) and the merges that stepped the level.", &a.pos);
	if (strcmp(a.format, "text") && strcmp(a.format, "json"))
		pab_usage_error(opts, usage, "unknown --format '%s'", a.format);
	read_series(&a, opts, usage, &set);
	s = set.series;
	n = set.n;
	merges = set.merges;
	if (!strcmp(a.format, "json")) {
		root = cJSON_CreateObject();
		cJSON_AddNumberToObject(root, "merges", (double)merges);
		arr = cJSON_AddArrayToObject(root, "series");
	}
	for (i = 0; i < n; i++) {
		drift_of(&s[i], &d);
		if (!d.chain.n)
			continue;
		flagged += d.beyond;
		if (root)
			cJSON_AddItemToArray(arr, drift_json(&d));
		else
			drift_text(&d, merges);
	}
	if (root) {
		cJSON_AddNumberToObject(root, "drifted", (double)flagged);
		print_json(root);
	} else if (!n) {
		printf("no merges selected\n");
	}
	pab_history_set_release(&set);
	pab_strlist_release(&a.pos);
	return PAB_EXIT_PASS;
}

/* ------------------------------------------------------------------ */
/* html                                                               */

#define esc pab_report_escape

static const char *verdict_class(const char *v)
{
	if (!strcmp(v, "PASS"))
		return "pass";
	if (!strcmp(v, "FAIL"))
		return "fail";
	if (!strcmp(v, "INCONCLUSIVE"))
		return "inconclusive";
	return "nm";
}

/* One series' plot: the chained level (percent) with its band, a point
 * per merge, change points as dashed lines. */
static void html_series(FILE *f, const struct pab_history_series *s, size_t idx)
{
	const double W = 800, H = 240, L = 64, R = 12, T = 14, B = 30;
	double *lev = xcalloc(s->n, sizeof(*lev)), *lo = xcalloc(s->n, sizeof(*lo));
	double *hi = xcalloc(s->n, sizeof(*hi)), ymin = 0.0, ymax = 0.0, x, y;
	struct pab_step *steps = xcalloc(s->n, sizeof(*steps));
	char b1[32], b2[32], b3[32];
	struct drift d;
	size_t i, k;
	int first;

	drift_of(s, &d);
	if (!d.chain.n) /* nothing measured to chain: no plot */
		goto out_free;
	for (i = 0; i < s->n; i++) {
		struct pab_chain c;

		steps[i] = point_step(&s->pts[i]);
		pab_chain_steps(steps, i + 1, DRIFT_CONF, &c);
		lev[i] = c.n ? c.change_pct : 0.0;
		lo[i] = c.n ? c.lo_pct : 0.0;
		hi[i] = c.n ? c.hi_pct : 0.0;
		if (lo[i] < ymin)
			ymin = lo[i];
		if (hi[i] > ymax)
			ymax = hi[i];
	}
	if (ymax - ymin < 1.0) {
		ymax += 0.5;
		ymin -= 0.5;
	}
#define PX(i) (L + (s->n > 1 ? (double)(i) / (double)(s->n - 1) : 0.5) * (W - L - R))
#define PY(v) (T + (ymax - (v)) / (ymax - ymin) * (H - T - B))
	fmt_pct(b1, sizeof(b1), d.chain.change_pct);
	fmt_pct(b2, sizeof(b2), d.chain.lo_pct);
	fmt_pct(b3, sizeof(b3), d.chain.hi_pct);
	fputs("<section><h2>", f);
	esc(f, s->metric);
	fputs(" of <code>", f);
	esc(f, s->row);
	fputs("</code> [", f);
	esc(f, s->arm);
	fprintf(f, "]</h2>\n<p>chained %s [%s, %s] over %zu merges: %zu PASS, %zu INCONCLUSIVE, "
		"%zu FAIL%s</p>\n", b1, b2, b3, d.chain.n, d.pass, d.inconclusive, d.fail,
		d.beyond ? " &mdash; <strong>drift beyond the tolerance</strong>" : "");
	fprintf(f, "<svg class=\"history\" id=\"s%zu\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"aria-label=\"", idx, W, H);
	esc(f, s->metric);
	fputs(" ", f);
	esc(f, s->row);
	fputs("\">\n", f);
	/* Axes: zero, the range's ends. */
	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", L,
		W - R, PY(0.0), PY(0.0));
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%+.1f%%</text>\n",
		L - 4, PY(ymax) + 4, ymax);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%+.1f%%</text>\n",
		L - 4, PY(ymin), ymin);
	/* 0, unless it would overprint an end's label. */
	if (PY(0.0) - PY(ymax) > 14 && PY(ymin) - PY(0.0) > 14)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">0</text>\n",
			L - 4, PY(0.0) + 4);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">merge 1</text>\n", L, H - 8);
	fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">merge %zu</text>\n",
		W - R, H - 8, s->n);
	/* The band: the upper edge forward, the lower back. One merge
	 * draws its level across the plot. */
	fputs("<path class=\"band\" d=\"", f);
	if (s->n == 1)
		fprintf(f, "M%.1f %.1f L%.1f %.1f L%.1f %.1f L%.1f %.1f ", L, PY(hi[0]), W - R,
			PY(hi[0]), W - R, PY(lo[0]), L, PY(lo[0]));
	for (i = 0; i < s->n && s->n > 1; i++)
		fprintf(f, "%s%.1f %.1f ", i ? "L" : "M", PX(i), PY(hi[i]));
	for (i = s->n; s->n > 1 && i-- > 0;)
		fprintf(f, "L%.1f %.1f ", PX(i), PY(lo[i]));
	fputs("Z\"/>\n<polyline class=\"level\" points=\"", f);
	if (s->n == 1)
		fprintf(f, "%.1f,%.1f %.1f,%.1f", L, PY(lev[0]), W - R, PY(lev[0]));
	for (i = 0, first = 1; i < s->n && s->n > 1; i++, first = 0)
		fprintf(f, "%s%.1f,%.1f", first ? "" : " ", PX(i), PY(lev[i]));
	fputs("\"/>\n", f);
	/* Change points of the per-merge changes: a dashed line before the
	 * first merge of the new segment. */
	for (k = 0; k < d.n_cp_step; k++) {
		x = PX(d.cp_step[k]) - (s->n > 1 ? (W - L - R) / (double)(s->n - 1) / 2 : 0);
		fprintf(f, "<line class=\"cp\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\">"
			"<title>change point of the per-merge changes before merge #%lld (p = %.3f)"
			"</title></line>\n",
			x, x, T, H - B, (long long)s->pts[d.cp_step[k]].merge->id, d.p_step[k]);
	}
	/* Steps of the level: a ring around the merge. */
	for (k = 0; k < d.n_jump; k++)
		fprintf(f, "<circle class=\"step\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>\n",
			PX(d.jump[k]), PY(lev[d.jump[k]]));
	for (i = 0; i < s->n; i++) {
		const struct pab_history_point *p = &s->pts[i];

		x = PX(i);
		y = PY(lev[i]);
		fmt_pct(b1, sizeof(b1), p->change_pct);
		fmt_pct(b2, sizeof(b2), p->lo_pct);
		fmt_pct(b3, sizeof(b3), p->hi_pct);
		fprintf(f, "<circle class=\"merge %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>merge #%lld"
			" ", verdict_class(p->verdict), x, y, (long long)p->merge->id);
		esc(f, p->merge->commit ? p->merge->commit : "(no commit)");
		fprintf(f, ": %s [%s, %s] %s, n = %lld; chained ", b1, b2, b3, p->verdict,
			(long long)p->n);
		fmt_pct(b1, sizeof(b1), lev[i]);
		fprintf(f, "%s</title></circle>\n", b1);
	}
	fputs("</svg>\n</section>\n", f);
#undef PX
#undef PY
out_free:
	free(steps);
	free(hi);
	free(lo);
	free(lev);
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
	struct pab_history_series *s;
	size_t i, n, merges;
	FILE *f = stdout;

	pab_parse_options(argc, argv, opts, usage,
			  "One self-contained HTML page: per row, arm and metric the chained change\n"
			  "with its 95% band, each merge a point coloured by its verdict (hover for\n"
			  "its commit and figures), change points of the per-merge changes as dashed\n"
			  "lines, the merges that stepped the level ringed.",
			  &a.pos);
	read_series(&a, opts, usage, &set);
	s = set.series;
	n = set.n;
	merges = set.merges;
	if (a.out && !(f = fopen(a.out, "w")))
		die_errno("cannot write '%s'", a.out);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>perfab history</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:70em;padding:0 1em}\n"
	      "h2{font-size:1.05em;margin:1.2em 0 .2em;overflow-wrap:anywhere}\n"
	      "p{overflow-wrap:anywhere}\n"
	      "svg.history{width:100%;height:auto;display:block}\n"
	      ".band{fill:#9ab;fill-opacity:.35;stroke:none}\n"
	      ".level{fill:none;stroke:#234;stroke-width:1.5}\n"
	      ".zero{stroke:#888;stroke-dasharray:2 3}\n"
	      ".cp{stroke:#a0a;stroke-width:1.5;stroke-dasharray:5 4}\n"
	      ".step{fill:none;stroke:#a0a;stroke-width:2}\n"
	      ".tick{font-size:11px;fill:#444}\n"
	      ".merge{stroke:#fff;stroke-width:1}\n"
	      ".pass{fill:#2a7}.fail{fill:#c33}.inconclusive{fill:#d90}.nm{fill:#999}\n"
	      "</style></head><body>\n<h1>perfab history</h1>\n", f);
	fprintf(f, "<p>%zu merges, %zu series (those with a measured change are drawn). "
		"Each point is one merge, at the chained change "
		"after it, coloured by its verdict (green PASS, amber INCONCLUSIVE, red FAIL); "
		"the band is the chained 95%% interval.</p>\n", merges, n);
	for (i = 0; i < n; i++)
		html_series(f, &s[i], i);
	fputs("</body></html>\n", f);
	if (a.out && fclose(f))
		die_errno("cannot write '%s'", a.out);
	pab_history_set_release(&set);
	pab_strlist_release(&a.pos);
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
	fprintf(stderr, "perfab: error: history needs record, show, drift or html%s%s%s\n",
		argc >= 2 ? ", not '" : "", argc >= 2 ? pab_term_safe(argv[1]) : "",
		argc >= 2 ? "'" : "");
	fprintf(stderr, "usage: %s\n", history_usage);
	return PAB_EXIT_USAGE;
}
