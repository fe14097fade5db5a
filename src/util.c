/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * util.c — shared helpers: diagnostics, allocation, checked parsing,
 * clocks, string buffers. See util.h for the contracts.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

const struct pab_exit_status pab_exit_statuses[PAB_EXIT_RUNTIME + 1] = {
	[PAB_EXIT_PASS] = { PAB_EXIT_PASS,
		"PASS, or a command that succeeded (gate --inconclusive pass: also INCONCLUSIVE)" },
	[PAB_EXIT_FAIL] = { PAB_EXIT_FAIL,
		"FAIL: a cell failed beyond its threshold or a child failed; "
		"memgate check: a scenario above its limit" },
	[PAB_EXIT_USAGE] = { PAB_EXIT_USAGE,
		"bad usage or bad input: an unknown option, a malformed value, a file that "
		"cannot be read or is not valid, a command that cannot be run" },
	[PAB_EXIT_INCONCLUSIVE] = { PAB_EXIT_INCONCLUSIVE,
		"INCONCLUSIVE: nothing failed, but something could not be decided; never a pass" },
	[PAB_EXIT_REFUSED] = { PAB_EXIT_REFUSED,
		"refused data: an incomplete, unbalanced or unpoolable artifact, or a ledger "
		"that could not be built; no verdict" },
	[PAB_EXIT_SANITY] = { PAB_EXIT_SANITY,
		"an artifact the sanity gate stopped was given to be pooled with others, or to "
		"memgate (a run the gate stops FAILs: exit 1)" },
	[PAB_EXIT_FILTERED] = { PAB_EXIT_FILTERED,
		"memgate check refused a filtered run (not every scenario of the baseline)" },
	[PAB_EXIT_RUNTIME] = { PAB_EXIT_RUNTIME,
		"could not run: a checkpoint not written, the artifact locked, a child not "
		"spawned or measured, another system error" },
};

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "perfab: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	exit(code);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fputs("perfab: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(PAB_EXIT_RUNTIME);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfab: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(PAB_EXIT_RUNTIME, "out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		die(PAB_EXIT_RUNTIME, "out of memory allocating %zu x %zu bytes",
		    count, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die(PAB_EXIT_RUNTIME, "out of memory allocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list copy;
	char *s;
	int len;

	va_copy(copy, ap);
	len = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (len < 0)
		BUG("bad format '%s'", fmt);
	s = xmalloc((size_t)len + 1);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void *xgrow(void *array, size_t elem, size_t need, size_t *alloc)
{
	size_t n;

	if (need <= *alloc)
		return array;
	n = *alloc ? *alloc : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			die(PAB_EXIT_RUNTIME, "out of memory growing an array");
		n *= 2;
	}
	*alloc = n;
	return xrealloc(array, n * elem);
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int pab_env_name_valid(const char *name)
{
	return name && *name && !strchr(name, '=');
}

int parse_long(const char *s, long min, long max, long *out)
{
	long v;
	char *end;

	if (!s || !*s || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	double v;
	char *end;

	if (!s || !*s || *s == ' ')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t now_monotonic_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t now_thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int64_t now_process_cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

void pab_strbuf_add(struct pab_strbuf *sb, const char *s, size_t n)
{
	ALLOC_GROW(sb->buf, sb->len + n + 1, sb->alloc);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void pab_strbuf_addstr(struct pab_strbuf *sb, const char *s)
{
	pab_strbuf_add(sb, s, strlen(s));
}

void pab_strbuf_addf(struct pab_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	pab_strbuf_addstr(sb, s);
	free(s);
}

char *pab_strbuf_detach(struct pab_strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void pab_strbuf_release(struct pab_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

char *read_file_max(const char *path, size_t max_bytes, size_t *len)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	char chunk[4096];
	ssize_t got;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		got = read(fd, chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (sb.len + (size_t)got > max_bytes) {
			got = -1;
			errno = EFBIG;
			break;
		}
		pab_strbuf_add(&sb, chunk, (size_t)got);
	}
	err = errno;
	close(fd);
	if (got < 0) {
		pab_strbuf_release(&sb);
		errno = err;
		return NULL;
	}
	if (len)
		*len = sb.len;
	return pab_strbuf_detach(&sb);
}

void pab_crash_point(const char *name)
{
	static long calls, target = -1;
	static int list;
	const char *s;

	if (target < 0) {
		s = getenv("PERFAB_TEST_CRASH_AT");
		list = s && !strcmp(s, "list");
		if (!s || parse_long(s, 1, 1000000, &target))
			target = 0;
	}
	if (list) {
		fprintf(stderr, "perfab: crash point %ld: %s (listed)\n", ++calls, name);
		return;
	}
	if (!target || ++calls != target)
		return;
	fprintf(stderr, "perfab: crash point %ld: %s\n", calls, name);
	fflush(stderr);
	kill(getpid(), SIGKILL);
}

void pab_test_io_log(const char *what, uint64_t bytes)
{
	static int checked;
	static const char *path;
	char line[96];
	int fd, n;

	if (!checked) {
		path = getenv("PERFAB_TEST_IO_LOG");
		if (path && !*path)
			path = NULL;
		checked = 1;
	}
	if (!path)
		return;
	n = snprintf(line, sizeof(line), "%s %llu\n", what, (unsigned long long)bytes);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n)
		n = -1; /* a test hook: the test sees the short log */
	close(fd);
}

int pab_test_without(const char *piece)
{
	const char *s = getenv("PERFAB_TEST_WITHOUT"), *p;
	size_t n = strlen(piece);

	for (p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, piece, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

char *pab_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Length of the valid UTF-8 sequence at p (not a C1 control, not a
 * bidirectional formatting character), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	/* Bidirectional formatting characters reorder what a terminal
	 * shows after them (a name could make "FAIL" read "PASS"). */
	if (cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	return n;
}

const char *pab_term_safe(const char *s)
{
	static __thread struct pab_strbuf ring[8];
	static __thread unsigned next;
	struct pab_strbuf *sb = &ring[next++ % 8];
	const unsigned char *p = (const unsigned char *)s;

	if (!s)
		return "(null)";
	sb->len = 0;
	pab_strbuf_add(sb, "", 0);
	while (*p) {
		size_t n = utf8_len(p);
		char esc[8];

		if (*p == '\\') {
			pab_strbuf_add(sb, "\\\\", 2);
		} else if (*p == '\n') {
			pab_strbuf_add(sb, "\\n", 2);
		} else if (*p == '\t') {
			pab_strbuf_add(sb, "\\t", 2);
		} else if (*p == '\r') {
			pab_strbuf_add(sb, "\\r", 2);
		} else if (!n || *p < 0x20 || *p == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			pab_strbuf_addstr(sb, esc);
			n = 1;
		} else {
			pab_strbuf_add(sb, (const char *)p, n);
		}
		p += n ? n : 1;
	}
	return sb->buf;
}

/* Empty the directory open as dfd (closed here), depth first. */
static int remove_in(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		close(dfd);
		return -1;
	}
	while ((de = readdir(d))) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(dirfd(d), de->d_name, 0))
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ret = -1;
			continue;
		}
		sub = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || remove_in(sub) || unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR))
			ret = -1;
	}
	closedir(d);
	return ret;
}

int pab_remove_tree(const char *path)
{
	int dfd;

	if (!unlink(path))
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	remove_in(dfd);
	return rmdir(path);
}

int pab_pid_gone(long pid)
{
	return pid > 0 && kill((pid_t)pid, 0) && errno == ESRCH;
}

int use_color(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if ((nc && *nc) || (term && !strcmp(term, "dumb")))
		return 0;
	return isatty(fd);
}

/* Levenshtein distance of a and b (short strings: option and command names). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *row = xcalloc(lb + 1, sizeof(*row)), d;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *pab_nearest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t i, best_d = (size_t)-1, wl = strlen(word);

	if (!wl)
		return NULL;
	for (i = 0; i < n && cands[i]; i++) {
		size_t d = edit_distance(word, cands[i]);

		if (wl >= 3 && !strncmp(cands[i], word, wl))
			d = d < 1 ? d : 1; /* a prefix: --verb for --verbose */
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= 2 && best_d < wl ? best : NULL;
}
