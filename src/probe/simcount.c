/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * simcount.c — exact instruction counts under valgrind's cachegrind
 * (simcount.h): finding the tool, its command line, and reading the
 * count back from the output files it writes.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/runchild.h"
#include "probe/simcount.h"
#include "term.h"
#include "util.h"

/* Largest cachegrind output file read (a big program's per-line table). */
#define OUT_MAX_BYTES ((size_t)256 << 20)

char *pab_simcount_tool(char **why)
{
	const char *env = getenv(PAB_SIMCOUNT_ENV);
	const char *name = env && *env ? env : "valgrind";
	char *exe = pab_resolve_exe(name);

	*why = NULL;
	if (!exe)
		*why = xasprintf("valgrind is not available ('%s': %s%s): install valgrind "
				 "(Debian: apt-get install valgrind) for exact counts",
				 name, strerror(errno),
				 env && *env ? ", from " PAB_SIMCOUNT_ENV : ", looked up on PATH");
	return exe;
}

char **pab_simcount_argv(const char *tool, const char *out_prefix, char *const *argv,
			 char ***opts_out)
{
	static const char *const fixed[] = {
		"-q", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no",
		/* A small fixed cache geometry: with --cache-sim=no it changes
		 * no count, but left to itself cachegrind sizes its (unused)
		 * model from the host's caches, and a VM that reports a
		 * 512 MiB L3 makes every counted child allocate and touch
		 * ~65 MiB: 0.5 s of start-up instead of 0.3 s (doc/method.md
		 * 13) */
		"--I1=32768,8,64", "--D1=32768,8,64", "--LL=262144,8,64",
		"--trace-children=yes", "--log-file=/dev/null",
		/* no gdbserver: a counted child that is killed (--timeout, a
		 * stop signal) would leave its FIFOs in /tmp */
		"--vgdb=no",
	};

	return pab_valgrind_argv(tool, fixed, sizeof(fixed) / sizeof(fixed[0]),
				 xasprintf("--cachegrind-out-file=%s.%%p", out_prefix), argv,
				 opts_out);
}

char **pab_valgrind_argv(const char *tool, const char *const *fixed, size_t n_fixed,
			 char *out_opt, char *const *argv, char ***opts_out)
{
	size_t n = 0, k = 0, i;
	char **out, **opts = xcalloc(2, sizeof(*opts));

	while (argv[n])
		n++;
	out = xcalloc(n + n_fixed + 3, sizeof(*out));
	out[k++] = (char *)tool;
	for (i = 0; i < n_fixed; i++)
		out[k++] = (char *)fixed[i];
	opts[0] = out_opt;
	out[k++] = opts[0];
	for (i = 0; i < n; i++)
		out[k++] = argv[i];
	*opts_out = opts;
	return out;
}

void pab_simcount_argv_free(char **argv, char **opts)
{
	char **p;

	for (p = opts; p && *p; p++)
		free(*p);
	free(opts);
	free(argv);
}

/* The line of text[0..len) that starts with key, as a new string, or NULL;
 * the last one when several do. */
static char *line_after(const char *text, size_t len, const char *key)
{
	size_t kl = strlen(key), i = 0;
	char *found = NULL;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (end - i >= kl && !memcmp(text + i, key, kl)) {
			free(found);
			found = xstrndup(text + i + kl, end - i - kl);
		}
		i = end + 1;
	}
	return found;
}

/* The 0-based column of Ir among the words of events, or -1. */
static int ir_column(const char *events)
{
	const char *p = events;
	int col = 0;

	for (;;) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return -1;
		len = strcspn(p, " \t");
		if (len == 2 && !memcmp(p, "Ir", 2))
			return col;
		p += len;
		col++;
	}
}

int pab_simcount_parse(const char *text, size_t len, double *ir, char **why)
{
	char *events = line_after(text, len, "events:");
	char *summary = line_after(text, len, "summary:");
	char *word = NULL, *p;
	int col = events ? ir_column(events) : -1, ret = -1, k;
	uint64_t v;

	*why = NULL;
	if (!events || col < 0) {
		*why = xstrdup(events ? "its events: line has no Ir column" :
			       "it has no events: line (not a cachegrind output file)");
		goto out_free;
	}
	if (!summary) {
		*why = xstrdup("it has no summary: line (the counted program did not finish)");
		goto out_free;
	}
	for (p = summary, k = 0; ; k++) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t\r");
		if (!n)
			break;
		if (k == col) {
			word = xstrndup(p, n);
			break;
		}
		p += n;
	}
	if (!word || parse_u64(word, 0, UINT64_MAX, &v)) {
		*why = xasprintf("its summary: line '%s' has no whole count of Ir", summary);
		goto out_free;
	}
	*ir = (double)v;
	ret = 0;
out_free:
	free(word);
	free(events);
	free(summary);
	return ret;
}

/* 1 when text[0..len) names function fn: a line "fn=FN", or "fn=FN@..."
 * (a versioned name from a library's dynamic symbol table). */
static int has_fn(const char *text, size_t len, const char *fn)
{
	size_t fl = strlen(fn), i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len, n = end - i;

		if (n >= 3 + fl && !memcmp(text + i, "fn=", 3) && !memcmp(text + i + 3, fn, fl) &&
		    (n == 3 + fl || text[i + 3 + fl] == '@'))
			return 1;
		i = end + 1;
	}
	return 0;
}

/* 1 when cmd (valgrind's cmd: line, words joined by spaces) is exe, with
 * or without arguments. */
static int cmd_is(const char *cmd, const char *exe)
{
	size_t el = strlen(exe);

	return !strncmp(cmd, exe, el) && (cmd[el] == ' ' || !cmd[el]);
}

/*
 * 1 when exe is a wrapper that only sets up and execs its command (env,
 * nice, taskset, ...): what it runs before the exec is a few thousand
 * instructions, the same whatever it runs, so a count of the program it
 * execs is the program's count (doc/method.md, "Exact counts").
 */
static int exec_wrapper(const char *exe)
{
	static const char *const names[] = {
		"env", "nice", "ionice", "taskset", "chrt", "numactl", "setarch",
		"stdbuf", "nohup", "setsid", "linux32", "linux64", "unshare",
	};
	const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(base, names[i]))
			return 1;
	return 0;
}

/* One output file: its count into t, and what it says of its process. */
static int collect_one(const char *path, int top, const char *top_exe,
		       struct pab_simcount_tree *t, char **why)
{
	size_t len;
	char *text = read_file_max(path, OUT_MAX_BYTES, &len), *pwhy;
	double v;
	int ret = -1;

	if (!text) {
		*why = xasprintf("cannot read the count '%s': %s", path, strerror(errno));
		return -1;
	}
	if (pab_simcount_parse(text, len, &v, &pwhy)) {
		*why = xasprintf("the count '%s' does not read: %s", path, pwhy);
		free(pwhy);
		goto out;
	}
	t->ir += v;
	t->n_files++;
	/* glibc runs every new thread's function through start_thread, a
	 * name only its debug information gives; pthread_create is in its
	 * dynamic symbols, which a counted child hidden from that
	 * information still sees (PAB_SIMCOUNT_DEBUG_DIR). */
	t->threads |= has_fn(text, len, "start_thread") || has_fn(text, len, "pthread_create");
	if (top) {
		free(t->top_cmd);
		t->top_cmd = line_after(text, len, "cmd:");
		if (t->top_cmd) {
			size_t sp = strspn(t->top_cmd, " ");

			memmove(t->top_cmd, t->top_cmd + sp, strlen(t->top_cmd + sp) + 1);
		}
		t->replaced = top_exe && t->top_cmd && !cmd_is(t->top_cmd, top_exe) &&
			!exec_wrapper(top_exe);
	}
	ret = 0;
out:
	free(text);
	return ret;
}

int pab_simcount_collect(const char *out_prefix, long top_pid, const char *top_exe,
			 struct pab_simcount_tree *t, char **why)
{
	char *dir = pab_dir_of(out_prefix), *top_name;
	const char *base = strrchr(out_prefix, '/') ? strrchr(out_prefix, '/') + 1 : out_prefix;
	size_t bl = strlen(base);
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	memset(t, 0, sizeof(*t));
	*why = NULL;
	if (!d) {
		*why = xasprintf("cannot read '%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	top_name = xasprintf("%s.%ld", base, top_pid);
	while ((de = readdir(d))) {
		char *path, *owhy = NULL;

		if (strncmp(de->d_name, base, bl) || de->d_name[bl] != '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (collect_one(path, !strcmp(de->d_name, top_name), top_exe, t, &owhy)) {
			if (!*why)
				*why = owhy;
			else
				free(owhy);
			ret = -1;
		}
		unlink(path);
		free(path);
	}
	closedir(d);
	free(dir);
	free(top_name);
	if (!ret && !t->n_files) {
		*why = xstrdup("valgrind wrote no count (it did not run the program)");
		ret = -1;
	}
	if (ret)
		pab_simcount_tree_release(t);
	return ret;
}

void pab_simcount_tree_release(struct pab_simcount_tree *t)
{
	free(t->top_cmd);
	memset(t, 0, sizeof(*t));
}

/* Remove every file dir/base.* (or, with from, link from's files there). */
static void keep_files(const char *dir, const char *base, const char *from_dir)
{
	size_t bl = strlen(base);
	const char *scan = from_dir ? from_dir : dir;
	struct dirent *de;
	DIR *d = opendir(scan);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path;

		if (strncmp(de->d_name, base, bl) || de->d_name[bl] != '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (from_dir) {
			char *src = xasprintf("%s/%s", from_dir, de->d_name);

			/* The scratch directory and the kept one are on one
			 * file system: a link costs no copy. One that fails
			 * is not kept: its attribution says there is none. */
			if (link(src, path))
				unlink(path);
			free(src);
		} else {
			unlink(path);
		}
		free(path);
	}
	closedir(d);
}

int pab_simcount_collect_keep(const char *out_prefix, long top_pid, const char *top_exe,
			      const char *keep_dir, struct pab_simcount_tree *t, char **why)
{
	if (keep_dir) {
		char *dir = pab_dir_of(out_prefix);
		const char *base = strrchr(out_prefix, '/') ? strrchr(out_prefix, '/') + 1 :
			out_prefix;

		keep_files(keep_dir, base, NULL);
		keep_files(keep_dir, base, dir);
		free(dir);
	}
	return pab_simcount_collect(out_prefix, top_pid, top_exe, t, why);
}

char *pab_simcount_not_exact(const struct pab_simcount_tree *t)
{
	if (t->replaced)
		return xasprintf("not exact: the program replaced itself with exec (it ended as "
				 "'%s'); valgrind counts a program only from its own start, a PMU "
				 "counts what ran before the exec too: give the last program as the "
				 "command, or use --counts off; judged by time instead",
				 pab_term_safe(t->top_cmd ? t->top_cmd : "?"));
	if (t->threads)
		return xstrdup("not exact: the program runs threads, which valgrind runs one at a "
			       "time, so its count depends on that schedule; judged by time "
			       "instead (--counts pmu counts threads where a PMU exists)");
	return NULL;
}
