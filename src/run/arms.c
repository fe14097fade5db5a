/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arms.c — the arms of an experiment: defined from --config and --arm,
 * then --arms, --head-env and the null arm; their executables and the
 * files they read, resolved and digested (arms.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/ledger.h"
#include "model/argv_split.h"
#include "probe/runchild.h"
#include "store/digest.h"
#include "run/arms.h"
#include "run/runconf.h"
#include "term.h"
#include "util.h"

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

void pab_items_release(struct pab_items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++)
		free(it->v[i]);
	free(it->v);
	it->v = NULL;
	it->n = 0;
}

/* Split "a || b || c" into items; an empty item is an error. */
static int split_variants(const char *list, struct pab_items *out, struct pab_failure *f)
{
	const char *p = list;

	for (;;) {
		const char *bar = strstr(p, "||");
		size_t len = bar ? (size_t)(bar - p) : strlen(p), k = 0;

		while (k < len && (p[k] == ' ' || p[k] == '\t'))
			k++;
		if (k == len) {
			pab_items_release(out);
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
static int split_head_env(const struct pab_strlist *lists, struct pab_items *items,
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
	struct pab_items *items;
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
		pab_items_release(&items[l]);
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

		/* '< FILE': perfab feeds a file to every child itself. */
		if (at >= 0 && arm->argv[at][0] == '<')
			hint = "for the children's stdin give --input FILE; other redirections "
			       "need a shell: write sh -c '...' as the command";
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
int pab_arms_define(struct pab_experiment *e, const struct pab_run_opts *o,
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
/* Executables                                                        */

/* path's digest and identity (owned by c), or NULL with errno set. */
static const struct pab_digest_cached *digest_of(struct pab_digest_cache *c, const char *path)
{
	struct pab_digest_cached *x;
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

void pab_digest_cache_release(struct pab_digest_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].sha256);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static const char *workload_dir(void)
{
	const char *d = getenv("PERFAB_WORKLOAD_DIR");

	return d && *d ? d : PKGLIBEXECDIR;
}

char *pab_arm_exe(const struct pab_arm *arm, const struct pab_row *row, char **why)
{
	char *exe, *cand;

	*why = NULL;
	if (arm->argc) {
		exe = pab_resolve_exe(arm->argv[0]);
		if (!exe)
			*why = xasprintf("arm '%s': cannot run '%s': %s (give a path or put it on PATH)",
					 arm->name, arm->argv[0], strerror(errno));
		return exe;
	}
	if (!row->program) {
		*why = xasprintf("arm '%s' has no command, and row '%s' is not a built-in workload",
				 arm->name, pab_term_safe(row->name));
		return NULL;
	}
	cand = xasprintf("%s/%s", workload_dir(), row->program);
	exe = pab_resolve_exe(cand);
	if (!exe)
		*why = xasprintf("built-in program '%s' not found (%s); set PERFAB_WORKLOAD_DIR",
				 cand, strerror(errno));
	free(cand);
	return exe;
}

/* The executable arm runs for row, its digest and identity, or -1 with f filled. */
int pab_arm_exe_digest(const struct pab_arm *arm, const struct pab_row *row,
		       const char *fail_prefix, struct pab_digest_cache *c, char **exe,
		       char **sha, struct pab_file_id *id, struct pab_failure *f)
{
	const struct pab_digest_cached *d;
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
		     const char *role, const struct pab_arm *arm, struct pab_digest_cache *c,
		     struct pab_failure *f)
{
	const struct pab_digest_cached *d;
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
int pab_arm_collect_inputs(const struct pab_arm *arm, const struct pab_row *row,
			   const char *exe, struct pab_digest_cache *c,
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
void pab_row_alloc_files(struct pab_row *row, size_t n_arms)
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
 * and every file each (row, arm) reads besides (pab_arm_collect_inputs) to
 * row->inputs. What was digested is what runs: measure.c checks each
 * file's identity before each exec.
 */
int pab_arms_resolve(struct pab_plan *p, struct pab_failure *f)
{
	struct pab_experiment *e = &p->e;
	struct pab_digest_cache c = { 0 };
	size_t a, ri, len0 = 0;
	int ret = -1;

	for (a = 0; a < e->n_arms; a++) {
		struct pab_arm *arm = &e->arms[a];

		if (pab_arm_exe_digest(arm, &e->rows[0], "", &c, &arm->exe, &arm->sha256, NULL, f))
			goto out;
		if (!a)
			len0 = strlen(arm->exe);
		else if (strlen(arm->exe) != len0)
			pab_plan_msg(p, PAB_PLAN_WARNING, "arm executables have paths of different lengths "
				     "('%s' vs '%s'): identical binaries have measured 17%% apart for that "
				     "alone; use paths of equal length", e->arms[0].exe, arm->exe);
	}
	for (ri = 0; ri < e->n_rows; ri++) {
		struct pab_row *row = &e->rows[ri];

		pab_row_alloc_files(row, e->n_arms);
		for (a = 0; a < e->n_arms; a++) {
			struct pab_arm *arm = &e->arms[a];

			if (!ri || arm->argc) { /* the arm's own executable */
				row->exes[a] = xstrdup(arm->exe);
				row->exe_sha256[a] = xstrdup(arm->sha256);
				row->exe_id[a] = digest_of(&c, arm->exe)->id; /* cached */
			} else if (pab_arm_exe_digest(arm, row, "", &c, &row->exes[a],
						      &row->exe_sha256[a], &row->exe_id[a], f)) {
				goto out;
			}
			if (pab_arm_collect_inputs(arm, row, row->exes[a], &c, &row->inputs[a],
						   &row->n_inputs[a], f))
				goto out;
		}
	}
	ret = 0;
out:
	pab_digest_cache_release(&c);
	return ret;
}

/* --preserve-builds DIR: copy each arm's executable, digest-checked. */
int pab_arms_preserve_builds(struct pab_experiment *e, const char *dir, struct pab_failure *f)
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
