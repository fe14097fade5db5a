/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * plan.c — options, config and --resume into the experiment to run
 * (plan.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/suite.h"
#include "judge/ledger.h"
#include "model/argv_split.h"
#include "store/artifact.h"
#include "store/digest.h"
#include "model/rotation.h"
#include "store/run_settings.h"
#include "store/tempfile.h"
#include "pab_stats.h"
#include "store/calibration.h"
#include "probe/counters.h"
#include "probe/simcount.h"
#include "probe/hostinfo.h"
#include "run/measure.h"
#include "run/plan.h"
#include "run/runconf.h"
#include "util.h"

void pab_run_opts_init(struct pab_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = UINT64_MAX;
	o->timeout_s = -1;
	o->margin = -1;
}

static void plan_msg(struct pab_plan *p, enum pab_plan_msg_kind kind, const char *fmt, ...)
	PAB_PRINTF(3, 4);

/* Add text (taken) to what the command tells. */
static void plan_msg_take(struct pab_plan *p, enum pab_plan_msg_kind kind, char *text)
{
	p->msgs = xrealloc(p->msgs, (p->n_msgs + 1) * sizeof(*p->msgs));
	p->msgs[p->n_msgs].kind = kind;
	p->msgs[p->n_msgs].text = text;
	p->n_msgs++;
}

static void plan_msg(struct pab_plan *p, enum pab_plan_msg_kind kind, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	plan_msg_take(p, kind, text);
}

/* ------------------------------------------------------------------ */
/* Arms                                                               */

/* The names defined, "'a', 'b'", for a message (new string). */
static char *arm_names(const struct pab_experiment *e)
{
	struct pab_strbuf known = PAB_STRBUF_INIT;
	size_t i;

	for (i = 0; i < e->n_arms; i++)
		pab_strbuf_addf(&known, "%s'%s'", i ? ", " : "", e->arms[i].name);
	return known.buf ? pab_strbuf_detach(&known) : xstrdup("none");
}

/* A bad --arms list fails before anything is allocated or moved. */
static int check_arm_list(const struct pab_experiment *e, const char *list,
			  struct pab_failure *f)
{
	const char *p = list, *comma, *q;
	size_t i;

	for (;; p = comma + 1) {
		size_t len;

		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len)
			return pab_fail(f, PAB_FAIL_USAGE, "--arms '%s' has an empty name", list);
		for (i = 0; i < e->n_arms; i++)
			if (strlen(e->arms[i].name) == len && !strncmp(e->arms[i].name, p, len))
				break;
		if (i == e->n_arms) {
			char *known = arm_names(e);

			pab_fail(f, PAB_FAIL_USAGE, "unknown arm '%.*s' in --arms (defined: %s)",
				 (int)len, p, known);
			free(known);
			return -1;
		}
		for (q = list; q < p; q++)
			if ((q == list || q[-1] == ',') && !strncmp(q, p, len) &&
			    (q[len] == ',' || !q[len]))
				return pab_fail(f, PAB_FAIL_USAGE, "arm '%.*s' is listed twice in --arms",
						(int)len, p);
		if (!comma)
			break;
	}
	return 0;
}

/* --arms A,B: keep those arms, in that order. */
static int select_arms(struct pab_experiment *e, const char *list, struct pab_failure *f)
{
	struct pab_arm *picked;
	size_t n = 0, i;
	char *copy, *p, *comma;

	if (check_arm_list(e, list, f))
		return -1;
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
	return 0;
}

/* A copy of arm src's command, environment and revision, named name. */
static void arm_clone(struct pab_arm *dst, const struct pab_arm *src, char *name)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	dst->name = name;
	dst->argv = pab_argv_dup(src->argv, src->argc);
	dst->argc = src->argc;
	for (i = 0; i < src->n_env; i++)
		pab_kv_set(&dst->env, &dst->n_env, src->env[i].key, src->env[i].value);
	if (src->revision)
		dst->revision = xstrdup(src->revision);
	if (src->prepare)
		dst->prepare = xstrdup(src->prepare);
}

static int add_null_arm(struct pab_experiment *e, struct pab_failure *f)
{
	int b = pab_ledger_base_arm(e);

	if (pab_experiment_null_index(e) >= 0)
		return pab_fail(f, PAB_FAIL_USAGE, "--null-arm: an arm is already called 'null'");
	e->arms = xrealloc(e->arms, (e->n_arms + 1) * sizeof(*e->arms));
	arm_clone(&e->arms[e->n_arms], &e->arms[b], xstrdup("null"));
	e->n_arms++;
	return 0;
}

/* "K=V K2=V2" into kv; every word must be K=V with a valid K. */
static int parse_env_item(const char *item, struct pab_kv **kv, size_t *n,
			  struct pab_failure *f)
{
	char **words;
	size_t nw, i;
	const char *why;
	int ret = 0;

	if (pab_argv_split(item, &words, &nw, &why))
		return pab_fail(f, PAB_FAIL_USAGE, "--head-env: empty variant in '%s': every item "
				"between '||' needs at least one K=V", item);
	for (i = 0; i < nw && !ret; i++) {
		char *eq = strchr(words[i], '='), *key;

		if (!eq || eq == words[i]) {
			ret = pab_fail(f, PAB_FAIL_USAGE, "--head-env: '%s' is not K=V", words[i]);
			break;
		}
		key = xstrndup(words[i], (size_t)(eq - words[i]));
		pab_kv_set(kv, n, key, eq + 1);
		free(key);
	}
	pab_argv_free(words);
	return ret;
}

/* A list of strings and its length. */
struct items {
	char **v;
	size_t n;
};

static void items_release(struct items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++)
		free(it->v[i]);
	free(it->v);
	it->v = NULL;
	it->n = 0;
}

/* Split "a || b || c" into items; an empty item is an error. */
static int split_variants(const char *list, struct items *out, struct pab_failure *f)
{
	const char *p = list;

	for (;;) {
		const char *bar = strstr(p, "||");
		size_t len = bar ? (size_t)(bar - p) : strlen(p), k = 0;

		while (k < len && (p[k] == ' ' || p[k] == '\t'))
			k++;
		if (k == len) {
			items_release(out);
			return pab_fail(f, PAB_FAIL_USAGE, "--head-env '%s' has an empty variant",
					list);
		}
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = xstrndup(p, len);
		if (!bar)
			break;
		p = bar + 2;
	}
	return 0;
}

/* Every --head-env list split; the number of variants into *n_var. */
static int split_head_env(const struct pab_strlist *lists, struct items *items,
			  size_t *n_var, struct pab_failure *f)
{
	size_t l;

	*n_var = 1;
	for (l = 0; l < lists->n; l++) {
		if (split_variants(lists->v[l], &items[l], f))
			return -1;
		if (items[l].n > 1) {
			if (*n_var > 1 && items[l].n != *n_var)
				return pab_fail(f, PAB_FAIL_USAGE, "--head-env lists have %zu and %zu "
						"variants: they must match (or have one item)",
						*n_var, items[l].n);
			*n_var = items[l].n;
		}
	}
	if (*n_var > 99)
		return pab_fail(f, PAB_FAIL_USAGE, "--head-env: %zu variants is more than 99", *n_var);
	return 0;
}

/* Arms hd01.. after head h: copies of it, n_var - 1 of them. */
static int insert_head_variants(struct pab_experiment *e, int h, size_t n_var,
				struct pab_failure *f)
{
	struct pab_arm *arms;
	size_t v, i;

	for (v = 1; v < n_var; v++) {
		char name[24];

		snprintf(name, sizeof(name), "hd%02zu", v);
		if (pab_experiment_arm_index(e, name) >= 0)
			return pab_fail(f, PAB_FAIL_USAGE, "--head-env: an arm is already called '%s'",
					name);
	}
	/* New arm list: everything up to head, head and its variants, the rest. */
	arms = xcalloc(e->n_arms + n_var - 1, sizeof(*arms));
	for (i = 0; i <= (size_t)h; i++)
		arms[i] = e->arms[i];
	for (v = 1; v < n_var; v++)
		arm_clone(&arms[h + v], &e->arms[h], xasprintf("hd%02zu", v));
	for (i = (size_t)h + 1; i < e->n_arms; i++)
		arms[i + n_var - 1] = e->arms[i];
	free(e->arms);
	e->arms = arms;
	e->n_arms += n_var - 1;
	return 0;
}

/*
 * --head-env lists: variant v of the head arm gets item v of every list
 * (a one-item list applies to all). Arms: head, hd01, hd02, ... — four
 * characters like base/head/null, so argv and env lengths stay equal.
 */
static int add_head_variants(struct pab_experiment *e, const struct pab_strlist *lists,
			     struct pab_failure *f)
{
	int h = pab_experiment_arm_index(e, "head");
	struct items *items;
	size_t n_var, l, v;
	int ret = -1;

	if (h < 0)
		return pab_fail(f, PAB_FAIL_USAGE, "--head-env needs an arm called 'head' to vary");
	items = xcalloc(lists->n, sizeof(*items));
	if (split_head_env(lists, items, &n_var, f) || insert_head_variants(e, h, n_var, f))
		goto out;
	for (v = 0; v < n_var; v++)
		for (l = 0; l < lists->n; l++)
			if (parse_env_item(items[l].v[items[l].n > 1 ? v : 0],
					   &e->arms[h + v].env, &e->arms[h + v].n_env, f))
				goto out;
	ret = 0;
out:
	for (l = 0; l < lists->n; l++)
		items_release(&items[l]);
	free(items);
	return ret;
}

/*
 * Refuse an arm whose argv was plainly written for a shell (a pipe, a
 * redirection, NAME=value in front, $VAR, ~): without a shell those words
 * reach the program as arguments, and it measures the wrong thing.
 */
static int check_shell_syntax(const struct pab_experiment *e, struct pab_failure *f)
{
	size_t a;

	for (a = 0; a < e->n_arms; a++) {
		const struct pab_arm *arm = &e->arms[a];
		const char *hint;
		long at = pab_argv_shell_syntax(arm->argv, arm->argc, &hint);

		if (at >= 0)
			return pab_fail(f, PAB_FAIL_USAGE, "arm '%s': '%s' is shell syntax, but perfab "
					"runs the command without a shell, so the program would get it "
					"as an argument; %s (or pass --literal-argv if the program "
					"really takes '%s')", arm->name, pab_term_safe(arm->argv[at]),
					hint, pab_term_safe(arm->argv[at]));
	}
	return 0;
}

/* Arms from --config and --arm, then --arms, --head-env and the null arm. */
static int define_arms(struct pab_experiment *e, const struct pab_run_opts *o,
		       const struct pab_config_settings *cs, struct pab_failure *f)
{
	size_t i;
	char *why;

	for (i = 0; i < o->arm_specs.n; i++)
		if (pab_arm_from_spec(e, o->arm_specs.v[i], &why)) {
			pab_fail(f, PAB_FAIL_USAGE, "%s", why);
			free(why);
			return -1;
		}
	if (!e->n_arms)
		return pab_fail(f, PAB_FAIL_USAGE, "no arms: give two commands (perfab run CMD_BASE "
				"CMD_HEAD), --arm NAME=COMMAND twice or more, or --config FILE");
	if ((!o->literal_argv && check_shell_syntax(e, f)) ||
	    (o->arms && select_arms(e, o->arms, f)) ||
	    (o->head_env.n && add_head_variants(e, &o->head_env, f)))
		return -1;
	if (e->n_arms < 2 && !o->null_arm)
		return pab_fail(f, PAB_FAIL_USAGE, "one arm ('%s') is nothing to compare: add a head "
				"arm (or --null-arm for base against itself)", e->arms[0].name);
	/* The null arm is on by default; an arm already called null is one,
	 * so without the null arm that name would be judged as noise. */
	if ((o->no_null_arm || cs->null_arm == 0) && pab_experiment_null_index(e) >= 0)
		return pab_fail(f, PAB_FAIL_USAGE, "arm 'null': the name is reserved for the null "
				"arm (the base run again), which is off here; rename the arm, or "
				"drop --no-null-arm (\"null_arm\": false) to make it the null arm");
	if ((o->null_arm ||
	     (!o->no_null_arm && cs->null_arm != 0 && pab_experiment_null_index(e) < 0)) &&
	    add_null_arm(e, f))
		return -1;
	if (e->n_arms < 2)
		return pab_fail(f, PAB_FAIL_USAGE, "one arm ('%s') is nothing to compare: add a "
				"head arm", e->arms[0].name);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Rows                                                               */

/*
 * A list option's items, split at sep (blanks around an item trimmed when
 * trim): 0 when none is empty and none comes twice, else -1 and the
 * reason in f, naming the option what and the list.
 */
static int check_list_items(const char *what, const char *list, char sep, int trim,
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
				"workloads)", sel);
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
	struct items values;
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
		items_release(&pars[i].values);
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
static int define_experiment(struct pab_experiment *e, const struct pab_run_opts *o,
			     struct pab_config_settings *cs, struct pab_failure *f)
{
	const char *workloads;
	size_t i;
	char *why;

	memset(cs, 0, sizeof(*cs));
	cs->reps = cs->max_reps = cs->seed = cs->timeout_s = cs->scale = NAN;
	cs->budget_s = cs->count_reps = NAN;
	cs->null_arm = -1;
	if (o->null_arm && o->no_null_arm)
		return pab_fail(f, PAB_FAIL_USAGE, "--null-arm and --no-null-arm contradict each "
				"other: give one");
	if (o->config && pab_config_load(o->config, o->table, e, cs, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "%s", why);
		free(why);
		return -1;
	}
	if (define_arms(e, o, cs, f))
		return -1;
	workloads = o->workloads ? o->workloads : cs->workloads;
	for (i = 0; i < e->n_arms; i++)
		if (!e->arms[i].argc && !(workloads || e->n_rows))
			return pab_fail(f, PAB_FAIL_USAGE, "arm '%s' has an empty command",
					e->arms[i].name);
	/* Rows: config rows, then built-in rows by --workloads, else one row. */
	if (workloads && (check_list_items("--workloads", workloads, '|', 1, f) ||
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

/* ------------------------------------------------------------------ */
/* Executables                                                        */

/*
 * The files a plan digests, each once: a program shared by rows, or an
 * LD_PRELOAD library of every arm, is read once per plan.
 */
struct digest_cache {
	struct cached {
		char *path;
		char *sha256;
		struct pab_file_id id;
	} *v;
	size_t n, alloc;
};

/* path's digest and identity (owned by c), or NULL with errno set. */
static const struct cached *digest_of(struct digest_cache *c, const char *path)
{
	struct cached *x;
	size_t i;
	char *sha;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].path, path))
			return &c->v[i];
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	x = &c->v[c->n];
	sha = pab_sha256_file_id(path, &x->id);
	if (!sha)
		return NULL;
	x->path = xstrdup(path);
	x->sha256 = sha;
	c->n++;
	return x;
}

static void digest_cache_release(struct digest_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].sha256);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* The executable arm runs for row, its digest and identity, or -1 with f filled. */
static int exe_and_digest(const struct pab_arm *arm, const struct pab_row *row,
			  const char *fail_prefix, struct digest_cache *c, char **exe,
			  char **sha, struct pab_file_id *id, struct pab_failure *f)
{
	const struct cached *d;
	char *why;

	*sha = NULL;
	*exe = pab_arm_exe(arm, row, &why);
	if (!*exe) {
		pab_fail(f, PAB_FAIL_USAGE, "%s%s", fail_prefix, why);
		free(why);
		return -1;
	}
	d = digest_of(c, *exe);
	if (!d) {
		pab_fail_errno(f, "cannot read '%s' to digest it", *exe);
		free(*exe);
		*exe = NULL;
		return -1;
	}
	*sha = xstrdup(d->sha256);
	if (id)
		*id = d->id;
	return 0;
}

/* A regular file at path (followed)? */
static int is_regular_file(const char *path)
{
	struct stat st;

	return *path && !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Add path (role) to *v unless there; digested through c. 0 or -1 with f. */
static int add_input(struct pab_input_file **v, size_t *n, size_t *alloc, const char *path,
		     const char *role, const struct pab_arm *arm, struct digest_cache *c,
		     struct pab_failure *f)
{
	const struct cached *d;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].path, path) && !strcmp((*v)[i].role, role))
			return 0;
	d = digest_of(c, path);
	if (!d)
		return pab_fail_errno(f, "cannot read '%s' (%s of arm '%s') to digest it",
				      pab_term_safe(path), role, pab_term_safe(arm->name));
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[*n].path = xstrdup(path);
	(*v)[*n].role = xstrdup(role);
	(*v)[*n].sha256 = xstrdup(d->sha256);
	(*v)[*n].id = d->id;
	(*n)++;
	return 0;
}

/* The LD_PRELOAD arm's children get: the arm's own, else perfab's. */
static const char *arm_preload(const struct pab_arm *arm)
{
	size_t k;

	for (k = 0; k < arm->n_env; k++)
		if (!strcmp(arm->env[k].key, "LD_PRELOAD"))
			return arm->env[k].value;
	return getenv("LD_PRELOAD");
}

/*
 * The files arm's run of row reads besides its program exe: every word of
 * its command line after the program that names a regular file, every
 * LD_PRELOAD entry that does (a path; a bare name the loader looks up is
 * not checked), and the interpreter of a "#!" program. Into *v, *n (new
 * array), digested; 0, or -1 with f filled.
 */
static int collect_inputs(const struct pab_arm *arm, const struct pab_row *row,
			  const char *exe, struct digest_cache *c,
			  struct pab_input_file **v, size_t *n, struct pab_failure *f)
{
	const char *preload = arm_preload(arm);
	size_t alloc = 0, i;
	char *interp = pab_script_interpreter(exe);
	int ret = 0;

	*v = NULL;
	*n = 0;
	for (i = 1; !ret && i < arm->argc; i++)
		if (is_regular_file(arm->argv[i]))
			ret = add_input(v, n, &alloc, arm->argv[i], "argument", arm, c, f);
	for (i = 0; !ret && i < row->argc; i++)
		if (is_regular_file(row->argv[i]))
			ret = add_input(v, n, &alloc, row->argv[i], "argument", arm, c, f);
	while (!ret && preload && *preload) {
		size_t len = strcspn(preload, ": \t");
		char *lib = xstrndup(preload, len);

		if (strchr(lib, '/') && is_regular_file(lib))
			ret = add_input(v, n, &alloc, lib, "LD_PRELOAD", arm, c, f);
		free(lib);
		preload += len;
		preload += strspn(preload, ": \t");
	}
	if (!ret && interp && is_regular_file(interp))
		ret = add_input(v, n, &alloc, interp, "interpreter", arm, c, f);
	free(interp);
	if (ret) {
		pab_input_files_free(*v, *n);
		*v = NULL;
		*n = 0;
	}
	return ret;
}

/* Room in row for per-arm executables, inputs and identities. */
static void row_alloc_files(struct pab_row *row, size_t n_arms)
{
	if (!row->exes)
		row->exes = xcalloc(n_arms, sizeof(*row->exes));
	if (!row->exe_sha256)
		row->exe_sha256 = xcalloc(n_arms, sizeof(*row->exe_sha256));
	if (!row->inputs) {
		row->inputs = xcalloc(n_arms, sizeof(*row->inputs));
		row->n_inputs = xcalloc(n_arms, sizeof(*row->n_inputs));
	}
	if (!row->exe_id)
		row->exe_id = xcalloc(n_arms, sizeof(*row->exe_id));
}

/*
 * Resolve and digest every executable of every (row, arm): arm->exe and
 * arm->sha256 are row 0's (the artifact's arms[].exe and sha256), each
 * row's own go to row->exes and row->exe_sha256 (rows[].executables), so
 * --resume can verify every program it runs, not only the first row's;
 * and every file each (row, arm) reads besides (collect_inputs) to
 * row->inputs. What was digested is what runs: measure.c checks each
 * file's identity before each exec.
 */
static int resolve_arms(struct pab_plan *p, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct digest_cache c = { 0 };
	size_t a, ri, len0 = 0;
	int ret = -1;

	for (a = 0; a < e->n_arms; a++) {
		struct pab_arm *arm = &e->arms[a];

		if (exe_and_digest(arm, &e->rows[0], "", &c, &arm->exe, &arm->sha256, NULL, f))
			goto out;
		if (!a)
			len0 = strlen(arm->exe);
		else if (strlen(arm->exe) != len0)
			plan_msg(p, PAB_PLAN_WARNING, "arm executables have paths of different lengths "
				 "('%s' vs '%s'): identical binaries have measured 17%% apart for that "
				 "alone; use paths of equal length", e->arms[0].exe, arm->exe);
	}
	for (ri = 0; ri < e->n_rows; ri++) {
		struct pab_row *row = &e->rows[ri];

		row_alloc_files(row, e->n_arms);
		for (a = 0; a < e->n_arms; a++) {
			struct pab_arm *arm = &e->arms[a];

			if (!ri || arm->argc) { /* the arm's own executable */
				row->exes[a] = xstrdup(arm->exe);
				row->exe_sha256[a] = xstrdup(arm->sha256);
				row->exe_id[a] = digest_of(&c, arm->exe)->id; /* cached */
			} else if (exe_and_digest(arm, row, "", &c, &row->exes[a],
						  &row->exe_sha256[a], &row->exe_id[a], f)) {
				goto out;
			}
			if (collect_inputs(arm, row, row->exes[a], &c, &row->inputs[a],
					   &row->n_inputs[a], f))
				goto out;
		}
	}
	ret = 0;
out:
	digest_cache_release(&c);
	return ret;
}

/* --preserve-builds DIR: copy each arm's executable, digest-checked. */
static int preserve_builds(struct pab_experiment *e, const char *dir, struct pab_failure *f)
{
	size_t a;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return pab_fail_errno(f, "cannot create --preserve-builds directory '%s'", dir);
	for (a = 0; a < e->n_arms; a++) {
		struct pab_arm *arm = &e->arms[a];
		const char *base = strrchr(arm->exe, '/');
		char *sub = xasprintf("%s/%s", dir, arm->name), *dst = NULL, *sum = NULL;
		int ret = 0;

		if (mkdir(sub, 0755) && errno != EEXIST) {
			ret = pab_fail_errno(f, "cannot create '%s'", sub);
			goto next;
		}
		dst = xasprintf("%s/%s", sub, base ? base + 1 : arm->exe);
		sum = pab_copy_file(arm->exe, dst);
		if (!sum)
			ret = pab_fail_errno(f, "cannot copy '%s' to '%s'", arm->exe, dst);
		else if (strcmp(sum, arm->sha256))
			ret = pab_fail(f, PAB_FAIL_SYSTEM, "'%s' changed while it was being copied "
				       "(sha256 %s, then %s)", arm->exe, arm->sha256, sum);
		if (!ret) {
			free(arm->preserved);
			arm->preserved = dst;
			dst = NULL;
		}
next:
		free(dst);
		free(sum);
		free(sub);
		if (ret)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* A fresh run                                                        */

static uint64_t random_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = (uint64_t)now_monotonic_ns() ^ ((uint64_t)getpid() << 32);
	return s & ((1ULL << 53) - 1);
}

/* Control rows, tolerances, rules and the equivalence margin. */
static int apply_verdict_options(struct pab_experiment *e, const struct pab_run_opts *o,
				 const struct pab_config_settings *cs, struct pab_failure *f)
{
	const char *controls = o->controls ? o->controls : cs->controls;
	size_t i;
	char *why;

	if (controls)
		for (i = 0; i < e->n_rows; i++)
			if (pab_suite_select(controls, e->rows[i].name))
				e->rows[i].control = 1;
	for (i = 0; i < o->tolerances.n; i++)
		if (pab_parse_tolerance(e, o->tolerances.v[i], &why)) {
			pab_fail(f, PAB_FAIL_USAGE, "%s", why);
			free(why);
			return -1;
		}
	if (o->rules) {
		enum pab_rules rr;

		if (pab_rules_parse(o->rules, &rr))
			return pab_fail(f, PAB_FAIL_USAGE, "--rules '%s': use perfab/2, perfab/1 or "
					"rule12", o->rules);
		e->rules = rr;
	}
	if (o->margin >= 0)
		e->equivalence_margin = o->margin;
	return 0;
}

/* Reps (first look), max reps (the cap) and the looks: CLI over config
 * over defaults, in whole blocks. */
static int plan_reps(struct pab_plan *p, const struct pab_run_opts *o,
		     const struct pab_config_settings *cs, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	uint64_t reps = o->reps, max_reps = o->max_reps;

	if (!reps)
		reps = isfinite(cs->reps) ? (uint64_t)cs->reps : PAB_DEFAULT_FIRST_LOOK;
	if (!max_reps)
		max_reps = isfinite(cs->max_reps) ? (uint64_t)cs->max_reps :
			reps > PAB_DEFAULT_MAX_REPS ? reps : PAB_DEFAULT_MAX_REPS;
	if (max_reps < reps)
		return pab_fail(f, PAB_FAIL_USAGE, "--max-reps %llu is below --reps %llu",
				(unsigned long long)max_reps, (unsigned long long)reps);
	e->reps = pab_rotation_round_up(e->n_arms, reps);
	e->max_reps = pab_rotation_round_up(e->n_arms, max_reps);
	if (e->reps != reps)
		plan_msg(p, PAB_PLAN_NOTE, "--reps %llu rounded up to %zu: complete blocks of %zu arms",
			 (unsigned long long)reps, e->reps, e->n_arms);
	e->settings.n_looks = pab_looks_plan(e->reps, e->max_reps, e->n_arms, e->settings.looks,
					     PAB_MAX_LOOKS);
	return 0;
}

/* A command line of --prepare, --setup, --cleanup or an arm's prepare
 * (what names it): it must split. */
static int check_hook(const char *what, const char *cmd, struct pab_failure *f)
{
	const char *why;
	char **argv;
	size_t argc;

	if (pab_argv_split(cmd, &argv, &argc, &why))
		return pab_fail(f, PAB_FAIL_USAGE, "%s '%s': %s (the command is split into "
				"words, never given to a shell: write sh -c '...' for one)",
				what, pab_term_safe(cmd), why);
	pab_argv_free(argv);
	return 0;
}

/* --warmup, the hooks, --input and --output into the settings; the
 * arms' own prepare commands checked too. */
static int plan_hooks(struct pab_experiment *e, const struct pab_run_opts *o,
		      struct pab_failure *f)
{
	struct pab_run_settings *s = &e->settings;
	size_t a;

	for (a = 0; a < e->n_arms; a++) {
		char *what = xasprintf("arm '%s': prepare", e->arms[a].name);
		int bad = e->arms[a].prepare && check_hook(what, e->arms[a].prepare, f);

		free(what);
		if (bad)
			return -1;
	}
	if ((o->prepare && check_hook("--prepare", o->prepare, f)) ||
	    (o->setup && check_hook("--setup", o->setup, f)) ||
	    (o->cleanup && check_hook("--cleanup", o->cleanup, f)))
		return -1;
	if (o->input && access(o->input, R_OK))
		return pab_fail(f, PAB_FAIL_USAGE, "--input '%s': cannot read it: %s",
				pab_term_safe(o->input), strerror(errno));
	if (o->output && !*o->output)
		return pab_fail(f, PAB_FAIL_USAGE, "--output: give null, inherit or a file");
	if (o->show_output && o->output && strcmp(o->output, "null"))
		return pab_fail(f, PAB_FAIL_USAGE, "--show-output shows the children's output "
				"on stderr: do not also give --output %s", pab_term_safe(o->output));
	s->warmup = o->warmup;
	s->prepare = o->prepare ? xstrdup(o->prepare) : NULL;
	s->setup = o->setup ? xstrdup(o->setup) : NULL;
	s->cleanup = o->cleanup ? xstrdup(o->cleanup) : NULL;
	s->input = o->input ? xstrdup(o->input) : NULL;
	s->output = o->output && strcmp(o->output, "null") ? xstrdup(o->output) : NULL;
	return 0;
}

/*
 * --counts: the mode (CLI over config over $PERFAB_COUNTS over auto) and
 * the source it resolves to on this machine; --count-reps (default one
 * block, at least 2). auto falls back to off with a note; pmu without a
 * PMU and sim without valgrind are usage errors.
 */
static int plan_counts(struct pab_plan *p, const struct pab_run_opts *o,
		       const struct pab_config_settings *cs, struct pab_failure *f)
{
	struct pab_run_settings *s = &p->e.settings;
	const char *env = getenv("PERFAB_COUNTS");
	const char *mode = o->counts ? o->counts : cs->counts ? cs->counts :
		env && *env ? env : "auto";
	const char *pmu_why = NULL;
	char *tool, *sim_why = NULL;
	int pmu;

	if (pab_counts_mode_parse(mode, &s->counts_mode))
		return pab_fail(f, PAB_FAIL_USAGE, "--counts '%s'%s: use auto, pmu, sim or off",
				mode, o->counts || cs->counts ? "" : " (from PERFAB_COUNTS)");
	s->count_source = PAB_COUNT_NONE;
	if (s->counts_mode == PAB_COUNTS_OFF)
		return 0;
	pmu = s->counts_mode == PAB_COUNTS_SIM ? 0 : pab_counters_pmu_probe(&pmu_why) == 1;
	if (pmu) {
		s->count_source = PAB_COUNT_PMU;
		return 0;
	}
	if (s->counts_mode == PAB_COUNTS_PMU)
		return pab_fail(f, PAB_FAIL_USAGE, "--counts pmu: this machine counts no "
				"hardware events (%s): use --counts sim (valgrind) or auto",
				pmu_why ? pmu_why : "no PMU");
	tool = pab_simcount_tool(&sim_why);
	if (tool) {
		s->count_source = PAB_COUNT_SIM;
		s->count_reps = o->count_reps ? o->count_reps : isfinite(cs->count_reps) ?
			(size_t)cs->count_reps : p->e.n_arms > 2 ? p->e.n_arms : 2;
	} else if (s->counts_mode == PAB_COUNTS_SIM) {
		pab_fail(f, PAB_FAIL_USAGE, "--counts sim: %s", sim_why);
	} else {
		plan_msg(p, PAB_PLAN_NOTE, "exact counts are off: no PMU (%s) and %s",
			 pmu_why ? pmu_why : "no hardware counters", sim_why);
	}
	free(tool);
	free(sim_why);
	return s->count_source == PAB_COUNT_NONE && s->counts_mode == PAB_COUNTS_SIM ? -1 : 0;
}

/* The run settings a fresh run records: CLI over config over defaults. */
static int plan_settings(struct pab_plan *p, const struct pab_run_opts *o,
			 const struct pab_config_settings *cs, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct pab_run_settings *s = &e->settings;

	s->sample_interval_ms = o->interval_ms > 0 ? o->interval_ms : PAB_RUN_INTERVAL_DEFAULT_MS;
	s->timeout_s = o->timeout_s >= 0 ? o->timeout_s :
		isfinite(cs->timeout_s) ? cs->timeout_s : PAB_RUN_TIMEOUT_DEFAULT_S;
	s->scale = o->scale > 0 ? o->scale : isfinite(cs->scale) ? cs->scale : 1.0;
	s->max_procs = o->max_procs ? o->max_procs : PAB_RUN_MAX_PROCS_DEFAULT;
	s->cgroup = !o->no_cgroup;
	s->sanity_gate = !o->no_sanity;
	s->counters = o->counters ? xstrdup(o->counters) : NULL;
	s->cpus = o->cpus ? xstrdup(o->cpus) : NULL;
	if (plan_hooks(e, o, f))
		return -1;
	if (o->budget) {
		if (pab_parse_duration(o->budget, &s->budget_s))
			return pab_fail(f, PAB_FAIL_USAGE, "--budget '%s': give seconds or a duration "
					"such as 90s, 10m or 1h (more than 0, at most a week)",
					o->budget);
	} else {
		s->budget_s = isfinite(cs->budget_s) ? cs->budget_s : PAB_DEFAULT_BUDGET_S;
	}
	s->given = PAB_RUN_AT_START;
	return plan_counts(p, o, cs, f);
}

/*
 * What the ledger needs to judge the run as it was planned, in the
 * artifact's "run" object: the judged metrics (--metrics, the config's,
 * else the default set) and the tolerance floors.
 */
static int record_judged(struct pab_experiment *e, const struct pab_run_opts *o,
			 const struct pab_config_settings *cs, struct pab_failure *f)
{
	const char *list = o->metrics ? o->metrics : cs->metrics;
	const char *require = o->require ? o->require : cs->require;
	int judged[PAB_M_COUNT], required[PAB_M_COUNT];
	cJSON *arr, *floors;
	char *why = NULL;
	size_t i;

	if (list && pab_parse_metrics(list, judged, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--metrics: %s", why ? why : "give at least one metric");
		free(why);
		return -1;
	}
	if (require && pab_parse_metrics(require, required, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--require: %s", why ? why : "give at least one metric");
		free(why);
		return -1;
	}
	for (i = 0; !list && i < PAB_M_COUNT; i++)
		judged[i] = pab_metrics[i].judged;
	/* A required cell is judged: --require names cells of the verdict. */
	for (i = 0; require && i < PAB_M_COUNT; i++)
		judged[i] |= required[i];
	/* Exact counts made are judged (pab_counts_default_require). */
	if (!list && e->settings.count_source != PAB_COUNT_NONE)
		judged[PAB_M_INSTRUCTIONS] = 1;
	arr = cJSON_AddArrayToObject(e->run, "metrics");
	for (i = 0; i < PAB_M_COUNT; i++)
		if (judged[i])
			cJSON_AddItemToArray(arr, cJSON_CreateString(pab_metrics[i].name));
	cJSON_AddBoolToObject(e->run, "metrics_given", list != NULL);
	if (require) {
		arr = cJSON_AddArrayToObject(e->run, "require");
		for (i = 0; i < PAB_M_COUNT; i++)
			if (required[i])
				cJSON_AddItemToArray(arr, cJSON_CreateString(pab_metrics[i].name));
	}
	floors = cJSON_AddObjectToObject(e->run, "floors");
	cJSON_AddNumberToObject(floors, "bytes", PAB_FLOOR_BYTES);
	cJSON_AddNumberToObject(floors, "count", PAB_FLOOR_COUNT);
	return 0;
}

/*
 * --calibration FILE: per metric the larger of the declared tolerance and
 * the file's; refused when the file was measured on another CPU model.
 */
static int apply_calibration(struct pab_experiment *e, const char *path,
			     struct pab_failure *f)
{
	struct pab_run_settings *s = &e->settings;
	const char *here = pab_host_cpu_model(e->host);
	double tol[PAB_M_COUNT];
	char *cpu, *sha, *why;
	size_t m;

	if (pab_calibration_load(path, tol, &cpu, &sha, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--calibration: %s", why);
		free(why);
		return -1;
	}
	if (!here || strcmp(cpu, here)) {
		pab_fail(f, PAB_FAIL_USAGE, "--calibration '%s' was measured on '%s', this machine "
			 "is '%s': its tolerances do not hold here (run perfab calibrate on this "
			 "machine)", path, pab_term_safe(cpu), here ? here : "an unknown CPU model");
		free(cpu);
		free(sha);
		return -1;
	}
	for (m = 0; m < PAB_M_COUNT; m++) {
		if (!isfinite(tol[m]))
			continue;
		s->calibration_tol[m] = tol[m];
		if (tol[m] > e->tolerance[m])
			e->tolerance[m] = tol[m];
	}
	s->calibration_file = xstrdup(path);
	s->calibration_sha256 = sha;
	s->calibration_cpu = cpu;
	s->given |= PAB_RUN_CALIBRATION;
	return 0;
}

/* Build a fresh experiment from config and options. */
static int plan_fresh(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct pab_config_settings cs;
	int ret = -1;

	p->out = o->out ? o->out : PAB_DEFAULT_OUT;
	e->run = cJSON_CreateObject();
	if (define_experiment(e, o, &cs, f) || apply_verdict_options(e, o, &cs, f) ||
	    plan_reps(p, o, &cs, f))
		goto out;
	e->seed = o->seed != UINT64_MAX ? o->seed :
		isfinite(cs.seed) ? (uint64_t)cs.seed : random_seed();
	if (plan_settings(p, o, &cs, f) || record_judged(e, o, &cs, f))
		goto out;
	if (e->rules == PAB_RULES_RULE12 && pab_experiment_null_index(e) < 0)
		plan_msg(p, PAB_PLAN_WARNING, "rule12 without a null arm judges against a noise of "
			 "0: on a 24-cell run its familywise false-FAIL rate measured 21-39%% (keep "
			 "the null arm, or use perfab/2)");
	if (resolve_arms(p, f) || (o->preserve && preserve_builds(e, o->preserve, f)))
		goto out;
	e->host = pab_host_fingerprint();
	cJSON_AddItemToObject(e->host, "checklist", pab_host_warnings(e->host));
	if (o->calibration && apply_calibration(e, o->calibration, f))
		goto out;
	ret = 0;
out:
	pab_config_settings_release(&cs);
	return ret;
}

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
	struct digest_cache c = { 0 };
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

			if (exe_and_digest(arm, row, "cannot resume: ", &c, &exe, &now, &id, f))
				goto out;
			if (check_digest(path, arm, row, exe, now, want, f) ||
			    collect_inputs(arm, row, exe, &c, &now_in, &n_in, f)) {
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
			row_alloc_files(row, e->n_arms);
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
	digest_cache_release(&c);
	return ret;
}

/* --resume takes the run's own settings: an option that would set one is refused. */
static int check_resume_options(const struct pab_run_opts *o, struct pab_failure *f)
{
	if (o->reps || o->max_reps || o->seed != UINT64_MAX || o->tolerances.n || o->rules ||
	    o->controls || o->preserve || o->scale > 0 || o->out || o->margin >= 0 ||
	    o->no_sanity || o->max_procs || o->interval_ms > 0 || o->counters || o->no_cgroup ||
	    o->budget || o->metrics || o->require || o->warmup || o->input || o->output ||
	    o->counts || o->count_reps || o->calibration)
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
		plan_msg(p, PAB_PLAN_NOTE, "'%s.journal': dropped its torn last record (%zu bytes, "
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
	ret = define_experiment(&given, o, &cs, f);
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
static int plan_resume(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f)
{
	int defined = o->config || o->arm_specs.n || o->arms || o->null_arm ||
		o->no_null_arm || o->workloads || o->head_env.n || o->shard ||
		o->param_scans.n || o->param_lists.n;

	if (check_resume_options(o, f) || load_resumable(p, o, f))
		return -1;
	plan_msg_take(p, PAB_PLAN_TEXT, resume_listing(&p->e, o->resume));
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
		plan_msg(p, PAB_PLAN_NOTE, "resuming '%s': %zu arms, %zu rows, seed %llu", o->resume,
			 p->e.n_arms, p->e.n_rows, (unsigned long long)p->e.seed);
	return 0;
}

/* ------------------------------------------------------------------ */

/* --counters a,b,c: checked up front; only metrics perfab records. */
static int parse_counters(struct pab_plan *p, const char *list, struct pab_failure *f)
{
	char *copy, *s, *comma, *why;
	size_t i;

	if (check_list_items("--counters", list, ',', 0, f))
		return -1;
	copy = xstrdup(list);
	s = copy;
	for (;; s = comma + 1) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (!*s) {
			free(copy);
			return pab_fail(f, PAB_FAIL_USAGE, "--counters '%s' has an empty event name",
					list);
		}
		p->events = xrealloc(p->events, (p->n_events + 1) * sizeof(*p->events));
		p->events[p->n_events++] = xstrdup(s);
		if (!comma)
			break;
	}
	free(copy);
	if (pab_counters_check_events((const char *const *)p->events, p->n_events, &why)) {
		pab_fail(f, PAB_FAIL_USAGE, "--counters: %s", why);
		free(why);
		return -1;
	}
	for (i = 0; i < p->n_events; i++) {
		char *name = xstrdup(p->events[i]), *colon = strchr(name, ':');
		int known;

		if (colon)
			*colon = '\0';
		known = pab_metric_find(name) != NULL;
		free(name);
		if (!known)
			return pab_fail(f, PAB_FAIL_USAGE, "--counters: '%s' is not a counter perfab "
					"records: hardware events instructions and cycles (task-clock, "
					"page-faults and context-switches are always recorded)",
					p->events[i]);
	}
	return 0;
}

int pab_plan_make(struct pab_plan *p, const struct pab_run_opts *o, struct pab_failure *f)
{
	memset(p, 0, sizeof(*p));
	pab_experiment_init(&p->e);
	pab_run_settings_init(&p->use);
	p->quiet = o->quiet;
	p->show_output = o->show_output;
	if (o->trust && !o->resume)
		return pab_fail(f, PAB_FAIL_USAGE, "--trust-artifact applies to --resume only: "
				"it lets a resumed run skip checking its artifact's programs and "
				"rows; a fresh run has no artifact to trust");
	if (o->resume ? plan_resume(p, o, f) : plan_fresh(p, o, f))
		return -1;
	pab_run_settings_copy(&p->use, &p->e.settings);
	if (o->resume && o->timeout_s >= 0)
		p->use.timeout_s = o->timeout_s;
	if (o->resume && o->cpus) {
		free(p->use.cpus);
		p->use.cpus = xstrdup(o->cpus);
	}
	return p->use.counters ? parse_counters(p, p->use.counters, f) : 0;
}

int pab_plan_recheck(const struct pab_plan *p, struct pab_failure *f)
{
	size_t ri, a;

	for (ri = 0; ri < p->e.n_rows; ri++)
		for (a = 0; a < p->e.n_arms; a++) {
			const struct pab_row *row = &p->e.rows[ri];

			if (row->exes && row->exes[a] &&
			    pab_measure_check_files(row, &p->e.arms[a], a, row->exes[a], 1, f))
				return -1;
		}
	return 0;
}

void pab_plan_release(struct pab_plan *p)
{
	size_t i;

	pab_experiment_release(&p->e);
	pab_run_settings_release(&p->use);
	for (i = 0; i < p->n_events; i++)
		free(p->events[i]);
	free(p->events);
	for (i = 0; i < p->n_msgs; i++)
		free(p->msgs[i].text);
	free(p->msgs);
	memset(p, 0, sizeof(*p));
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
