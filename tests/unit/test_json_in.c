/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_json_in.c — unit tests of the checked JSON reader (store/json_in):
 * what the strict parse refuses (NUL escapes, trailing data, duplicate
 * keys), the cursor's typed accessors (type errors, ranges, missing and
 * null fields, first problem wins) and the paths its messages name; then
 * the readers built on it, on small texts: the artifact loader and the
 * config reader. Messages are compared whole: they are what a user reads.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_run.h"
#include "store/artifact_read.h"
#include "model/experiment.h"
#include "store/json_in.h"
#include "model/rotation.h"
#include "run/runconf.h"
#include "util.h"

#include "unit.h"

/* pab_json_parse(s): NULL expected, and the reason; returns the reason (new). */
static char *parse_refused(const char *s)
{
	char *why = NULL;
	cJSON *root = pab_json_parse(s, strlen(s), &why);

	ck_assert_msg(!root, "'%s' was accepted", s);
	ck_assert_ptr_nonnull(why);
	return why;
}

START_TEST(parse_refuses_what_readers_disagree_on)
{
	char *why;
	cJSON *root;

	why = parse_refused("{\"a\": \"x\\u0000y\"}");
	ck_assert_str_eq(why, "a string holds \\u0000 (at byte 8): NUL is not allowed in "
			 "perfab's JSON");
	free(why);
	why = parse_refused("{\"a\": 1} {\"b\": 2}");
	ck_assert_str_eq(why, "not valid JSON (data after the top-level value, at byte 9)");
	free(why);
	why = parse_refused("{\"a\": 1}x");
	ck_assert_str_eq(why, "not valid JSON (data after the top-level value, at byte 8)");
	free(why);
	why = parse_refused("{\"a\": {\"b\": 1, \"c\": 2, \"b\": 3}}");
	ck_assert_str_eq(why, "an object holds the key 'b' twice: JSON readers disagree on "
			 "which one counts");
	free(why);
	why = parse_refused("{\"a\": [1, 2,]}");
	ck_assert_ptr_nonnull(strstr(why, "not valid JSON (error near byte"));
	free(why);
	why = parse_refused("");
	ck_assert_ptr_nonnull(strstr(why, "not valid JSON"));
	free(why);
	/* What is fine: an escaped backslash before "u0000", trailing blanks. */
	root = pab_json_parse("{\"a\": \"\\\\u0000\"} \n\t", 19, &why);
	ck_assert_ptr_nonnull(root);
	ck_assert_ptr_null(why);
	ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "a")->valuestring, "\\u0000");
	cJSON_Delete(root);
}
END_TEST

/* A tree for the cursor tests (caller deletes). */
static cJSON *tree(const char *s)
{
	char *why = NULL;
	cJSON *root = pab_json_parse(s, strlen(s), &why);

	ck_assert_msg(root != NULL, "'%s': %s", s, why ? why : "?");
	return root;
}

/* The cursor's message (taken), compared with want; the cursor is released. */
static void check_why(struct pab_json_in *in, const char *want)
{
	char *why = pab_json_in_take_why(in);

	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, want);
	free(why);
	pab_json_in_release(in);
}

START_TEST(cursor_names_the_path)
{
	cJSON *root = tree("{\"rows\": [{}, {}, {\"name\": \"sort\", \"reps\": [0, 1, 2, 3, 4,"
			   " {\"results\": {\"head\": {\"cpu\": \"fast\"}}}]}]}");
	const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "rows"), 2);
	const cJSON *rep = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(row, "reps"), 5);
	const cJSON *head = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(rep, "results"), "head");
	struct pab_json_in in;
	double x = 7;

	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	pab_json_in_push_key(&in, "rows");
	pab_json_in_push_index(&in, 2);
	pab_json_in_name(&in, "sort");
	pab_json_in_push_key(&in, "reps");
	pab_json_in_push_index(&in, 5);
	pab_json_in_push_key(&in, "results");
	pab_json_in_push_key(&in, "head");
	/* A map entry: pushed, read with key NULL; the whole path is named. */
	pab_json_in_push_key(&in, "cpu");
	ck_assert_int_eq(pab_json_in_number(&in, cJSON_GetObjectItemCaseSensitive(head, "cpu"),
					    NULL, 0, 0, 1e300, NULL, &x), -1);
	ck_assert(x == 7); /* untouched */
	pab_json_in_pop(&in);
	check_why(&in, "rows[2] ('sort').reps[5].results.head.cpu must be a number in "
		  "[0, 1e+300]");

	/* A field of a record, in each style; pops go back exactly. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	pab_json_in_push_key(&in, "rows");
	pab_json_in_push_index(&in, 2);
	pab_json_in_name(&in, "sort");
	pab_json_in_push_key(&in, "reps");
	pab_json_in_pop(&in);
	ck_assert_int_eq(pab_json_in_bool(&in, row, "name", 0, &(int){ 0 }), -1);
	check_why(&in, "rows[2] ('sort'): field 'name' must be true or false");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, "config 'c.json'", NULL);
	pab_json_in_push_key(&in, "rows");
	pab_json_in_push_index(&in, 2);
	ck_assert_int_eq(pab_json_in_bool(&in, row, "name", 0, &(int){ 0 }), -1);
	check_why(&in, "config 'c.json': rows[2].name must be true or false");
	/* At the top: the root name, or the key quoted. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	ck_assert_int_eq(pab_json_in_string(&in, root, "rows", 0, &(const char *){ NULL }), -1);
	check_why(&in, "artifact: field 'rows' must be a string");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	ck_assert_int_eq(pab_json_in_object(&in, root, "rows", 0, &(const cJSON *){ NULL }), -1);
	check_why(&in, "'rows' must be an object");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, "run");
	ck_assert_int_eq(pab_json_in_array(&in, row, "name", PAB_JSON_NULLABLE,
					   &(const cJSON *){ NULL }), -1);
	check_why(&in, "run.name must be an array or null");
	/* Said where, not as a field. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	pab_json_in_push_key(&in, "arms");
	pab_json_in_push_index(&in, 1);
	pab_json_in_fail_here(&in, "duplicate arm name '%s'", "base");
	check_why(&in, "arms[1]: duplicate arm name 'base'");
	/* Names a terminal must not interpret are escaped in paths. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	pab_json_in_push_key(&in, "env");
	pab_json_in_push_key(&in, "\x1b]0;x\x07");
	pab_json_in_fail(&in, NULL, "must be a string");
	check_why(&in, "env.\\x1b]0;x\\x07 must be a string");
	cJSON_Delete(root);
}
END_TEST

START_TEST(cursor_checks_ranges)
{
	cJSON *root = tree("{\"max_procs\": 5000, \"half\": 1.5, \"neg\": -1, \"big\": 1e400,"
			   " \"ok\": 4096, \"s\": \"12\", \"seed\": 9007199254740992}");
	struct pab_json_in in;
	double x = 0;
	size_t n = 0;

	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, "run");
	ck_assert_int_eq(pab_json_in_whole(&in, root, "ok", 0, 1, 4096, NULL, &x), 1);
	ck_assert(x == 4096);
	ck_assert_int_eq(pab_json_in_whole(&in, root, "max_procs", 0, 1, 4096,
					   "the range of --max-procs", &x), -1);
	check_why(&in, "run.max_procs must be a whole number in [1, 4096] (the range of "
		  "--max-procs)");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, "run");
	ck_assert_int_eq(pab_json_in_whole(&in, root, "half", 0, 0, 10, NULL, &x), -1);
	check_why(&in, "run.half must be a whole number in [0, 10]");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	ck_assert_int_eq(pab_json_in_count(&in, root, "neg", 0, 1e9, &n), -1);
	check_why(&in, "artifact: field 'neg' must be a whole number in [0, 1000000000]");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	ck_assert_int_eq(pab_json_in_count(&in, root, "seed", 0, 9007199254740991.0, &n), -1);
	check_why(&in, "artifact: field 'seed' must be a whole number in [0, 9007199254740991]");
	/* Not finite (1e400 reads as infinity), a string, bounds that are not whole. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	ck_assert_int_eq(pab_json_in_number(&in, root, "big", 0, -1e300, 1e300, NULL, &x), -1);
	check_why(&in, "'big' must be a number in [-1e+300, 1e+300]");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	ck_assert_int_eq(pab_json_in_number(&in, root, "s", 0, 1e-6, 0.5, NULL, &x), -1);
	check_why(&in, "'s' must be a number in [1e-06, 0.5]");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	ck_assert_int_eq(pab_json_in_finite(&in, root, "big", PAB_JSON_NULLABLE, 1e300, &x), -1);
	check_why(&in, "'big' must be a finite number (|x| <= 1e+300) or null");
	cJSON_Delete(root);
}
END_TEST

START_TEST(cursor_absent_null_and_first_problem)
{
	cJSON *root = tree("{\"a\": null, \"b\": true, \"c\": \"x\", \"d\": 3, \"e\": {\"z\": 1}}");
	struct pab_json_in in;
	const char *s = "unset";
	int flag = -1;
	double x = -1;

	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	/* Absent and optional: 0, nothing set, no problem. */
	ck_assert_int_eq(pab_json_in_string(&in, root, "nope", 0, &s), 0);
	ck_assert_str_eq(s, "unset");
	/* Null where null is allowed: 0; where it is not: a type error. */
	ck_assert_int_eq(pab_json_in_string(&in, root, "a", PAB_JSON_NULLABLE, &s), 0);
	ck_assert_int_eq(pab_json_in_bool(&in, root, "b", PAB_JSON_REQUIRED, &flag), 1);
	ck_assert_int_eq(flag, 1);
	ck_assert(!pab_json_in_failed(&in));
	ck_assert_int_eq(pab_json_in_string(&in, root, "a", 0, &s), -1);
	ck_assert(pab_json_in_failed(&in));
	/* After a problem every call is -1 and the first message stays. */
	ck_assert_int_eq(pab_json_in_number(&in, root, "d", 0, 0, 10, NULL, &x), -1);
	ck_assert(x == -1);
	ck_assert_int_eq(pab_json_in_string(&in, root, "c", 0, &s), -1);
	ck_assert_ptr_null(pab_json_in_get(&in, root, "c", 0));
	pab_json_in_fail(&in, "d", "must be something else");
	check_why(&in, "artifact: field 'a' must be a string");
	/* Required and absent: where it is missing. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_QUOTED, NULL, "artifact");
	ck_assert_int_eq(pab_json_in_count(&in, root, "seed", PAB_JSON_REQUIRED, 10,
					   &(size_t){ 0 }), -1);
	check_why(&in, "artifact: missing field 'seed'");
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, "config 'c.json'", NULL);
	pab_json_in_push_key(&in, "arms");
	pab_json_in_push_index(&in, 0);
	ck_assert_ptr_null(pab_json_in_get(&in, root, "name", PAB_JSON_REQUIRED));
	check_why(&in, "config 'c.json': arms[0]: missing field 'name'");
	/* Unknown keys: a typo does not vanish. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, "config 'c.json'", NULL);
	ck_assert_int_eq(pab_json_in_known_keys(&in, root, (const char *const[]){
		"a", "b", "c", "d", NULL }), -1);
	check_why(&in, "config 'c.json': the top level: unknown key 'e'");
	/* Every unknown key in one message, the likely spelling with it; the
	 * keys noted across objects are joined, the ninth on only counted. */
	{
		cJSON *o = cJSON_Parse("{\"sed\": 1, \"x1\": 1, \"x2\": 1, \"x3\": 1, "
				       "\"x4\": 1, \"x5\": 1, \"x6\": 1, \"x7\": 1, "
				       "\"x8\": 1, \"x9\": 1}");
		const char *const known[] = { "seed", "reps", NULL };

		pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, "config 'c.json'", NULL);
		ck_assert_int_eq(pab_json_in_note_unknown_keys(&in, o, known), -1);
		ck_assert_int_eq(pab_json_in_failed(&in), 0);
		pab_json_in_push_key(&in, "rows");
		pab_json_in_push_index(&in, 3);
		ck_assert_int_eq(pab_json_in_note_unknown_keys(&in, o, known), -1);
		ck_assert_int_eq(pab_json_in_fail_unknown_keys(&in), -1);
		check_why(&in, "config 'c.json': the top level: unknown keys 'sed' (did you mean "
			  "'seed'?), 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', and 2 more; "
			  "rows[3]: 10 unknown keys");
		pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
		ck_assert_int_eq(pab_json_in_note_unknown_keys(&in, root, (const char *const[]){
			"a", "b", "c", "d", "e", NULL }), 0);
		ck_assert_int_eq(pab_json_in_fail_unknown_keys(&in), 0);
		ck_assert_ptr_null(pab_json_in_take_why(&in));
		pab_json_in_release(&in);
		cJSON_Delete(o);
	}
	/* The parse's refusal, with the prefix and a wrapper. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, "config 'c.json'", NULL);
	ck_assert_ptr_null(pab_json_in_parse(&in, "[1] 2", 5, "not a JSON object"));
	check_why(&in, "config 'c.json': not a JSON object: not valid JSON (data after the "
		  "top-level value, at byte 4)");
	/* No problem: nothing to take, and release is enough. */
	pab_json_in_init(&in, PAB_JSON_IN_FIELDS_DOTTED, NULL, NULL);
	ck_assert_ptr_null(pab_json_in_take_why(&in));
	pab_json_in_release(&in);
	cJSON_Delete(root);
}
END_TEST

/* A minimal valid artifact, with @ROWS@ replaced by rows (new memory). */
static char *artifact_text(const char *rows)
{
	return xasprintf("{\"schema\": \"" PAB_SCHEMA "\", \"perfab_version\": \"t\","
			 " \"protocol\": \"" PAB_PROTOCOL_NAME "\", \"complete\": true,"
			 " \"seed\": 1, \"reps\": 2, \"max_reps\": 2,"
			 " \"arms\": [{\"name\": \"base\", \"argv\": [\"/bin/true\"], \"env\": {},"
			 " \"revision\": null, \"sha256\": null},"
			 " {\"name\": \"head\", \"argv\": [\"/bin/true\"], \"env\": {},"
			 " \"revision\": null, \"sha256\": null}],"
			 " \"rows\": [%s]}", rows);
}

/* Parse text as an artifact; want NULL: it loads, else the reason it does not. */
static void check_artifact(char *text, const char *want)
{
	struct pab_experiment e;
	char *why = NULL;
	int ret = pab_artifact_parse(text, strlen(text), &e, &why);

	if (!want) {
		ck_assert_msg(ret == 0, "refused: %s", why ? why : "?");
		pab_experiment_release(&e);
	} else {
		ck_assert_int_eq(ret, -1);
		ck_assert_ptr_nonnull(why);
		ck_assert_str_eq(why, want);
		free(why);
	}
	free(text);
}

#define REP(block, order, base_cpu) \
	"{\"block\": " block ", \"order\": " order ", \"results\": {\"base\": {\"cpu\": " \
	base_cpu "}, \"head\": {\"cpu\": 2}}}"

START_TEST(artifact_loader_names_the_field)
{
	char *t;

	check_artifact(artifact_text(""), NULL);
	check_artifact(artifact_text("{\"name\": \"r\", \"control\": false, \"reps\": ["
				     REP("0", "[\"base\", \"head\"]", "1") ", "
				     REP("0", "[\"head\", \"base\"]", "null") "]}"), NULL);
	/* A rep with a non-number. */
	check_artifact(artifact_text("{\"name\": \"r\", \"control\": false, \"reps\": ["
				     REP("0", "[\"base\", \"head\"]", "1") ", "
				     REP("0", "[\"head\", \"base\"]", "\"fast\"") "]}"),
		       "rows[0] ('r').reps[1].results.base.cpu must be a finite number "
		       "(|x| <= 1e+300) or null");
	check_artifact(artifact_text("{\"name\": \"r\", \"control\": false, \"reps\": ["
				     REP("0.5", "[\"base\", \"head\"]", "1") "]}"),
		       "rows[0] ('r').reps[0]: field 'block' must be a whole number in "
		       "[0, 1000000000000]");
	check_artifact(artifact_text("{\"name\": \"r\", \"control\": false, \"reps\": ["
				     REP("0", "[\"base\", \"base\"]", "1") "]}"),
		       "rows[0] ('r').reps[0].order must list each of the 2 arms once");
	/* A number where a string belongs. */
	t = artifact_text("");
	memcpy(strstr(t, "\"name\": \"base\""), "\"name\":     5 ", 14);
	check_artifact(t, "arms[0]: field 'name' must be a string");
	t = artifact_text("{\"name\": 7, \"control\": false, \"reps\": []}");
	check_artifact(t, "rows[0]: field 'name' must be a string");
	/* A missing key, at the top and in a row. */
	t = artifact_text("");
	memcpy(strstr(t, "\"seed\": 1,"), "\"sxxd\": 1,", 10);
	check_artifact(t, "artifact: missing field 'seed'");
	check_artifact(artifact_text("{\"name\": \"r\", \"reps\": []}"),
		       "rows[0] ('r'): missing field 'control'");
	check_artifact(artifact_text("{\"name\": \"r\", \"control\": false, \"reps\": "
				     "[{\"block\": 0, \"order\": [\"base\", \"head\"],"
				     " \"results\": {\"base\": {}}}]}"),
		       "rows[0] ('r').reps[0].results: missing object for arm 'head'");
	check_artifact(artifact_text("{\"name\": \"r\", \"control\": false, \"argv\": [\"a\", 1],"
				     " \"reps\": []}"),
		       "rows[0] ('r').argv[1] must be a string");
	/* The strict parse guards the loader too. */
	check_artifact(artifact_text("{\"name\": \"r\", \"name\": \"s\", \"control\": false,"
				     " \"reps\": []}"),
		       "an object holds the key 'name' twice: JSON readers disagree on "
		       "which one counts");
}
END_TEST

/* Parse text as a config; want NULL: accepted, else the reason it is not. */
static void check_config(const char *text, const char *want)
{
	struct pab_experiment e;
	struct pab_config_settings s;
	char *why = NULL;
	int ret;

	pab_experiment_init(&e);
	ret = pab_config_parse(text, strlen(text), "c.json", pab_run_options(), &e, &s, &why);
	if (!want) {
		ck_assert_msg(ret == 0, "refused: %s", why ? why : "?");
	} else {
		ck_assert_int_eq(ret, -1);
		ck_assert_ptr_nonnull(why);
		ck_assert_str_eq(why, want);
		free(why);
	}
	pab_config_settings_release(&s);
	pab_experiment_release(&e);
}

START_TEST(config_reader_names_the_field)
{
	check_config("{\"arms\": [{\"name\": \"base\", \"argv\": \"/bin/true\"}], \"reps\": 4,"
		     " \"timeout\": 0}", NULL);
	check_config("{\"rows\": [{\"name\": \"r\", \"control\": 1}]}",
		     "config 'c.json': rows[0].control must be true or false");
	/* The range is --reps' own (the option table), said so. */
	check_config("{\"reps\": 0}",
		     "config 'c.json': 'reps' must be a number in [1, 1000000] (the range "
		     "of --reps)");
	check_config("{\"scale\": 1e7}",
		     "config 'c.json': 'scale' must be a number in [1e-06, 1000000] (the "
		     "range of --scale)");
	check_config("{\"arms\": [{\"name\": \"base\", \"env\": {\"K\": [1]}}]}",
		     "config 'c.json': arms[0].env.K must be a string or a number");
	check_config("{\"arms\": [{\"name\": \"base\", \"argv\": [\"a\", null]}]}",
		     "config 'c.json': arms[0].argv[1] must be a string");
	check_config("{\"arms\": [{\"name\": \"base\", \"rev\": \"1\"}]}",
		     "config 'c.json': arms[0]: unknown key 'rev' (did you mean 'revision'?)");
	check_config("{\"controls\": 5}", "config 'c.json': 'controls' must be a string");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json-in");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_refuses_what_readers_disagree_on);
	tcase_add_test(tc, cursor_names_the_path);
	tcase_add_test(tc, cursor_checks_ranges);
	tcase_add_test(tc, cursor_absent_null_and_first_problem);
	tcase_add_test(tc, artifact_loader_names_the_field);
	tcase_add_test(tc, config_reader_names_the_field);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
