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
		"--trace-children=yes", "--log-file=/dev/null",
	};
	size_t n_fixed = sizeof(fixed) / sizeof(fixed[0]), n = 0, k = 0, i;
	char **out, **opts = xcalloc(2, sizeof(*opts));

	while (argv[n])
		n++;
	out = xcalloc(n + n_fixed + 3, sizeof(*out));
	out[k++] = (char *)tool;
	for (i = 0; i < n_fixed; i++)
		out[k++] = (char *)fixed[i];
	opts[0] = xasprintf("--cachegrind-out-file=%s.%%p", out_prefix);
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

int pab_simcount_collect(const char *out_prefix, double *ir, size_t *n_files, char **why)
{
	char *dir = pab_dir_of(out_prefix);
	const char *base = strrchr(out_prefix, '/') ? strrchr(out_prefix, '/') + 1 : out_prefix;
	size_t bl = strlen(base), n = 0;
	double total = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	*why = NULL;
	if (!d) {
		*why = xasprintf("cannot read '%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	while ((de = readdir(d))) {
		char *path, *text, *pwhy;
		size_t len;
		double v;

		if (strncmp(de->d_name, base, bl) || de->d_name[bl] != '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		text = read_file_max(path, OUT_MAX_BYTES, &len);
		if (!text) {
			if (!*why)
				*why = xasprintf("cannot read the count '%s': %s", path,
						 strerror(errno));
			ret = -1;
		} else if (pab_simcount_parse(text, len, &v, &pwhy)) {
			if (!*why)
				*why = xasprintf("the count '%s' does not read: %s", path, pwhy);
			free(pwhy);
			ret = -1;
		} else {
			total += v;
			n++;
		}
		free(text);
		unlink(path);
		free(path);
	}
	closedir(d);
	free(dir);
	if (!ret && !n) {
		*why = xstrdup("valgrind wrote no count (it did not run the program)");
		ret = -1;
	}
	if (!ret) {
		*ir = total;
		*n_files = n;
	}
	return ret;
}
