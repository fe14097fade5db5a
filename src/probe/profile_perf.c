/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_perf.c — perf's cpu-clock samples by function (profile_perf.h).
 * `perf script -F period,ip,sym,dso` prints each sample as its period on a
 * line of its own, then one line per frame, innermost first ("\tADDR SYM
 * (DSO)"), then a blank line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/profile_perf.h"
#include "probe/runchild.h"
#include "util.h"

extern char **environ;

/* Largest perf script output read. */
#define SCRIPT_MAX_BYTES ((size_t)512 << 20)

char *pab_perf_tool(char **why)
{
	const char *env = getenv(PAB_PERF_ENV);
	const char *name = env && *env ? env : "perf";
	char *exe = pab_resolve_exe(name);

	*why = NULL;
	if (!exe)
		*why = xasprintf("perf is not available ('%s': %s%s): install perf (Debian: "
				 "apt-get install linux-perf) for time by call stack", name,
				 strerror(errno), env && *env ? ", from " PAB_PERF_ENV :
				 ", looked up on PATH");
	return exe;
}

char **pab_perf_argv(const char *tool, const char *out_prefix, char *const *argv,
		     char ***opts_out)
{
	size_t n = 0, k = 0, i;
	char **out, **opts = xcalloc(3, sizeof(*opts));

	while (argv[n])
		n++;
	out = xcalloc(n + 14, sizeof(*out));
	opts[0] = xasprintf("%d", PAB_PERF_HZ);
	opts[1] = xasprintf("%s.data", out_prefix);
	out[k++] = (char *)tool;
	out[k++] = "record";
	out[k++] = "-q";
	out[k++] = "-e";
	out[k++] = "cpu-clock";
	out[k++] = "-F";
	out[k++] = opts[0];
	out[k++] = "-g";
	out[k++] = "-o";
	out[k++] = opts[1];
	out[k++] = "--";
	for (i = 0; i < n; i++)
		out[k++] = argv[i];
	*opts_out = opts;
	return out;
}

/* A frame line "\tADDR SYM (DSO)": the symbol (without +0x...) and the
 * object's file name into name and dso (new memory). 0, or -1. */
static int frame_of(const char *p, const char *end, char **name, char **dso)
{
	const char *sym, *open, *s_end;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	sym = memchr(p, ' ', (size_t)(end - p));
	open = sym ? memchr(sym, '(', (size_t)(end - sym)) : NULL;
	if (!open || end[-1] != ')')
		return -1;
	sym++;
	for (s_end = open; s_end > sym && s_end[-1] == ' '; s_end--)
		;
	{
		const char *plus = sym;

		while (plus < s_end && !(plus[0] == '+' && plus + 1 < s_end && plus[1] == '0'))
			plus++;
		s_end = plus;
	}
	*name = xstrndup(sym, (size_t)(s_end - sym));
	*dso = xstrndup(open + 1, (size_t)(end - open - 2));
	return 0;
}

size_t pab_profile_perf_parse(const char *text, size_t len, struct pab_profile *p)
{
	const char *q = text, *end = text + len;
	double period = 0;
	size_t samples = 0;
	int need_frame = 0;

	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *le = nl ? nl : end;
		char *name = NULL, *dso = NULL, word[32];
		const char *w = q;
		size_t wl;

		while (w < le && *w == ' ')
			w++;
		wl = (size_t)(le - w);
		if (*q != '\t' && wl && wl < sizeof(word)) {
			/* A sample's period line. */
			memcpy(word, w, wl);
			word[wl] = '\0';
			while (wl && word[wl - 1] == ' ')
				word[--wl] = '\0';
			if (!parse_double(word, 0, 1e18, &period)) {
				if (need_frame)
					pab_profile_add(p, "[kernel]", NULL, period, NAN);
				need_frame = 1;
				samples++;
			}
		} else if (*q == '\t' && need_frame && !frame_of(q, le, &name, &dso)) {
			if (strcmp(dso, "[kernel.kallsyms]")) {
				const char *base = strrchr(dso, '/') ? strrchr(dso, '/') + 1 : dso;

				pab_profile_add(p, !strcmp(name, "[unknown]") ? "???" : name, base,
						period, NAN);
				need_frame = 0;
			}
		} else if (q == le && need_frame) {
			pab_profile_add(p, "[kernel]", NULL, period, NAN);
			need_frame = 0;
		}
		free(name);
		free(dso);
		q = le + 1;
	}
	if (need_frame)
		pab_profile_add(p, "[kernel]", NULL, period, NAN);
	pab_profile_merge(p);
	return samples;
}

long pab_profile_perf_file(const char *tool, const char *data, const char *out_path,
			   struct pab_profile *p, char **why)
{
	char *argv[] = { (char *)tool, "script", "-i", (char *)data, "-F", "period,ip,sym,dso",
			 NULL };
	posix_spawn_file_actions_t fa;
	char *text;
	size_t len, n;
	pid_t pid;
	int status = 0, err;

	*why = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	err = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		*why = xasprintf("'%s script' failed on '%s'%s%s", tool, data, err ? ": " : "",
				 err ? strerror(err) : "");
		return -1;
	}
	text = read_file_max(out_path, SCRIPT_MAX_BYTES, &len);
	if (!text) {
		*why = xasprintf("cannot read '%s': %s", out_path, strerror(errno));
		return -1;
	}
	n = pab_profile_perf_parse(text, len, p);
	free(text);
	if (!n)
		*why = xasprintf("perf recorded no sample in '%s'", data);
	return (long)n;
}
