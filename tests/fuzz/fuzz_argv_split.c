/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_argv_split.c — libFuzzer harness for pab_argv_split(), the
 * shell-free splitter every --arm COMMAND goes through.
 *
 * The input is copied and NUL-terminated (a command string ends at its
 * first NUL, as on a real command line). On success the words must form a
 * proper argv (argc >= 1, argv[argc] == NULL) and survive the documented
 * round trip: pab_argv_join() renders them so that pab_argv_split() gives
 * the same words back. Everything is freed; deterministic.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *cmd = xmalloc(size + 1);
	char **argv = NULL, **back = NULL, **copy;
	const char *why = NULL;
	char *joined;
	size_t argc = 0, back_argc = 0, i;

	memcpy(cmd, data, size);
	cmd[size] = '\0';
	if (pab_argv_split(cmd, &argv, &argc, &why)) {
		if (argv || argc || !why || !*why)
			abort(); /* contract: *out NULL, a static reason */
		goto out_free_cmd;
	}
	if (!argv || !argc || argv[argc])
		abort();
	for (i = 0; i < argc; i++)
		if (!argv[i])
			abort();
	joined = pab_argv_join(argv, argc);
	if (pab_argv_split(joined, &back, &back_argc, &why)) {
		fprintf(stderr, "join gave '%s', which does not split: %s\n",
			joined, why);
		abort();
	}
	if (back_argc != argc)
		abort();
	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], back[i])) {
			fprintf(stderr, "word %zu '%s' came back as '%s' via '%s'\n",
				i, argv[i], back[i], joined);
			abort();
		}
	copy = pab_argv_dup(argv, argc);
	pab_argv_free(copy);
	pab_argv_free(back);
	free(joined);
	pab_argv_free(argv);
out_free_cmd:
	free(cmd);
	return 0;
}
