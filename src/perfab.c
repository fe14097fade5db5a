/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perfab.c — the command table and main(): one entry per subcommand, each
 * in its own cmd_*.c file (git's builtin/<cmd>.c layout).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_version.h>
#include <hwloc.h>

#include "builtin.h"
#include "counters.h"
#include "util.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run arms through balanced rotated blocks and judge them" },
	{ "ledger", cmd_ledger, "judge artifacts: PASS / FAIL / INCONCLUSIVE per row" },
	{ "gate", cmd_gate, "the overall verdict as the exit code, for CI" },
	{ "pool", cmd_pool, "merge artifacts of one experiment: more blocks, or shards" },
	{ "memgate", cmd_memgate, "memory gate: min peak RSS of N runs vs a committed baseline" },
	{ "workloads", cmd_workloads, "list the built-in workload rows" },
	{ "env", cmd_env, "show the host fingerprint and what will add noise" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: perfab [--version] [--help] <command> [<args>]\n\ncommands:\n", f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'perfab <command> --help' shows a command's options; man perfab has it all.\n", f);
}

static void version(void)
{
	printf("perfab %s\n", PACKAGE_VERSION);
	/* The licence notice, as GNU tools print it. */
	printf("Copyright (C) 2026 the perfab authors.\n"
	       "License GPL-3.0-or-later: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n");
	printf("Features: gsl/%s libcjson/%d.%d.%d hwloc/%s %s\n", GSL_VERSION,
	       CJSON_VERSION_MAJOR, CJSON_VERSION_MINOR, CJSON_VERSION_PATCH,
	       HWLOC_VERSION, pab_counters_feature());
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
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version();
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "perfab: error: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return PAB_EXIT_USAGE;
}
