/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * define.c — the experiment's definition from the options: the arms
 * (arms.c), then the rows of --config, --workloads and the parameter
 * scans, cut by --shard (define.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suite.h"
#include "model/argv_split.h"
#include "store/run_settings.h"
#include "run/arms.h"
#include "run/define.h"
#include "run/runconf.h"
#include "term.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Rows                                                               */

/*
 * A list option's items, split at sep (blanks around an item trimmed when
 * trim): 0 when none is empty and none comes twice, else -1 and the
 * reason in f, naming the option what and the list.
 */
int pab_check_list_items(const char *what, const char *list, char sep, int trim,
			 struct pab_failure *f)
{
	const char *p = list;
	size_t n = 0, i, cap = 0;
	struct { const char *s; size_t len; } *items = NULL;
	int ret = 0;

	for (;;) {
		const char *end = strchr(p, sep), *b, *e;

		if (!end)
			end = p + strlen(p);
		b = p;
		e = end;
		while (trim && b < e && (*b == ' ' || *b == '\t' || *b == '\n'))
			b++;
		while (trim && e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
			e--;
		if (e == b) {
			ret = pab_fail(f, PAB_FAIL_USAGE, "%s '%s' has an empty item: give each "
				       "item once, separated by '%c'", what, pab_term_safe(list), sep);
			break;
		}
		for (i = 0; i < n; i++)
			if (items[i].len == (size_t)(e - b) && !memcmp(items[i].s, b, items[i].len))
				break;
		if (i < n) {
			char *dup = xstrndup(b, (size_t)(e - b));

			ret = pab_fail(f, PAB_FAIL_USAGE, "%s '%s' names '%s' twice: give each item "
				       "once", what, pab_term_safe(list), pab_term_safe(dup));
			free(dup);
			break;
		}
		ALLOC_GROW(items, n + 1, cap);
		items[n].s = b;
		items[n++].len = (size_t)(e - b);
		if (!*end)
			break;
		p = end + 1;
	}
	free(items);
	return ret;
}

/* Built-in rows by --workloads (selection sel) after the config's. */
static int add_workload_rows(struct pab_experiment *e, const char *sel, struct pab_failure *f)
{
	size_t before = e->n_rows, i, k;

	for (i = 0; i < pab_suite_count(); i++) {
		const char *name = pab_suite_row(i)->name;

		if (!pab_suite_select(sel, name))
			continue;
		for (k = 0; k < e->n_rows; k++)
			if (!strcmp(e->rows[k].name, name))
				return pab_fail(f, PAB_FAIL_USAGE, "row '%s' comes both from the config "
						"and from --workloads: rename the config row or "
						"narrow the selection", name);
		pab_add_builtin_row(e, pab_suite_row(i));
	}
	if (e->n_rows == before)
		return pab_fail(f, PAB_FAIL_USAGE, "--workloads '%s' selects no row (see perfab "
				"workloads)%s", sel, sel[strspn(sel, "0123456789")] ? "" :
				"; -w is --workloads here: hyperfine's warmup runs are --warmup N");
	return 0;
}

/* --shard I/N: keep rows i with i % N == I - 1 (deterministic). */
static int apply_shard(struct pab_experiment *e, const char *spec, struct pab_failure *f)
{
	unsigned k, n;
	size_t i, kept = 0;

	if (pab_shard_parse(spec, &k, &n))
		return pab_fail(f, PAB_FAIL_USAGE, "--shard '%s': write I/N with 1 <= I <= N <= 1000",
				spec);
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
		return pab_fail(f, PAB_FAIL_USAGE, "--shard %s gets no rows: there are only %zu rows",
				spec, e->n_rows);
	while (e->n_rows > kept)
		pab_row_release(&e->rows[--e->n_rows], e->n_arms);
	e->settings.shard_index = k;
	e->settings.shard_count = n;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parameter scans                                                    */

/* One parameter of the scans: its name and values, in order. */
struct param {
	const char *name;     /* borrowed (argv) */
	struct pab_items values;
};

static int valid_param_name(const char *s)
{
	size_t i;

	if (!*s || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
		return 0;
	for (i = 1; s[i]; i++)
		if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return i <= 64;
}

/* The values MIN, MIN + S, ... up to MAX of --parameter-scan into par. */
static int scan_values(struct param *par, const char *min_s, const char *max_s, double step,
		       struct pab_failure *f)
{
	double lo, hi;
	size_t n, k;

	if (parse_double(min_s, -1e15, 1e15, &lo) || parse_double(max_s, -1e15, 1e15, &hi) ||
	    hi < lo)
		return pab_fail(f, PAB_FAIL_USAGE, "--parameter-scan %s %s %s: give numbers MIN <= "
				"MAX", par->name, min_s, max_s);
	n = (size_t)floor((hi - lo) / step + 1e-9) + 1;
	if (n > PAB_PARAM_MAX_VALUES)
		return pab_fail(f, PAB_FAIL_USAGE, "--parameter-scan %s %s %s: %zu values is more "
				"than %d (use a larger --parameter-step-size)", par->name, min_s,
				max_s, n, PAB_PARAM_MAX_VALUES);
	par->values.v = xcalloc(n, sizeof(char *));
	for (k = 0; k < n; k++)
		par->values.v[par->values.n++] = xasprintf("%.15g", lo + (double)k * step);
	return 0;
}

/* V1,V2,... of --parameter-list into par; no value may be empty. */
static int list_values(struct param *par, const char *list, struct pab_failure *f)
{
	const char *p = list, *comma;

	for (;; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma == p || !*p)
			return pab_fail(f, PAB_FAIL_USAGE, "--parameter-list %s '%s' has an empty "
					"value", par->name, list);
		par->values.v = xrealloc(par->values.v, (par->values.n + 1) * sizeof(char *));
		par->values.v[par->values.n++] = comma ? xstrndup(p, (size_t)(comma - p)) :
			xstrdup(p);
		if (!comma)
			return 0;
	}
}

/* 1 when some arm's command (past its program) or a hook mentions {name}. */
static int param_used(const struct pab_experiment *e, const struct pab_run_opts *o,
		      const char *name, struct pab_failure *f, int *bad)
{
	const char *hooks[3] = { o->prepare, o->setup, o->cleanup };
	size_t a, i;
	int used = 0;

	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];

		if (arm->argc && pab_argv_mentions(arm->argv[0], name)) {
			*bad = pab_fail(f, PAB_FAIL_USAGE, "arm '%s': {%s} in the program name: "
					"the program must be the same for every row (put the "
					"parameter in its arguments)", arm->name, name);
			return 0;
		}
		for (i = 1; i < arm->argc; i++)
			used |= pab_argv_mentions(arm->argv[i], name);
		used |= arm->prepare && pab_argv_mentions(arm->prepare, name);
	}
	for (i = 0; i < 3; i++)
		used |= hooks[i] && pab_argv_mentions(hooks[i], name);
	return used;
}

/* The parameters of --parameter-scan and --parameter-list, checked. */
static int parse_params(const struct pab_experiment *e, const struct pab_run_opts *o,
			struct param *pars, size_t n_pars, struct pab_failure *f)
{
	double step = o->param_step > 0 ? o->param_step : 1;
	size_t i, k, n_scans = o->param_scans.n / 3;
	int bad = 0;

	for (i = 0; i < n_pars; i++) {
		struct param *par = &pars[i];
		int ret;

		par->name = i < n_scans ? o->param_scans.v[3 * i] :
			o->param_lists.v[2 * (i - n_scans)];
		if (!valid_param_name(par->name))
			return pab_fail(f, PAB_FAIL_USAGE, "parameter name '%s': use letters, digits "
					"and '_' (not first a digit)", pab_term_safe(par->name));
		for (k = 0; k < i; k++)
			if (!strcmp(pars[k].name, par->name))
				return pab_fail(f, PAB_FAIL_USAGE, "parameter '%s' is given twice",
						par->name);
		ret = i < n_scans ? scan_values(par, o->param_scans.v[3 * i + 1],
						o->param_scans.v[3 * i + 2], step, f) :
			list_values(par, o->param_lists.v[2 * (i - n_scans) + 1], f);
		if (ret)
			return -1;
		if (!param_used(e, o, par->name, f, &bad))
			return bad ? -1 : pab_fail(f, PAB_FAIL_USAGE, "parameter '%s': no arm's "
						   "command mentions {%s}", par->name, par->name);
	}
	return 0;
}

/*
 * --parameter-scan and --parameter-list: one row per combination of the
 * parameters' values (the first parameter varying slowest), named
 * "NAME=V" ("A=1,B=x" for several), its params the values, which
 * measure.c puts in for {NAME} in the arms' commands.
 */
static int add_param_rows(struct pab_experiment *e, const struct pab_run_opts *o,
			  struct pab_failure *f)
{
	size_t n_pars = o->param_scans.n / 3 + o->param_lists.n / 2, total = 1, i, r;
	struct param *pars;
	int ret = -1;

	if (e->n_rows)
		return pab_fail(f, PAB_FAIL_USAGE, "parameter scans make the rows: give them "
				"without config rows or --workloads");
	pars = xcalloc(n_pars, sizeof(*pars));
	if (parse_params(e, o, pars, n_pars, f))
		goto out;
	for (i = 0; i < n_pars; i++) {
		total *= pars[i].values.n; /* each at most the cap: no overflow */
		if (total > PAB_PARAM_MAX_VALUES) {
			pab_fail(f, PAB_FAIL_USAGE, "the parameters make more than %d rows",
				 PAB_PARAM_MAX_VALUES);
			goto out;
		}
	}
	e->rows = xcalloc(total, sizeof(*e->rows));
	for (r = 0; r < total; r++) {
		struct pab_row *row = &e->rows[e->n_rows++];
		struct pab_strbuf name = PAB_STRBUF_INIT;
		size_t below = total;

		for (i = 0; i < n_pars; i++) {
			const char *v;

			below /= pars[i].values.n; /* rows per value of parameter i */
			v = pars[i].values.v[(r / below) % pars[i].values.n];
			pab_kv_set(&row->params, &row->n_params, pars[i].name, v);
			pab_strbuf_addf(&name, "%s%s=%s", i ? "," : "", pars[i].name, v);
		}
		row->name = pab_strbuf_detach(&name);
		row->argv = xcalloc(1, sizeof(char *));
	}
	ret = 0;
out:
	for (i = 0; i < n_pars; i++)
		pab_items_release(&pars[i].values);
	free(pars);
	return ret;
}

/*
 * The experiment's definition — arms (argv, env) and rows (program, argv,
 * params) — from --config, --arm (or CMD_BASE CMD_HEAD), --arms,
 * --head-env, --null-arm / --no-null-arm (the null arm is on by default),
 * --workloads and --shard into e, the config's settings into *cs; an argv
 * written for a shell is refused unless --literal-argv. A fresh run
 * continues from it; --resume checks the artifact against it.
 */
int pab_plan_define(struct pab_experiment *e, const struct pab_run_opts *o,
		    struct pab_config_settings *cs, struct pab_failure *f)
{
	const char *workloads;
	size_t i;
	char *why;

	memset(cs, 0, sizeof(*cs));
	cs->reps = cs->max_reps = cs->seed = cs->timeout_s = cs->scale = NAN;
	cs->budget_s = cs->count_reps = cs->guard_tolerance = NAN;
	cs->null_arm = -1;
	cs->ignore_failure = -1;
	if (o->null_arm && o->no_null_arm)
		return pab_fail(f, PAB_FAIL_USAGE, "--null-arm and --no-null-arm contradict each "
				"other: give one");
	if (o->config && pab_config_load(o->config, o->table, e, cs, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "%s", why);
		free(why);
		return -1;
	}
	if (pab_arms_define(e, o, cs, f))
		return -1;
	workloads = o->workloads ? o->workloads : cs->workloads;
	for (i = 0; i < e->n_arms; i++)
		if (!e->arms[i].argc && !(workloads || e->n_rows))
			return pab_fail(f, PAB_FAIL_USAGE, "arm '%s' has an empty command",
					e->arms[i].name);
	/* Rows: config rows, then built-in rows by --workloads, else one row. */
	if (workloads && (pab_check_list_items("--workloads", workloads, '|', 1, f) ||
			  add_workload_rows(e, workloads, f)))
		return -1;
	if ((o->param_scans.n || o->param_lists.n) && add_param_rows(e, o, f))
		return -1;
	if (!e->n_rows) {
		e->rows = xcalloc(1, sizeof(*e->rows));
		e->n_rows = 1;
		e->rows[0].name = xstrdup("command");
		e->rows[0].argv = xcalloc(1, sizeof(char *));
	}
	return o->shard ? apply_shard(e, o->shard, f) : 0;
}
