/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * calibration.c — perfab-calibration/1 files (calibration.h): built from
 * an A/A experiment with pab_calibrate_at(), printed, and read back.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/calibration.h"
#include "store/digest.h"
#include "store/json_in.h"
#include "store/run_record.h"
#include "store/tempfile.h"
#include "pab_stats.h"
#include "term.h"
#include "util.h"

/* Largest calibration file read. */
#define CAL_MAX_BYTES ((size_t)16 << 20)

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* The first arm that is neither base nor "null", or -1. */
static int head_arm(const struct pab_experiment *e, int base)
{
	size_t a;

	for (a = 0; a < e->n_arms; a++)
		if ((int)a != base && strcmp(e->arms[a].name, "null"))
			return (int)a;
	return -1;
}

/* The paired changes of metric m, from arm x to arm y, of row into out. */
static void changes(const struct pab_row *row, int x, int y, enum pab_metric_id m,
		    double *out)
{
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		out[r] = pab_percent_worse(row->reps[r].result[x].m[m],
					   row->reps[r].result[y].m[m], pab_metrics[m].better);
}

/*
 * What a calibration simulates and sizes the tolerance for (doc/method.md
 * §14): the looks a run plans, the first pass_looks of them (up to
 * PAB_CAL_BY_REPS pairs) by which every row of the gate must PASS, and
 * the probability each row must PASS with by then, so that the gate's
 * rows PASS together in PAB_CAL_GATE_PASS_PROB.
 */
struct pab_cal_plan {
	size_t looks[PAB_CAL_MAX_LOOKS], n_looks, pass_looks, rows;
	double row_prob;
};

/* One row × metric entry, or NULL when it has fewer than two pairs. */
static cJSON *metric_entry(const struct pab_experiment *e, const struct pab_row *row,
			   int base, int head, int null_arm, enum pab_metric_id m,
			   const struct pab_cal_plan *plan, double *tol_max)
{
	double *d = xcalloc(row->n_reps + 1, sizeof(*d));
	double *h = xcalloc(row->n_reps + 1, sizeof(*h));
	struct pab_calibration c;
	cJSON *o = NULL, *arr;
	size_t k;

	changes(row, base, head, m, d);
	if (null_arm >= 0)
		changes(row, null_arm, head, m, h);
	if (pab_calibrate_at(d, null_arm >= 0 ? h : NULL, row->n_reps, plan->looks,
			     plan->n_looks, plan->pass_looks, plan->row_prob, 0.95,
			     PAB_CALIBRATION_SIMS, e->seed + (uint64_t)m, &c))
		goto out_free;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "metric", pab_metrics[m].name);
	cJSON_AddNumberToObject(o, "n", (double)c.n);
	cJSON_AddItemToObject(o, "median_pct", num_or_null(c.median));
	cJSON_AddItemToObject(o, "spread_pct", num_or_null(c.spread));
	cJSON_AddItemToObject(o, "tolerance_pct", num_or_null(c.tolerance));
	cJSON_AddItemToObject(o, "pass_prob", num_or_null(c.pass_prob));
	arr = cJSON_AddArrayToObject(o, "looks");
	for (k = 0; k < c.n_looks; k++) {
		cJSON *l = cJSON_CreateObject();

		cJSON_AddNumberToObject(l, "n", (double)c.looks[k].n);
		cJSON_AddItemToObject(l, "half_width_pct", num_or_null(c.looks[k].half_width));
		cJSON_AddItemToObject(l, "mde_pct", num_or_null(c.looks[k].mde));
		cJSON_AddItemToArray(arr, l);
	}
	if (isfinite(c.tolerance) && !(c.tolerance <= *tol_max))
		*tol_max = c.tolerance;
out_free:
	free(d);
	free(h);
	return o;
}

/* "cpu_model\nkernel\npus" of host, hashed: the machine, not its load. */
static char *host_sha256(const cJSON *host)
{
	const char *kernel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(host, "kernel"));
	const cJSON *pus = cJSON_GetObjectItemCaseSensitive(host, "pus");
	const char *cpu = pab_host_cpu_model(host);
	char *text = xasprintf("%s\n%s\n%.0f", cpu ? cpu : "", kernel ? kernel : "",
			       cJSON_IsNumber(pus) ? pus->valuedouble : 0.0);
	char *sha = pab_sha256_buf(text, strlen(text));

	free(text);
	return sha;
}

/* What the file's tolerance is, in words (its "definition"). */
static char *definition(const struct pab_cal_plan *p)
{
	char *rows = p->rows == 1 ? xstrdup("the gate's row PASSes") :
		xasprintf("the gate's %zu rows PASS together", p->rows);
	char *text = xasprintf("per row and metric, the smallest tolerance at which an unchanged "
			       "head PASSes by %zu reps in at least %.1f%% of simulated runs "
			       "(%.2f^(1/%zu)), so that %s by then in at least %.0f%%; per metric, "
			       "the largest over the rows", p->looks[p->pass_looks - 1],
			       100 * p->row_prob, PAB_CAL_GATE_PASS_PROB, p->rows, rows,
			       100 * PAB_CAL_GATE_PASS_PROB);

	free(rows);
	return text;
}

static void add_head(cJSON *cal, const struct pab_experiment *e, const char *artifact,
		     const struct pab_cal_plan *plan)
{
	cJSON *host = pab_json_text_parse(e->host_json, 1);
	const char *cpu = pab_host_cpu_model(host);
	const char *kernel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(host,
										   "kernel"));
	char stamp[32] = "", *sha;
	time_t now = time(NULL);
	struct tm tm;
	cJSON *o, *arr;
	size_t k;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cJSON_AddStringToObject(cal, "schema", PAB_CALIBRATION_SCHEMA);
	cJSON_AddStringToObject(cal, "perfab_version", PACKAGE_VERSION);
	cJSON_AddStringToObject(cal, "date", stamp);
	sha = host_sha256(host);
	cJSON_AddItemToObject(cal, "host_fingerprint", cJSON_CreateString(sha ? sha : ""));
	free(sha);
	cJSON_AddItemToObject(cal, "cpu_model", cpu ? cJSON_CreateString(cpu) : cJSON_CreateNull());
	cJSON_AddItemToObject(cal, "kernel", kernel ? cJSON_CreateString(kernel) :
			      cJSON_CreateNull());
	cJSON_AddItemToObject(cal, "host", host); /* the tree moves into cal */
	o = cJSON_AddObjectToObject(cal, "experiment");
	cJSON_AddItemToObject(o, "artifact", artifact ? cJSON_CreateString(artifact) :
			      cJSON_CreateNull());
	sha = artifact ? pab_sha256_file(artifact) : NULL;
	cJSON_AddItemToObject(o, "sha256", sha ? cJSON_CreateString(sha) : cJSON_CreateNull());
	free(sha);
	cJSON_AddNumberToObject(o, "seed", (double)e->seed);
	cJSON_AddStringToObject(o, "rules", pab_rules_name(e->rules));
	cJSON_AddNumberToObject(o, "conf", 0.95);
	cJSON_AddNumberToObject(o, "simulations", PAB_CALIBRATION_SIMS);
	cJSON_AddNumberToObject(o, "pass_prob", plan->row_prob);
	cJSON_AddNumberToObject(o, "gate_pass_prob", PAB_CAL_GATE_PASS_PROB);
	cJSON_AddNumberToObject(o, "gate_rows", (double)plan->rows);
	cJSON_AddNumberToObject(o, "by_reps", (double)plan->looks[plan->pass_looks - 1]);
	cJSON_AddNumberToObject(o, "fail_prob", PAB_CAL_FAIL_PROB);
	arr = cJSON_AddArrayToObject(o, "looks");
	for (k = 0; k < plan->n_looks; k++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)plan->looks[k]));
	sha = definition(plan);
	cJSON_AddStringToObject(cal, "definition", sha);
	free(sha);
}

cJSON *pab_calibration_build(const struct pab_experiment *e, const int judged[PAB_M_COUNT],
			     size_t first, const char *artifact, char **why)
{
	int base = 0, head, null_arm = pab_experiment_null_index(e);
	struct pab_cal_plan plan;
	size_t ri, m, entries = 0;
	double tol_max[PAB_M_COUNT];
	cJSON *cal, *rows, *tol;

	for (m = 0; m < e->n_arms; m++)
		if (!strcmp(e->arms[m].name, "base"))
			base = (int)m;
	head = head_arm(e, base);
	*why = NULL;
	if (head < 0) {
		*why = xstrdup("the experiment has no head arm to compare with its base");
		return NULL;
	}
	plan.n_looks = pab_looks_plan(first, e->max_reps > first ? e->max_reps : first, e->n_arms,
				      plan.looks, PAB_CAL_MAX_LOOKS);
	if (!plan.n_looks || !e->n_rows) {
		*why = xstrdup(plan.n_looks ? "the experiment has no row" : "no looks to plan");
		return NULL;
	}
	/* Sized for the gate: its rows PASS together by the last look at or
	 * below PAB_CAL_BY_REPS (the first, when it is above), each row with
	 * the R-th root of the gate's probability. */
	for (plan.pass_looks = 1; plan.pass_looks < plan.n_looks; plan.pass_looks++)
		if (plan.looks[plan.pass_looks] > PAB_CAL_BY_REPS)
			break;
	plan.rows = e->n_rows;
	plan.row_prob = pow(PAB_CAL_GATE_PASS_PROB, 1.0 / (double)plan.rows);
	for (m = 0; m < PAB_M_COUNT; m++)
		tol_max[m] = NAN;
	cal = cJSON_CreateObject();
	add_head(cal, e, artifact, &plan);
	rows = cJSON_AddArrayToObject(cal, "rows");
	for (ri = 0; ri < e->n_rows; ri++) {
		const struct pab_row *row = &e->rows[ri];
		cJSON *r = cJSON_CreateObject(), *ms;

		cJSON_AddStringToObject(r, "row", row->name);
		cJSON_AddNumberToObject(r, "reps", (double)row->n_reps);
		ms = cJSON_AddArrayToObject(r, "metrics");
		for (m = 0; m < PAB_M_COUNT; m++) {
			cJSON *x;

			if (!judged[m])
				continue;
			x = metric_entry(e, row, base, head, null_arm, (enum pab_metric_id)m, &plan,
					 &tol_max[m]);
			if (x) {
				cJSON_AddItemToArray(ms, x);
				entries++;
			}
		}
		cJSON_AddItemToArray(rows, r);
	}
	tol = cJSON_AddObjectToObject(cal, "tolerance");
	for (m = 0; m < PAB_M_COUNT; m++)
		if (isfinite(tol_max[m]))
			cJSON_AddNumberToObject(tol, pab_metrics[m].name, tol_max[m]);
	if (!entries) {
		cJSON_Delete(cal);
		*why = xstrdup("no row has two paired reps of a judged metric: run more reps");
		return NULL;
	}
	return cal;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* "x.xx" or "-" into buf. */
static const char *pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "-");
	return buf;
}

void pab_calibration_print(FILE *f, const cJSON *cal)
{
	const cJSON *row, *met, *look;
	const cJSON *ex = cJSON_GetObjectItemCaseSensitive(cal, "experiment");
	const char *cpu = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cal, "cpu_model"));
	char a[16], b[16], c[16];
	const double rows = num(ex, "gate_rows");

	fprintf(f, "perfab calibration · %.60s\n", pab_term_safe(cpu ? cpu : "unknown CPU model"));
	fprintf(f, "A/A: head runs base's command; spread = 1.4826 x MAD of the paired changes\n"
		"tolerance, sized for a gate of %.0f row%s: per row and metric, the smallest at which\n"
		"  an unchanged head PASSes by %.0f reps in >= %.1f%% of simulated runs, so that the\n"
		"  gate PASSes by then in >= %.0f%%; per metric, the largest over the rows\n"
		"confidence: one A/A run's estimate (%.0f simulated runs); recalibrate when the\n"
		"  machine or its load changes\n"
		"MDE: the worsening that FAILs in >= %.0f%% at that look (percent)\n\n",
		rows, rows == 1 ? "" : "s", num(ex, "by_reps"), 100 * num(ex, "pass_prob"),
		100 * num(ex, "gate_pass_prob"), num(ex, "simulations"),
		100 * num(ex, "fail_prob"));
	fprintf(f, "%-24s %-14s %4s %8s %9s  %s\n", "row", "metric", "n", "spread%",
		"tolerance%", "look: half-width% / MDE%");
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(cal, "rows")) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "row"));

		cJSON_ArrayForEach(met, cJSON_GetObjectItemCaseSensitive(row, "metrics")) {
			struct pab_strbuf sb = PAB_STRBUF_INIT;

			cJSON_ArrayForEach(look, cJSON_GetObjectItemCaseSensitive(met, "looks")) {
				if (sb.len > 30) {
					pab_strbuf_addstr(&sb, " ...");
					break;
				}
				pab_strbuf_addf(&sb, "%s%.0f: %s/%s", sb.len ? "  " : "", num(look, "n"),
						pct(a, sizeof(a), num(look, "half_width_pct")),
						pct(b, sizeof(b), num(look, "mde_pct")));
			}
			fprintf(f, "%-24.24s %-14.14s %4.0f %8s %9s  %s\n",
				pab_term_safe(name ? name : "?"),
				cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(met, "metric")),
				num(met, "n"), pct(a, sizeof(a), num(met, "spread_pct")),
				pct(c, sizeof(c), num(met, "tolerance_pct")), sb.len ? sb.buf : "");
			pab_strbuf_release(&sb);
		}
	}
}

/* The tolerances of object t into tol[]; a problem is recorded in in. */
static void parse_tolerances(struct pab_json_in *in, const cJSON *t, double tol[PAB_M_COUNT])
{
	const cJSON *it;

	pab_json_in_push_key(in, "tolerance");
	cJSON_ArrayForEach(it, t) {
		const struct pab_metric *met = pab_metric_find(it->string);
		double v;

		if (!met) {
			pab_json_in_fail_here(in, "unknown metric '%s' (see perfab(1) METRICS)",
					      pab_term_safe(it->string));
			break;
		}
		if (pab_json_in_number(in, t, it->string, PAB_JSON_REQUIRED, 0, 1000, NULL,
				       &v) < 0)
			break;
		if (v > PAB_CALIBRATION_TOL_MAX) {
			pab_json_in_fail(in, it->string, "is %.4g%%, more than the %.0f%% perfab "
					 "takes from a calibration: it would PASS a head %.4g%% "
					 "worse than its base. An A/A run that needs it cannot judge "
					 "%s here: quieten the machine (perfab env) or lengthen the "
					 "command and calibrate again, or declare the tolerance "
					 "(--tolerance %s=PCT) where reviewers see it", v,
					 PAB_CALIBRATION_TOL_MAX, v, met->name, met->name);
			break;
		}
		tol[met->id] = v;
	}
	pab_json_in_pop(in);
}

int pab_calibration_parse(const char *text, size_t len, const char *path,
			  double tol[PAB_M_COUNT], char **cpu_model, char **why)
{
	char *prefix = xasprintf("calibration '%s'", path);
	const char *schema = NULL, *cpu = NULL;
	const cJSON *t = NULL;
	struct pab_json_in in;
	cJSON *root;
	size_t m;

	*cpu_model = NULL;
	for (m = 0; m < PAB_M_COUNT; m++)
		tol[m] = NAN;
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, prefix, NULL);
	root = pab_json_in_parse(&in, text, len, "not a JSON object (check the syntax)");
	if (root && !cJSON_IsObject(root))
		pab_json_in_fail_here(&in, "not a JSON object (check the syntax)");
	if (!pab_json_in_failed(&in) &&
	    pab_json_in_string(&in, root, "schema", PAB_JSON_REQUIRED, &schema) == 1 &&
	    strcmp(schema, PAB_CALIBRATION_SCHEMA))
		pab_json_in_fail(&in, "schema", "must be \"%s\" (this is '%s': write it with "
				 "perfab calibrate)", PAB_CALIBRATION_SCHEMA, pab_term_safe(schema));
	if (pab_json_in_string(&in, root, "cpu_model", PAB_JSON_REQUIRED | PAB_JSON_NULLABLE,
			       &cpu) >= 0 &&
	    pab_json_in_object(&in, root, "tolerance", PAB_JSON_REQUIRED, &t) > 0)
		parse_tolerances(&in, t, tol);
	*why = pab_json_in_take_why(&in);
	if (*why)
		for (m = 0; m < PAB_M_COUNT; m++)
			tol[m] = NAN;
	else
		*cpu_model = xstrdup(cpu ? cpu : "");
	cJSON_Delete(root);
	pab_json_in_release(&in);
	free(prefix);
	return *why ? -1 : 0;
}

int pab_calibration_load(const char *path, double tol[PAB_M_COUNT], char **cpu_model,
			 char **sha256, char **why)
{
	size_t len, m;
	char *text = pab_read_regular_file(path, "calibration", CAL_MAX_BYTES, &len, why);
	int ret;

	*sha256 = NULL;
	if (!text) {
		*cpu_model = NULL;
		for (m = 0; m < PAB_M_COUNT; m++)
			tol[m] = NAN;
		return -1;
	}
	ret = pab_calibration_parse(text, len, path, tol, cpu_model, why);
	if (!ret)
		*sha256 = pab_sha256_buf(text, len);
	free(text);
	return ret;
}

static int write_tree(FILE *f, void *arg)
{
	char *text = cJSON_Print(arg);

	if (!text)
		return -1;
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return ferror(f) ? -1 : 0;
}

int pab_calibration_write(const char *path, const cJSON *cal, char **why)
{
	return pab_write_file_atomic(path, write_tree, (void *)cal, why);
}

char *pab_calibration_implausible(const cJSON *cal)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	const cJSON *it;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(cal, "tolerance"))
		if (cJSON_IsNumber(it) && it->valuedouble > PAB_CALIBRATION_TOL_MAX)
			pab_strbuf_addf(&sb, "%s%s (%.4g%%)", sb.len ? ", " : "", it->string,
					it->valuedouble);
	return sb.len ? pab_strbuf_detach(&sb) : NULL;
}

void pab_calibration_free(cJSON *cal)
{
	cJSON_Delete(cal);
}
