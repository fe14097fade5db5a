/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_memgate.c — `perfab memgate`: the memory gate (PRODUCT.md "Memory
 * gate", doc/memgate.md). Not a paired A/B comparison: an absolute check
 * of one arm's peak RSS against a committed baseline, for the slow creep
 * that paired runs never see because base and head creep together.
 *
 *   perfab memgate record RUN... -o FILE [--arm NAME]
 *   perfab memgate check  RUN... --baseline FILE [--tolerance PCT] [--arm NAME]
 *
 * Per scenario (row), each run contributes the median over its reps of the
 * arm's peak_rss; the gate takes the minimum over runs (noise only ever
 * adds memory, so the minimum of N runs is the steadiest estimate; 8 runs
 * expected, fewer warns) and fails when it exceeds baseline × (1 + PCT%).
 * A run that measured only some of the baseline's scenarios (a filtered
 * run) is refused with its own exit code: the baseline's figures describe
 * the full battery. The high-water table lists every run's peak per
 * scenario, in run order, with the ones above the limit marked, so the
 * scenario whose line first jumps is the one to look at.
 *
 * Baseline format ("perfab-memgate/1"):
 *   { "schema": "perfab-memgate/1", "metric": "peak_rss", "arm": "head",
 *     "runs": 8, "cpu_model": "...", "perfab_version": "...",
 *     "scenarios": { "ROW": BYTES, ... } }
 * Only schema and scenarios are required.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/artifact.h"
#include "builtin.h"
#include "probe/hostinfo.h"
#include "options.h"
#include "util.h"

#define MEMGATE_SCHEMA "perfab-memgate/1"
#define MEMGATE_RUNS_EXPECTED 8
#define MIB 1048576.0

/* Every run's peak per scenario, scenarios in first-seen order. */
struct gate_table {
	char **scenario;
	size_t n, alloc;
	size_t n_runs;
	double *peak;        /* n × n_runs, row-major by scenario; NaN = no value */
	unsigned char *ran;  /* same shape: 1 when the run has that row */
};

static double *cell(struct gate_table *t, size_t s, size_t r)
{
	return &t->peak[s * t->n_runs + r];
}

static int scenario_index(const struct gate_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->scenario[i], name))
			return (int)i;
	return -1;
}

static void table_release(struct gate_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->scenario[i]);
	free(t->scenario);
	free(t->peak);
	free(t->ran);
	memset(t, 0, sizeof(*t));
}

/* Median peak_rss of arm over row's reps, NaN when never measured. */
static double row_peak(const struct pab_row *row, size_t arm)
{
	double *v = xcalloc(row->n_reps + 1, sizeof(*v)), med = NAN;
	size_t r;

	for (r = 0; r < row->n_reps; r++)
		v[r] = row->reps[r].result[arm].m[PAB_M_PEAK_RSS];
	if (pab_median(v, row->n_reps, &med))
		med = NAN;
	free(v);
	return med;
}

/*
 * Load the runs and fill t. Returns 0, or the exit code after saying why
 * on stderr. *arm_used gets the arm name (static or from arm_opt).
 */
static int load_runs(const struct pab_strlist *runs, const char *arm_opt,
		     struct gate_table *t, const char **arm_used,
		     char **cpu_model)
{
	size_t i, r;

	memset(t, 0, sizeof(*t));
	t->n_runs = runs->n;
	*cpu_model = NULL;
	for (i = 0; i < runs->n; i++) {
		struct pab_experiment e;
		const char *arm_name = arm_opt;
		char *why;
		int arm, lr;

		lr = pab_artifact_load(runs->v[i], &e, &why);
		if (lr) {
			fprintf(stderr, "perfab: error: %s\n", why);
			free(why);
			return pab_artifact_load_exit_code(lr);
		}
		if (e.stopped_by == PAB_STOP_SANITY_GATE) {
			fprintf(stderr, "perfab: no verdict: '%s' was stopped by the sanity gate: its "
				"head's memory blew up at rep 1; fix that first, or rerun with "
				"--no-sanity-gate to measure it\n", runs->v[i]);
			pab_experiment_release(&e);
			return PAB_EXIT_SANITY;
		}
		if (!e.complete || pab_experiment_check_balanced(&e, &why)) {
			fprintf(stderr, "perfab: no verdict: '%s' is %s: only a finished run's peaks "
				"are comparable to the baseline; rerun it\n", runs->v[i],
				e.complete ? "unbalanced" : "incomplete");
			if (e.complete)
				free(why);
			pab_experiment_release(&e);
			return PAB_EXIT_REFUSED;
		}
		if (!arm_name)
			arm_name = pab_experiment_arm_index(&e, "head") >= 0 ? "head" : "base";
		arm = pab_experiment_arm_index(&e, arm_name);
		if (arm < 0) {
			fprintf(stderr, "perfab: error: '%s' has no arm '%s': name the arm to gate "
				"with --arm\n", runs->v[i], arm_name);
			pab_experiment_release(&e);
			return PAB_EXIT_USAGE;
		}
		if (i && strcmp(arm_name, *arm_used)) {
			fprintf(stderr, "perfab: error: '%s' would gate arm '%s' but '%s' gated '%s': "
				"pass --arm\n", runs->v[i], arm_name, runs->v[0], *arm_used);
			pab_experiment_release(&e);
			return PAB_EXIT_USAGE;
		}
		if (!i)
			*arm_used = arm_name;
		if (!*cpu_model && pab_host_cpu_model(e.host))
			*cpu_model = xstrdup(pab_host_cpu_model(e.host));
		for (r = 0; r < e.n_rows; r++) {
			int s = scenario_index(t, e.rows[r].name);

			if (s < 0) {
				size_t k;

				ALLOC_GROW(t->scenario, t->n + 1, t->alloc);
				t->scenario[t->n] = xstrdup(e.rows[r].name);
				t->peak = xrealloc(t->peak, (t->n + 1) * t->n_runs * sizeof(*t->peak));
				t->ran = xrealloc(t->ran, (t->n + 1) * t->n_runs * sizeof(*t->ran));
				for (k = 0; k < t->n_runs; k++) {
					t->peak[t->n * t->n_runs + k] = NAN;
					t->ran[t->n * t->n_runs + k] = 0;
				}
				s = (int)t->n++;
			}
			*cell(t, (size_t)s, i) = row_peak(&e.rows[r], (size_t)arm);
			t->ran[(size_t)s * t->n_runs + i] = 1;
		}
		pab_experiment_release(&e);
	}
	return 0;
}

/* Minimum over runs of scenario s (NaN when no run measured it). */
static double scenario_min(struct gate_table *t, size_t s)
{
	double m = NAN;
	size_t r;

	for (r = 0; r < t->n_runs; r++) {
		double v = *cell(t, s, r);

		if (isfinite(v) && !(v >= m))
			m = v;
	}
	return m;
}

static void warn_runs(size_t n)
{
	if (n < MEMGATE_RUNS_EXPECTED)
		warning("only %zu run%s: the memory gate expects %d (the minimum of fewer runs "
			"sits higher and moves more)", n, n == 1 ? "" : "s", MEMGATE_RUNS_EXPECTED);
}

static void warn_spread(struct gate_table *t, double tolerance)
{
	size_t s, r;

	for (s = 0; s < t->n; s++) {
		double lo = scenario_min(t, s), hi = lo;

		for (r = 0; r < t->n_runs; r++)
			if (isfinite(*cell(t, s, r)) && *cell(t, s, r) > hi)
				hi = *cell(t, s, r);
		if (isfinite(lo) && lo > 0 && (hi - lo) / lo * 100 >= tolerance)
			warning("scenario '%s': runs spread %.1f%%, at least the %.1f%% tolerance: "
				"this machine's noise is as large as what the gate allows",
				t->scenario[s], (hi - lo) / lo * 100, tolerance);
	}
}

/* ------------------------------------------------------------------ */
/* record                                                             */

static int write_text_line(FILE *f, void *arg)
{
	return fprintf(f, "%s\n", (const char *)arg) < 0 ? -1 : 0;
}

static int memgate_record(int argc, char **argv)
{
	const char *out = NULL, *arm = NULL, *arm_used = NULL;
	struct pab_strlist runs = { 0 };
	struct gate_table t;
	cJSON *root, *sc;
	char *text, *cpu, *why;
	size_t s, r;
	int ret;
	const struct pab_option opts[] = {
		OPT_STRING('o', "out", &out, "FILE", "write the baseline here (required)"),
		OPT_STRING(0, "arm", &arm, "NAME", "the arm to record (default: head, else base)"),
		OPT_END(),
	};
	const char *usage = "perfab memgate record RUN... -o FILE [--arm NAME]";

	pab_parse_options(argc, argv, opts, usage,
			  "Write a memory-gate baseline: per scenario (row), the minimum over the\n"
			  "runs of the arm's median peak RSS. Commit it; `memgate check` reads it.",
			  &runs);
	if (!runs.n)
		pab_usage_error(opts, usage, "no run artifact given");
	if (!out)
		pab_usage_error(opts, usage, "-o FILE is required");
	ret = load_runs(&runs, arm, &t, &arm_used, &cpu);
	if (ret)
		goto out_release;
	for (s = 0; s < t.n; s++)
		for (r = 0; r < t.n_runs; r++)
			if (!isfinite(*cell(&t, s, r))) {
				fprintf(stderr, "perfab: error: '%s' %s scenario '%s': record a "
					"baseline from full runs that measured every scenario\n",
					runs.v[r], t.ran[s * t.n_runs + r] ? "has no peak_rss for" :
					"did not run", pab_term_safe(t.scenario[s]));
				ret = PAB_EXIT_USAGE;
				goto out_release;
			}
	warn_runs(t.n_runs);
	warn_spread(&t, 5.0);
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", MEMGATE_SCHEMA);
	cJSON_AddStringToObject(root, "metric", "peak_rss");
	cJSON_AddStringToObject(root, "arm", arm_used);
	cJSON_AddNumberToObject(root, "runs", (double)t.n_runs);
	if (cpu)
		cJSON_AddStringToObject(root, "cpu_model", cpu);
	cJSON_AddStringToObject(root, "perfab_version", PACKAGE_VERSION);
	sc = cJSON_AddObjectToObject(root, "scenarios");
	for (s = 0; s < t.n; s++)
		cJSON_AddNumberToObject(sc, t.scenario[s], round(scenario_min(&t, s)));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (pab_write_file_atomic(out, write_text_line, text, &why)) {
		fprintf(stderr, "perfab: error: cannot write baseline: %s\n", why);
		free(why);
		ret = PAB_EXIT_RUNTIME;
	} else {
		fprintf(stderr, "perfab: memgate baseline of %zu scenario%s from %zu run%s -> %s\n",
			t.n, t.n == 1 ? "" : "s", t.n_runs, t.n_runs == 1 ? "" : "s", out);
	}
	cJSON_free(text);
out_release:
	free(cpu);
	table_release(&t);
	pab_strlist_release(&runs);
	return ret;
}

/* ------------------------------------------------------------------ */
/* check                                                              */

struct baseline {
	char **name;
	double *bytes;
	size_t n;
	char *arm, *cpu_model;
};

static void baseline_release(struct baseline *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->name[i]);
	free(b->name);
	free(b->bytes);
	free(b->arm);
	free(b->cpu_model);
	memset(b, 0, sizeof(*b));
}

/* Load a baseline; 0 or -1 with a reason (caller frees). */
static int baseline_load(const char *path, struct baseline *b, char **why)
{
	size_t len, i = 0;
	char *text = read_file_max(path, 64 << 20, &len);
	cJSON *root, *v, *it;
	int ret = -1;

	memset(b, 0, sizeof(*b));
	if (!text) {
		*why = xasprintf("cannot read baseline '%s': %s", path, strerror(errno));
		return -1;
	}
	root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(root)) {
		*why = xasprintf("baseline '%s' is not a JSON object", path);
		goto out_delete;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (!cJSON_IsString(v) || strcmp(v->valuestring, MEMGATE_SCHEMA)) {
		*why = xasprintf("baseline '%s': \"schema\" must be \"%s\" (write one with "
				 "perfab memgate record)", path, MEMGATE_SCHEMA);
		goto out_delete;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "metric");
	if (v && (!cJSON_IsString(v) || strcmp(v->valuestring, "peak_rss"))) {
		*why = xasprintf("baseline '%s': only \"metric\": \"peak_rss\" is supported", path);
		goto out_delete;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "arm");
	if (cJSON_IsString(v))
		b->arm = xstrdup(v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(root, "cpu_model");
	if (cJSON_IsString(v))
		b->cpu_model = xstrdup(v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(root, "scenarios");
	if (!cJSON_IsObject(v) || !cJSON_GetArraySize(v)) {
		*why = xasprintf("baseline '%s': \"scenarios\" must be a non-empty object of "
				 "scenario -> bytes", path);
		goto out_delete;
	}
	b->n = (size_t)cJSON_GetArraySize(v);
	b->name = xcalloc(b->n, sizeof(*b->name));
	b->bytes = xcalloc(b->n, sizeof(*b->bytes));
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble <= 0) {
			*why = xasprintf("baseline '%s': scenarios.%s must be a positive number of bytes",
					 path, it->string);
			b->n = i;
			goto out_delete;
		}
		b->name[i] = xstrdup(it->string);
		b->bytes[i++] = it->valuedouble;
	}
	ret = 0;
out_delete:
	cJSON_Delete(root);
	if (ret)
		baseline_release(b);
	return ret;
}

static void print_mib(double v, int mark)
{
	if (isfinite(v))
		printf(" %10.2f%s", v / MIB, mark ? "*" : " ");
	else
		printf(" %10s ", "-");
}

static int memgate_check(int argc, char **argv)
{
	const char *base_path = NULL, *arm = NULL, *arm_used = NULL;
	double tolerance = 5.0;
	struct pab_strlist runs = { 0 };
	struct gate_table t = { 0 };
	struct baseline b;
	size_t s, r, regressions = 0, first = (size_t)-1;
	char *why, *cpu = NULL;
	int ret;
	const struct pab_option opts[] = {
		OPT_STRING(0, "baseline", &base_path, "FILE", "the committed baseline (required)"),
		OPT_DOUBLE(0, "tolerance", &tolerance, "PCT", "allowed growth over the baseline (default 5)",
			   0, 1000),
		OPT_STRING(0, "arm", &arm, "NAME", "the arm to gate (default: head, else base)"),
		OPT_END(),
	};
	const char *usage = "perfab memgate check RUN... --baseline FILE [--tolerance PCT] [--arm NAME]";

	pab_parse_options(argc, argv, opts, usage,
			  "Per scenario, the minimum over RUN artifacts of the arm's median peak RSS\n"
			  "against the baseline + PCT%. Exit 0 pass, 1 regression, 2 bad input,\n"
			  "4 incomplete run, 5 sanity gate, 6 a filtered run (not every scenario).",
			  &runs);
	if (!runs.n)
		pab_usage_error(opts, usage, "no run artifact given");
	if (!base_path)
		pab_usage_error(opts, usage, "--baseline FILE is required");
	if (baseline_load(base_path, &b, &why)) {
		fprintf(stderr, "perfab: error: %s\n", why);
		free(why);
		pab_strlist_release(&runs);
		return PAB_EXIT_USAGE;
	}
	if (!arm && b.arm)
		arm = b.arm;
	ret = load_runs(&runs, arm, &t, &arm_used, &cpu);
	if (ret)
		goto out_release;

	/* A filtered run: some baseline scenario it never ran. */
	for (r = 0; r < t.n_runs; r++) {
		struct pab_strbuf miss = PAB_STRBUF_INIT;
		size_t n_miss = 0;

		for (s = 0; s < b.n; s++) {
			int k = scenario_index(&t, b.name[s]);

			if (k >= 0 && t.ran[(size_t)k * t.n_runs + r] &&
			    !isfinite(*cell(&t, (size_t)k, r))) {
				fprintf(stderr, "perfab: error: '%s' ran scenario '%s' but has no peak_rss "
					"for arm '%s': nothing to gate\n", runs.v[r], pab_term_safe(b.name[s]),
					arm_used);
				pab_strbuf_release(&miss);
				ret = PAB_EXIT_USAGE;
				goto out_release;
			}
			if (k < 0 || !t.ran[(size_t)k * t.n_runs + r]) {
				pab_strbuf_addf(&miss, "%s'%s'", n_miss ? ", " : "",
						pab_term_safe(b.name[s]));
				n_miss++;
			}
		}
		if (n_miss) {
			fprintf(stderr, "perfab: refused: '%s' is a filtered run: it measured %zu of the "
				"baseline's %zu scenarios (missing %s); the baseline describes the full "
				"battery, so compare a filtered run only with the same filtered run on "
				"another commit\n", runs.v[r], b.n - n_miss, b.n, miss.buf);
			pab_strbuf_release(&miss);
			ret = PAB_EXIT_FILTERED;
			goto out_release;
		}
	}
	for (s = 0; s < t.n; s++) {
		size_t k;
		int known = 0;

		for (k = 0; k < b.n; k++)
			known |= !strcmp(b.name[k], t.scenario[s]);
		if (!known)
			warning("scenario '%s' has no baseline: not gated (record a new baseline to "
				"gate it)", pab_term_safe(t.scenario[s]));
	}
	if (b.cpu_model && cpu && strcmp(b.cpu_model, cpu))
		warning("the baseline was recorded on \"%s\", these runs ran on \"%s\"",
			b.cpu_model, cpu);
	warn_runs(t.n_runs);
	warn_spread(&t, tolerance);

	printf("perfab memgate \xc2\xb7 peak_rss (MiB) of arm '%s' \xc2\xb7 minimum of %zu run%s vs "
	       "'%s' \xc2\xb7 tolerance +%.1f%%\n", arm_used, t.n_runs, t.n_runs == 1 ? "" : "s",
	       base_path, tolerance);
	printf("high-water per scenario, runs in the order given; * = above the limit\n");
	printf("%-28s", "scenario");
	for (r = 0; r < t.n_runs; r++) {
		char hdr[32];

		snprintf(hdr, sizeof(hdr), "run %zu", r + 1);
		printf(" %10s ", hdr);
	}
	printf(" %10s  %10s  %10s  %8s  %s\n", "min", "baseline", "limit", "change", "status");
	for (s = 0; s < b.n; s++) {
		size_t k = (size_t)scenario_index(&t, b.name[s]);
		double limit = b.bytes[s] * (1 + tolerance / 100), min = scenario_min(&t, k);
		int over = min > limit;

		printf("%-28s", pab_term_safe(b.name[s]));
		for (r = 0; r < t.n_runs; r++)
			print_mib(*cell(&t, k, r), *cell(&t, k, r) > limit);
		printf(" %10.2f  %10.2f  %10.2f  %+7.1f%%  %s\n", min / MIB, b.bytes[s] / MIB,
		       limit / MIB, (min - b.bytes[s]) / b.bytes[s] * 100,
		       over ? "REGRESSION" : "ok");
		if (over) {
			regressions++;
			if (first == (size_t)-1)
				first = s;
		}
	}
	if (regressions) {
		printf("first jump: '%s' (the first scenario, in order, whose minimum is above its limit)\n",
		       pab_term_safe(b.name[first]));
		printf("memgate: FAIL \xe2\x80\x94 %zu of %zu scenario%s above baseline +%.1f%%\n",
		       regressions, b.n, b.n == 1 ? "" : "s", tolerance);
		ret = PAB_EXIT_FAIL;
	} else {
		printf("memgate: PASS \xe2\x80\x94 every scenario within baseline +%.1f%%\n", tolerance);
		ret = PAB_EXIT_PASS;
	}
out_release:
	free(cpu);
	table_release(&t);
	baseline_release(&b);
	pab_strlist_release(&runs);
	return ret;
}

int cmd_memgate(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return memgate_check(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "record"))
		return memgate_record(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: perfab memgate check RUN... --baseline FILE [--tolerance PCT] [--arm NAME]\n"
		       "   or: perfab memgate record RUN... -o FILE [--arm NAME]\n\n"
		       "The memory gate: per scenario, the minimum over N runs (8 expected) of an\n"
		       "arm's median peak RSS against a committed baseline (+5%% by default).\n"
		       "'perfab memgate check --help' and 'record --help' show their options.\n");
		return PAB_EXIT_PASS;
	}
	fprintf(stderr, "perfab: error: memgate needs 'check' or 'record'%s%s%s\n",
		argc >= 2 ? ", not '" : "", argc >= 2 ? argv[1] : "", argc >= 2 ? "'" : "");
	fprintf(stderr, "usage: perfab memgate check RUN... --baseline FILE [--tolerance PCT] [--arm NAME]\n"
			"   or: perfab memgate record RUN... -o FILE [--arm NAME]\n");
	return PAB_EXIT_USAGE;
}
