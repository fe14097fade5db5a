/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runconf.c — arms and rows from a config file or the command line
 * (runconf.h). Every field is type-checked; the first problem is reported
 * with the path of the offending field.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "model/artifact.h"
#include "run/runconf.h"
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

struct cfg_ctx {
	char *why;
	const char *path;
};

static int cfg_fail(struct cfg_ctx *c, const char *fmt, ...) PAB_PRINTF(2, 3);
static int cfg_fail(struct cfg_ctx *c, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	if (c->why)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->why = xasprintf("config '%s': %s", c->path, msg);
	return -1;
}

static int cfg_strings(struct cfg_ctx *c, const cJSON *a, const char *ctx,
		       char ***argv, size_t *argc)
{
	const cJSON *it;
	size_t i = 0, n;

	if (!cJSON_IsArray(a))
		return cfg_fail(c, "%s must be an array of strings", ctx);
	n = (size_t)cJSON_GetArraySize(a);
	*argv = xcalloc(n + 1, sizeof(**argv));
	*argc = n;
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it))
			return cfg_fail(c, "%s[%zu] must be a string", ctx, i);
		(*argv)[i++] = xstrdup(it->valuestring);
	}
	return 0;
}

static int cfg_kv(struct cfg_ctx *c, const cJSON *o, const char *ctx,
		  struct pab_kv **kv, size_t *n)
{
	const cJSON *it;

	if (!cJSON_IsObject(o))
		return cfg_fail(c, "%s must be an object", ctx);
	cJSON_ArrayForEach(it, o) {
		char num[64];

		if (cJSON_IsString(it)) {
			pab_kv_set(kv, n, it->string, it->valuestring);
		} else if (cJSON_IsNumber(it) && isfinite(it->valuedouble)) {
			snprintf(num, sizeof(num), "%.17g", it->valuedouble);
			pab_kv_set(kv, n, it->string, num);
		} else {
			return cfg_fail(c, "%s.%s must be a string or a number", ctx,
					it->string);
		}
	}
	return 0;
}

static int cfg_number(struct cfg_ctx *c, const cJSON *root, const char *key,
		      double min, double max, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);

	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble < min || v->valuedouble > max)
		return cfg_fail(c, "'%s' must be a number in [%g, %g]", key, min, max);
	*out = v->valuedouble;
	return 0;
}

/* A typo must not vanish: every key of o must be one of known (NULL-ended). */
static int cfg_known_keys(struct cfg_ctx *c, const cJSON *o, const char *ctx,
			  const char *const *known)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, o) {
		const char *const *k;

		for (k = known; *k; k++)
			if (!strcmp(*k, it->string))
				break;
		if (!*k)
			return cfg_fail(c, "%s: unknown key '%s'", ctx, pab_term_safe(it->string));
	}
	return 0;
}

static int cfg_arm(struct cfg_ctx *c, struct pab_experiment *e,
		   const cJSON *o, size_t i)
{
	char ctx[64];
	char path[80];
	const cJSON *v;
	struct pab_arm *arm;

	static const char *const known[] = { "name", "argv", "env", "revision", NULL };

	snprintf(ctx, sizeof(ctx), "arms[%zu]", i);
	if (!cJSON_IsObject(o))
		return cfg_fail(c, "%s must be an object", ctx);
	if (cfg_known_keys(c, o, ctx, known))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(o, "name");
	if (!cJSON_IsString(v) || !pab_valid_arm_name(v->valuestring))
		return cfg_fail(c, "%s.name must be a name of letters, digits, '_', '-', '.' (not first: '.', '-')",
				ctx);
	if (pab_experiment_arm_index(e, v->valuestring) >= 0)
		return cfg_fail(c, "arm '%s' is defined twice", v->valuestring);
	arm = new_arm(e);
	arm->name = xstrdup(v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(o, "argv");
	if (cJSON_IsString(v)) {
		const char *reason;

		if (pab_argv_split(v->valuestring, &arm->argv, &arm->argc, &reason)) {
			arm->argv = xcalloc(1, sizeof(*arm->argv));
			return cfg_fail(c, "%s.argv: %s", ctx, reason);
		}
	} else if (v) {
		snprintf(path, sizeof(path), "%s.argv", ctx);
		if (cfg_strings(c, v, path, &arm->argv, &arm->argc))
			return -1;
	} else {
		arm->argv = xcalloc(1, sizeof(*arm->argv));
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "env");
	snprintf(path, sizeof(path), "%s.env", ctx);
	if (v && cfg_kv(c, v, path, &arm->env, &arm->n_env))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(o, "revision");
	if (v) {
		if (!cJSON_IsString(v))
			return cfg_fail(c, "%s.revision must be a string", ctx);
		arm->revision = xstrdup(v->valuestring);
	}
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

static int cfg_row(struct cfg_ctx *c, struct pab_experiment *e,
		   const cJSON *o, size_t i)
{
	char ctx[64];
	char path[80];
	const cJSON *v, *name, *wl;
	struct pab_row *row;
	size_t k;

	static const char *const known[] = { "name", "workload", "argv", "params", "control", NULL };

	snprintf(ctx, sizeof(ctx), "rows[%zu]", i);
	if (!cJSON_IsObject(o))
		return cfg_fail(c, "%s must be an object", ctx);
	if (cfg_known_keys(c, o, ctx, known))
		return -1;
	name = cJSON_GetObjectItemCaseSensitive(o, "name");
	wl = cJSON_GetObjectItemCaseSensitive(o, "workload");
	if (name && (!cJSON_IsString(name) || !*name->valuestring))
		return cfg_fail(c, "%s.name must be a non-empty string", ctx);
	if (wl && !cJSON_IsString(wl))
		return cfg_fail(c, "%s.workload must be a string", ctx);
	if (!name && !wl)
		return cfg_fail(c, "%s needs a name or a workload", ctx);
	if (wl) {
		const struct pab_row_def *def = pab_suite_find(wl->valuestring);

		if (!def)
			return cfg_fail(c, "%s.workload '%s' is not a built-in row (see perfab workloads)",
					ctx, pab_term_safe(wl->valuestring));
		row = pab_add_builtin_row(e, def);
		if (name) {
			free(row->name);
			row->name = xstrdup(name->valuestring);
		}
	} else {
		row = new_row(e, name->valuestring);
	}
	for (k = 0; k + 1 < e->n_rows; k++)
		if (!strcmp(e->rows[k].name, row->name))
			return cfg_fail(c, "row '%s' is defined twice", pab_term_safe(row->name));
	v = cJSON_GetObjectItemCaseSensitive(o, "argv");
	if (v) {
		pab_argv_free(row->argv);
		row->argv = NULL;
		snprintf(path, sizeof(path), "%s.argv", ctx);
		if (cfg_strings(c, v, path, &row->argv, &row->argc))
			return -1;
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "params");
	if (v) {
		const cJSON *it;

		snprintf(path, sizeof(path), "%s.params", ctx);
		if (cfg_kv(c, v, path, &row->params, &row->n_params))
			return -1;
		if (wl) {
			const struct pab_row_def *def = pab_suite_find(wl->valuestring);

			cJSON_ArrayForEach(it, v) {
				size_t p;
				int is_param = 0;

				for (p = 0; p < def->n_params; p++)
					is_param |= !strcmp(def->params[p].key, it->string);
				if (!is_param)
					return cfg_fail(c, "%s.params: '%s' is not a parameter of '%s'",
							ctx, pab_term_safe(it->string), def->name);
			}
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "control");
	if (v) {
		if (!cJSON_IsBool(v))
			return cfg_fail(c, "%s.control must be true or false", ctx);
		row->control = cJSON_IsTrue(v);
	}
	return 0;
}

int pab_config_parse(const char *text, size_t len, const char *name,
		     struct pab_experiment *e, struct pab_config_settings *s,
		     char **why)
{
	struct cfg_ctx c = { NULL, name };
	size_t i;
	cJSON *root = NULL;
	const cJSON *v, *it;
	char *inner = NULL;

	s->reps = s->max_reps = s->seed = s->timeout_s = s->scale = NAN;
	s->budget_s = NAN;
	s->null_arm = -1;
	s->controls = s->workloads = s->metrics = NULL;
	*why = NULL;
	root = pab_json_parse(text, len, &inner);
	if (!root) {
		cfg_fail(&c, "not a JSON object (check the syntax): %s", inner);
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		cfg_fail(&c, "not a JSON object (check the syntax)");
		goto out;
	}
	{
		static const char *const known[] = {
			"arms", "rows", "reps", "max_reps", "seed", "timeout", "scale",
			"equivalence_margin", "rules", "tolerance", "controls", "workloads",
			"null_arm", "budget", "metrics", NULL,
		};

		if (cfg_known_keys(&c, root, "the top level", known))
			goto out;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "arms");
	if (v) {
		if (!cJSON_IsArray(v)) {
			cfg_fail(&c, "'arms' must be an array");
			goto out;
		}
		i = 0;
		cJSON_ArrayForEach(it, v)
			if (cfg_arm(&c, e, it, i++))
				goto out;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "rows");
	if (v) {
		if (!cJSON_IsArray(v)) {
			cfg_fail(&c, "'rows' must be an array");
			goto out;
		}
		i = 0;
		cJSON_ArrayForEach(it, v)
			if (cfg_row(&c, e, it, i++))
				goto out;
	}
	if (cfg_number(&c, root, "reps", 1, 1e6, &s->reps) ||
	    cfg_number(&c, root, "max_reps", 1, 1e6, &s->max_reps) ||
	    cfg_number(&c, root, "seed", 0, 9007199254740991.0, &s->seed) ||
	    cfg_number(&c, root, "timeout", 0, 1e7, &s->timeout_s) ||
	    cfg_number(&c, root, "scale", 1e-6, 1e6, &s->scale) ||
	    cfg_number(&c, root, "equivalence_margin", 0, 1000,
		       &e->equivalence_margin))
		goto out;
	v = cJSON_GetObjectItemCaseSensitive(root, "rules");
	if (v) {
		enum pab_rules rr;

		if (!cJSON_IsString(v) || pab_rules_parse(v->valuestring, &rr)) {
			cfg_fail(&c, "'rules' must be \"perfab/2\", \"perfab/1\" or \"rule12\"");
			goto out;
		}
		e->rules = rr;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
	if (v) {
		if (cJSON_IsNumber(v)) {
			char num[64];

			snprintf(num, sizeof(num), "%.17g", v->valuedouble);
			if (pab_parse_tolerance(e, num, &inner)) {
				cfg_fail(&c, "'tolerance': %s", inner);
				goto out;
			}
		} else if (cJSON_IsObject(v)) {
			cJSON_ArrayForEach(it, v) {
				char *item;
				int bad;

				if (!cJSON_IsNumber(it)) {
					cfg_fail(&c, "tolerance.%s must be a number", it->string);
					goto out;
				}
				item = !strcmp(it->string, "default") ?
					xasprintf("%.17g", it->valuedouble) :
					xasprintf("%s=%.17g", it->string, it->valuedouble);
				bad = pab_parse_tolerance(e, item, &inner);
				free(item);
				if (bad) {
					cfg_fail(&c, "'tolerance': %s", inner);
					goto out;
				}
			}
		} else {
			cfg_fail(&c, "'tolerance' must be a number or an object");
			goto out;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "controls");
	if (cJSON_IsString(v))
		s->controls = xstrdup(v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(root, "workloads");
	if (cJSON_IsString(v))
		s->workloads = xstrdup(v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(root, "null_arm");
	if (v) {
		if (!cJSON_IsBool(v)) {
			cfg_fail(&c, "'null_arm' must be true or false");
			goto out;
		}
		s->null_arm = cJSON_IsTrue(v);
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "budget");
	if (v) {
		if (cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble <= PAB_MAX_DURATION_S) {
			s->budget_s = v->valuedouble;
		} else if (!cJSON_IsString(v) || pab_parse_duration(v->valuestring, &s->budget_s)) {
			cfg_fail(&c, "'budget' must be seconds or a duration such as \"10m\" (at most a week)");
			goto out;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "metrics");
	if (v) {
		int judged[PAB_M_COUNT];
		struct pab_strbuf sb = PAB_STRBUF_INIT;

		if (cJSON_IsString(v)) {
			pab_strbuf_addstr(&sb, v->valuestring);
		} else if (cJSON_IsArray(v)) {
			cJSON_ArrayForEach(it, v) {
				if (!cJSON_IsString(it)) {
					pab_strbuf_release(&sb);
					cfg_fail(&c, "'metrics' must list metric names");
					goto out;
				}
				pab_strbuf_addf(&sb, "%s%s", sb.len ? "," : "", it->valuestring);
			}
		} else {
			cfg_fail(&c, "'metrics' must be a string \"a,b\" or an array of names");
			goto out;
		}
		s->metrics = pab_strbuf_detach(&sb);
		if (pab_parse_metrics(s->metrics, judged, &inner)) {
			cfg_fail(&c, "'metrics': %s", inner);
			goto out;
		}
	}
out:
	free(inner);
	cJSON_Delete(root);
	if (c.why) {
		*why = c.why;
		return -1;
	}
	return 0;
}

int pab_config_load(const char *path, struct pab_experiment *e,
		    struct pab_config_settings *s, char **why)
{
	size_t len;
	char *text = read_file_max(path, PAB_CONFIG_MAX_BYTES, &len);
	int ret;

	if (!text) {
		s->reps = s->max_reps = s->seed = s->timeout_s = s->scale = NAN;
		s->budget_s = NAN;
		s->null_arm = -1;
		s->controls = s->workloads = s->metrics = NULL;
		*why = xasprintf("cannot read config '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = pab_config_parse(text, len, path, e, s, why);
	free(text);
	return ret;
}

void pab_config_settings_release(struct pab_config_settings *s)
{
	free(s->controls);
	free(s->workloads);
	free(s->metrics);
	s->controls = s->workloads = s->metrics = NULL;
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
