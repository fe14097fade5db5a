/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * guard.c — the guard process, orphan reaping and scratch directories
 * (guard.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/cgroup.h"
#include "probe/guard.h"
#include "util.h"

static int guard_fd = -1;
/* Counting children start side by side, each from its own thread
 * (run/count_batch.h): one message at a time on the socket. */
static pthread_mutex_t tell_lock = PTHREAD_MUTEX_INITIALIZER;

/* One message: a letter, a space, the subject, a newline. */
static void tell(char what, const char *subject)
{
	char *line;
	size_t n;

	pthread_mutex_lock(&tell_lock);
	if (guard_fd < 0)
		goto out_unlock;
	line = xasprintf("%c %s\n", what, subject);
	n = strlen(line);
	if (send(guard_fd, line, n, MSG_NOSIGNAL) != (ssize_t)n) {
		close(guard_fd); /* the guard is gone: run on unguarded */
		guard_fd = -1;
	}
	free(line);
out_unlock:
	pthread_mutex_unlock(&tell_lock);
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

/* Move fd to exactly want (closing what was there); fd itself is closed. */
static void move_fd(int fd, int want)
{
	if (fd != want) {
		dup2(fd, want);
		close(fd);
	}
}

/*
 * The guard: read perfab's messages until its socket closes, and watch its
 * starter (the pipe from it closes when it dies). Then: perfab died
 * without "q", or its starter died: kill every group and cgroup it was
 * told of and perfab itself, remove the scratch directories; and always
 * kill whatever is left of perfab's tree (the guard is perfab's parent
 * and a child subreaper: every descendant perfab orphaned by dying is
 * its child now, in whatever session, process group or cgroup). Last,
 * tell the starter how perfab ended. fds: 3 the socket, 4 the starter's
 * pipe, 5 the status pipe to the starter.
 */
/* What the guard was told: the groups, cgroups and scratch directories
 * of perfab's children, and whether perfab said "q" (a clean end). */
struct told {
	struct names groups, cgroups, scratch;
	int quit;
};

/* Ignore the signals meant for perfab and hold nothing of perfab's: not
 * its lock, not the caller's pipes (0-2 on /dev/null; 3-5 kept). */
static void guard_detach(void)
{
	int devnull;
	size_t i;

	signal(SIGINT, SIG_IGN);  /* a terminal's ^C is perfab's to handle */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	if (close_range(6, ~0U, 0))
		for (i = 6; i < 1024; i++)
			close((int)i);
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		if (devnull > 5)
			close(devnull);
	}
}

/* Apply the complete lines of in to *t and keep the unfinished last one. */
static void guard_take_lines(struct pab_strbuf *in, struct told *t)
{
	char *line, *nl;

	for (line = in->buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (strlen(line) < 2)
			continue;
		switch (line[0]) {
		case 'g': names_set(&t->groups, line + 2, 1); break;
		case 'x': names_set(&t->groups, line + 2, 0); break;
		case 'c': names_set(&t->cgroups, line + 2, 1); break;
		case 'r': names_set(&t->cgroups, line + 2, 0); break;
		case 's': names_set(&t->scratch, line + 2, 1); break;
		case 'q': t->quit = 1; break;
		}
	}
	memmove(in->buf, line, strlen(line) + 1);
	in->len = strlen(in->buf);
}

/* Read perfab's messages (fd 3) into *t until its socket closes, and
 * watch the starter's pipe (fd 4): when the starter dies, perfab is
 * killed at once. Returns 1 when the starter died. */
static int guard_listen(pid_t worker, struct told *t)
{
	struct pab_strbuf in = PAB_STRBUF_INIT;
	int starter_gone = 0;
	struct pollfd pfd[2];
	char buf[4096];

	for (;;) {
		ssize_t got;

		pfd[0].fd = 3;
		pfd[0].events = POLLIN;
		pfd[1].fd = starter_gone ? -1 : 4;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents) {
			/* The starter (the process perfab's caller waits for)
			 * died: perfab must not run on without it. */
			starter_gone = 1;
			kill(worker, SIGKILL);
		}
		if (!pfd[0].revents)
			continue;
		got = read(3, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		pab_strbuf_add(&in, buf, (size_t)got);
		guard_take_lines(&in, t);
	}
	pab_strbuf_release(&in);
	return starter_gone;
}

/* Kill every group and cgroup perfab's children were told to be in, and
 * remove the cgroups. */
static void guard_kill_told(const struct told *t)
{
	size_t i;

	for (i = 0; i < t->groups.n; i++) {
		long pg;

		if (!parse_long(t->groups.v[i], 2, INT32_MAX, &pg))
			kill((pid_t)-pg, SIGKILL);
	}
	for (i = 0; i < t->cgroups.n; i++) {
		struct timespec ms = { 0, 1000000 };
		int k;

		pab_cgroup_kill_path(t->cgroups.v[i]);
		for (k = 0; k < 2000 && rmdir(t->cgroups.v[i]) && errno == EBUSY; k++)
			nanosleep(&ms, NULL);
	}
}

/*
 * The guard: read perfab's messages until its socket closes, and watch its
 * starter (the pipe from it closes when it dies). Then: perfab died
 * without "q", or its starter died: kill every group and cgroup it was
 * told of and perfab itself, remove the scratch directories; and always
 * kill whatever is left of perfab's tree (the guard is perfab's parent
 * and a child subreaper: every descendant perfab orphaned by dying is
 * its child now, in whatever session, process group or cgroup). Last,
 * tell the starter how perfab ended. fds: 3 the socket, 4 the starter's
 * pipe, 5 the status pipe to the starter.
 */
_Noreturn static void guard_main(pid_t worker)
{
	struct told t = { { 0 }, { 0 }, { 0 }, 0 };
	int unclean, status = 0;
	size_t i;

	guard_detach();
	unclean = guard_listen(worker, &t) || !t.quit;
	if (unclean)
		kill(worker, SIGKILL);
	while (waitpid(worker, &status, 0) < 0 && errno == EINTR)
		;
	if (unclean)
		guard_kill_told(&t);
	/* Whatever perfab's tree left: adopted by the guard, killed (its
	 * children are exactly those now, as perfab's are while it runs). */
	pab_kill_orphans();
	if (unclean)
		for (i = 0; i < t.scratch.n; i++)
			pab_remove_tree(t.scratch.v[i]);
	/* Only now may perfab's caller see it end: nothing of it runs. */
	if (write(5, &status, sizeof(status)) != (ssize_t)sizeof(status))
		_exit(1);
	_exit(0);
}

/* The signal pid the starter forwards to (set before any handler). */
static volatile pid_t forward_to;

static void forward_signal(int sig)
{
	if (forward_to > 0)
		kill(forward_to, sig);
}

/*
 * The starter: the process perfab's caller started and waits for. It
 * passes TERM, INT and HUP on to perfab (the worker), waits for the
 * guard's word on how perfab ended, and ends the same way. Returns only
 * when the guard could not start perfab (-1, errno set): the starter is
 * perfab then, unguarded.
 */
static int starter_main(pid_t guard, int st)
{
	static const int fwd[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t unblock;
	pid_t worker = 0;
	int status, got = 0;
	ssize_t n;
	size_t i;

	do {
		n = read(st, &worker, sizeof(worker));
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(worker) || worker <= 0) {
		close(st);
		while (waitpid(guard, &status, 0) < 0 && errno == EINTR)
			;
		errno = EAGAIN;
		return -1;
	}
	forward_to = worker;
	sigemptyset(&unblock);
	for (i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(fwd[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue; /* ignored by whoever started perfab: stays so */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = forward_signal;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(fwd[i], &sa, NULL);
		sigaddset(&unblock, fwd[i]);
	}
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
	for (;;) {
		n = read(st, (char *)&status + got, sizeof(status) - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (int)n;
		if (got == (int)sizeof(status))
			break;
	}
	sigprocmask(SIG_BLOCK, &unblock, NULL);
	if (got != (int)sizeof(status)) {
		/* The guard was killed: perfab, a subreaper's orphan now, is
		 * the starter's child; kill it and end as killed. */
		kill(worker, SIGKILL);
		status = SIGKILL;
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			;
	}
	while (waitpid(guard, NULL, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		struct rlimit no_core = { 0, 0 };
		int sig = WTERMSIG(status);

		setrlimit(RLIMIT_CORE, &no_core); /* perfab's core, if any, is dumped */
		signal(sig, SIG_DFL);
		sigemptyset(&unblock);
		sigaddset(&unblock, sig);
		sigprocmask(SIG_UNBLOCK, &unblock, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/*
 * The guard's start, in the child of the starter: a session of its own,
 * a child subreaper; worker's PID told to the starter (status, the
 * status pipe); then the socket from perfab, the starter's pipe and the
 * status pipe moved to fds 3, 4 and 5 for guard_main.
 */
_Noreturn static void guard_begin(pid_t worker, int sock, int from_starter, int status)
{
	int fs, fp, ft;

	setsid();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (write(status, &worker, sizeof(worker)) != (ssize_t)sizeof(worker))
		_exit(1);
	/* Out of the way first, then to 3, 4, 5: no dup2 can hit one. */
	fs = fcntl(sock, F_DUPFD_CLOEXEC, 10);
	fp = fcntl(from_starter, F_DUPFD_CLOEXEC, 10);
	ft = fcntl(status, F_DUPFD_CLOEXEC, 10);
	close(sock);
	close(from_starter);
	close(status);
	if (fs < 0 || fp < 0 || ft < 0)
		_exit(1);
	move_fd(fs, 3);
	move_fd(fp, 4);
	move_fd(ft, 5);
	guard_main(worker);
}

int pab_guard_start(void)
{
	int sv[2], st[2], pd[2], err;
	pid_t guard, worker;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	if (pipe2(st, O_CLOEXEC)) {
		err = errno;
		goto out_close_sv;
	}
	if (pipe2(pd, O_CLOEXEC)) {
		err = errno;
		goto out_close_st;
	}
	/*
	 * Three processes: the starter (this one, the PID perfab's caller
	 * knows), the guard (its child, in a session and process group of
	 * its own, a child subreaper), and perfab from here on (the guard's
	 * child, in the caller's session and process group, so a terminal's
	 * ^C and a kill of the group reach it). Whatever kills perfab, and
	 * the starter with it, cannot kill the guard, and every process
	 * perfab's children leave is the guard's to find.
	 */
	fflush(NULL);
	guard = fork();
	if (guard < 0) {
		err = errno;
		goto out_close_pd;
	}
	if (guard) {
		close(sv[0]);
		close(sv[1]);
		close(st[1]);
		close(pd[0]);
		/* pd[1] stays open, unused, for the starter's life. */
		if (starter_main(guard, st[0])) {
			err = errno;
			close(pd[1]);
			goto out_subreaper;
		}
	}
	close(st[0]);
	close(pd[1]);
	worker = fork();
	if (worker < 0)
		_exit(1); /* the starter reads no PID: it runs perfab unguarded */
	if (!worker) {
		close(sv[0]);
		close(st[1]);
		close(pd[0]);
		guard_fd = sv[1];
		if (prctl(PR_SET_CHILD_SUBREAPER, 1))
			warning("cannot make perfab a child subreaper: %s", strerror(errno));
		return 0;
	}
	close(sv[1]);
	guard_begin(worker, sv[0], pd[0], st[1]);

out_subreaper:
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		warning("cannot make perfab a child subreaper: %s", strerror(errno));
	errno = err;
	return -1;
out_close_pd:
	close(pd[0]);
	close(pd[1]);
out_close_st:
	close(st[0]);
	close(st[1]);
out_close_sv:
	close(sv[0]);
	close(sv[1]);
	errno = err;
	return -1;
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
