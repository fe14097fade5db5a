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

char *pab_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

void pab_sync_dir_of(const char *path)
{
	char *dir = pab_dir_of(path);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
}

static const char *kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device node";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* 0, or -1 with errno EEXIST and *why when path is there but not a file. */
static int check_replaceable(const char *path, struct stat *st, int *exists,
			     char **why)
{
	*exists = 0;
	if (lstat(path, st)) {
		if (errno == ENOENT)
			return 0;
		*why = xasprintf("cannot inspect '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		*why = xasprintf("'%s' is %s: perfab replaces only regular files; "
				 "remove it or choose another path", path,
				 kind_of(st->st_mode));
		errno = EEXIST;
		return -1;
	}
	*exists = 1;
	return 0;
}

static uint64_t random_u64(void)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (uint64_t)now_monotonic_ns() * 0x9e3779b97f4a7c15ULL ^
		    (uint64_t)getpid();
	return r;
}

/* Create path's temp file (PATH.tmp.PID.RANDOM) O_EXCL|O_NOFOLLOW, with
 * the mode of the file it replaces (st, when exists). Returns the fd and
 * *tmp (caller frees and, on success, unlinks), or -1 with a reason. */
static int create_temp(const char *path, const struct stat *st, int exists,
		       char **tmp, char **why)
{
	int fd = -1, tries, err;

	for (tries = 0; tries < 16; tries++) {
		free(*tmp);
		*tmp = xasprintf("%s.tmp.%ld.%016llx", path, (long)getpid(),
				 (unsigned long long)random_u64());
		/* 0600 until the mode is set: never readable by more than
		 * the file it replaces. */
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  exists ? 0600 : 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		err = errno;
		*why = xasprintf("cannot create '%s': %s", *tmp, strerror(err));
		errno = err;
		return -1;
	}
	if (exists) {
		if (geteuid() == 0 && (st->st_uid != 0 || st->st_gid != 0))
			(void)!fchown(fd, st->st_uid, st->st_gid);
		if (fchmod(fd, st->st_mode & 07777)) {
			err = errno;
			*why = xasprintf("cannot set the mode of '%s': %s", *tmp,
					 strerror(err));
			unlink(*tmp);
			close(fd);
			errno = err;
			return -1;
		}
	}
	return fd;
}

/* Write the temp file fd through write_fn and make it durable; fd is
 * closed either way. 0, or -1 with errno set. */
static int write_temp(int fd, int (*write_fn)(FILE *f, void *arg), void *arg)
{
	FILE *f = fdopen(fd, "w");
	long half;
	int err;

	if (!f) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	errno = 0;
	if (write_fn(f, arg))
		goto fail;
	/* A crash point with the temp file torn: half of it on disk. */
	half = ftell(f) / 2;
	if (fflush(f) == 0 && half > 0 && getenv("PERFAB_TEST_CRASH_AT") &&
	    ftruncate(fd, half) == 0) {
		pab_crash_point("checkpoint: temp file half written");
		rewind(f);
		if (write_fn(f, arg))
			goto fail;
	}
	if (fflush(f) || ferror(f) || fsync(fd))
		goto fail;
	return fclose(f) ? -1 : 0;
fail:
	err = errno ? errno : EIO;
	fclose(f);
	errno = err;
	return -1;
}

int pab_write_file_atomic(const char *path, int (*write_fn)(FILE *f, void *arg),
			  void *arg, char **why)
{
	char *tmp = NULL;
	struct stat st;
	int fd, err = 0, exists;

	*why = NULL;
	pab_crash_point("checkpoint: before the temp file");
	if (check_replaceable(path, &st, &exists, why))
		goto fail;
	fd = create_temp(path, &st, exists, &tmp, why);
	if (fd < 0)
		goto fail;
	if (write_temp(fd, write_fn, arg)) {
		err = errno ? errno : EIO;
		*why = xasprintf("cannot write '%s': %s", tmp, strerror(err));
		goto fail_unlink;
	}
	pab_crash_point("checkpoint: temp file synced, not renamed");
	/* What is there now, not what was there when we started. */
	if (check_replaceable(path, &st, &exists, why)) {
		err = errno;
		goto fail_unlink;
	}
	if (rename(tmp, path)) {
		err = errno;
		*why = xasprintf("cannot rename '%s' to '%s': %s", tmp, path,
				 strerror(err));
		goto fail_unlink;
	}
	pab_crash_point("checkpoint: renamed, directory not synced");
	/* The rename is durable only once the directory entry is. */
	pab_sync_dir_of(path);
	free(tmp);
	return 0;

fail:
	err = errno;
	free(tmp);
	errno = err;
	return -1;
fail_unlink:
	unlink(tmp);
	free(tmp);
	errno = err;
	return -1;
}

int pab_is_own_temp(const char *base, const char *name, long *pid)
{
	size_t bl = strlen(base), i;
	const char *p, *dot;
	long v;
	char *num;

	if (strncmp(name, base, bl) || strncmp(name + bl, ".tmp.", 5))
		return 0;
	p = name + bl + 5;
	dot = strchr(p, '.');
	if (!dot || dot == p || strlen(dot + 1) != 16)
		return 0;
	for (i = 0; i < 16; i++)
		if (!strchr("0123456789abcdef", dot[1 + i]))
			return 0;
	num = xstrndup(p, (size_t)(dot - p));
	i = (size_t)parse_long(num, 1, LONG_MAX, &v);
	free(num);
	if (i)
		return 0;
	*pid = v;
	return 1;
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
