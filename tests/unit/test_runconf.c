/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_runconf.c — reading a config (src/run/runconf.h) from strings: the
 * documented example and the other spellings it allows, read field by
 * field; one table of bad configs, each refused with the reason
 * tests/e2e/reliability_hostile_inputs.sh greps the command's error for (plus the
 * keys it does not try), always naming the config; --arm specs, the
 * --tolerance items and durations.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/experiment.h"
#include "model/metrics.h"
#include "cmd_run.h"
#include "run/runconf.h"
#include "util.h"

#include "unit.h"

/* Parse text as config "test.json" into *e and *s (both released by the
 * caller); returns pab_config_parse()'s result, the reason in *why. */
static int parse(const char *text, struct pab_experiment *e, struct pab_config_settings *s,
		 char **why)
{
	pab_experiment_init(e);
	return pab_config_parse(text, strlen(text), "test.json", pab_run_options(), e, s, why);
}

static void release(struct pab_experiment *e, struct pab_config_settings *s)
{
	pab_config_settings_release(s);
	pab_experiment_release(e);
}

static const char *kv_get(const struct pab_kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

/* The example of runconf.h (and perfab(1) CONFIG), every key given. */
START_TEST(documented_example)
{
	static const char text[] =
		"{ \"arms\": [ { \"name\": \"base\", \"argv\": [\"./old/bench\"],\n"
		"              \"env\": {\"K\": \"V\", \"N\": 4}, \"revision\": \"v1.2\" },\n"
		"            { \"name\": \"head\", \"argv\": \"./new/bench --fast 'a b'\" } ],\n"
		"  \"rows\": [ { \"name\": \"sort\", \"argv\": [\"--n\", \"1000\"] },\n"
		"            { \"workload\": \"large-class/8\", \"params\": {\"ops\": \"1000\"},\n"
		"              \"control\": false } ],\n"
		"  \"reps\": 12, \"max_reps\": 60, \"seed\": 42, \"timeout\": 600,\n"
		"  \"tolerance\": {\"default\": 2, \"cpu\": 3}, \"rules\": \"perfab/1\",\n"
		"  \"controls\": \"small\", \"equivalence_margin\": 4, \"scale\": 0.5,\n"
		"  \"null_arm\": true, \"budget\": \"10m\", \"metrics\": \"cpu,peak_rss\",\n"
		"  \"workloads\": \"larson/1\" }";
	struct pab_experiment e;
	struct pab_config_settings s;
	const struct pab_row *r;
	char *why = NULL;
	size_t m;

	ck_assert_msg(!parse(text, &e, &s, &why), "%s", why);
	ck_assert_ptr_null(why);
	ck_assert_uint_eq(e.n_arms, 2);
	ck_assert_str_eq(e.arms[0].name, "base");
	ck_assert_uint_eq(e.arms[0].argc, 1);
	ck_assert_str_eq(e.arms[0].argv[0], "./old/bench");
	ck_assert_ptr_null(e.arms[0].argv[1]);
	ck_assert_uint_eq(e.arms[0].n_env, 2);
	ck_assert_str_eq(kv_get(e.arms[0].env, e.arms[0].n_env, "K"), "V");
	ck_assert_str_eq(kv_get(e.arms[0].env, e.arms[0].n_env, "N"), "4");
	ck_assert_str_eq(e.arms[0].revision, "v1.2");
	/* A string argv is split as a command line, never by a shell. */
	ck_assert_str_eq(e.arms[1].name, "head");
	ck_assert_uint_eq(e.arms[1].argc, 3);
	ck_assert_str_eq(e.arms[1].argv[1], "--fast");
	ck_assert_str_eq(e.arms[1].argv[2], "a b");
	ck_assert_ptr_null(e.arms[1].revision);

	ck_assert_uint_eq(e.n_rows, 2);
	r = &e.rows[0];
	ck_assert_str_eq(r->name, "sort");
	ck_assert_ptr_null(r->workload);
	ck_assert_uint_eq(r->argc, 2);
	ck_assert_str_eq(r->argv[0], "--n");
	ck_assert_str_eq(r->argv[1], "1000");
	r = &e.rows[1];
	ck_assert_str_eq(r->name, "large-class/8");
	ck_assert_str_eq(r->workload, "large-class/8");
	ck_assert_str_eq(r->program, "perfab-alloc");
	ck_assert_str_eq(kv_get(r->params, r->n_params, "ops"), "1000");
	ck_assert_int_eq(r->control, 0);

	ck_assert(s.reps == 12 && s.max_reps == 60 && s.seed == 42 && s.timeout_s == 600);
	ck_assert(s.scale == 0.5);
	ck_assert(s.budget_s == 600);
	ck_assert_int_eq(s.null_arm, 1);
	ck_assert_str_eq(s.controls, "small");
	ck_assert_str_eq(s.workloads, "larson/1");
	ck_assert_str_eq(s.metrics, "cpu,peak_rss");
	ck_assert(e.equivalence_margin == 4);
	for (m = 0; m < PAB_M_COUNT; m++)
		ck_assert_msg(e.tolerance[m] == (m == PAB_M_CPU ? 3 : 2), "tolerance %s: %g",
			      pab_metrics[m].name, e.tolerance[m]);
	release(&e, &s);
}
END_TEST

/* What is not given stays "not given"; other spellings of the same. */
START_TEST(defaults_and_spellings)
{
	struct pab_experiment e;
	struct pab_config_settings s;
	char *why = NULL;
	size_t m;

	ck_assert_msg(!parse("{}", &e, &s, &why), "%s", why);
	ck_assert_uint_eq(e.n_arms, 0);
	ck_assert_uint_eq(e.n_rows, 0);
	ck_assert(isnan(s.reps) && isnan(s.max_reps) && isnan(s.seed) && isnan(s.timeout_s) &&
		  isnan(s.scale) && isnan(s.budget_s));
	ck_assert_int_eq(s.null_arm, -1);
	ck_assert(!s.controls && !s.workloads && !s.metrics);
	release(&e, &s);

	ck_assert_msg(!parse("{\"tolerance\": 5, \"budget\": 90, \"null_arm\": false,"
			     " \"metrics\": [\"cpu\", \"wall\"]}", &e, &s, &why), "%s", why);
	for (m = 0; m < PAB_M_COUNT; m++)
		ck_assert(e.tolerance[m] == 5);
	ck_assert(s.budget_s == 90);
	ck_assert_int_eq(s.null_arm, 0);
	ck_assert_str_eq(s.metrics, "cpu,wall");
	release(&e, &s);

	ck_assert_msg(!parse("{\"budget\": \"1.5h\"}", &e, &s, &why), "%s", why);
	ck_assert(s.budget_s == 5400);
	release(&e, &s);

	/* The text need not be NUL-terminated: only len bytes are read. */
	pab_experiment_init(&e);
	ck_assert(!pab_config_parse("{\"reps\": 7}garbage", 11, "t", pab_run_options(), &e, &s, &why));
	ck_assert(s.reps == 7);
	release(&e, &s);
}
END_TEST

/* Bad configs: each is refused, the reason names the config and holds
 * the words reliability_hostile_inputs.sh expects from `perfab run --config`. */
struct bad_case {
	const char *text;
	const char *reason;
};

#define ARMS "\"arms\": [{\"name\": \"base\", \"argv\": [\"/bin/true\"]}, " \
	     "{\"name\": \"head\", \"argv\": \"/bin/true\"}]"

static const struct bad_case bad[] = {
	/* reliability_hostile_inputs.sh: syntax */
	{ "{\"arms\": [", "not a JSON object" },
	{ "{\"arms\": []}{\"arms\": []}", "data after the top-level value" },
	{ "[{\"name\": \"base\"}]", "not a JSON object" },
	{ "", "not a JSON object" },
	{ "{\"scale\": NaN}", "not a JSON object" },
	{ "{\"scale\": Infinity}", "not a JSON object" },
	/* reliability_hostile_inputs.sh: wrong types */
	{ "{\"arms\": {\"base\": \"/bin/true\"}}", "'arms' must be an array" },
	{ "{\"arms\": [\"base=/bin/true\"]}", "arms[0] must be an object" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": 7}]}", "argv must be an array of strings" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": [\"/bin/true\", null]}]}",
	  "arms[0].argv[1] must be a string" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": [\"/bin/true\"]}, {\"name\": \"head\","
	  " \"argv\": \"/bin/true\", \"env\": {\"K\": [1]}}]}",
	  "arms[1].env.K must be a string or a number" },
	{ "{" ARMS ", \"reps\": \"2\"}", "'reps' must be a number" },
	{ "{" ARMS ", \"rows\": {\"r\": {}}}", "'rows' must be an array" },
	{ "{" ARMS ", \"rows\": [{\"name\": \"r\", \"control\": 1}]}",
	  "control must be true or false" },
	{ "{\"tolerance\": \"2%\"}", "'tolerance' must be a number or an object" },
	{ "{\"tolerance\": {\"cpu\": \"3\"}}", "tolerance.cpu must be a number" },
	{ "{\"tolerance\": {\"speed\": 3}}", "unknown metric 'speed'" },
	{ "{\"rules\": 12}", "'rules' must be" },
	{ "{\"rules\": \"perfab/3\"}", "'rules' must be" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": [\"/bin/true\"], \"revision\": 2}]}",
	  "revision must be a string" },
	{ "{\"arms\": [{\"name\": \"base head\", \"argv\": [\"/bin/true\"]}]}",
	  "name must be a name of letters" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": [\"a\"]}, {\"name\": \"base\", \"argv\": [\"b\"]}]}",
	  "defined twice" },
	{ "{\"arms\": [{\"name\": \"head\", \"argv\": \"/bin/true \\\"open\"}]}",
	  "unterminated double quote" },
	{ "{\"rows\": [{\"workload\": \"no-such-row\"}]}", "is not a built-in row" },
	{ "{\"rows\": [{\"control\": true}]}", "needs a name or a workload" },
	{ "{\"rows\": [{\"name\": \"r\"}, {\"name\": \"r\"}]}", "row 'r' is defined twice" },
	{ "{\"rows\": [{\"workload\": \"large-class/8\", \"params\": {\"speed\": \"1\"}}]}",
	  "'speed' is not a parameter" },
	/* reliability_hostile_inputs.sh: absurd numbers */
	{ "{\"reps\": 1e400}", "'reps' must be a number in" },
	{ "{\"reps\": -1}", "'reps' must be a number in" },
	{ "{\"reps\": 0}", "'reps' must be a number in" },
	{ "{\"reps\": 1000001}", "'reps' must be a number in" },
	{ "{\"seed\": -1}", "'seed' must be a number in" },
	{ "{\"seed\": 9007199254740992}", "'seed' must be a number in" },
	{ "{\"timeout\": 1e8}", "'timeout' must be a number in" },
	{ "{\"tolerance\": 1001}", "the percentage must be a number" },
	{ "{\"tolerance\": -1}", "the percentage must be a number" },
	{ "{\"tolerance\": {\"cpu\": 1e400}}", "the percentage must be a number" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": [\"a\"], \"env\": {\"K\": 1e400}}]}",
	  "env.K must be a string or a number" },
	/* Keys and values reliability_hostile_inputs.sh does not try */
	{ "{\"repz\": 3}", "the top level: unknown key 'repz' (did you mean 'reps'?)" },
	{ "{\"nul_arm\": true, \"qqqqqq\": 1, \"rows\": [{\"name\": \"r\", \"contrl\": true}]}",
	  "the top level: unknown keys 'nul_arm' (did you mean 'null_arm'?), 'qqqqqq'; "
	  "rows[0]: unknown key 'contrl' (did you mean 'control'?)" },
	{ "{\"arms\": [{\"name\": \"base\", \"argv\": [\"a\"], \"envv\": {}}]}",
	  "unknown key 'envv'" },
	{ "{\"rows\": [{\"name\": \"r\", \"param\": {}}]}", "unknown key 'param'" },
	{ "{\"rows\": [{\"name\": \"\"}]}", "name must be a non-empty string" },
	{ "{\"null_arm\": 1}", "'null_arm' must be true or false" },
	{ "{\"budget\": \"forever\"}", "'budget' must be seconds or a duration" },
	{ "{\"budget\": 0}", "'budget' must be seconds or a duration" },
	{ "{\"budget\": 1e9}", "'budget' must be seconds or a duration" },
	{ "{\"metrics\": 3}", "'metrics' must be a string" },
	{ "{\"metrics\": [\"cpu\", 3]}", "'metrics' must list metric names" },
	{ "{\"metrics\": \"cpu,speed\"}", "'metrics':" },
	{ "{\"scale\": 0}", "'scale' must be a number in" },
	{ "{\"equivalence_margin\": 1001}", "'equivalence_margin' must be a number in" },
};

START_TEST(bad_configs)
{
	const struct bad_case *c = &bad[_i];
	struct pab_experiment e;
	struct pab_config_settings s;
	char *why = NULL;

	ck_assert_msg(parse(c->text, &e, &s, &why) == -1, "accepted: %s", c->text);
	ck_assert_msg(why != NULL, "no reason: %s", c->text);
	ck_assert_msg(!strncmp(why, "config 'test.json': ", 20), "%s: '%s' does not name the config",
		      c->text, why);
	ck_assert_msg(strstr(why, c->reason) != NULL, "%s:\n  %s\nlacks\n  %s", c->text, why,
		      c->reason);
	free(why);
	release(&e, &s);
}
END_TEST

START_TEST(arm_specs)
{
	struct pab_experiment e;
	char *why = NULL;

	pab_experiment_init(&e);
	ck_assert_msg(!pab_arm_from_spec(&e, "base=/bin/echo 'a b' c", &why), "%s", why);
	ck_assert_uint_eq(e.n_arms, 1);
	ck_assert_str_eq(e.arms[0].name, "base");
	ck_assert_uint_eq(e.arms[0].argc, 3);
	ck_assert_str_eq(e.arms[0].argv[1], "a b");
	ck_assert_int_eq(pab_arm_from_spec(&e, "/bin/true", &why), -1);
	ck_assert_msg(strstr(why, "has no '='") != NULL, "%s", why);
	free(why);
	ck_assert_int_eq(pab_arm_from_spec(&e, "bad name=/bin/true", &why), -1);
	ck_assert_msg(strstr(why, "is not valid") != NULL, "%s", why);
	free(why);
	ck_assert_int_eq(pab_arm_from_spec(&e, "base=/bin/false", &why), -1);
	ck_assert_msg(strstr(why, "arm 'base' is defined twice") != NULL, "%s", why);
	free(why);
	ck_assert_uint_eq(e.n_arms, 1); /* refused before any arm was added */
	ck_assert_int_eq(pab_arm_from_spec(&e, "head=/bin/true 'open", &why), -1);
	ck_assert_msg(strstr(why, "arm 'head': cannot split command") != NULL, "%s", why);
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(tolerance_items)
{
	struct pab_experiment e;
	char *why = NULL;
	size_t m;

	pab_experiment_init(&e);
	ck_assert(!pab_parse_tolerance(&e, "4", &why));
	ck_assert(!pab_parse_tolerance(&e, "peak_rss=1.5", &why));
	for (m = 0; m < PAB_M_COUNT; m++)
		ck_assert(e.tolerance[m] == (m == PAB_M_PEAK_RSS ? 1.5 : 4));
	ck_assert_int_eq(pab_parse_tolerance(&e, "speed=3", &why), -1);
	ck_assert_msg(strstr(why, "unknown metric 'speed'") != NULL, "%s", why);
	free(why);
	ck_assert_int_eq(pab_parse_tolerance(&e, "cpu=1001", &why), -1);
	ck_assert_msg(strstr(why, "the percentage must be a number in [0, 1000]") != NULL, "%s", why);
	free(why);
	ck_assert_int_eq(pab_parse_tolerance(&e, "cpu=", &why), -1);
	free(why);
	pab_experiment_release(&e);
}
END_TEST

/* counts and count_reps, as --counts and --count-reps. */
START_TEST(counts_keys)
{
	struct pab_experiment e;
	struct pab_config_settings s;
	char *why = NULL;

	ck_assert_int_eq(parse("{\"counts\": \"sim\", \"count_reps\": 4}", &e, &s, &why), 0);
	ck_assert_str_eq(s.counts, "sim");
	ck_assert_double_eq(s.count_reps, 4);
	release(&e, &s);
	ck_assert_int_eq(parse("{\"counts\": \"fast\"}", &e, &s, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "'counts' must be \"auto\", \"pmu\", \"sim\" or \"off\""));
	free(why);
	release(&e, &s);
	ck_assert_int_eq(parse("{\"count_reps\": 0}", &e, &s, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "count_reps"));
	free(why);
	release(&e, &s);
}
END_TEST

START_TEST(durations)
{
	static const struct {
		const char *s;
		double want; /* < 0: refused */
	} d[] = {
		{ "90", 90 }, { "90s", 90 }, { "10m", 600 }, { "1.5h", 5400 },
		{ "604800", 604800 }, { "604801", -1 }, { "0", -1 }, { "-5m", -1 },
		{ "", -1 }, { "10 m", -1 }, { "10x", -1 }, { "m", -1 }, { "nan", -1 },
	};
	size_t i;

	for (i = 0; i < NELEMS(d); i++) {
		double got = -1;
		int ret = pab_parse_duration(d[i].s, &got);

		if (d[i].want < 0)
			ck_assert_msg(ret == -1, "'%s' accepted as %g", d[i].s, got);
		else
			ck_assert_msg(ret == 0 && got == d[i].want, "'%s': %d, %g", d[i].s, ret, got);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runconf");
	TCase *tc = tcase_create("config");

	tcase_add_test(tc, documented_example);
	tcase_add_test(tc, defaults_and_spellings);
	tcase_add_loop_test(tc, bad_configs, 0, (int)NELEMS(bad));
	tcase_add_test(tc, arm_specs);
	tcase_add_test(tc, tolerance_items);
	tcase_add_test(tc, durations);
	tcase_add_test(tc, counts_keys);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
