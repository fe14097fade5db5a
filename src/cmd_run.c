/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_run.c — `perfab run`: the options, then the plan (run/plan.h: arms,
 * rows, settings, --resume), the runner (run/runner.h: the rotation on
 * pinned cores, a checkpoint after every rep, the sanity gate, adaptive
 * reps), the medians and the ledger printed, and the exit code. Errors of
 * the plan and the runner are reported here, with the exit code their
 * kind maps to; a stop signal ends the run here too.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd_run.h"
#include "judge/ledger.h"
#include "store/artifact_read.h"
#include "store/tempfile.h"
#include "options.h"
#include "report/report.h"
#include "run/attribute.h"
#include "run/plan.h"
#include "run/progress.h"
#include "run/resume.h"
#include "run/runner.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

static const char run_usage[] =
	"perfab run [OPTIONS] CMD_BASE CMD_HEAD\n"
	"       perfab run [--config FILE] [--arms base,head] [--no-null-arm] [--arm NAME=COMMAND]...\n"
	"                  [--head-env 'K=V || K=V'] [--workloads SEL] [--reps N] [--max-reps N]\n"
	"                  [--budget DURATION] [--metrics LIST] [--require LIST] [--guard-tolerance PCT]\n"
	"                  [--counts auto|pmu|sim|off] [--count-reps N] [--calibration FILE]\n"
	"                  [--count-cache FILE | --no-count-cache] [--attribute auto|always|never]\n"
	"                  [--out FILE] [--cpus LIST] [--no-sanity-gate] [--preserve-builds DIR]\n"
	"                  [--seed N] [--shard I/N] [--timeout S] [--tolerance [METRIC=]PCT]...\n"
	"                  [--rules perfab/2|perfab/1|rule12] [--controls SEL] [--scale X]\n"
	"                  [--literal-argv] [--ignore-failure] [--warmup N] [--prepare CMD] [--setup CMD]\n"
	"                  [--cleanup CMD] [--parameter-scan NAME MIN MAX [--parameter-step-size S]]...\n"
	"                  [--parameter-list NAME V1,V2,...]... [--input FILE] [--output WHERE]\n"
	"                  [--show-output] [--export-markdown FILE] [--export-csv FILE] [--export-json FILE]\n"
	"       perfab run --resume FILE [--config FILE] [--arm NAME=COMMAND]... [--trust-artifact]";

/*
 * The options of `perfab run`, declared once: the parser and --help use
 * this table, and the ranges of the settings are those --resume checks an
 * artifact's against (model/experiment.h). cmd_run() parses into opt and
 * works on a copy.
 */
static struct pab_run_opts opt;
/* hyperfine's spellings that mean the same thing here (doc/perfab.1,
 * "hyperfine's options"): --runs N is exactly N reps; --shell none and -N
 * say what perfab always does. --prepare is collected to refuse a second
 * one, which hyperfine reads as the second command's own prepare. */
static uint64_t hf_runs;
static const char *hf_shell;
static int hf_no_shell;
static struct pab_strlist prepares;
static const struct pab_option run_options[] = {
	OPT_STRING(0, "config", &opt.config, "FILE", "arms, rows and settings from a JSON file"),
	OPT_LIST(0, "arm", &opt.arm_specs, "NAME=COMMAND", "define an arm (split into argv, never a shell)"),
	OPT_STRING(0, "arms", &opt.arms, "A,B", "select and order arms (base: the arm named base, else the first)"),
	OPT_FLAG(0, "null-arm", &opt.null_arm, "add arm 'null': base's exact argv and env again (the default)"),
	OPT_FLAG(0, "no-null-arm", &opt.no_null_arm, "no null arm: FAIL rests on head vs base alone"),
	OPT_LIST(0, "head-env", &opt.head_env, "'K=V || K=V2'", "head variants in one rotation: arms head, hd01, ..."),
	OPT_STRING('w', "workloads", &opt.workloads, "SEL", "built-in rows: =exact, substring, '|'"),
	OPT_U64('n', "reps", &opt.reps, "N", "reps per row before the first verdict, in whole blocks (default 12)", 1, 1000000),
	OPT_U64(0, "max-reps", &opt.max_reps, "N", "cap for undecided rows; looks double from --reps (default 96)", 1, 1000000),
	OPT_STRING(0, "budget", &opt.budget, "DURATION", "time for the whole run, e.g. 90s, 10m (default 10m)"),
	OPT_STRING(0, "metrics", &opt.metrics, "LIST", "judged metrics, e.g. cpu,peak_rss (default: see METRICS)"),
	OPT_STRING(0, "require", &opt.require, "LIST", "cells that must PASS for a row to PASS; other judged cells guard (default cpu; instructions with exact counts)"),
	OPT_STRING('o', "out", &opt.out, "FILE", "artifact path (default perfab-run.json)"),
	OPT_STRING(0, "resume", &opt.resume, "FILE", "continue an interrupted run from its checkpoint"),
	OPT_FLAG(0, "trust-artifact", &opt.trust, "--resume: run the arms and rows the artifact records unchecked"),
	OPT_STRING(0, "shard", &opt.shard, "I/N", "run only rows i with i mod N = I-1 (for pooling)"),
	OPT_STRING(0, "cpus", &opt.cpus, "LIST", "CPUs for the children, e.g. 1-3"),
	OPT_FLAG(0, "no-sanity-gate", &opt.no_sanity, "do not stop when a head's RSS blows up at rep 0"),
	OPT_STRING(0, "preserve-builds", &opt.preserve, "DIR", "copy each arm's executable (SHA-256 checked) first"),
	OPT_U64(0, "seed", &opt.seed, "N", "seed for workloads (default: random, recorded)", 0, 9007199254740991.0),
	OPT_DOUBLE(0, "timeout", &opt.timeout_s, "S", "kill a child's process group after S seconds (default 600, 0: none)", 0, PAB_RUN_TIMEOUT_MAX_S),
	OPT_U64(0, "max-procs", &opt.max_procs, "N", "kill a child whose process tree exceeds N processes (default 512)", 1, PAB_RUN_MAX_PROCS_MAX),
	OPT_DOUBLE(0, "sample-interval", &opt.interval_ms, "MS", "tree RSS/PSS sampling interval (default 10)", PAB_RUN_INTERVAL_MIN_MS, PAB_RUN_INTERVAL_MAX_MS),
	OPT_LIST(0, "tolerance", &opt.tolerances, "[METRIC=]PCT", "tolerance (default 2 for every metric)"),
	OPT_STRING(0, "rules", &opt.rules, "RULES", "perfab/2 (default), perfab/1 or rule12"),
	OPT_STRING(0, "controls", &opt.controls, "SEL", "rows that must stay unchanged"),
	OPT_DOUBLE(0, "equivalence-margin", &opt.margin, "PCT", "controls' equivalence margin (default 3)", 0, 1000),
	OPT_DOUBLE(0, "guard-tolerance", &opt.guard_tolerance, "PCT", "PASS once the cpu guard excludes a regression beyond PCT (default 4)", 0, PAB_RUN_GUARD_TOLERANCE_MAX),
	OPT_DOUBLE(0, "scale", &opt.scale, "X", "scale built-in workloads' work (default 1)", PAB_RUN_SCALE_MIN, PAB_RUN_SCALE_MAX),
	OPT_STRING(0, "counts", &opt.counts, "MODE", "exact instruction counts: auto (default), pmu, sim (valgrind) or off"),
	OPT_U64(0, "count-reps", &opt.count_reps, "N", "counting-pass reps per row (default: one block, at least 2)", 1, PAB_RUN_COUNT_REPS_MAX),
	OPT_STRING(0, "count-cache", &opt.count_cache, "FILE", "keep counts across runs in FILE (default: none; 'default': ~/.cache/perfab/counts.json)"),
	OPT_FLAG(0, "no-count-cache", &opt.no_count_cache, "count every program, without the count cache"),
	OPT_STRING(0, "attribute", &opt.attribute, "MODE", "profile what moved: auto (cells that FAIL, the default), always or never"),
	OPT_STRING(0, "calibration", &opt.calibration, "FILE", "per-metric tolerances from perfab calibrate (never below --tolerance)"),
	OPT_STRING(0, "counters", &opt.counters, "LIST", "libpfm4 events, e.g. instructions:u,cycles:u (the default)"),
	OPT_FLAG(0, "no-cgroup", &opt.no_cgroup, "do not place children in cgroups of their own"),
	OPT_FLAG(0, "literal-argv", &opt.literal_argv, "pass words such as '|', '>' or $X to the program as they are"),
	OPT_FLAG('i', "ignore-failure", &opt.ignore_failure, "a child's non-zero exit status is measured, not a failure (a signal, a timeout or a failing hook still fails its row)"),
	OPT_U64(0, "warmup", &opt.warmup, "N", "unmeasured runs of each arm before a row's first block (default 0)", 0, PAB_RUN_WARMUP_MAX),
	OPT_LIST('p', "prepare", &prepares, "CMD", "run CMD before every measured run (and warmup run), unmeasured"),
	OPT_STRING('s', "setup", &opt.setup, "CMD", "run CMD once per row before its first rep"),
	OPT_STRING('c', "cleanup", &opt.cleanup, "CMD", "run CMD once per row after its last rep (also on a failure or stop)"),
	OPT_LIST_N('P', "parameter-scan", &opt.param_scans, "NAME MIN MAX", "one row per value of {NAME} in the arms' commands", 3),
	OPT_DOUBLE('D', "parameter-step-size", &opt.param_step, "S", "step of --parameter-scan (default 1)", 1e-9, 1e15),
	OPT_LIST_N('L', "parameter-list", &opt.param_lists, "NAME V1,V2,...", "one row per listed value of {NAME} (repeated: every combination)", 2),
	OPT_STRING(0, "input", &opt.input, "FILE", "the children's stdin: null (/dev/null, the default) or a file"),
	OPT_STRING(0, "output", &opt.output, "WHERE", "the children's stdout: null (the default), inherit or a file"),
	OPT_FLAG(0, "show-output", &opt.show_output, "show the children's stdout and stderr on stderr, one run at a time"),
	OPT_STRING(0, "export-markdown", &opt.export_markdown, "FILE", "write the Markdown report to FILE at the end"),
	OPT_STRING(0, "export-csv", &opt.export_csv, "FILE", "the ledger as CSV, at the end (arms' means: export --stats)"),
	OPT_STRING(0, "export-json", &opt.export_json, "FILE", "write the ledger as JSON to FILE at the end"),
	OPT_FLAG('q', "quiet", &opt.quiet, "no progress lines"),
	OPT_U64('r', "runs", &hf_runs, "N", "as hyperfine: exactly N reps per row (--reps N --max-reps N)", 1, 1000000),
	OPT_U64('m', "min-runs", &opt.reps, "N", "as hyperfine: at least N reps (--reps N)", 1, 1000000),
	OPT_U64('M', "max-runs", &opt.max_reps, "N", "as hyperfine: at most N reps (--max-reps N)", 1, 1000000),
	OPT_STRING('S', "shell", &hf_shell, "none", "as hyperfine: only 'none' (perfab never runs a shell)"),
	OPT_FLAG('N', "no-shell", &hf_no_shell, "as hyperfine's -N: no shell (always so here)"),
	OPT_END(),
};

/*
 * hyperfine's options that perfab does otherwise: what to do instead
 * (options.h). -n and -w are perfab's own (--reps, --workloads, long
 * before a hyperfine spelling was accepted): they keep their meaning, and
 * a value that reads as hyperfine's gets this advice.
 */
static const struct pab_foreign_option hyperfine_options[] = {
	{ "--reference", "perfab compares two commands, base then head: perfab run "
	  "'REFERENCE' 'CMD' (the null arm runs the base again)", 0 },
	{ "--sort", "the ledger lists rows in the order they were defined", 0 },
	{ "--export-asciidoc|--export-orgmode", "perfab writes --export-markdown, "
	  "--export-csv (the ledger) and --export-json; perfab export --stats writes each "
	  "arm's mean, stddev, median, min and max", 0 },
	{ "-C|--conclude", "perfab runs no command after each run: --prepare CMD runs before "
	  "every run, --cleanup CMD after each row's last rep", 0 },
	{ "-E|--show-elapsed", "on a terminal the status line shows the time elapsed and left "
	  "(-q: none)", 0 },
	{ "--style|-u|--time-unit", "the ledger picks each metric's unit; colour follows the "
	  "terminal (NO_COLOR=1 turns it off) and -q drops the progress lines", 0 },
	{ "-n|--command-name", "-n is --reps here, a number; name arms with --arm "
	  "NAME=COMMAND", 0 },
	{ "-w", "-w is --workloads here, a selection of built-in rows; warmup "
	  "runs are --warmup N", 1 },
	{ NULL, NULL, 0 },
};

const struct pab_option *pab_run_options(void)
{
	return run_options;
}

/* The exit code a failure of the plan or the runner maps to. */
static int failure_exit_code(const struct pab_failure *f)
{
	switch (f->kind) {
	case PAB_FAIL_REFUSED: return PAB_EXIT_REFUSED;
	case PAB_FAIL_SYSTEM: return PAB_EXIT_RUNTIME;
	case PAB_FAIL_LOAD: return pab_artifact_load_exit_code(f->load_ret);
	default: return PAB_EXIT_USAGE;
	}
}

/* The notes and warnings the plan collected, in order. */
static void print_plan_messages(const struct pab_plan *p)
{
	size_t i;

	for (i = 0; i < p->n_msgs; i++) {
		const struct pab_plan_msg *m = &p->msgs[i];

		if (m->kind == PAB_PLAN_NOTE)
			note("%s", m->text);
		else if (m->kind == PAB_PLAN_WARNING)
			warning("%s", m->text);
		else
			fputs(m->text, stderr);
	}
}

/* The options into *o, CMD_BASE CMD_HEAD as arms base and head (their
 * specs in positional[], freed by the caller). */
static void parse_run_options(int argc, char **argv, struct pab_run_opts *o,
			      struct pab_strlist *pos, char *positional[2])
{
	/* Zero / negative = "not given", so --resume can refuse what it ignores. */
	pab_run_opts_init(&opt);
	pab_options_foreign("hyperfine", hyperfine_options);
	pab_parse_options(argc, argv, run_options, run_usage,
			  "Run arms through balanced rotated blocks, measure every child, checkpoint\n"
			  "an artifact after every rep, and print the ledger.",
			  pos);
	if (hf_shell && strcmp(hf_shell, "none"))
		pab_usage_error(run_options, run_usage, "perfab runs every command without a shell: "
				"give --shell none, or make the shell the command ('bash -c \"...\"')");
	if (hf_runs && (opt.reps || opt.max_reps))
		pab_usage_error(run_options, run_usage, "--runs N is --reps N --max-reps N: "
				"give one or the other");
	if (hf_runs)
		opt.reps = opt.max_reps = hf_runs;
	if (prepares.n > 1)
		pab_usage_error(run_options, run_usage, "--prepare is given %zu times: it runs before "
				"every arm's runs, so give it once; an arm's own prepare (hyperfine's "
				"--prepare per command) is the arm's \"prepare\" in --config FILE",
				prepares.n);
	opt.prepare = prepares.n ? prepares.v[0] : NULL;
	pab_strlist_release(&prepares);
	/* hyperfine's words for the children's stdin and stdout: null is
	 * /dev/null as for --output; a pipe perfab does not make. */
	if (opt.input && !strcmp(opt.input, "null"))
		opt.input = "/dev/null";
	if (opt.output && !strcmp(opt.output, "pipe"))
		pab_usage_error(run_options, run_usage, "--output pipe: perfab sends the children's "
				"stdout to null (discarded, the default), inherit or a file (one named "
				"pipe: --output ./pipe); to read it through a pipe, make that the "
				"command: sh -c 'CMD | cat >/dev/null'");
	*o = opt;
	o->table = run_options;
	memset(&opt, 0, sizeof(opt));
	/* perfab run CMD_BASE CMD_HEAD: the two arms base and head. */
	if (pos->n == 2 && (o->arm_specs.n || o->resume))
		pab_usage_error(run_options, run_usage, "two commands define arms base and head: "
				"do not also give --arm or --resume");
	if (pos->n && pos->n != 2)
		pab_usage_error(run_options, run_usage, "give two commands, base then head "
				"(perfab run './old' './new'), not %zu ('%s' is %s)", pos->n,
				pab_term_safe(pos->v[0]), pos->n == 1 ? "alone" : "one of several");
	if (pos->n == 2) {
		positional[0] = xasprintf("base=%s", pos->v[0]);
		positional[1] = xasprintf("head=%s", pos->v[1]);
		pab_strlist_push(&o->arm_specs, positional[0]);
		pab_strlist_push(&o->arm_specs, positional[1]);
	}
}

/*
 * Test hook: PERFAB_TEST_BALLAST_MIB=N makes perfab itself resident by N
 * MiB before it spawns anything, to prove children's peak_rss does not
 * inherit perfab's peak (tests/e2e/measure_peak_rss.sh). Never freed: it must
 * stay resident for the whole run.
 */
/* The test hook's ballast, held for the whole run. */
static char *ballast;

static void test_ballast(void)
{
	const char *s = pab_test_hook(PAB_TEST_BALLAST_MIB);
	uint64_t mib;
	char *p;

	if (!s || parse_u64(s, 1, 1 << 16, &mib))
		return;
	p = xmalloc(mib << 20);
	memset(p, 1, mib << 20);
	__asm__ volatile("" : : "r"(p) : "memory");
	ballast = p; /* reachable to the end: resident, and no leak to report */
}

/* One writer per artifact, for the whole run (a --resume included):
 * the lock on it, or die. */
static int lock_artifact(const struct pab_run_opts *o)
{
	const char *path = o->resume ? o->resume : o->out ? o->out : PAB_DEFAULT_OUT;
	char *why;
	int fd;

	if (o->resume && access(o->resume, F_OK))
		die(PAB_EXIT_USAGE, "cannot resume: cannot read '%s': %s", o->resume,
		    strerror(errno));
	fd = pab_artifact_lock(path, &why);
	if (fd < 0)
		die(PAB_EXIT_RUNTIME, "%s%s", why, errno == EWOULDBLOCK ? "" :
		    o->resume ? " (the artifact is untouched)" :
		    " (nothing was measured yet: choose another --out)");
	return fd;
}

/*
 * SIGTERM, SIGINT or SIGHUP ended the run (taken only while a child runs
 * or between children, runchild.h): the child's group is already dead;
 * say where the run stopped and the command that resumes it, kill the
 * rest, clean up, and die of the signal. The last checkpoint stays as it
 * was: the rep in progress is not in it.
 */
_Noreturn static void die_of_signal(struct pab_runner *r, int lock_fd, const char *resume_cmd)
{
	int sig = r->interrupted;

	pab_progress_interrupted(&r->pg, sig, r->plan->out, resume_cmd);
	fflush(stderr); /* fully buffered during a run; raise() flushes nothing */
	pab_runner_release(r);
	pab_artifact_unlock(r->plan->out, lock_fd);
	pab_die_of_signal(sig);
}

/* One --export-* file: the report ro of e, judged as l. */
struct export_job {
	const struct pab_experiment *e;
	const struct pab_ledger *l;
	const struct pab_report_opts *ro;
};

/* pab_write_file_atomic's writer of an export_job. */
static int write_export(FILE *f, void *arg)
{
	const struct export_job *j = arg;

	pab_report_print(f, j->e, j->l, j->ro);
	return ferror(f) ? -1 : 0;
}

/* --export-markdown, --export-csv, --export-json: the ledger l of e in
 * each file asked for, each written as the artifact is (store/tempfile.h:
 * never through a symlink, never torn). Returns 0, or -1 after saying
 * which file failed. */
static int export_reports(const struct pab_experiment *e, const struct pab_ledger *l,
			  const struct pab_run_opts *o)
{
	const char *paths[3] = { o->export_markdown, o->export_csv, o->export_json };
	static const enum pab_report_format fmts[3] = {
		PAB_REPORT_MARKDOWN, PAB_REPORT_CSV, PAB_REPORT_JSON,
	};
	int ret = 0;
	size_t i;

	for (i = 0; i < 3; i++) {
		struct pab_report_opts ro;
		struct export_job job = { e, l, &ro };
		char *why;

		if (!paths[i])
			continue;
		pab_report_opts_init(&ro, fmts[i]);
		if (pab_write_file_atomic(paths[i], write_export, &job, &why)) {
			pab_error("cannot write '%s': %s (the artifact '%s' "
				"has the run: perfab ledger --format %s)", paths[i],
				why, o->out ? o->out : o->resume ? o->resume :
				PAB_DEFAULT_OUT, pab_report_format_name(fmts[i]));
			free(why);
			ret = -1;
		}
	}
	return ret;
}

/* The medians, then the ledger and its verdict's exit code (or the
 * sanity gate's, or no verdict), and the reports --export-* asks for. */
static int print_results(const struct pab_experiment *e, const char *out, enum pab_run_end end,
			 const struct pab_run_opts *o)
{
	struct pab_ledger l;
	struct pab_ledger_opts lo;
	struct pab_report_opts ro;
	char *why;
	int ret;

	pab_print_medians(stdout, e);
	if (end == PAB_RUN_GATED)
		fprintf(stderr, "perfab: the sanity gate stopped the run after rep 1: the rows that "
			"tripped it FAIL; the artifact '%s' keeps the samples (rerun with "
			"--no-sanity-gate to measure anyway)\n", out);
	pab_ledger_opts_init(&lo, e);
	if (pab_ledger_build(e, &lo, &l, &why)) {
		fprintf(stderr, "perfab: no verdict: %s\n", why);
		free(why);
		return PAB_EXIT_REFUSED;
	}
	fputc('\n', stdout);
	pab_report_opts_init(&ro, PAB_REPORT_TEXT);
	ro.color = use_color(STDOUT_FILENO);
	pab_report_print(stdout, e, &l, &ro);
	ret = export_reports(e, &l, o) ? PAB_EXIT_RUNTIME : pab_ledger_exit_code(&l);
	pab_ledger_release(&l);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct pab_run_opts o;
	struct pab_strlist pos = { 0 };
	struct pab_failure f = { 0 };
	struct pab_plan plan;
	struct pab_runner r;
	struct pab_attribute at = { 0 };
	enum pab_run_end end;
	char *positional[2] = { NULL, NULL }, *resume_cmd;
	int lock_fd, ret;

	parse_run_options(argc, argv, &o, &pos, positional);
	test_ballast();
	/* Progress and notes reach stderr in batches (run/progress.h); exit,
	 * die() and the crash points flush it. */
	setvbuf(stderr, NULL, _IOFBF, 8192);
	resume_cmd = pab_plan_resume_command(&o, o.resume ? o.resume : o.out ? o.out :
					     PAB_DEFAULT_OUT);
	lock_fd = lock_artifact(&o);
	ret = pab_plan_make(&plan, &o, &f);
	print_plan_messages(&plan);
	if (ret)
		die(failure_exit_code(&f), "%s", f.why);
	end = pab_runner_start(&r, &plan, &f) ? PAB_RUN_ERROR : PAB_RUN_ENDED;
	if (end != PAB_RUN_ERROR) {
		pab_attribute_start(&at, &r, plan.attribute);
		r.pg.attribute = plan.attribute;
		end = pab_runner_run(&r, &f);
	}
	if (end == PAB_RUN_INTERRUPTED)
		die_of_signal(&r, lock_fd, resume_cmd);
	/* What grew, before the last checkpoint: it goes into the artifact. */
	if (end == PAB_RUN_ENDED || end == PAB_RUN_GATED)
		pab_attribute_run(&at);
	pab_attribute_release(&at);
	/* What ran is what was checked: every program and input, once more. */
	if (end != PAB_RUN_ERROR && pab_plan_recheck(&plan, &f))
		end = PAB_RUN_ERROR;
	if (end == PAB_RUN_ERROR || pab_runner_finish(&r, end, &f)) {
		pab_runner_release(&r);
		die(failure_exit_code(&f), "%s", f.why);
	}
	pab_runner_release(&r);
	pab_artifact_unlock(plan.out, lock_fd);
	if (!o.quiet)
		note("artifact written to '%s'", plan.out);
	fflush(stderr);
	ret = print_results(&plan.e, plan.out, end, &o);
	pab_plan_release(&plan);
	free(resume_cmd);
	pab_strlist_release(&o.arm_specs);
	free(positional[0]);
	free(positional[1]);
	pab_strlist_release(&o.tolerances);
	pab_strlist_release(&o.head_env);
	pab_strlist_release(&o.param_scans);
	pab_strlist_release(&o.param_lists);
	pab_strlist_release(&pos);
	return ret;
}
