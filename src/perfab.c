/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perfab.c — the command table and main(): one entry per subcommand, each
 * in its own cmd_*.c file (git's builtin/<cmd>.c layout), and the help
 * topics that print the binary's own tables (the metric table, the exit
 * codes), which the man page is tested against.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gsl/gsl_version.h>
#include <hwloc.h>

#include "builtin.h"
#include "model/metrics.h"
#include "probe/counters.h"
#include "store/history_db.h"
#include "store/json_in.h"
#include "term.h"
#include "util.h"

static void usage(FILE *f);

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run arms through balanced rotated blocks and judge them" },
	{ "ledger", cmd_ledger, "judge artifacts: PASS / FAIL / INCONCLUSIVE per row" },
	{ "gate", cmd_gate, "the overall verdict as the exit code, for CI" },
	{ "export", cmd_export, "write an artifact's raw samples as CSV or JSON" },
	{ "pool", cmd_pool, "merge artifacts of one experiment: more blocks, or shards" },
	{ "memgate", cmd_memgate, "memory gate: min peak RSS of N runs vs a committed baseline" },
	{ "workloads", cmd_workloads, "list the built-in workload rows" },
	{ "env", cmd_env, "show the host fingerprint and what will add noise" },
	{ "history", cmd_history, "record verdicts across merges; drift, change points, trend page" },
	{ "calibrate", cmd_calibrate, "measure what this machine resolves: an A/A run into tolerances" },
	{ "bisect", cmd_bisect, "find the commit that made it slower or fatter, the ledger as the oracle" },
};

static const size_t n_commands = sizeof(commands) / sizeof(commands[0]);

/* `perfab help metrics`: the metric table, one metric a line. */
static void help_metrics(void)
{
	size_t i;

	fputs("Metrics every rep records for every arm (perfab(1) METRICS); the names are\n"
	      "those of --metrics, --tolerance, the artifact and the ledger.\n"
	      "default: judged by default, or recorded only; credit: may spend memory\n"
	      "credit; target: a CPU/throughput target of the disposition; gate: compared\n"
	      "by the sanity gate after the first rep; tol%: the default tolerance;\n"
	      "source, under each metric: where its value comes from.\n\n", stdout);
	printf("%-24s %-5s  %-6s  %-8s  %-6s  %-6s  %-4s  %s\n    source\n", "metric", "unit",
	       "better", "default", "credit", "target", "gate", "tol%");
	for (i = 0; i < PAB_M_COUNT; i++) {
		const struct pab_metric *m = &pab_metrics[i];

		printf("%-24s %-5s  %-6s  %-8s  %-6s  %-6s  %-4s  %g\n", m->name, m->unit,
		       m->better == PAB_HIGHER_IS_BETTER ? "higher" : "lower",
		       m->judged ? "judged" : "recorded", m->credit_eligible ? "credit" : "-",
		       m->target ? "target" : "-", m->sanity_gate ? "gate" : "-",
		       pab_metric_default_tolerance((enum pab_metric_id)i));
		/* The source on its own line: it is a sentence, not a column
		 * (doc/hacking.md "Output width"). */
		fputs("    ", stdout);
		pab_print_folded(stdout, 4, 4, m->source);
	}
}

/* `perfab help exit-codes`: what each exit status means. */
static void help_exit_codes(void)
{
	size_t i;

	fputs("Exit statuses of perfab (perfab(1) EXIT STATUS); a script should treat\n"
	      "every status but 0 as \"not a pass\".\n\n", stdout);
	for (i = 0; i < sizeof(pab_exit_statuses) / sizeof(pab_exit_statuses[0]); i++) {
		printf("  %d  ", (int)pab_exit_statuses[i].code);
		pab_print_folded(stdout, 5, 5, pab_exit_statuses[i].meaning);
	}
}

static const struct {
	const char *name;
	void (*fn)(void);
	const char *summary;
} topics[] = {
	{ "metrics", help_metrics, "the metric table: unit, direction, judged, credit, source" },
	{ "exit-codes", help_exit_codes, "what each exit status means" },
};

/* "unknown command 'rnu'; did you mean 'run'?" and the usage, on stderr. */
static void unknown(const char *name)
{
	const char *names[sizeof(commands) / sizeof(commands[0]) + 1 +
			  sizeof(topics) / sizeof(topics[0])];
	const char *near;
	size_t i, n = 0;

	for (i = 0; i < n_commands; i++)
		names[n++] = commands[i].name;
	names[n++] = "help";
	for (i = 0; i < sizeof(topics) / sizeof(topics[0]); i++)
		names[n++] = topics[i].name;
	near = name[0] == '-' ? NULL : pab_nearest(name, names, n);
	if (name[0] == '-')
		pab_error("unknown option '%s' (options go after the command: "
			"perfab run --help)", name);
	else if (near)
		pab_error("unknown command '%s'; did you mean '%s'?", name, near);
	else if (!strcmp(name, "compare") || !strcmp(name, "bench") || !strcmp(name, "ab"))
		pab_error("unknown command '%s'; to compare two commands: "
			"perfab run CMD_BASE CMD_HEAD", name);
	else
		pab_error("unknown command '%s'", name);
	usage(stderr);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: perfab [-v|--version] [-h|--help] <command> [<args>]\n"
	      "       perfab run [OPTIONS] CMD_BASE CMD_HEAD\n"
	      "       perfab help <command>|<topic>\n\ncommands:\n", f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nhelp topics:\n", f);
	for (i = 0; i < sizeof(topics) / sizeof(topics[0]); i++)
		fprintf(f, "  %-10s %s\n", topics[i].name, topics[i].summary);
	fputs("\n'perfab help <command>' shows a command's options, 'perfab help <topic>'\n"
	      "prints a table; man perfab has it all.\n", f);
}

static void version(void)
{
	printf("perfab %s\n", PACKAGE_VERSION);
	/* The licence notice, as GNU tools print it. */
	printf("Copyright (C) 2026 the perfab authors.\n"
	       "License GPL-3.0-or-later: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n");
	printf("Features: gsl/%s libcjson/%s hwloc/%s sqlite/%s %s\n", GSL_VERSION,
	       pab_json_version(), HWLOC_VERSION, pab_history_sqlite_version(),
	       pab_counters_feature());
	printf("Protocols: rotate-reverse/1 perfab-artifact/1 perfab-workload/1\n");
	printf("Rules: perfab/2 (default) perfab/1 rule12\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return PAB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "-v")) {
		version();
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		/* perfab help CMD = perfab CMD --help */
		char *help_argv[] = { argv[2], "--help", NULL };

		for (i = 0; i < n_commands; i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].fn(2, help_argv);
		for (i = 0; i < sizeof(topics) / sizeof(topics[0]); i++)
			if (!strcmp(argv[2], topics[i].name)) {
				topics[i].fn();
				return PAB_EXIT_PASS;
			}
		unknown(argv[2]);
		return PAB_EXIT_USAGE;
	}
	for (i = 0; i < n_commands; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	unknown(argv[1]);
	return PAB_EXIT_USAGE;
}
