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

/* A frame line "\tADDR SYM (DSO)": the symbol and the object's file
 * name into name and dso (new memory). The last " (" opens the object: a
 * C++ symbol may hold parentheses and blanks. 0, or -1. */
static int frame_of(const char *p, const char *end, char **name, char **dso)
{
	const char *sym, *open;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (sym = p; sym < end && *sym != ' '; sym++)
		;
	for (open = end - 1; open > sym && !(open[0] == '(' && open[-1] == ' '); open--)
		;
	if (sym >= end || open <= sym || end[-1] != ')')
		return -1;
	sym++;
	*name = xstrndup(sym, (size_t)(open - 1 - sym));
	*dso = xstrndup(open + 1, (size_t)(end - open - 2));
	return 0;
}

/* One sample's frames, innermost first. */
struct sample {
	double period;
	char **names, **dsos;
	size_t n, alloc, alloc2;
	int open;
};

/* The sample's time to its first frame that is not the kernel's, and
 * its user frames, outermost first, as one folded stack "a;b;c". */
static void sample_end(struct sample *sm, struct pab_profile *p, struct pab_profile *stacks)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	const char *leaf = NULL, *leaf_dso = NULL;
	size_t i;

	if (!sm->open)
		return;
	for (i = 0; i < sm->n && !leaf; i++)
		if (strcmp(sm->dsos[i], "[kernel.kallsyms]"))
			leaf = sm->names[i], leaf_dso = sm->dsos[i];
	pab_profile_add(p, leaf ? leaf : "[kernel]", leaf_dso, sm->period, NAN);
	for (i = sm->n; stacks && i-- > 0;)
		if (strcmp(sm->dsos[i], "[kernel.kallsyms]"))
			pab_strbuf_addf(&sb, "%s%s", sb.len ? ";" : "", sm->names[i]);
	if (stacks)
		pab_profile_add(stacks, sb.len ? sb.buf : "[kernel]", NULL, sm->period, NAN);
	pab_strbuf_release(&sb);
	for (i = 0; i < sm->n; i++) {
		free(sm->names[i]);
		free(sm->dsos[i]);
	}
	sm->n = 0;
	sm->open = 0;
}

size_t pab_profile_perf_parse(const char *text, size_t len, struct pab_profile *p,
			      struct pab_profile *stacks)
{
	const char *q = text, *end = text + len;
	struct sample sm = { 0 };
	size_t samples = 0;

	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *le = nl ? nl : end;
		char *name = NULL, *dso = NULL, word[32];
		const char *w = q;
		size_t wl;

		while (w < le && *w == ' ')
			w++;
		wl = (size_t)(le - w);
		while (wl && w[wl - 1] == ' ')
			wl--;
		if (*q != '\t' && wl && wl < sizeof(word)) {
			double period;

			memcpy(word, w, wl);
			word[wl] = '\0';
			if (!parse_double(word, 0, 1e18, &period)) {
				sample_end(&sm, p, stacks);
				sm.period = period;
				sm.open = 1;
				samples++;
			}
		} else if (*q == '\t' && sm.open && !frame_of(q, le, &name, &dso)) {
			const char *base = strrchr(dso, '/') ? strrchr(dso, '/') + 1 : dso;

			ALLOC_GROW(sm.names, sm.n + 1, sm.alloc);
			ALLOC_GROW(sm.dsos, sm.n + 1, sm.alloc2);
			sm.names[sm.n] = xstrdup(!strcmp(name, "[unknown]") ? "???" : name);
			sm.dsos[sm.n++] = xstrdup(!strcmp(dso, "[kernel.kallsyms]") ? dso : base);
		} else if (q == le) {
			sample_end(&sm, p, stacks);
		}
		free(name);
		free(dso);
		q = le + 1;
	}
	sample_end(&sm, p, stacks);
	free(sm.names);
	free(sm.dsos);
	pab_profile_merge(p);
	if (stacks)
		pab_profile_merge(stacks);
	return samples;
}

long pab_profile_perf_file(const char *tool, const char *data, const char *out_path,
			   struct pab_profile *p, struct pab_profile *stacks, char **why)
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
	n = pab_profile_perf_parse(text, len, p, stacks);
	free(text);
	if (!n)
		*why = xasprintf("perf recorded no sample in '%s'", data);
	return (long)n;
}
