/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * artifact_read.c — an artifact read back into the experiment, every
 * field checked, and completed by its journal (artifact_read.h). The key names
 * here are the artifact contract documented in doc/artifact-schema.md.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/rotation.h"
#include "store/artifact_read.h"
#include "store/artifact_rep.h"
#include "store/attribution_json.h"
#include "store/checkpoint.h"
#include "store/json_in.h"
#include "store/run_record.h"
#include "store/run_settings.h"
#include "term.h"
#include "util.h"

int pab_artifact_load_exit_code(int load_ret)
{
	return load_ret == PAB_ARTIFACT_BAD_PROTOCOL ? PAB_EXIT_REFUSED : PAB_EXIT_USAGE;
}

/*
 * The loader reads through a json_in cursor (json_in.h) in the artifact's
 * message style: fields of a record are quoted ("rows[0] ('sort'): field
 * 'control' must be true or false"), entries of maps and arrays are named
 * by their path ("rows[0] ('sort').reps[3].results.head.cpu must be a
 * finite number or null"). Each function returns 0, or -1 with the
 * problem recorded in the cursor; what it filled in stays for the caller's
 * pab_experiment_release().
 */

/* A string field into new memory (*out), or NULL when absent or null. */
static int dup_string(struct pab_json_in *in, const cJSON *o, const char *key,
		      int flags, char **out)
{
	const char *s;
	int got = pab_json_in_string(in, o, key, flags, &s);

	if (got == 1)
		*out = xstrdup(s);
	return got < 0 ? -1 : 0;
}

/* o.key, an object of strings, into kv. */
static int load_kv(struct pab_json_in *in, const cJSON *o, const char *key,
		   int flags, struct pab_kv **kv, size_t *n)
{
	const cJSON *map, *it;
	const char *s;
	int got = pab_json_in_object(in, o, key, flags, &map);

	if (got <= 0)
		return got;
	pab_json_in_push_key(in, key);
	cJSON_ArrayForEach(it, map) {
		pab_json_in_push_key(in, it->string);
		if (!strcmp(key, "env") && !pab_env_name_valid(it->string))
			pab_json_in_fail(in, NULL, "is not an environment variable name (empty, "
					 "or holds '=')");
		else if (pab_json_in_string(in, it, NULL, 0, &s) == 1)
			pab_kv_set(kv, n, it->string, s);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* o.key, an array of strings, into a NULL-ended argv (allocated either way). */
static int load_argv(struct pab_json_in *in, const cJSON *o, const char *key,
		     int flags, char ***argv, size_t *argc)
{
	return pab_json_in_strings(in, o, key, flags, argv, argc) < 0 ? -1 : 0;
}

/* arms[i], with the cursor at it. */
static int load_arm(struct pab_json_in *in, const cJSON *o, struct pab_arm *arm)
{
	if (!cJSON_IsObject(o))
		return pab_json_in_fail(in, NULL, "must be an object");
	if (dup_string(in, o, "name", PAB_JSON_REQUIRED, &arm->name))
		return -1;
	if (!pab_valid_arm_name(arm->name))
		return pab_json_in_fail_here(in, "arm name '%.100s' is not valid (letters, "
					     "digits, '_', '-', '.', not starting with '.' "
					     "or '-')", pab_term_safe(arm->name));
	if (load_argv(in, o, "argv", PAB_JSON_REQUIRED, &arm->argv, &arm->argc) ||
	    load_kv(in, o, "env", PAB_JSON_REQUIRED, &arm->env, &arm->n_env) ||
	    dup_string(in, o, "revision", PAB_JSON_REQUIRED | PAB_JSON_NULLABLE,
		       &arm->revision) ||
	    dup_string(in, o, "sha256", PAB_JSON_REQUIRED | PAB_JSON_NULLABLE, &arm->sha256) ||
	    dup_string(in, o, "exe", PAB_JSON_NULLABLE, &arm->exe) ||
	    dup_string(in, o, "preserved", PAB_JSON_NULLABLE, &arm->preserved) ||
	    dup_string(in, o, "prepare", PAB_JSON_NULLABLE, &arm->prepare))
		return -1;
	return 0;
}

/* 1 when s is 64 lowercase hex digits. */
static int is_sha256_hex(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return !s[64];
}

/* ARM.inputs: [{"path": "...", "role": "...", "sha256": "HEX"}, ...] into
 * row's arm a (absent: none recorded, as an empty list). 0 or -1. */
static int load_inputs(struct pab_json_in *in, const cJSON *arm_o, struct pab_row *row,
		       size_t a)
{
	static const char *const roles[] = { "argument", "LD_PRELOAD", "interpreter", NULL };
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(arm_o, "inputs"), *it;
	size_t n = 0, k;

	if (!list)
		return 0;
	if (!cJSON_IsArray(list))
		return pab_json_in_fail(in, "inputs", "must be an array");
	row->inputs[a] = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(**row->inputs));
	cJSON_ArrayForEach(it, list) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "role");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "sha256");

		for (k = 0; roles[k] && cJSON_IsString(r) && strcmp(roles[k], r->valuestring); k++)
			;
		if (!cJSON_IsString(p) || !cJSON_IsString(d) || !is_sha256_hex(d->valuestring) ||
		    !cJSON_IsString(r) || !roles[k])
			return pab_json_in_fail(in, "inputs", "must list {\"path\": STRING, \"role\": "
						"\"argument\", \"LD_PRELOAD\" or \"interpreter\", "
						"\"sha256\": 64 hex digits}");
		row->inputs[a][n].path = xstrdup(p->valuestring);
		row->inputs[a][n].role = xstrdup(r->valuestring);
		row->inputs[a][n].sha256 = xstrdup(d->valuestring);
		row->n_inputs[a] = ++n;
	}
	return 0;
}

/* rows[i].executables: {"ARM": {"path": "...", "sha256": "HEX",
 * "inputs": [...]}, ...}. */
static int load_executables(struct pab_json_in *in, const struct pab_experiment *e,
			    const cJSON *o, struct pab_row *row)
{
	const cJSON *it;

	row->exes = xcalloc(e->n_arms, sizeof(*row->exes));
	row->exe_sha256 = xcalloc(e->n_arms, sizeof(*row->exe_sha256));
	row->inputs = xcalloc(e->n_arms, sizeof(*row->inputs));
	row->n_inputs = xcalloc(e->n_arms, sizeof(*row->n_inputs));
	pab_json_in_push_key(in, "executables");
	cJSON_ArrayForEach(it, o) {
		int a = pab_experiment_arm_index(e, it->string);
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "sha256");

		if (a < 0)
			continue; /* no digest for an arm renamed by hand: resume refuses */
		if (!cJSON_IsObject(it) || !cJSON_IsString(d) ||
		    !is_sha256_hex(d->valuestring) || (p && !cJSON_IsString(p) && !cJSON_IsNull(p))) {
			pab_json_in_push_key(in, it->string);
			pab_json_in_fail(in, NULL, "must be {\"path\": STRING, \"sha256\": 64 "
					 "hex digits}");
			pab_json_in_pop(in);
			break;
		}
		row->exe_sha256[a] = xstrdup(d->valuestring);
		if (cJSON_IsString(p))
			row->exes[a] = xstrdup(p->valuestring);
		pab_json_in_push_key(in, it->string);
		load_inputs(in, it, row, (size_t)a);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* What a row records of itself besides its reps. */
static int load_row_fields(struct pab_json_in *in, const struct pab_experiment *e,
			   const cJSON *o, struct pab_row *row)
{
	const cJSON *exes, *host, *reason;
	const int opt = PAB_JSON_NULLABLE;
	int got_exes, got_host;

	if (dup_string(in, o, "workload", opt, &row->workload) ||
	    dup_string(in, o, "program", opt, &row->program) ||
	    load_argv(in, o, "argv", 0, &row->argv, &row->argc) ||
	    load_kv(in, o, "params", 0, &row->params, &row->n_params) ||
	    pab_json_in_bool(in, o, "control", PAB_JSON_REQUIRED, &row->control) < 0 ||
	    (got_exes = pab_json_in_object(in, o, "executables", 0, &exes)) < 0 ||
	    (got_exes && load_executables(in, e, exes, row)) ||
	    (got_host = pab_json_in_object(in, o, "host", opt, &host)) < 0)
		return -1;
	if (got_host)
		pab_row_host_read(host, row);
	row->failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "failed"));
	reason = cJSON_GetObjectItemCaseSensitive(o, "fail_reason");
	if (cJSON_IsString(reason))
		row->fail_reason = xstrdup(reason->valuestring);
	reason = cJSON_GetObjectItemCaseSensitive(o, "failed_arm");
	if (row->failed && cJSON_IsString(reason))
		row->failed_arm = xstrdup(reason->valuestring);
	return 0;
}

/* rows[i], with the cursor at it. */
static int load_row(struct pab_json_in *in, const struct pab_experiment *e,
		    const cJSON *o, struct pab_row *row)
{
	const cJSON *reps, *it;
	size_t r = 0;

	if (!cJSON_IsObject(o))
		return pab_json_in_fail(in, NULL, "must be an object");
	if (dup_string(in, o, "name", PAB_JSON_REQUIRED, &row->name))
		return -1;
	pab_json_in_name(in, row->name);
	if (load_row_fields(in, e, o, row) ||
	    pab_json_in_array(in, o, "reps", PAB_JSON_REQUIRED, &reps) < 0)
		return -1;
	pab_json_in_push_key(in, "reps");
	cJSON_ArrayForEach(it, reps) {
		struct pab_rep *rep = pab_row_add_rep(row, e->n_arms);

		pab_json_in_push_index(in, r++);
		pab_artifact_read_rep(in, e, it, rep);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* A journal id: 32 lowercase hex digits. */
static int valid_journal_id(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return i == 32;
}

/* "journal": {"id": "<32 hex>", "folded": N}, or null. */
static int load_journal_ref(struct pab_json_in *in, const cJSON *root,
			    struct pab_experiment *e)
{
	const cJSON *o;
	const char *id;
	size_t folded;
	int got = pab_json_in_object(in, root, "journal", PAB_JSON_NULLABLE, &o);

	if (got <= 0)
		return got;
	pab_json_in_push_key(in, "journal");
	if (pab_json_in_string(in, o, "id", PAB_JSON_REQUIRED, &id) == 1 &&
	    !valid_journal_id(id))
		pab_json_in_fail(in, "id", "must be 32 lowercase hex digits");
	if (pab_json_in_count(in, o, "folded", PAB_JSON_REQUIRED, 9007199254740991.0,
			      &folded) == 1) {
		e->journal_id = xstrdup(id);
		e->journal_folded = folded;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* schema, perfab_version, protocol: what says how to read the rest. */
static int load_identity(struct pab_json_in *in, const cJSON *root,
			 struct pab_experiment *e)
{
	const char *schema, *version, *protocol;
	const int req = PAB_JSON_REQUIRED;

	if (pab_json_in_string(in, root, "schema", req, &schema) < 0)
		return -1;
	if (strcmp(schema, PAB_SCHEMA))
		return pab_json_in_fail_here(in, "unknown schema '%.100s' (this perfab "
					     "reads '%s')", pab_term_safe(schema), PAB_SCHEMA);
	if (pab_json_in_string(in, root, "perfab_version", req, &version) < 0 ||
	    pab_json_in_string(in, root, "protocol", req, &protocol) < 0)
		return -1;
	if (strcmp(protocol, PAB_PROTOCOL_NAME))
		return pab_json_in_fail_here(in, "unknown protocol '%.100s' (this perfab "
					     "knows '%s')", pab_term_safe(protocol),
					     PAB_PROTOCOL_NAME);
	free(e->perfab_version);
	e->perfab_version = xstrdup(version);
	free(e->protocol);
	e->protocol = xstrdup(protocol);
	return 0;
}

/* complete, seed, journal, rules, tolerance, margin, reps: the run's state and rules. */
static int load_settings(struct pab_json_in *in, const cJSON *root,
			 struct pab_experiment *e)
{
	const cJSON *tol, *it;
	const char *rules;
	enum pab_rules rr;
	double seed;

	if (pab_json_in_bool(in, root, "complete", PAB_JSON_REQUIRED, &e->complete) < 0 ||
	    pab_json_in_whole(in, root, "seed", PAB_JSON_REQUIRED, 0, 9007199254740991.0,
			      NULL, &seed) < 0 ||
	    load_journal_ref(in, root, e) ||
	    pab_json_in_string(in, root, "rules", 0, &rules) < 0)
		return -1;
	e->seed = (uint64_t)seed;
	if (cJSON_GetObjectItemCaseSensitive(root, "rules")) {
		if (pab_rules_parse(rules, &rr))
			return pab_json_in_fail(in, "rules", "must be \"perfab/2\", \"perfab/1\" "
						"or \"rule12\"");
		e->rules = rr;
	}
	tol = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
	if (!cJSON_IsObject(tol))
		tol = NULL; /* as before: only an object of numbers is read */
	pab_json_in_push_key(in, "tolerance");
	cJSON_ArrayForEach(it, tol) {
		const struct pab_metric *met = pab_metric_find(it->string);

		if (!met)
			continue;
		pab_json_in_push_key(in, it->string);
		pab_json_in_number(in, it, NULL, 0, 0, 1000, NULL, &e->tolerance[met->id]);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	if (pab_json_in_failed(in) ||
	    pab_json_in_number(in, root, "equivalence_margin", 0, 0, 1000, NULL,
			       &e->equivalence_margin) < 0 ||
	    pab_json_in_count(in, root, "reps", PAB_JSON_REQUIRED, 1e9, &e->reps) < 0 ||
	    pab_json_in_count(in, root, "max_reps", PAB_JSON_REQUIRED, 1e9, &e->max_reps) < 0)
		return -1;
	return 0;
}

/* stopped_by, sanity, host, run: kept as recorded (the run's own records). */
static void load_records(const cJSON *root, struct pab_experiment *e)
{
	const cJSON *v;

	/* Another string is reserved (section 8): judged as none, as before. */
	v = cJSON_GetObjectItemCaseSensitive(root, "stopped_by");
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "sanity-gate"))
		e->stopped_by = PAB_STOP_SANITY_GATE;
	pab_records_read(cJSON_GetObjectItemCaseSensitive(root, "host"),
			 cJSON_GetObjectItemCaseSensitive(root, "sanity"),
			 cJSON_GetObjectItemCaseSensitive(root, "run"), e);
}

/* arms: 1 to 64 of them, names unique. */
static int load_arms(struct pab_json_in *in, const cJSON *root,
		     struct pab_experiment *e)
{
	const cJSON *arms = pab_json_in_get(in, root, "arms", PAB_JSON_REQUIRED), *it;
	size_t i = 0, n;

	if (!arms)
		return -1;
	if (!cJSON_IsArray(arms) || !cJSON_GetArraySize(arms))
		return pab_json_in_fail(in, "arms", "must be a non-empty array");
	n = (size_t)cJSON_GetArraySize(arms);
	if (n > 64)
		return pab_json_in_fail_here(in, "%zu arms is more than perfab handles (64)",
					     n);
	e->arms = xcalloc(n, sizeof(*e->arms));
	pab_json_in_push_key(in, "arms");
	cJSON_ArrayForEach(it, arms) {
		pab_json_in_push_index(in, i);
		e->n_arms = i + 1;
		if (!load_arm(in, it, &e->arms[i]) &&
		    pab_experiment_arm_index(e, e->arms[i].name) != (int)i)
			pab_json_in_fail_here(in, "duplicate arm name '%.100s'",
					      pab_term_safe(e->arms[i].name));
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
		i++;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/* rows: an array, possibly empty. */
static int load_rows(struct pab_json_in *in, const cJSON *root,
		     struct pab_experiment *e)
{
	const cJSON *rows, *it;
	size_t i = 0;

	if (pab_json_in_array(in, root, "rows", PAB_JSON_REQUIRED, &rows) < 0)
		return -1;
	e->rows = xcalloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof(*e->rows));
	pab_json_in_push_key(in, "rows");
	cJSON_ArrayForEach(it, rows) {
		pab_json_in_push_index(in, i);
		e->n_rows = ++i;
		load_row(in, e, it, &e->rows[i - 1]);
		pab_json_in_pop(in);
		if (pab_json_in_failed(in))
			break;
	}
	pab_json_in_pop(in);
	return pab_json_in_failed(in) ? -1 : 0;
}

/*
 * The protocol the document root records when it is not this perfab's:
 * "(none)" for none, else a copy of the name. NULL when it is this
 * perfab's.
 */
static char *foreign_protocol(const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "protocol");

	if (!cJSON_IsString(v))
		return xstrdup("(none)");
	if (strcmp(v->valuestring, PAB_PROTOCOL_NAME))
		return xstrdup(v->valuestring);
	return NULL;
}

/*
 * A document given where an artifact is due that is recognisably
 * something else, said as what it is and what to give instead (new
 * memory), or NULL: hyperfine's --export-json output, perfab's own ledger
 * and calibration files, an artifact of a newer schema. The first file a
 * new user hands perfab ledger is often one of these, and "missing field
 * 'schema'" tells them nothing.
 */
static char *recognise_other(const cJSON *root)
{
	static const struct {
		const char *prefix, *what;
	} ours[] = {
		{ "perfab-ledger/", "a ledger (perfab ledger --format json), not an artifact: "
		  "give perfab ledger the artifact it was made from (perfab run --out FILE)" },
		{ "perfab-calibration/", "a calibration file (perfab calibrate), "
		  "not an artifact: give it to perfab run --calibration FILE" },
		{ "perfab-memgate/", "a memory-gate baseline (perfab memgate record), "
		  "not an artifact: give it to perfab memgate check --baseline FILE" },
	};
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
	/* PAB_SCHEMA is "NAME/VERSION": the same NAME and a greater VERSION. */
	const char *slash = strchr(PAB_SCHEMA, '/');
	size_t name_len = (size_t)(slash - PAB_SCHEMA) + 1, i;
	uint64_t version, ours_version;

	if (!schema && cJSON_IsArray(results) && cJSON_IsObject(results->child) &&
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(results->child, "command")) &&
	    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(results->child, "mean")))
		return xstrdup("hyperfine's --export-json output, not a perfab artifact: perfab "
			       "judges the artifacts of its own runs (perfab run --out FILE "
			       "CMD_BASE CMD_HEAD, then perfab ledger FILE)");
	if (!cJSON_IsString(schema))
		return NULL;
	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (!strncmp(schema->valuestring, ours[i].prefix, strlen(ours[i].prefix)))
			return xstrdup(ours[i].what);
	if (parse_u64(slash + 1, 1, UINT64_MAX, &ours_version))
		BUG("PAB_SCHEMA '%s' is not NAME/VERSION", PAB_SCHEMA);
	if (!strncmp(schema->valuestring, PAB_SCHEMA, name_len) &&
	    !parse_u64(schema->valuestring + name_len, 1, UINT64_MAX, &version) &&
	    version > ours_version)
		return xasprintf("written by a newer perfab (schema %.100s); this perfab reads "
				 "%s: upgrade perfab", pab_term_safe(schema->valuestring),
				 PAB_SCHEMA);
	return NULL;
}

/* pab_artifact_parse, and the foreign protocol of a document that fails
 * (NULL: none) into *foreign when foreign is not NULL. */
static int parse_text(const char *text, size_t len, struct pab_experiment *e,
		      char **foreign, char **why)
{
	struct pab_json_in in;
	cJSON *root;
	int ret = -1;

	pab_experiment_init(e);
	if (foreign)
		*foreign = NULL;
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	root = pab_json_in_parse(&in, text, len, NULL);
	if (!root)
		goto out_fail;
	if (!cJSON_IsObject(root)) {
		pab_json_in_fail_here(&in, "the top level must be a JSON object");
		goto out_fail;
	}
	/* A foreign protocol fails load_identity(), so it is only ever kept
	 * with a failure. */
	if (foreign)
		*foreign = foreign_protocol(root);
	*why = recognise_other(root);
	if (*why) {
		if (foreign) {
			free(*foreign); /* not an artifact: no protocol to compare */
			*foreign = NULL;
		}
		goto out_release;
	}
	if (load_identity(&in, root, e) || load_settings(&in, root, e))
		goto out_fail;
	load_records(root, e);
	if (load_arms(&in, root, e) || load_rows(&in, root, e) ||
	    pab_attribution_json_read(&in, root, e))
		goto out_fail;
	if (pab_experiment_check_protocol(e, why)) {
		ret = PAB_ARTIFACT_BAD_PROTOCOL;
		goto out_release;
	}
	cJSON_Delete(root);
	pab_json_in_release(&in);
	*why = NULL;
	return 0;

out_fail:
	*why = pab_json_in_take_why(&in);
	if (!*why)
		*why = xstrdup("invalid artifact");
out_release:
	cJSON_Delete(root);
	pab_json_in_release(&in);
	pab_experiment_release(e);
	return ret;
}

int pab_artifact_parse(const char *text, size_t len,
		       struct pab_experiment *e, char **why)
{
	return parse_text(text, len, e, NULL, why);
}

/* pab_artifact_load_journaled, and pab_artifact_load_foreign's *foreign
 * when foreign is not NULL. */
static int load_file(const char *path, struct pab_experiment *e,
		     struct pab_journal_info *info, char **foreign, char **why)
{
	size_t len;
	char *text = NULL;
	char *inner;
	struct stat st;
	size_t max;
	int ret;

	if (info)
		memset(info, 0, sizeof(*info));
	if (foreign)
		*foreign = NULL;

	/* Giants are refused before reading a byte; a pipe or device (e.g.
	 * /dev/stdin) is read with a smaller cap, so /dev/zero ends quickly. */
	if (!stat(path, &st) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > PAB_ARTIFACT_MAX_BYTES) {
		pab_experiment_init(e);
		pab_experiment_release(e);
		*why = xasprintf("cannot read '%s': %lld bytes is more than perfab reads (%zu)",
				 path, (long long)st.st_size, PAB_ARTIFACT_MAX_BYTES);
		return -1;
	}
	max = !stat(path, &st) && !S_ISREG(st.st_mode) ? PAB_STREAM_MAX_BYTES
						       : PAB_ARTIFACT_MAX_BYTES;
	text = read_file_max(path, max, &len);
	if (!text) {
		pab_experiment_init(e);
		pab_experiment_release(e);
		*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = parse_text(text, len, e, foreign, &inner);
	free(text);
	if (ret) {
		*why = xasprintf("'%s': %s", path, inner);
		free(inner);
		return ret;
	}
	/* The journal beside a regular file completes it (journal.h). */
	if (!stat(path, &st) && S_ISREG(st.st_mode)) {
		struct pab_journal_info tmp;

		ret = pab_checkpoint_apply(path, e, info ? info : &tmp, why);
		if (ret)
			pab_experiment_release(e);
	}
	return ret;
}

int pab_artifact_load(const char *path, struct pab_experiment *e, char **why)
{
	return load_file(path, e, NULL, NULL, why);
}

int pab_artifact_load_journaled(const char *path, struct pab_experiment *e,
				struct pab_journal_info *info, char **why)
{
	return load_file(path, e, info, NULL, why);
}

int pab_artifact_load_foreign(const char *path, struct pab_experiment *e,
			      char **foreign, char **why)
{
	return load_file(path, e, NULL, foreign, why);
}
