/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * util.c — shared helpers: allocation, checked parsing, clocks, string
 * buffers, small files and directories. See util.h for the contracts.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/numparse.h"
#include "test_hooks.h"
#include "util.h"

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
	return pab_num_u64(s, min, max, 0, out);
}

int pab_env_name_valid(const char *name)
{
	return name && *name && !strchr(name, '=');
}

int parse_long(const char *s, long min, long max, long *out)
{
	return pab_num_long(s, min, max, out);
}

int parse_double(const char *s, double min, double max, double *out)
{
	return pab_num_double(s, min, max, 0, out);
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

/* Formats straight into the buffer's spare room, once when it fits (the
 * artifact reader names every key it enters this way: a temporary string
 * per call was a tenth of a large ledger's time). An argument must not
 * point into sb's own buffer, which may move. */
void pab_strbuf_addf(struct pab_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	ALLOC_GROW(sb->buf, sb->len + 64, sb->alloc);
	room = sb->alloc - sb->len;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		BUG("bad format '%s'", fmt);
	if ((size_t)n >= room) {
		ALLOC_GROW(sb->buf, sb->len + (size_t)n + 1, sb->alloc);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
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
	struct stat st;
	ssize_t got;
	size_t want;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	/* A regular file's size is known: one buffer, large reads, straight
	 * into it (a 25 MiB artifact read 4 KiB at a time and copied was a
	 * tenth of its ledger's time). Up to max_bytes + 1 is read, so a file
	 * that grew past the bound is still caught. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uintmax_t)st.st_size <= max_bytes)
		ALLOC_GROW(sb.buf, (size_t)st.st_size + 2, sb.alloc);
	for (;;) {
		if (sb.alloc - sb.len < 2)
			ALLOC_GROW(sb.buf, sb.len + 4096 + 1, sb.alloc);
		want = sb.alloc - sb.len - 1;
		if (max_bytes < SIZE_MAX && want > max_bytes + 1 - sb.len)
			want = max_bytes + 1 - sb.len;
		got = read(fd, sb.buf + sb.len, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		sb.len += (size_t)got;
		if (sb.len > max_bytes) {
			got = -1;
			errno = EFBIG;
			break;
		}
	}
	err = errno;
	close(fd);
	if (got < 0) {
		pab_strbuf_release(&sb);
		errno = err;
		return NULL;
	}
	sb.buf[sb.len] = '\0';
	if (len)
		*len = sb.len;
	return pab_strbuf_detach(&sb);
}

const char *pab_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device node";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* The reason *why for a file of mode st_mode that is not regular, or of
 * size over max. Returns NULL (errno set). */
static char *refuse_input(const char *what, const char *path, const struct stat *st,
			  size_t max_bytes, char **why)
{
	if (!S_ISREG(st->st_mode)) {
		*why = xasprintf("%s '%s' is %s, not a regular file: perfab reads it only "
				 "from a regular file", what, path, pab_file_kind(st->st_mode));
		errno = EINVAL;
	} else {
		*why = xasprintf("%s '%s' is %lld bytes, more than the %zu perfab reads",
				 what, path, (long long)st->st_size, max_bytes);
		errno = EFBIG;
	}
	return NULL;
}

char *pab_read_regular_file(const char *path, const char *what, size_t max_bytes,
			    size_t *len, char **why)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	struct stat st;
	char chunk[4096];
	ssize_t got = 0;
	int fd, err;

	*why = NULL;
	/* Looked at before the open: opening a device can itself act. */
	if (stat(path, &st))
		goto out_errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max_bytes)
		return refuse_input(what, path, &st, max_bytes, why);
	/* O_NONBLOCK: a FIFO put there since is opened without a writer
	 * instead of waited on, and refused by the look below. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto out_errno;
	if (fstat(fd, &st)) {
		err = errno;
		close(fd);
		errno = err;
		goto out_errno;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max_bytes) {
		close(fd);
		return refuse_input(what, path, &st, max_bytes, why);
	}
	for (;;) {
		got = read(fd, chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (sb.len + (size_t)got > max_bytes) { /* it grew while read */
			st.st_size = (off_t)(sb.len + (size_t)got);
			close(fd);
			pab_strbuf_release(&sb);
			return refuse_input(what, path, &st, max_bytes, why);
		}
		pab_strbuf_add(&sb, chunk, (size_t)got);
	}
	err = errno;
	close(fd);
	errno = err;
	if (got < 0) {
		pab_strbuf_release(&sb);
		goto out_errno;
	}
	if (len)
		*len = sb.len;
	return pab_strbuf_detach(&sb);
out_errno:
	err = errno;
	*why = xasprintf("cannot read %s '%s': %s", what, path, strerror(err));
	errno = err;
	return NULL;
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
