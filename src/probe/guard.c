/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * guard.c — the guard process, orphan reaping and scratch directories
 * (guard.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/cgroup.h"
#include "probe/guard.h"
#include "util.h"

static int guard_fd = -1;

/* One message: a letter, a space, the subject, a newline. */
static void tell(char what, const char *subject)
{
	char *line;
	size_t n;

	if (guard_fd < 0)
		return;
	line = xasprintf("%c %s\n", what, subject);
	n = strlen(line);
	if (send(guard_fd, line, n, MSG_NOSIGNAL) != (ssize_t)n) {
		close(guard_fd); /* the guard is gone: run on unguarded */
		guard_fd = -1;
	}
	free(line);
}

void pab_guard_group(pid_t pgid)
{
	char s[24];

	snprintf(s, sizeof(s), "%ld", (long)pgid);
	tell('g', s);
}

void pab_guard_group_done(pid_t pgid)
{
	char s[24];

	snprintf(s, sizeof(s), "%ld", (long)pgid);
	tell('x', s);
}

void pab_guard_cgroup(const char *path)
{
	tell('c', path);
}

void pab_guard_cgroup_done(const char *path)
{
	tell('r', path);
}

static void tell_scratch(const char *path)
{
	tell('s', path);
}

void pab_guard_done(void)
{
	tell('q', "");
	if (guard_fd >= 0)
		close(guard_fd);
	guard_fd = -1;
}

/* A set of strings, for the guard's bookkeeping. */
struct names {
	char **v;
	size_t n, alloc;
};

static void names_set(struct names *l, const char *s, int add)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s)) {
			if (!add) {
				free(l->v[i]);
				l->v[i] = l->v[--l->n];
			}
			return;
		}
	if (add) {
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		l->v[l->n++] = xstrdup(s);
	}
}

/* The guard: read messages until EOF; clean up unless told "q". */
_Noreturn static void guard_main(int fd)
{
	struct names groups = { 0 }, cgroups = { 0 }, scratch = { 0 };
	struct pab_strbuf in = PAB_STRBUF_INIT;
	char buf[4096];
	int quit = 0, devnull;
	size_t i;

	signal(SIGINT, SIG_IGN);  /* a terminal's ^C is perfab's to handle */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/* Hold nothing of perfab's: not its lock, not the caller's pipes. */
	if (fd != 3) {
		dup2(fd, 3);
		close(fd);
		fd = 3;
	}
	if (close_range(4, ~0U, 0))
		for (i = 4; i < 1024; i++)
			close((int)i);
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		if (devnull > 3)
			close(devnull);
	}
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));
		char *line, *nl;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		pab_strbuf_add(&in, buf, (size_t)got);
		for (line = in.buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			if (strlen(line) < 2)
				continue;
			switch (line[0]) {
			case 'g': names_set(&groups, line + 2, 1); break;
			case 'x': names_set(&groups, line + 2, 0); break;
			case 'c': names_set(&cgroups, line + 2, 1); break;
			case 'r': names_set(&cgroups, line + 2, 0); break;
			case 's': names_set(&scratch, line + 2, 1); break;
			case 'q': quit = 1; break;
			}
		}
		/* Keep the unfinished last line. */
		memmove(in.buf, line, strlen(line) + 1);
		in.len = strlen(in.buf);
	}
	if (!quit) {
		for (i = 0; i < groups.n; i++) {
			long pg;

			if (!parse_long(groups.v[i], 2, INT32_MAX, &pg))
				kill((pid_t)-pg, SIGKILL);
		}
		for (i = 0; i < cgroups.n; i++) {
			struct timespec ms = { 0, 1000000 };
			int k;

			pab_cgroup_kill_path(cgroups.v[i]);
			for (k = 0; k < 2000 && rmdir(cgroups.v[i]) && errno == EBUSY; k++)
				nanosleep(&ms, NULL);
		}
		for (i = 0; i < scratch.n; i++)
			pab_remove_tree(scratch.v[i]);
	}
	_exit(0);
}

int pab_guard_start(void)
{
	int sv[2], status, err;
	pid_t mid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	/* Forked twice, so the guard is not perfab's child: perfab's reaping
	 * of orphans (waitpid(-1)) can never take it. */
	mid = fork();
	if (mid < 0) {
		err = errno;
		close(sv[0]);
		close(sv[1]);
		errno = err;
		return -1;
	}
	if (!mid) {
		pid_t g;

		close(sv[1]);
		g = fork();
		if (g)
			_exit(g < 0);
		guard_main(sv[0]);
	}
	close(sv[0]);
	while (waitpid(mid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		close(sv[1]);
		errno = ECHILD;
		return -1;
	}
	guard_fd = sv[1];
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		warning("cannot make perfab a child subreaper: %s", strerror(errno));
	return 0;
}

/* SIGKILL every process whose parent is perfab, found by scanning /proc
 * (a kernel without /proc/PID/task/TID/children); how many. */
static int kill_children_scan(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char *p, *s, *rp;
		long pid, ppid;

		if (parse_long(de->d_name, 2, INT32_MAX, &pid))
			continue;
		p = xasprintf("/proc/%s/stat", de->d_name);
		s = read_file_max(p, 4096, NULL);
		rp = s ? strrchr(s, ')') : NULL;
		/* "PID (comm) S PPID ...": comm may hold anything but the last ')'. */
		if (rp && sscanf(rp + 1, " %*c %ld", &ppid) == 1 && ppid == (long)getpid()) {
			kill((pid_t)pid, SIGKILL);
			n++;
		}
		free(s);
		free(p);
	}
	if (d)
		closedir(d);
	return n;
}

/* SIGKILL every child of perfab's (all threads' children files); how many. */
static int kill_children(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char *p, *s, *t, *end;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("/proc/self/task/%s/children", de->d_name);
		s = read_file_max(p, 1 << 20, NULL);
		if (!s) {
			free(p);
			closedir(d);
			return kill_children_scan();
		}
		for (t = s; t && *t; t = end) {
			long pid = strtol(t, &end, 10);

			if (end == t)
				break;
			if (pid > 1) {
				kill((pid_t)pid, SIGKILL);
				n++;
			}
		}
		free(s);
		free(p);
	}
	if (d)
		closedir(d);
	return n;
}

void pab_kill_orphans(void)
{
	struct timespec ms = { 0, 1000000 };
	int i, status;

	for (i = 0; i < 5000; i++) {
		pid_t w;

		do {
			w = waitpid(-1, &status, WNOHANG | __WALL);
		} while (w > 0 || (w < 0 && errno == EINTR));
		if (w < 0)
			return; /* ECHILD: no child left */
		kill_children();
		nanosleep(&ms, NULL); /* killed, not yet reapable */
	}
}

static const char *tmp_root(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

/* Remove scratch directories of perfab processes that are gone. */
static void clean_stale_scratch(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char tail[8], extra;
		struct stat st;
		long pid;
		int fd;

		if (sscanf(de->d_name, "perfab-%ld-%7s%c", &pid, tail, &extra) != 2 ||
		    strlen(tail) != 6 || pid == (long)getpid() || !pab_pid_gone(pid))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* Ours, and nobody holds its lock: its perfab is gone. */
		if (!fstat(fd, &st) && st.st_uid == geteuid() && !flock(fd, LOCK_EX | LOCK_NB)) {
			char *path = xasprintf("%s/%s", root, de->d_name);

			pab_remove_tree(path);
			free(path);
		}
		close(fd);
	}
	if (d)
		closedir(d);
}

char *pab_scratch_create(void)
{
	const char *root = tmp_root();
	char *t;
	int fd, err;

	clean_stale_scratch(root);
	t = xasprintf("%s/perfab-%ld-XXXXXX", root, (long)getpid());
	if (!mkdtemp(t)) {
		err = errno;
		free(t);
		errno = err;
		return NULL;
	}
	/* Held (never closed) for perfab's life: the sign it is in use. */
	fd = open(t, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		(void)flock(fd, LOCK_EX | LOCK_NB);
	tell_scratch(t);
	return t;
}

void pab_scratch_remove(const char *path)
{
	pab_remove_tree(path);
}
