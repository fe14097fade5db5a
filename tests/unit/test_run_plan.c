/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_run_plan.c — unit tests of what the runner's split made pure: the
 * adaptive-reps policy (the next look, a resumed row's target, the step at
 * a look), the sanity gate, the plan's checks of the options (a bad
 * combination is a reason, not an exit), and the typed run settings read
 * back from and written to an artifact's "run" object.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "judge/ledger.h"
#include "judge/sanity_gate.h"
#include "model/experiment.h"
#include "model/sanity.h"
#include "store/run_record.h"
#include "store/run_settings.h"
#include "run/plan.h"
#include "run/looks.h"
#include "run/resume.h"
#include "run/runner.h"
#include "util.h"

#include "unit.h"

static const size_t looks4[] = { 12, 24, 48, 96 };

START_TEST(looks_next_and_first_target)
{
	ck_assert_uint_eq(pab_looks_next(looks4, 4, 0), 12);
	ck_assert_uint_eq(pab_looks_next(looks4, 4, 12), 24);
	ck_assert_uint_eq(pab_looks_next(looks4, 4, 95), 96);
	ck_assert_uint_eq(pab_looks_next(looks4, 4, 96), 0);
	ck_assert_uint_eq(pab_looks_next(looks4, 0, 0), 0);
	/* A fresh row, a row inside its first look: the first look. */
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 0), 12);
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 7), 12);
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 12), 12);
	/* Past it: the look it was heading for, its block completed. */
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 13), 24);
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 24), 24);
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 25), 48);
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 96), 96);
	/* Past the last look: its own reps, rounded up to a whole block. */
	ck_assert_uint_eq(pab_looks_first_target(looks4, 4, 12, 3, 97), 99);
}
END_TEST

START_TEST(looks_step_decides_rows)
{
	int decided[4] = { 1, 0, 0, 0 };
	size_t target[4] = { 12, 12, 48, 96 }, undecided = 99;

	/* Undecided rows go on to the next look; the last look stays. */
	ck_assert_int_eq(pab_looks_step(looks4, 4, decided, 4, 0, target, &undecided), 1);
	ck_assert_uint_eq(undecided, 3);
	ck_assert_uint_eq(target[0], 12);
	ck_assert_uint_eq(target[1], 24);
	ck_assert_uint_eq(target[2], 96);
	ck_assert_uint_eq(target[3], 96);
	/* The budget spent: still undecided, no target rises. */
	ck_assert_int_eq(pab_looks_step(looks4, 4, decided, 4, 1, target, &undecided), 0);
	ck_assert_uint_eq(undecided, 3);
	ck_assert_uint_eq(target[1], 24);
	/* All at the last look: nothing more. */
	target[1] = target[2] = 96;
	ck_assert_int_eq(pab_looks_step(looks4, 4, decided, 4, 0, target, &undecided), 0);
	ck_assert_uint_eq(undecided, 3);
	/* All decided. */
	decided[1] = decided[2] = decided[3] = 1;
	ck_assert_int_eq(pab_looks_step(looks4, 4, decided, 4, 0, target, &undecided), 0);
	ck_assert_uint_eq(undecided, 0);
}
END_TEST

/* Arms base, head, null; one row with one rep whose peak_rss and
 * drain_rss are given per arm. */
static void gate_experiment(struct pab_experiment *e, const double peak[3],
			    const double drain[3])
{
	static const char *const names[] = { "base", "head", "null" };
	struct pab_rep *rep;
	size_t a;

	pab_experiment_init(e);
	e->arms = xcalloc(3, sizeof(*e->arms));
	for (a = 0; a < 3; a++)
		e->arms[a].name = xstrdup(names[a]);
	e->n_arms = 3;
	e->rows = xcalloc(1, sizeof(*e->rows));
	e->rows[0].name = xstrdup("row");
	e->n_rows = 1;
	rep = pab_row_add_rep(&e->rows[0], 3);
	for (a = 0; a < 3; a++) {
		rep->result[a].m[PAB_M_PEAK_RSS] = peak[a];
		rep->result[a].m[PAB_M_DRAIN_RSS] = drain[a];
	}
}

START_TEST(sanity_gate_trips_on_heads_only)
{
	const double mib = 1048576.0, b = 10 * mib, bound = 1.5 * b + 8 * mib;
	struct pab_experiment e;
	const struct pab_sanity_cell *cell;

	/* At the bound: open. The null arm far above it: not a head. */
	gate_experiment(&e, (double[]){ b, bound, 100 * b }, (double[]){ b, NAN, 100 * b });
	ck_assert_uint_eq(pab_sanity_gate(&e), 0);
	ck_assert_ptr_null(e.sanity);
	ck_assert_int_eq(e.has_sanity, 0);
	pab_experiment_release(&e);

	/* Above it, on two metrics: a cell each. */
	gate_experiment(&e, (double[]){ b, bound + 1, b }, (double[]){ b, 3 * b, b });
	ck_assert_uint_eq(pab_sanity_gate(&e), 2);
	ck_assert_int_eq(e.n_sanity, 2);
	cell = &e.sanity[0];
	ck_assert_str_eq(cell->row, "row");
	ck_assert_str_eq(cell->arm, "head");
	ck_assert_str_eq(cell->metric, "peak_rss");
	ck_assert_double_eq(cell->base, b);
	ck_assert_double_eq(cell->head, bound + 1);
	cell = &e.sanity[1];
	ck_assert_str_eq(cell->metric, "drain_rss");
	pab_experiment_release(&e);

	/* base unmeasured: nothing to compare with. */
	gate_experiment(&e, (double[]){ NAN, 100 * b, b }, (double[]){ NAN, NAN, NAN });
	ck_assert_uint_eq(pab_sanity_gate(&e), 0);
	pab_experiment_release(&e);
}
END_TEST

/* Options with arms base=/bin/true and head=/bin/true (n: how many). */
static void opts_with_arms(struct pab_run_opts *o, size_t n)
{
	static const char *const specs[] = { "base=/bin/true", "head=/bin/true" };
	size_t i;

	pab_run_opts_init(o);
	o->quiet = 1;
	for (i = 0; i < n; i++)
		pab_strlist_push(&o->arm_specs, specs[i]);
}

static void opts_release(struct pab_run_opts *o)
{
	pab_strlist_release(&o->arm_specs);
	pab_strlist_release(&o->head_env);
	pab_strlist_release(&o->tolerances);
}

/* A bad combination of options and the reason the plan gives for it. */
static const struct refusal {
	const char *specs[2];       /* --arm (NULL: none) */
	int null_arm, no_null_arm, no_cgroup;
	uint64_t reps, max_reps;
	const char *shard, *arms, *budget, *rules, *resume;
	const char *head_env[2];
	enum pab_failure_kind kind;
	const char *want;           /* in the reason */
} refusals[] = {
#define BOTH { "base=/bin/true", "head=/bin/true" }
	{ BOTH, .null_arm = 1, .no_null_arm = 1, .kind = PAB_FAIL_USAGE,
	  .want = "--null-arm and --no-null-arm contradict each other" },
	{ BOTH, .reps = 5, .max_reps = 2, .kind = PAB_FAIL_USAGE,
	  .want = "--max-reps 2 is below --reps 5" },
	{ BOTH, .shard = "3/2", .kind = PAB_FAIL_USAGE,
	  .want = "--shard '3/2': write I/N with 1 <= I <= N <= 1000" },
	{ BOTH, .shard = "2/1000", .kind = PAB_FAIL_USAGE,
	  .want = "--shard 2/1000 gets no rows: there are only 1 rows" },
	{ BOTH, .arms = "base,zz", .kind = PAB_FAIL_USAGE,
	  .want = "unknown arm 'zz' in --arms (defined: 'base', 'head')" },
	{ BOTH, .arms = "base,head,base", .kind = PAB_FAIL_USAGE,
	  .want = "arm 'base' is listed twice in --arms" },
	{ { "base=/bin/true" }, .no_null_arm = 1, .kind = PAB_FAIL_USAGE,
	  .want = "one arm ('base') is nothing to compare" },
	{ { "base=/bin/true" }, .head_env = { "A=1 || A=2" }, .kind = PAB_FAIL_USAGE,
	  .want = "--head-env needs an arm called 'head' to vary" },
	{ BOTH, .head_env = { "A=1 || A=2", "B=1 || B=2 || B=3" }, .kind = PAB_FAIL_USAGE,
	  .want = "--head-env lists have 2 and 3 variants" },
	{ BOTH, .head_env = { "A=1 || " }, .kind = PAB_FAIL_USAGE,
	  .want = "--head-env 'A=1 || ' has an empty variant" },
	{ { "base=/bin/true | wc", "head=/bin/true" }, .kind = PAB_FAIL_USAGE,
	  .want = "arm 'base': '|' is shell syntax" },
	{ BOTH, .budget = "xx", .kind = PAB_FAIL_USAGE,
	  .want = "--budget 'xx': give seconds or a duration" },
	{ BOTH, .rules = "perfab/9", .kind = PAB_FAIL_USAGE,
	  .want = "--rules 'perfab/9': use perfab/2, perfab/1 or rule12" },
	{ { NULL }, .kind = PAB_FAIL_USAGE, .want = "no arms: give two commands" },
	/* --resume takes the run's own settings: refused before any file is read. */
	{ { NULL }, .resume = "/nonexistent/perfab-unit.json", .reps = 3,
	  .kind = PAB_FAIL_USAGE, .want = "--resume continues a run with its own settings" },
	{ { NULL }, .resume = "/nonexistent/perfab-unit.json", .no_cgroup = 1,
	  .kind = PAB_FAIL_USAGE, .want = "--resume continues a run with its own settings" },
	{ { NULL }, .resume = "/nonexistent/perfab-unit.json", .kind = PAB_FAIL_LOAD,
	  .want = "cannot resume: " },
#undef BOTH
};

START_TEST(plan_refuses_bad_options)
{
	const struct refusal *c = &refusals[_i];
	struct pab_failure f = { 0 };
	struct pab_run_opts o;
	struct pab_plan p;
	size_t k;

	pab_run_opts_init(&o);
	o.quiet = 1;
	for (k = 0; k < 2; k++) {
		if (c->specs[k])
			pab_strlist_push(&o.arm_specs, c->specs[k]);
		if (c->head_env[k])
			pab_strlist_push(&o.head_env, c->head_env[k]);
	}
	o.null_arm = c->null_arm;
	o.no_null_arm = c->no_null_arm;
	o.no_cgroup = c->no_cgroup;
	o.reps = c->reps;
	o.max_reps = c->max_reps;
	o.shard = c->shard;
	o.arms = c->arms;
	o.budget = c->budget;
	o.rules = c->rules;
	o.resume = c->resume;
	ck_assert_int_eq(pab_plan_make(&p, &o, &f), -1);
	ck_assert_int_eq(f.kind, c->kind);
	ck_assert_ptr_nonnull(f.why);
	ck_assert_msg(strstr(f.why, c->want), "case %d: '%s' lacks '%s'", _i, f.why, c->want);
	pab_failure_release(&f);
	pab_plan_release(&p);
	opts_release(&o);
}
END_TEST

START_TEST(plan_fresh_records_its_settings)
{
	struct pab_failure f = { 0 };
	struct pab_ledger_opts lo;
	struct pab_run_opts o;
	struct pab_plan p;
	size_t i;
	int noted = 0;

	opts_with_arms(&o, 2);
	o.reps = 2;
	o.max_reps = 4;
	o.seed = 7;
	o.shard = "1/1";
	o.timeout_s = 30;
	o.cpus = "0";
	ck_assert_int_eq(pab_plan_make(&p, &o, &f), 0);
	ck_assert_ptr_null(f.why);
	ck_assert_uint_eq(p.e.n_arms, 3); /* base, head and the null arm */
	ck_assert_str_eq(p.e.arms[2].name, "null");
	ck_assert_uint_eq(p.e.reps, 3);
	ck_assert_uint_eq(p.e.max_reps, 6);
	ck_assert_uint_eq(p.e.seed, 7);
	ck_assert_str_eq(p.out, PAB_DEFAULT_OUT);
	ck_assert_uint_eq(p.e.settings.given, PAB_RUN_AT_START);
	ck_assert_uint_eq(p.e.settings.n_looks, 2);
	ck_assert_uint_eq(p.e.settings.looks[0], 3);
	ck_assert_uint_eq(p.e.settings.looks[1], 6);
	ck_assert_uint_eq(p.e.settings.shard_index, 1);
	ck_assert_uint_eq(p.e.settings.shard_count, 1);
	ck_assert_double_eq(p.e.settings.timeout_s, 30);
	ck_assert_double_eq(p.e.settings.budget_s, PAB_DEFAULT_BUDGET_S);
	ck_assert_str_eq(p.e.settings.cpus, "0");
	ck_assert_ptr_null(p.e.settings.counters);
	ck_assert_double_eq(p.use.timeout_s, 30);
	ck_assert_str_eq(p.use.cpus, "0");
	ck_assert_ptr_nonnull(p.e.arms[0].sha256);
	/* The default tolerance floors (doc/method.md section 5a: 128 KiB for
	 * memory, 4 for counts), recorded so that the ledger of the artifact
	 * applies them: an artifact that records none is judged without. */
	ck_assert(p.e.judged.recorded & PAB_JUDGED_FLOORS);
	ck_assert_double_eq(p.e.judged.floor_bytes, 131072);
	ck_assert_double_eq(p.e.judged.floor_count, 4);
	pab_ledger_opts_init(&lo, &p.e);
	ck_assert_double_eq(lo.floor_bytes, 131072);
	ck_assert_double_eq(lo.floor_count, 4);
	for (i = 0; i < p.n_msgs; i++)
		if (p.msgs[i].kind == PAB_PLAN_NOTE &&
		    !strcmp(p.msgs[i].text, "--reps 2 rounded up to 3: complete blocks of 3 arms"))
			noted = 1;
	ck_assert_msg(noted, "the rounding note is missing");
	pab_plan_release(&p);
	opts_release(&o);
}
END_TEST

START_TEST(plan_resume_command_quotes)
{
	struct pab_run_opts o;
	char *cmd;

	pab_run_opts_init(&o);
	pab_strlist_push(&o.arm_specs, "base=./old --n 3");
	o.shard = "1/2";
	o.trust = 1;
	cmd = pab_plan_resume_command(&o, "out file.json");
	ck_assert_str_eq(cmd, "--resume 'out file.json' --arm 'base=./old --n 3' --shard 1/2 "
			 "--trust-artifact");
	free(cmd);
	opts_release(&o);
}
END_TEST

START_TEST(run_settings_read_checks_ranges)
{
	static const char *const bad[] = {
		"{\"timeout_s\": 1e300}", "run.timeout_s must be a number in [0, 1e+07] "
		"(the range of --timeout)",
		"{\"max_procs\": 2.5}", "run.max_procs must be a whole number in [1, 1e+06]",
		"{\"sample_interval_ms\": -1}", "run.sample_interval_ms must be a number",
		"{\"scale\": \"big\"}", "run.scale must be a number in [1e-06, 1e+06]",
		"{\"budget_s\": 1e9}", "run.budget_s must be a number in [0, 604800]",
		"{\"cgroup\": 7}", "run.cgroup must be true or false",
		"{\"cpus\": 3}", "run.cpus must be a string or null",
		"{\"warmup\": 1.5}", "run.warmup must be a whole number in [0, 1e+06] "
		"(the range of --warmup)",
		"{\"warmup\": -1}", "run.warmup must be a whole number",
		"{\"prepare\": [\"sleep\"]}", "run.prepare must be a string or null",
		"{\"output\": false}", "run.output must be a string or null",
		"{\"counts\": {\"mode\": \"fast\", \"source\": null, \"reps\": 3}}",
		"run.counts.mode must be",
		"{\"counts\": {\"mode\": \"sim\", \"source\": \"gpu\", \"reps\": 3}}",
		"run.counts.source must be",
		"{\"counts\": {\"mode\": \"sim\", \"source\": \"sim\", \"reps\": 2.5}}",
		"run.counts.reps must be a whole number",
	};
	struct pab_run_settings s;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i += 2) {
		cJSON *run = cJSON_Parse(bad[i]);

		pab_run_settings_read(run, &s);
		ck_assert_ptr_nonnull(s.invalid);
		ck_assert_msg(strstr(s.invalid, bad[i + 1]), "'%s' lacks '%s'", s.invalid,
			      bad[i + 1]);
		ck_assert_uint_eq(s.given, 0);
		ck_assert_double_eq(s.timeout_s, PAB_RUN_TIMEOUT_DEFAULT_S);
		pab_run_settings_release(&s);
		cJSON_Delete(run);
	}
}
END_TEST

START_TEST(run_settings_round_trip_keeps_keys)
{
	cJSON *run = cJSON_Parse("{\"binding\": {\"pinned\": true}, \"timeout_s\": 5, "
				 "\"shard\": \"2/4\", \"looks\": [3, 6], \"cgroup\": false, "
				 "\"stop_reason\": \"nonsense\", \"counters\": null, \"x\": 1}");
	cJSON *out;
	struct pab_run_settings s;
	const cJSON *it;
	const char *order[] = { "binding", "timeout_s", "shard", "looks", "cgroup",
				"stop_reason", "counters", "x" };
	size_t i = 0;
	char *text;

	pab_run_settings_read(run, &s);
	ck_assert_ptr_null(s.invalid);
	ck_assert_uint_eq(s.given, PAB_RUN_TIMEOUT | PAB_RUN_SHARD | PAB_RUN_LOOKS |
			  PAB_RUN_CGROUP | PAB_RUN_COUNTERS);
	ck_assert_double_eq(s.timeout_s, 5);
	ck_assert_uint_eq(s.shard_index, 2);
	ck_assert_uint_eq(s.shard_count, 4);
	ck_assert_uint_eq(s.n_looks, 2);
	ck_assert_int_eq(s.cgroup, 0);
	ck_assert_int_eq(s.sanity_gate, 1); /* absent: the default */
	/* Saved again with a new stop reason: the keys in their order, what
	 * perfab could not type as it was, the new settings first. */
	s.stop_reason = PAB_STOP_BUDGET;
	s.elapsed_s = 1.5;
	s.given |= PAB_RUN_ELAPSED;
	out = pab_run_settings_json(&s, run);
	it = out->child;
	ck_assert_str_eq(it->string, "elapsed_s");
	for (it = it->next; it; it = it->next)
		ck_assert_str_eq(it->string, order[i++]);
	ck_assert_uint_eq(i, 8);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(out, "stop_reason"));
	ck_assert_str_eq(text, "\"nonsense\"");
	free(text);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(out, "shard"));
	ck_assert_str_eq(text, "\"2/4\"");
	free(text);
	cJSON_Delete(out);
	/* Given, the stop reason replaces the tree's. */
	s.given |= PAB_RUN_STOP;
	out = pab_run_settings_json(&s, run);
	ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(out, "stop_reason")), "budget");
	cJSON_Delete(out);
	pab_run_settings_release(&s);
	cJSON_Delete(run);
}
END_TEST

/* The keys of run written from e, in order, as one string "a b c". */
static char *run_keys(const struct pab_experiment *e)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	cJSON *run = pab_run_json(e);
	const cJSON *it;

	cJSON_ArrayForEach(it, run)
		pab_strbuf_addf(&sb, "%s%s", sb.len ? " " : "", it->string);
	cJSON_Delete(run);
	return pab_strbuf_detach(&sb);
}

/* The binding and the costs are typed: read back where the artifact has
 * them and written again exactly (a value of another type left as it
 * was); recorded by a run, the store puts them after the other keys in
 * the schema's order, an earlier invocation's dropped from their place. */
START_TEST(run_costs_typed_in_schema_order)
{
	const char *text = "{\"timeout_s\":5,\"binding\":{\"pinned\":true,\"note\":\"one PU\"},"
		"\"x\":1,\"sampler_cpu_s\":0.015625,\"sampler_samples\":\"many\","
		"\"perfab_peak_rss\":123456789}";
	cJSON *run = cJSON_Parse(text), *out;
	struct pab_experiment e;
	char *keys, *again;

	pab_experiment_init(&e);
	pab_records_read(NULL, NULL, run, &e);
	ck_assert_uint_eq(e.costs.given, PAB_COST_BINDING | PAB_COST_SAMPLER_CPU |
			  PAB_COST_PEAK_RSS);
	ck_assert_double_eq(e.costs.sampler_cpu_s, 0.015625);
	ck_assert_double_eq(e.costs.perfab_peak_rss_bytes, 123456789);
	out = pab_run_json(&e);
	again = cJSON_PrintUnformatted(out);
	ck_assert_str_eq(again, text);
	free(again);
	cJSON_Delete(out);
	/* Resumed: the new binding goes last; after the last rep the costs
	 * follow it, and an unreadable peak is not written. */
	pab_run_record_binding(&e, "{\"pinned\":false}");
	keys = run_keys(&e);
	ck_assert_str_eq(keys, "timeout_s x sampler_cpu_s sampler_samples perfab_peak_rss binding");
	free(keys);
	pab_run_record_costs(&e, "{\"pinned\":false}", 1.5, 30, NAN);
	keys = run_keys(&e);
	ck_assert_str_eq(keys, "timeout_s x binding sampler_cpu_s sampler_samples");
	free(keys);
	out = pab_run_json(&e);
	ck_assert_double_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(out, "sampler_samples")), 30);
	cJSON_Delete(out);
	pab_experiment_release(&e);
	/* A fresh run: the four keys alone, in the schema's order. */
	pab_experiment_init(&e);
	pab_run_record_binding(&e, "{}");
	pab_run_record_costs(&e, "{}", 0.5, 7, 4096);
	keys = run_keys(&e);
	ck_assert_str_eq(keys, "binding sampler_cpu_s sampler_samples perfab_peak_rss");
	free(keys);
	pab_experiment_release(&e);
	cJSON_Delete(run);
}
END_TEST

/* The hooks and stdio settings: typed, written back as they were read,
 * null for none; absent (an older artifact): not given, the defaults. */
START_TEST(run_settings_hooks_round_trip)
{
	cJSON *run = cJSON_Parse("{\"warmup\": 3, \"prepare\": \"sh -c 'x'\", \"setup\": null, "
				 "\"cleanup\": \"rm -rf f\", \"input\": \"in.txt\", "
				 "\"output\": \"inherit\"}");
	struct pab_run_settings s, copy;
	cJSON *out;
	char *a, *b;

	pab_run_settings_read(run, &s);
	ck_assert_ptr_null(s.invalid);
	ck_assert_uint_eq(s.given, PAB_RUN_WARMUP | PAB_RUN_PREPARE | PAB_RUN_SETUP |
			  PAB_RUN_CLEANUP | PAB_RUN_INPUT | PAB_RUN_OUTPUT);
	ck_assert_uint_eq(s.warmup, 3);
	ck_assert_str_eq(s.prepare, "sh -c 'x'");
	ck_assert_ptr_null(s.setup);
	ck_assert_str_eq(s.cleanup, "rm -rf f");
	ck_assert_str_eq(s.input, "in.txt");
	ck_assert_str_eq(s.output, "inherit");
	pab_run_settings_copy(&copy, &s);
	pab_run_settings_release(&s);
	out = pab_run_settings_json(&copy, NULL);
	a = cJSON_PrintUnformatted(out);
	b = cJSON_PrintUnformatted(run);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	cJSON_Delete(out);
	pab_run_settings_release(&copy);
	cJSON_Delete(run);
	run = cJSON_Parse("{\"timeout_s\": 5}");
	pab_run_settings_read(run, &s);
	ck_assert_uint_eq(s.given, PAB_RUN_TIMEOUT);
	ck_assert_uint_eq(s.warmup, 0);
	ck_assert_ptr_null(s.prepare);
	pab_run_settings_release(&s);
	cJSON_Delete(run);
}
END_TEST

/* counts and calibration: typed, written back as read, and the required
 * set of a run that counted. */
START_TEST(run_settings_counts_and_calibration)
{
	cJSON *run = cJSON_Parse("{\"counts\": {\"mode\": \"auto\", \"source\": \"sim\", "
				 "\"reps\": 3}, \"calibration\": {\"file\": \"c.json\", \"sha256\": "
				 "\"ab\", \"cpu_model\": \"X\", \"tolerance\": {\"cpu\": 3.5}}}");
	struct pab_run_settings s;
	int req[PAB_M_COUNT];
	cJSON *out;
	char *a, *b;
	size_t m;

	pab_run_settings_read(run, &s);
	ck_assert_ptr_null(s.invalid);
	ck_assert(s.given & PAB_RUN_COUNTS);
	ck_assert(s.given & PAB_RUN_CALIBRATION);
	ck_assert_int_eq(s.counts_mode, PAB_COUNTS_AUTO);
	ck_assert_int_eq(s.count_source, PAB_COUNT_SIM);
	ck_assert_uint_eq(s.count_reps, 3);
	ck_assert_str_eq(s.calibration_file, "c.json");
	ck_assert_double_eq(s.calibration_tol[PAB_M_CPU], 3.5);
	ck_assert(isnan(s.calibration_tol[PAB_M_WALL]));
	out = pab_run_settings_json(&s, run);
	a = cJSON_PrintUnformatted(out);
	b = cJSON_PrintUnformatted(run);
	ck_assert_str_eq(a, b);
	for (m = 0; m < PAB_M_COUNT; m++)
		req[m] = m == PAB_M_CPU;
	ck_assert_int_eq(pab_counts_default_require(&s, req), 1);
	for (m = 0; m < PAB_M_COUNT; m++)
		ck_assert_int_eq(req[m], m == PAB_M_INSTRUCTIONS);
	s.count_source = PAB_COUNT_NONE;
	req[PAB_M_CPU] = 1;
	ck_assert_int_eq(pab_counts_default_require(&s, req), 0);
	ck_assert_int_eq(req[PAB_M_CPU], 1);
	free(a);
	free(b);
	cJSON_Delete(out);
	cJSON_Delete(run);
	pab_run_settings_release(&s);
}
END_TEST

START_TEST(stop_reasons_and_shards_parse)
{
	enum pab_stop_reason r;
	unsigned k = 0, n = 0;

	ck_assert_int_eq(pab_stop_reason_parse("max-reps", &r), 0);
	ck_assert_int_eq(r, PAB_STOP_MAX_REPS);
	ck_assert_str_eq(pab_stop_reason_name(PAB_STOP_SANITY_GATE), "sanity-gate");
	ck_assert_str_eq(pab_stop_reason_name(PAB_STOP_DECIDED), "decided");
	ck_assert_ptr_null(pab_stop_reason_name(PAB_STOP_NONE));
	ck_assert_int_eq(pab_stop_reason_parse("stopped", &r), -1);
	ck_assert_int_eq(pab_shard_parse("3/7", &k, &n), 0);
	ck_assert_uint_eq(k, 3);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(pab_shard_parse("0/7", &k, &n), -1);
	ck_assert_int_eq(pab_shard_parse("8/7", &k, &n), -1);
	ck_assert_int_eq(pab_shard_parse("1/1001", &k, &n), -1);
	ck_assert_int_eq(pab_shard_parse("1/2x", &k, &n), -1);
	ck_assert_int_eq(pab_shard_parse("12", &k, &n), -1);
	ck_assert_uint_eq(k, 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run-plan");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, looks_next_and_first_target);
	tcase_add_test(tc, looks_step_decides_rows);
	tcase_add_test(tc, sanity_gate_trips_on_heads_only);
	tcase_add_loop_test(tc, plan_refuses_bad_options, 0,
			    (int)(sizeof(refusals) / sizeof(refusals[0])));
	tcase_add_test(tc, plan_fresh_records_its_settings);
	tcase_add_test(tc, plan_resume_command_quotes);
	tcase_add_test(tc, run_settings_read_checks_ranges);
	tcase_add_test(tc, run_settings_round_trip_keeps_keys);
	tcase_add_test(tc, run_settings_hooks_round_trip);
	tcase_add_test(tc, run_costs_typed_in_schema_order);
	tcase_add_test(tc, run_settings_counts_and_calibration);
	tcase_add_test(tc, stop_reasons_and_shards_parse);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
