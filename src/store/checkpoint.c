/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * checkpoint.c — the journal bound to its artifact (checkpoint.h): the
 * records written for it and the reps read back into it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/artifact_rep.h"
#include "store/checkpoint.h"
#include "store/journal.h"
#include "store/json_in.h"
#include "store/json_out.h"
#include "term.h"
#include "util.h"

char *pab_artifact_journal_path(const char *path)
{
	return xasprintf("%s.journal", path);
}

/* Start writing into a memory buffer (caller: finish_memstream); NULL + why. */
static FILE *start_memstream(char **buf, size_t *len, char **why)
{
	FILE *f = open_memstream(buf, len);

	*why = NULL;
	if (!f)
		*why = xasprintf("cannot start a journal record: %s", strerror(errno));
	return f;
}

/* The record written to f (new memory), or NULL + why. */
static char *finish_memstream(FILE *f, char **buf, size_t *len, char **why)
{
	if (fclose(f)) {
		*why = xasprintf("cannot build a journal record: %s", strerror(errno));
		free(*buf);
		*buf = NULL;
		return NULL;
	}
	return *buf ? *buf : (*len = 0, xstrdup(""));
}

char *pab_artifact_journal_header(const struct pab_experiment *e, size_t *len,
				  char **why)
{
	char *buf = NULL;
	FILE *f = start_memstream(&buf, len, why);
	struct jw w = { f };

	if (!e->journal_id)
		BUG("journal header without a journal id");
	if (!f)
		return NULL;
	fputc('{', f);
	jw_key(&w, "journal"); jw_str(&w, PAB_JOURNAL_SCHEMA); fputc(',', f);
	jw_key(&w, "artifact_schema"); jw_str(&w, e->schema); fputc(',', f);
	jw_key(&w, "id"); jw_str(&w, e->journal_id); fputc(',', f);
	jw_key(&w, "seed"); jw_num(&w, (double)e->seed);
	fputc('}', f);
	return finish_memstream(f, &buf, len, why);
}

char *pab_artifact_rep_record(const struct pab_experiment *e, size_t row,
			      size_t *len, char **why)
{
	const struct pab_row *r = &e->rows[row];
	char *buf = NULL;
	FILE *f = start_memstream(&buf, len, why);
	struct jw w = { f };

	if (!r->n_reps)
		BUG("journal record of row '%s' without a rep", r->name);
	if (!f)
		return NULL;
	fprintf(f, "{\"row\":%zu,", row);
	jw_key(&w, "name"); jw_str(&w, r->name);
	fprintf(f, ",\"rep\":%zu,\"failed\":%s,", r->n_reps - 1,
		r->failed ? "true" : "false");
	jw_key(&w, "fail_reason"); jw_str_or_null(&w, r->fail_reason);
	if (r->failed_arm) {
		fputc(',', f); jw_key(&w, "failed_arm"); jw_str(&w, r->failed_arm);
	}
	fputs(",\"data\":", f);
	pab_artifact_write_rep(&w, e, &r->reps[r->n_reps - 1]);
	fputc('}', f);
	return finish_memstream(f, &buf, len, why);
}

/* Check the header (record 0) binds the journal to e; 0 or -1 + why. */
static int check_journal_header(const char *jpath, const char *path,
				const struct pab_experiment *e,
				const struct pab_journal_record *h, char **why)
{
	char *inner;
	cJSON *root = pab_json_parse(h->payload, h->len, &inner);
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(root, "journal");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
	int ret = -1;

	if (!root) {
		*why = xasprintf("'%s': its header: %s", jpath, inner);
		free(inner);
	} else if (!cJSON_IsString(kind) || strcmp(kind->valuestring, PAB_JOURNAL_SCHEMA) ||
	    !cJSON_IsString(id) || !cJSON_IsNumber(seed)) {
		*why = xasprintf("'%s' is not a %s journal (its header lacks the journal "
				 "kind, id or seed): move it away from '%s'", jpath,
				 PAB_JOURNAL_SCHEMA, path);
	} else if (!e->journal_id) {
		*why = xasprintf("'%s' (journal id %.40s) lies beside '%s', which names no "
				 "journal: they do not belong together; move the journal away",
				 jpath, pab_term_safe(id->valuestring), path);
	} else if (strcmp(id->valuestring, e->journal_id) ||
		   seed->valuedouble != (double)e->seed) {
		*why = xasprintf("'%s' belongs to another run (journal id %.40s, seed %.0f) "
				 "than '%s' (journal id %s, seed %llu): move it away or delete it",
				 jpath, pab_term_safe(id->valuestring), seed->valuedouble, path,
				 e->journal_id,
				 (unsigned long long)e->seed);
	} else if (h->seq > e->journal_folded) {
		*why = xasprintf("'%s' starts after record %llu, but '%s' holds the reps of "
				 "records up to %llu only: records are missing",
				 jpath, (unsigned long long)h->seq, path,
				 (unsigned long long)e->journal_folded);
	} else {
		ret = 0;
	}
	cJSON_Delete(root);
	return ret;
}

/*
 * The row of e a journal record names, by index and name, for the rep it
 * holds next; NULL after recording why not in the cursor.
 */
static struct pab_row *record_row(struct pab_json_in *in, struct pab_experiment *e,
				  const cJSON *root)
{
	const double max = 9007199254740991.0;
	const char *name;
	double row, rep;
	struct pab_row *r;

	if (pab_json_in_whole(in, root, "row", PAB_JSON_REQUIRED, 0, max, NULL, &row) < 0 ||
	    pab_json_in_string(in, root, "name", PAB_JSON_REQUIRED, &name) < 0 ||
	    pab_json_in_whole(in, root, "rep", PAB_JSON_REQUIRED, 0, max, NULL, &rep) < 0)
		return NULL;
	if (row >= (double)e->n_rows || strcmp(e->rows[(size_t)row].name, name)) {
		pab_json_in_fail_here(in, "names row %.0f '%.100s', which the artifact does "
				      "not have there", row, pab_term_safe(name));
		return NULL;
	}
	r = &e->rows[(size_t)row];
	if (rep != (double)r->n_reps) {
		pab_json_in_fail_here(in, "holds rep %.0f of row '%.100s', which has %zu: it "
				      "does not continue the artifact", rep + 1,
				      pab_term_safe(r->name), r->n_reps);
		return NULL;
	}
	return r;
}

/* Add the rep of journal record rec to e; 0 or -1 + why. */
static int apply_record(const char *jpath, struct pab_experiment *e,
			const struct pab_journal_record *rec, char **why)
{
	char *prefix = xasprintf("'%s': record %llu", jpath, (unsigned long long)rec->seq);
	struct pab_json_in in;
	const cJSON *data, *reason;
	struct pab_row *r = NULL;
	cJSON *root;

	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, prefix, NULL);
	root = pab_json_in_parse(&in, rec->payload, rec->len, NULL);
	if (root && !cJSON_IsObject(root))
		pab_json_in_fail_here(&in, "not a rep record (not a JSON object)");
	if (root && !pab_json_in_failed(&in))
		r = record_row(&in, e, root);
	if (r && pab_json_in_object(&in, root, "data", PAB_JSON_REQUIRED, &data) == 1) {
		pab_json_in_push_key(&in, "data");
		pab_artifact_read_rep(&in, e, data, pab_row_add_rep(r, e->n_arms));
		pab_json_in_pop(&in);
	}
	if (!pab_json_in_failed(&in) &&
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "failed"))) {
		r->failed = 1;
		reason = cJSON_GetObjectItemCaseSensitive(root, "fail_reason");
		if (cJSON_IsString(reason) && !r->fail_reason)
			r->fail_reason = xstrdup(reason->valuestring);
		reason = cJSON_GetObjectItemCaseSensitive(root, "failed_arm");
		if (cJSON_IsString(reason) && !r->failed_arm)
			r->failed_arm = xstrdup(reason->valuestring);
	}
	*why = pab_json_in_take_why(&in);
	cJSON_Delete(root);
	pab_json_in_release(&in);
	free(prefix);
	return *why ? -1 : 0;
}

int pab_checkpoint_apply(const char *path, struct pab_experiment *e,
			 struct pab_journal_info *info, char **why)
{
	char *jpath = pab_artifact_journal_path(path), *inner;
	struct pab_journal_contents c;
	size_t i;
	int ret;

	ret = pab_journal_read(jpath, &c, &inner);
	if (ret == 1) {
		free(jpath);
		return 0;
	}
	if (ret < 0) {
		*why = xasprintf("cannot trust the checkpoint journal of '%s': %s", path, inner);
		free(inner);
		free(jpath);
		return -1;
	}
	info->present = 1;
	info->torn = c.torn;
	info->torn_bytes = c.torn_bytes;
	ret = 0;
	if (c.n)
		ret = check_journal_header(jpath, path, e, &c.records[0], why);
	for (i = 1; !ret && i < c.n; i++) {
		if (c.records[i].seq <= e->journal_folded)
			continue; /* its rep is in the artifact already */
		if (e->complete) {
			*why = xasprintf("'%s' holds reps recorded after '%s' was complete: "
					 "they do not belong together; move the journal away",
					 jpath, path);
			ret = -1;
			break;
		}
		ret = apply_record(jpath, e, &c.records[i], why);
		if (!ret) {
			e->journal_folded = c.records[i].seq;
			info->applied++;
		}
	}
	/* The journal's reps are data like the artifact's: the same protocol
	 * check (orders, blocks, balance) holds for the whole. */
	if (!ret && info->applied && pab_experiment_check_protocol(e, &inner)) {
		*why = xasprintf("'%s' with its journal '%s': %s", path, jpath, inner);
		free(inner);
		ret = PAB_ARTIFACT_BAD_PROTOCOL;
	}
	pab_journal_contents_release(&c);
	free(jpath);
	return ret;
}
