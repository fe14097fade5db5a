/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tempfile.c — the safe file writer, the writer's lock and the cleaner of
 * stale temp files (tempfile.h, which gives the calling sequence).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/tempfile.h"
#include "test_hooks.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* The safe writer                                                    */

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
	if (fflush(f) == 0 && half > 0 && pab_test_hook(PAB_TEST_CRASH_AT) &&
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

/* ------------------------------------------------------------------ */
/* The lock and stale temp files                                      */

/*
 * The locks this process holds, so that every way out of it removes
 * their files: pab_artifact_unlock(), or exit() (die() included) through
 * the atexit handler, in the process that holds them last: the guard's
 * start forks perfab on into a new process, and only the parent of that
 * fork ends with _exit(). A signal that kills perfab leaves the file;
 * the flock went with the process, so the next writer takes it anyway.
 */
static struct held_lock {
	char *lock_path;
	int fd;
} held[4];
static pid_t held_pid;

static void unlock_all_at_exit(void)
{
	size_t i;

	if (getpid() != held_pid)
		return;
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held[i].lock_path) {
			unlink(held[i].lock_path);
			close(held[i].fd);
			free(held[i].lock_path);
			held[i].lock_path = NULL;
		}
}

/* In a forked child: the locks are its to remove now (the guard's start
 * forks perfab on, guard.h); children that exec or _exit never do. */
static void hold_in_child(void)
{
	held_pid = getpid();
}

static void hold(const char *lock, int fd)
{
	static int registered;
	size_t i;

	if (!registered) {
		registered = 1;
		atexit(unlock_all_at_exit);
		pthread_atfork(NULL, NULL, hold_in_child);
	}
	held_pid = getpid();
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (!held[i].lock_path) {
			held[i].lock_path = xstrdup(lock);
			held[i].fd = fd;
			return;
		}
	BUG("more than %zu artifact locks held", sizeof(held) / sizeof(held[0]));
}

int pab_artifact_lock(const char *path, char **why)
{
	char *lock = xasprintf("%s.lock", path);
	struct stat a, b;
	int fd = -1, tries, err = 0;

	*why = NULL;
	for (tries = 0; tries < 16; tries++) {
		fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
		if (fd < 0) {
			err = errno;
			*why = xasprintf("cannot open the lock file '%s': %s", lock,
					 strerror(err));
			break;
		}
		if (fstat(fd, &a) || !S_ISREG(a.st_mode)) {
			err = EEXIST;
			*why = xasprintf("'%s' is not a regular file: perfab uses it as the "
					 "lock of '%s'; remove it", lock, path);
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			err = errno;
			if (err == EWOULDBLOCK)
				*why = xasprintf("'%s' is in use: another perfab run writes it "
						 "(it holds '%s'); wait for it to finish, or "
						 "choose another --out", path, lock);
			else
				*why = xasprintf("cannot lock '%s': %s", lock, strerror(err));
			break;
		}
		/* Locked: but is it still the file at that name? A holder that
		 * finished unlinks it; then lock the new one. */
		if (!stat(lock, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			hold(lock, fd);
			free(lock);
			return fd;
		}
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	if (!*why) {
		err = EAGAIN;
		*why = xasprintf("cannot lock '%s': it keeps being replaced", lock);
	}
	free(lock);
	errno = err;
	return -1;
}

void pab_artifact_unlock(const char *path, int fd)
{
	char *lock;
	size_t i;

	if (fd < 0)
		return;
	lock = xasprintf("%s.lock", path);
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held[i].lock_path && held[i].fd == fd) {
			free(held[i].lock_path);
			held[i].lock_path = NULL;
		}
	unlink(lock);
	close(fd);
	free(lock);
}

size_t pab_artifact_clean_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = pab_dir_of(path);
	const char *base = slash ? slash + 1 : path;
	size_t removed = 0;
	struct dirent *de;
	DIR *d;
	int dfd;

	d = opendir(dir);
	dfd = d ? dirfd(d) : -1;
	while (d && (de = readdir(d))) {
		struct stat st;
		long pid;

		if (!pab_is_own_temp(base, de->d_name, &pid))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (pid == (long)getpid() || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue; /* its writer may still be at work */
		if (!unlinkat(dfd, de->d_name, 0))
			removed++;
	}
	if (d)
		closedir(d);
	free(dir);
	return removed;
}
