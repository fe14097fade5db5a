/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runconf.c — arms, rows and settings from a config file, and the
 * parsers of single command-line items (runconf.h). Every field of a
 * config is type-checked; the first problem is reported with the path of
 * the offending field, except unknown keys: those of the whole config are
 * named in one message, each with its likely spelling.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "model/attribution.h"
#include "store/json_in.h"
#include "options.h"
#include "run/runconf.h"
#include "term.h"
#include "util.h"
#include "common/suite.h"

static struct pab_arm *new_arm(struct pab_experiment *e)
{
	struct pab_arm *arm;

	e->arms = xrealloc(e->arms, (e->n_arms + 1) * sizeof(*e->arms));
	arm = &e->arms[e->n_arms++];
	memset(arm, 0, sizeof(*arm));
	return arm;
}

int pab_arm_from_spec(struct pab_experiment *e, const char *spec, char **why)
{
	const char *eq = strchr(spec, '=');
	const char *reason;
	struct pab_arm *arm;
	char *name;

	*why = NULL;
	if (!eq) {
		*why = xasprintf("arm '%s' has no '=': write --arm NAME=COMMAND", pab_term_safe(spec));
		return -1;
	}
	name = xstrndup(spec, (size_t)(eq - spec));
	if (!pab_valid_arm_name(name)) {
		*why = xasprintf("arm name '%s' is not valid: use letters, digits, '_', '-', '.' "
				 "(not first: '.', '-')", pab_term_safe(name));
		free(name);
		return -1;
	}
	if (pab_experiment_arm_index(e, name) >= 0) {
		*why = xasprintf("arm '%s' is defined twice: arm names must be unique", name);
		free(name);
		return -1;
	}
	arm = new_arm(e);
	arm->name = name;
	if (pab_argv_split(eq + 1, &arm->argv, &arm->argc, &reason)) {
		*why = xasprintf("arm '%s': cannot split command '%s': %s", name,
				 eq + 1, reason);
		arm->argv = xcalloc(1, sizeof(*arm->argv));
		return -1;
	}
	return 0;
}

int pab_parse_tolerance(struct pab_experiment *e, const char *item, char **why)
{
	const char *eq = strchr(item, '=');
	const struct pab_metric *m = NULL;
	double pct;
	size_t i;

	*why = NULL;
	if (eq) {
		char *name = xstrndup(item, (size_t)(eq - item));

		m = pab_metric_find(name);
		if (!m) {
			*why = xasprintf("--tolerance '%s': unknown metric '%s' (see perfab(1) METRICS)",
					 item, name);
			free(name);
			return -1;
		}
		free(name);
	}
	if (parse_double(eq ? eq + 1 : item, 0, 1000, &pct)) {
		*why = xasprintf("--tolerance '%s': the percentage must be a number in [0, 1000]",
				 item);
		return -1;
	}
	if (m) {
		e->tolerance[m->id] = pct;
		return 0;
	}
	for (i = 0; i < PAB_M_COUNT; i++)
		e->tolerance[i] = pct;
	return 0;
}

/* ------------------------------------------------------------------ */
/*
 * The config reader: a json_in cursor (json_in.h) in the dotted style,
 * every message "config 'PATH': ...". Each function returns 0, or -1 with
 * the problem recorded in the cursor.
 */

/* o.key (present), an array of strings, into a NULL-ended argv. */
static int cfg_strings(struct pab_json_in *in, const cJSON *o, const char *key,
		       char ***argv, size_t *argc)
{
	return pab_json_in_strings(in, o, key, 0, argv, argc) < 0 ? -1 : 0;
}

/* o.key, an object of strings or numbers (kept as "%.17g"), into kv. */
static int cfg_kv(struct pab_json_in *in, const cJSON *o, const char *key,
		  struct pab_kv **kv, size_t *n)
{
	const cJSON *map, *it;

	if (pab_json_in_object(in, o, key, 0, &map) <= 0)
		return pab_json_in_failed(in) ? -1 : 0;
	pab_json_in_push_key(in, key);
	cJSON_ArrayForEach(it, map) {
		char num[64];

		if (!strcmp(key, "env") && !pab_env_name_valid(it->string)) {
			pab_json_in_push_key(in, it->string);
			pab_json_in_fail(in, NULL, "is not an environment variable name (empty, "
					 "or holds '=')");
			pab_json_in_pop(in);
			break;
		}
		if (cJSON_IsString(it)) {
			pab_kv_set(kv, n, it->string, it->valuestring);
		} else if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) {
			snprintf(num, sizeof(num), "%.17g", it->valuedouble);
			pab_kv_set(kv, n, it->string, num);
		} else {
			pab_json_in_push_key(in, it->string);
			pab_json_in_fail(in, NULL, "must be a string or a number");
			pab_json_in_pop(in);
			break;
		}
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* arms[i].argv: a command line (split, never a shell) or an array of words. */
static int cfg_arm_argv(struct pab_json_in *in, const cJSON *o, struct pab_arm *arm)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "argv");
	const char *reason;
	int ret = 0;

	if (!v) {
		arm->argv = xcalloc(1, sizeof(*arm->argv));
	} else if (!cJSON_IsString(v)) {
		ret = cfg_strings(in, o, "argv", &arm->argv, &arm->argc);
	} else if (pab_argv_split(v->valuestring, &arm->argv, &arm->argc, &reason)) {
		arm->argv = xcalloc(1, sizeof(*arm->argv));
		pab_json_in_push_key(in, "argv");
		ret = pab_json_in_fail_here(in, "%s", reason);
		pab_json_in_pop(in);
	}
	return ret;
}

/* The keys of the top level, of an arm and of a row. */
static const char *const top_keys[] = {
	"arms", "rows", "reps", "max_reps", "seed", "timeout", "scale",
	"equivalence_margin", "rules", "tolerance", "controls", "workloads",
	"null_arm", "budget", "metrics", "require", "counts", "count_reps",
	"guard_tolerance", "ignore_failure", "attribute", NULL,
};
static const char *const arm_keys[] = { "name", "argv", "env", "revision", "prepare", NULL };
static const char *const row_keys[] = {
	"name", "workload", "argv", "params", "control", NULL,
};

/*
 * Every key of the top level, of each arm and of each row is known, else
 * one message names them all with their likely spelling: a first config
 * with three typos takes one run to fix, not three.
 */
static int cfg_known_keys(struct pab_json_in *in, const cJSON *root)
{
	static const struct {
		const char *key;
		const char *const *known;
	} lists[] = { { "arms", arm_keys }, { "rows", row_keys } };
	size_t l, i;

	pab_json_in_note_unknown_keys(in, root, top_keys);
	for (l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, lists[l].key), *it;

		if (!cJSON_IsArray(a))
			continue; /* its type is checked where it is read */
		pab_json_in_push_key(in, lists[l].key);
		i = 0;
		cJSON_ArrayForEach(it, a) {
			pab_json_in_push_index(in, i++);
			if (cJSON_IsObject(it))
				pab_json_in_note_unknown_keys(in, it, lists[l].known);
			pab_json_in_pop(in);
		}
		pab_json_in_pop(in);
	}
	return pab_json_in_fail_unknown_keys(in);
}

/* arms[i], with the cursor at it; its keys were checked (cfg_known_keys). */
static int cfg_arm(struct pab_json_in *in, struct pab_experiment *e, const cJSON *o)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const char *revision, *prepare;
	struct pab_arm *arm;

	if (pab_json_in_object(in, o, NULL, 0, &o) < 0)
		return -1;
	name = cJSON_GetObjectItemCaseSensitive(o, "name");
	if (!cJSON_IsString(name) || !pab_valid_arm_name(name->valuestring))
		return pab_json_in_fail(in, "name", "must be a name of letters, digits, '_', "
					"'-', '.' (not first: '.', '-')");
	if (pab_experiment_arm_index(e, name->valuestring) >= 0)
		return pab_json_in_fail_here(in, "arm '%s' is defined twice", name->valuestring);
	arm = new_arm(e);
	arm->name = xstrdup(name->valuestring);
	if (cfg_arm_argv(in, o, arm) ||
	    cfg_kv(in, o, "env", &arm->env, &arm->n_env) ||
	    pab_json_in_string(in, o, "revision", 0, &revision) < 0 ||
	    pab_json_in_string(in, o, "prepare", 0, &prepare) < 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "revision"))
		arm->revision = xstrdup(revision);
	if (cJSON_GetObjectItemCaseSensitive(o, "prepare"))
		arm->prepare = xstrdup(prepare);
	return 0;
}

/* Append a row to e. params may be NULL. Returns the row. */
static struct pab_row *new_row(struct pab_experiment *e, const char *name)
{
	struct pab_row *row;

	e->rows = xrealloc(e->rows, (e->n_rows + 1) * sizeof(*e->rows));
	row = &e->rows[e->n_rows++];
	memset(row, 0, sizeof(*row));
	row->name = xstrdup(name);
	row->argv = xcalloc(1, sizeof(*row->argv));
	return row;
}

struct pab_row *pab_add_builtin_row(struct pab_experiment *e,
				    const struct pab_row_def *def)
{
	struct pab_row *row = new_row(e, def->name);
	size_t i;

	row->workload = xstrdup(def->name);
	row->program = xstrdup(def->program);
	row->control = def->control;
	for (i = 0; i < def->n_params; i++)
		pab_kv_set(&row->params, &row->n_params, def->params[i].key,
			   def->params[i].value);
	return row;
}

/* rows[i].params of a built-in row: only the row's own parameters. */
static int cfg_builtin_params(struct pab_json_in *in, const cJSON *params,
			      const struct pab_row_def *def)
{
	const cJSON *it;
	size_t p;

	cJSON_ArrayForEach(it, params) {
		int is_param = 0;

		for (p = 0; p < def->n_params; p++)
			is_param |= !strcmp(def->params[p].key, it->string);
		if (!is_param) {
			pab_json_in_push_key(in, "params");
			pab_json_in_fail_here(in, "'%s' is not a parameter of '%s'",
					      pab_term_safe(it->string), def->name);
			pab_json_in_pop(in);
			return -1;
		}
	}
	return 0;
}

/* The row rows[i] names: a built-in one (workload), or one of its own (name). */
static struct pab_row *cfg_new_row(struct pab_json_in *in, struct pab_experiment *e,
				   const cJSON *o, const struct pab_row_def **def)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
	const cJSON *wl = cJSON_GetObjectItemCaseSensitive(o, "workload");
	struct pab_row *row;

	*def = NULL;
	if (name && (!cJSON_IsString(name) || !*name->valuestring)) {
		pab_json_in_fail(in, "name", "must be a non-empty string");
		return NULL;
	}
	if (wl && !cJSON_IsString(wl)) {
		pab_json_in_fail(in, "workload", "must be a string");
		return NULL;
	}
	if (!name && !wl) {
		pab_json_in_fail(in, NULL, "needs a name or a workload");
		return NULL;
	}
	if (!wl)
		return new_row(e, name->valuestring);
	*def = pab_suite_find(wl->valuestring);
	if (!*def) {
		pab_json_in_fail(in, "workload", "'%s' is not a built-in row (see perfab "
				 "workloads)", pab_term_safe(wl->valuestring));
		return NULL;
	}
	row = pab_add_builtin_row(e, *def);
	if (name) {
		free(row->name);
		row->name = xstrdup(name->valuestring);
	}
	return row;
}

/* rows[i], with the cursor at it; its keys were checked (cfg_known_keys). */
static int cfg_row(struct pab_json_in *in, struct pab_experiment *e, const cJSON *o)
{
	const struct pab_row_def *def;
	struct pab_row *row;
	size_t k;

	if (pab_json_in_object(in, o, NULL, 0, &o) < 0)
		return -1;
	row = cfg_new_row(in, e, o, &def);
	if (!row)
		return -1;
	for (k = 0; k + 1 < e->n_rows; k++)
		if (!strcmp(e->rows[k].name, row->name))
			return pab_json_in_fail_here(in, "row '%s' is defined twice",
						     pab_term_safe(row->name));
	if (cJSON_GetObjectItemCaseSensitive(o, "argv")) {
		pab_argv_free(row->argv);
		row->argv = NULL;
		if (cfg_strings(in, o, "argv", &row->argv, &row->argc))
			return -1;
	}
	if (cfg_kv(in, o, "params", &row->params, &row->n_params) ||
	    (def && cfg_builtin_params(in, cJSON_GetObjectItemCaseSensitive(o, "params"), def)) ||
	    pab_json_in_bool(in, o, "control", 0, &row->control) < 0)
		return -1;
	return 0;
}

/* key: an array, each item read by one(), with the cursor at it. */
static int cfg_list(struct pab_json_in *in, struct pab_experiment *e,
		    const cJSON *root, const char *key,
		    int (*one)(struct pab_json_in *, struct pab_experiment *, const cJSON *))
{
	const cJSON *a, *it;
	size_t i = 0;

	if (pab_json_in_array(in, root, key, 0, &a) <= 0)
		return pab_json_in_failed(in) ? -1 : 0;
	pab_json_in_push_key(in, key);
	cJSON_ArrayForEach(it, a) {
		pab_json_in_push_index(in, i++);
		one(in, e, it);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/*
 * The numeric settings, each in the range of the `perfab run` option that
 * sets it (opts): the config and the command line have one set of limits.
 */
static int cfg_numbers(struct pab_json_in *in, const cJSON *root,
		       const struct pab_option *opts, struct pab_experiment *e,
		       struct pab_config_settings *s)
{
	const struct {
		const char *key, *option;
		double *out;
	} nums[] = {
		{ "reps", "reps", &s->reps },
		{ "max_reps", "max-reps", &s->max_reps },
		{ "seed", "seed", &s->seed },
		{ "timeout", "timeout", &s->timeout_s },
		{ "scale", "scale", &s->scale },
		{ "equivalence_margin", "equivalence-margin", &e->equivalence_margin },
		{ "count_reps", "count-reps", &s->count_reps },
		{ "guard_tolerance", "guard-tolerance", &s->guard_tolerance },
	};
	size_t i;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		const struct pab_option *o = pab_option_find(opts, nums[i].option);
		char hint[64];

		if (!o)
			BUG("no option --%s for the config's '%s'", nums[i].option, nums[i].key);
		snprintf(hint, sizeof(hint), "the range of --%s", nums[i].option);
		if (pab_json_in_number(in, root, nums[i].key, 0, o->min, o->max, hint,
				       nums[i].out) < 0)
			return -1;
	}
	return 0;
}

/* tolerance: a percentage for every metric, or {"default"|METRIC: PCT}. */
static int cfg_tolerance(struct pab_json_in *in, const cJSON *root,
			 struct pab_experiment *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "tolerance"), *it;
	char *item, *why;
	int bad;

	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) && !cJSON_IsObject(v))
		return pab_json_in_fail(in, "tolerance", "must be a number or an object");
	if (cJSON_IsNumber(v)) {
		item = xasprintf("%.17g", v->valuedouble);
		bad = pab_parse_tolerance(e, item, &why);
		free(item);
		if (bad) {
			pab_json_in_fail_here(in, "'tolerance': %s", why);
			free(why);
		}
		return bad;
	}
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsNumber(it)) {
			pab_json_in_push_key(in, "tolerance");
			pab_json_in_push_key(in, it->string);
			pab_json_in_fail(in, NULL, "must be a number");
			pab_json_in_pop(in);
			pab_json_in_pop(in);
			return -1;
		}
		item = !strcmp(it->string, "default") ? xasprintf("%.17g", it->valuedouble) :
			xasprintf("%s=%.17g", it->string, it->valuedouble);
		bad = pab_parse_tolerance(e, item, &why);
		free(item);
		if (bad) {
			pab_json_in_fail_here(in, "'tolerance': %s", why);
			free(why);
			return -1;
		}
	}
	return 0;
}

/* budget: seconds, or a duration such as "10m"; at most a week. */
static int cfg_budget(struct pab_json_in *in, const cJSON *root,
		      struct pab_config_settings *s)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "budget");

	if (!v)
		return 0;
	if (cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble <= PAB_MAX_DURATION_S) {
		s->budget_s = v->valuedouble;
		return 0;
	}
	if (!cJSON_IsString(v) || pab_parse_duration(v->valuestring, &s->budget_s))
		return pab_json_in_fail(in, "budget", "must be seconds or a duration such as "
					"\"10m\" (at most a week)");
	return 0;
}

/* KEY ("metrics", "require"): "a,b" or ["a", "b"], names of metrics, into *out. */
static int cfg_metric_list(struct pab_json_in *in, const cJSON *root, const char *key,
			   char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key), *it;
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	int judged[PAB_M_COUNT];
	char *why;

	if (!v)
		return 0;
	if (!cJSON_IsString(v) && !cJSON_IsArray(v))
		return pab_json_in_fail(in, key, "must be a string \"a,b\" or an array "
					"of names");
	if (cJSON_IsString(v))
		pab_strbuf_addstr(&sb, v->valuestring);
	for (it = cJSON_IsArray(v) ? v->child : NULL; it; it = it->next) {
		if (!cJSON_IsString(it)) {
			pab_strbuf_release(&sb);
			return pab_json_in_fail(in, key, "must list metric names");
		}
		pab_strbuf_addf(&sb, "%s%s", sb.len ? "," : "", it->valuestring);
	}
	*out = pab_strbuf_detach(&sb);
	if (pab_parse_metrics(*out, judged, &why)) {
		pab_json_in_fail_here(in, "'%s': %s", key, why);
		free(why);
		return -1;
	}
	return 0;
}

/* rules: "perfab/2", "perfab/1" or "rule12". */
static int cfg_rules(struct pab_json_in *in, const cJSON *root,
		     struct pab_experiment *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "rules");
	enum pab_rules rr;

	if (!v)
		return 0;
	if (!cJSON_IsString(v) || pab_rules_parse(v->valuestring, &rr))
		return pab_json_in_fail(in, "rules", "must be \"perfab/2\", \"perfab/1\" or "
					"\"rule12\"");
	e->rules = rr;
	return 0;
}

/* controls, workloads, null_arm, ignore_failure: row selections, the null
 * arm, and whether a child's non-zero exit status fails its row. */
static int cfg_words(struct pab_json_in *in, const cJSON *root,
		     struct pab_config_settings *s)
{
	const char *controls, *workloads, *counts, *attribute;
	enum pab_counts_mode mode;
	enum pab_attr_mode amode;
	int got;

	if ((got = pab_json_in_string(in, root, "counts", 0, &counts)) == 1) {
		if (pab_counts_mode_parse(counts, &mode))
			return pab_json_in_fail(in, "counts", "must be \"auto\", \"pmu\", \"sim\" "
						"or \"off\"");
		s->counts = xstrdup(counts);
	}
	if (got >= 0 && (got = pab_json_in_string(in, root, "attribute", 0, &attribute)) == 1) {
		if (pab_attr_mode_parse(attribute, &amode))
			return pab_json_in_fail(in, "attribute", "must be \"auto\", \"always\" "
						"or \"never\"");
		s->attribute = xstrdup(attribute);
	}
	if (got >= 0 && (got = pab_json_in_string(in, root, "controls", 0, &controls)) == 1)
		s->controls = xstrdup(controls);
	if (got >= 0 && (got = pab_json_in_string(in, root, "workloads", 0, &workloads)) == 1)
		s->workloads = xstrdup(workloads);
	if (got < 0 || pab_json_in_bool(in, root, "null_arm", 0, &s->null_arm) < 0 ||
	    pab_json_in_bool(in, root, "ignore_failure", 0, &s->ignore_failure) < 0)
		return -1;
	return 0;
}

static void settings_init(struct pab_config_settings *s)
{
	s->reps = s->max_reps = s->seed = s->timeout_s = s->scale = NAN;
	s->budget_s = NAN;
	s->count_reps = NAN;
	s->guard_tolerance = NAN;
	s->null_arm = -1;
	s->ignore_failure = -1;
	s->controls = s->workloads = s->metrics = s->require = s->counts = NULL;
	s->attribute = NULL;
}

int pab_config_parse(const char *text, size_t len, const char *name,
		     const struct pab_option *opts, struct pab_experiment *e,
		     struct pab_config_settings *s, char **why)
{
	char *prefix = xasprintf("config '%s'", name);
	struct pab_json_in in;
	cJSON *root;

	settings_init(s);
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, prefix, NULL);
	root = pab_json_in_parse(&in, text, len, "not a JSON object (check the syntax)");
	if (root && !cJSON_IsObject(root))
		pab_json_in_fail_here(&in, "not a JSON object (check the syntax)");
	if (root && !pab_json_in_failed(&in) &&
	    !cfg_known_keys(&in, root) &&
	    !cfg_list(&in, e, root, "arms", cfg_arm) &&
	    !cfg_list(&in, e, root, "rows", cfg_row) &&
	    !cfg_numbers(&in, root, opts, e, s) &&
	    !cfg_rules(&in, root, e) &&
	    !cfg_tolerance(&in, root, e) &&
	    !cfg_words(&in, root, s) &&
	    !cfg_budget(&in, root, s) &&
	    !cfg_metric_list(&in, root, "metrics", &s->metrics))
		cfg_metric_list(&in, root, "require", &s->require);
	*why = pab_json_in_take_why(&in);
	cJSON_Delete(root);
	pab_json_in_release(&in);
	free(prefix);
	return *why ? -1 : 0;
}

int pab_config_load(const char *path, const struct pab_option *opts,
		    struct pab_experiment *e, struct pab_config_settings *s,
		    char **why)
{
	size_t len;
	char *text = read_file_max(path, PAB_CONFIG_MAX_BYTES, &len);
	int ret;

	if (!text) {
		settings_init(s);
		*why = xasprintf("cannot read config '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = pab_config_parse(text, len, path, opts, e, s, why);
	free(text);
	return ret;
}

void pab_config_settings_release(struct pab_config_settings *s)
{
	free(s->controls);
	free(s->workloads);
	free(s->metrics);
	free(s->require);
	free(s->counts);
	free(s->attribute);
	s->attribute = NULL;
	s->controls = s->workloads = s->metrics = s->require = s->counts = NULL;
}

int pab_parse_duration(const char *s, double *seconds)
{
	size_t len = s ? strlen(s) : 0;
	double v, unit = 1;
	char *num;
	int bad;

	if (!len)
		return -1;
	switch (s[len - 1]) {
	case 's': unit = 1; len--; break;
	case 'm': unit = 60; len--; break;
	case 'h': unit = 3600; len--; break;
	}
	num = xstrndup(s, len);
	bad = *num == '+' || parse_double(num, 0, PAB_MAX_DURATION_S, &v);
	free(num);
	if (bad || !(v * unit > 0) || v * unit > PAB_MAX_DURATION_S)
		return -1;
	*seconds = v * unit;
	return 0;
}
