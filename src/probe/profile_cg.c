/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_cg.c — cachegrind's output files read by function and by line
 * (profile_cg.h). The format (valgrind's docs, "Cachegrind output file
 * format"): `events:` names the columns; `fl=FILE` and `fn=NAME` set the
 * file and function of the count lines that follow, `LINE COUNT...`.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/profile_cg.h"
#include "util.h"

/* Largest output file read, as simcount.c reads it. */
#define CG_MAX_BYTES ((size_t)256 << 20)

/* The 0-based column of Ir among the words of events, or -1. */
static int ir_column(const char *p, const char *end)
{
	int col = 0;

	for (;;) {
		size_t len;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end)
			return -1;
		for (len = 0; p + len < end && p[len] != ' ' && p[len] != '\t'; len++)
			;
		if (len == 2 && !memcmp(p, "Ir", 2))
			return col;
		p += len;
		col++;
	}
}

/* The col-th word of the count line [p, end) after its line number, as a
 * number into *v and the line number into *line. 0, or -1. */
static int count_of(const char *p, const char *end, int col, long *line, double *v)
{
	char word[32];
	int k;

	for (k = -1; k <= col; k++) {
		size_t len;
		uint64_t u;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		for (len = 0; p + len < end && p[len] != ' ' && p[len] != '\t' && p[len] != '\r';
		     len++)
			;
		if (!len) {
			*v = 0; /* a short line: its trailing counts are 0 */
			return k < 0 ? -1 : 0;
		}
		if (len >= sizeof(word))
			return -1;
		memcpy(word, p, len);
		word[len] = '\0';
		if (parse_u64(word, 0, UINT64_MAX, &u))
			return -1;
		if (k < 0)
			*line = (long)(u > (uint64_t)LONG_MAX ? LONG_MAX : u);
		else if (k == col)
			*v = (double)u;
		p += len;
	}
	return 0;
}

int pab_profile_cachegrind_parse(const char *text, size_t len, struct pab_profile *fns,
				 struct pab_profile *lines, char **why)
{
	const char *p = text, *end = text + len;
	char *fl = xstrdup(PAB_PROFILE_UNKNOWN), *fn = xstrdup(PAB_PROFILE_UNKNOWN);
	int col = -1, ret = 0;

	*why = NULL;
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		size_t ll = (size_t)(le - p);

		if (ll > 7 && !memcmp(p, "events:", 7)) {
			col = ir_column(p + 7, le);
		} else if (ll >= 3 && (!memcmp(p, "fl=", 3) || !memcmp(p, "fn=", 3))) {
			char **slot = p[1] == 'l' ? &fl : &fn;

			free(*slot);
			*slot = xstrndup(p + 3, ll - 3);
		} else if (ll && *p >= '0' && *p <= '9') {
			long line = 0;
			double v = 0;

			if (col < 0 || count_of(p, le, col, &line, &v)) {
				*why = col < 0 ? xstrdup("no events: line names Ir before the counts") :
					xasprintf("a malformed count line '%.*s'", (int)(ll > 60 ? 60 : ll), p);
				ret = -1;
			} else if (v > 0) {
				pab_profile_add(fns, fn, fl, v, NAN);
				if (line > 0 && strcmp(fl, PAB_PROFILE_UNKNOWN)) {
					char *key = xasprintf("%s:%ld", fl, line);

					pab_profile_add(lines, key, fn, v, NAN);
					free(key);
				}
			}
		}
		p = le + 1;
	}
	if (!ret && col < 0) {
		*why = xstrdup("it has no events: line with Ir (not a cachegrind output file)");
		ret = -1;
	}
	free(fl);
	free(fn);
	/* Merge as we go: a big program's files hold many duplicates. */
	pab_profile_merge(fns);
	pab_profile_merge(lines);
	return ret;
}

int pab_profile_read_files(const char *dir, const char *base, size_t max_bytes,
			   const char *what, pab_profile_parse_fn *parse, void *ctx, char **why)
{
	size_t bl = strlen(base);
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	*why = NULL;
	if (!d) {
		*why = xasprintf("cannot read '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *path, *text, *pwhy = NULL;
		size_t len;

		if (strncmp(de->d_name, base, bl) || de->d_name[bl] != '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		text = read_file_max(path, max_bytes, &len);
		if (!text || parse(text, len, ctx, &pwhy)) {
			*why = text ? xasprintf("'%s' does not read: %s", path, pwhy) :
				xasprintf("cannot read '%s': %s", path, strerror(errno));
			free(pwhy);
			free(text);
			free(path);
			n = -1;
			break;
		}
		free(text);
		free(path);
		n++;
	}
	closedir(d);
	if (!n)
		*why = xasprintf("no %s output file '%s/%s.*'", what, dir, base);
	return n;
}

/* pab_profile_cachegrind_parse as a pab_profile_parse_fn. */
struct cg_into {
	struct pab_profile *fns, *lines;
};

static int parse_cg(const char *text, size_t len, void *ctx, char **why)
{
	struct cg_into *into = ctx;

	return pab_profile_cachegrind_parse(text, len, into->fns, into->lines, why);
}

int pab_profile_cachegrind_files(const char *dir, const char *base, struct pab_profile *fns,
				 struct pab_profile *lines, char **why)
{
	struct cg_into into = { fns, lines };

	return pab_profile_read_files(dir, base, CG_MAX_BYTES, "cachegrind", parse_cg, &into,
				      why);
}
