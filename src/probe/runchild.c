/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runchild.c — one measured child (runchild.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/proc.h"
#include "probe/runchild.h"
#include "util.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2) /* Linux 5.11; older kernels say EINVAL */
#endif

/*
 * The signals that stop perfab (handled, never default): SIGTERM, SIGINT
 * and SIGHUP, less any that whoever started perfab ignores (nohup, a
 * shell's background job), which stay ignored. Set by pab_spawn_setup().
 */
static sigset_t stop_set;

/* SIGCHLD, and the signals that stop perfab. */
static void wait_set(sigset_t *set, int with_chld)
{
	*set = stop_set;
	if (with_chld)
		sigaddset(set, SIGCHLD);
}

void pab_spawn_setup(void)
{
	static const int stops[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t set;
	size_t i;

	sigemptyset(&stop_set);
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction old;

		if (sigaction(stops[i], NULL, &old) || old.sa_handler != SIG_IGN)
			sigaddset(&stop_set, stops[i]);
	}
	wait_set(&set, 1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int pab_spawn_pending_stop(void)
{
	const struct timespec zero = { 0, 0 };
	sigset_t set;
	int sig;

	wait_set(&set, 0);
	do {
		sig = sigtimedwait(&set, NULL, &zero);
	} while (sig < 0 && errno == EINTR);
	return sig > 0 ? sig : 0;
}

char *pab_resolve_exe(const char *name)
{
	const char *path, *p;
	struct stat st;

	if (!*name) {
		errno = ENOENT;
		return NULL;
	}
	if (strchr(name, '/')) {
		if (stat(name, &st))
			return NULL;
		if (!S_ISREG(st.st_mode) || access(name, X_OK)) {
			errno = EACCES;
			return NULL;
		}
		return xstrdup(name);
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; ) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = len ? xasprintf("%.*s/%s", (int)len, p, name)
				 : xasprintf("./%s", name);

		if (!stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
			return cand;
		free(cand);
		if (!colon)
			break;
		p = colon + 1;
	}
	errno = ENOENT;
	return NULL;
}

/* What the cloned child needs; lives in perfab's memory, which it shares. */
struct child_args {
	const struct pab_spawn_opts *o;
	int gate, errfd, out_w, err_w;
	int close_fds[4];
	pid_t parent;
	int max_fd;    /* highest descriptor to mark close-on-exec without close_range */
};

/*
 * The child, cloned with CLONE_VM: it shares perfab's memory until its
 * execve, so exec never has to tear down a copy of perfab's address space
 * (that teardown would be billed to the measured wall time). It therefore
 * only makes system calls on data prepared by the parent: no malloc, no
 * stdio. Not instrumented by sanitizers: it runs on a private stack.
 * Reports exec failure through errfd; never returns.
 */
__attribute__((no_sanitize("address", "undefined")))
static int child_main(void *arg)
{
	const struct child_args *c = arg;
	sigset_t none;
	char go = 0;
	int err, devnull, i;

	for (i = 0; i < 4; i++)
		close(c->close_fds[i]);
	setpgid(0, 0);
	/* perfab SIGKILLed: the child goes too (ptrace's EXITKILL does the
	 * same while attached; this also covers the time before). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != c->parent)
		_exit(126);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(c->out_w, STDOUT_FILENO);
	dup2(c->err_w, STDERR_FILENO);
	/* Nothing perfab inherited from whoever started it reaches the
	 * child: every descriptor above stderr closes at exec (the gate and
	 * errfd stay usable until then). */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC))
		for (i = 3; i <= c->max_fd; i++)
			fcntl(i, F_SETFD, FD_CLOEXEC);
	/* Wait for the parent to attach; EOF (parent died) means stop. */
	while (read(c->gate, &go, 1) < 0 && errno == EINTR)
		;
	if (go != 'g')
		_exit(126);
	execve(c->o->exe, c->o->argv, c->o->envp);
	err = errno;
	while (write(c->errfd, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

#define CHILD_STACK_BYTES (256 * 1024)

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
static int under_valgrind(void)
{
	return RUNNING_ON_VALGRIND != 0;
}
#else
static int under_valgrind(void)
{
	return 0;
}
#endif

/*
 * Test hook (tests/cli_window.sh): PERFAB_TEST_EXIT_HOLD_MS=N makes perfab
 * dawdle N ms at every child's exit stop, to prove that its own work there
 * stays out of the child's wall time.
 */
static void test_exit_hold(void)
{
	const char *s = getenv("PERFAB_TEST_EXIT_HOLD_MS");
	uint64_t ms;
	struct timespec ts;

	if (!s || parse_u64(s, 1, 60000, &ms))
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int64_t ns_left(int64_t deadline)
{
	int64_t now = now_monotonic_ns();

	return deadline > now ? deadline - now : 0;
}

/* Read what is there (non-blocking); keep the tail of stderr. 0 at EOF. */
static int drain(int fd, uint64_t *count, char *tail, size_t *tail_len)
{
	char buf[16384];

	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return 1; /* EAGAIN: nothing more for now */
		if (!got)
			return 0;
		*count += (uint64_t)got;
		if (!tail)
			continue;
		if ((size_t)got >= PAB_STDERR_TAIL) {
			memcpy(tail, buf + got - PAB_STDERR_TAIL, PAB_STDERR_TAIL);
			*tail_len = PAB_STDERR_TAIL;
		} else {
			size_t keep = *tail_len + (size_t)got > PAB_STDERR_TAIL ?
				PAB_STDERR_TAIL - (size_t)got : *tail_len;

			memmove(tail, tail + *tail_len - keep, keep);
			memcpy(tail + keep, buf, (size_t)got);
			*tail_len = keep + (size_t)got;
		}
	}
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

int pab_spawn_measure(const struct pab_spawn_opts *o,
		      struct pab_spawn_result *res)
{
	int gate[2] = { -1, -1 }, errp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	int errout[2] = { -1, -1 }, status = 0, traced, err = 0, sfd = -1;
	int out_open, err_open;
	struct child_args ca;
	void *stack = NULL;
	int64_t t0, deadline = 0, kill_at = 0, held_ns = 0;
	size_t tail_len = 0;
	sigset_t chld;
	ssize_t got;
	pid_t pid;
	char go = 'g';

	memset(res, 0, sizeof(*res));
	res->own_hwm_why = "not read";
	wait_set(&chld, 1);
	res->interrupted = pab_spawn_pending_stop();
	if (res->interrupted)
		return 0; /* perfab is being stopped: start nothing */
	if (pipe2(gate, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) ||
	    pipe2(outp, O_CLOEXEC) || pipe2(errout, O_CLOEXEC))
		goto out_sys;
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		goto out_sys;
	stack = mmap(NULL, CHILD_STACK_BYTES, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED) {
		stack = NULL;
		goto out_sys;
	}
	ca.o = o;
	ca.gate = gate[0];
	ca.errfd = errp[1];
	ca.out_w = outp[1];
	ca.err_w = errout[1];
	ca.close_fds[0] = gate[1];
	ca.close_fds[1] = errp[0];
	ca.close_fds[2] = outp[0];
	ca.close_fds[3] = errout[0];
	ca.parent = getpid();
	ca.max_fd = (int)(sysconf(_SC_OPEN_MAX) > 0 && sysconf(_SC_OPEN_MAX) < 65536 ?
			  sysconf(_SC_OPEN_MAX) : 65536);
	if (under_valgrind()) {
		/* valgrind refuses general clone(): a plain fork does the same
		 * job, only with a dearer exec. */
		pid = fork();
		if (!pid)
			child_main(&ca);
	} else {
		pid = clone(child_main, (char *)stack + CHILD_STACK_BYTES,
			    CLONE_VM | SIGCHLD, &ca);
	}
	if (pid < 0)
		goto out_sys;
	close(gate[0]);
	close(errp[1]);
	close(outp[1]);
	close(errout[1]);
	gate[0] = errp[1] = outp[1] = errout[1] = -1;
	fcntl(outp[0], F_SETFL, O_NONBLOCK);
	fcntl(errout[0], F_SETFL, O_NONBLOCK);
	setpgid(pid, pid);
	/* EXITKILL: if perfab dies, the traced child dies with it. */
	if (pab_test_without("ptrace")) {
		traced = 0;
		res->own_hwm_why = "not read (PERFAB_TEST_WITHOUT=ptrace)";
	} else {
		traced = !ptrace(PTRACE_SEIZE, pid, NULL,
				 (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL));
		if (!traced)
			res->own_hwm_why = "ptrace is not permitted here (see /proc/sys/kernel/yama/ptrace_scope)";
	}
	if (o->pin && !pab_test_without("pin") && pab_pin_child(o->pin, pid))
		warning("cannot bind the child to its CPUs: %s", strerror(errno));
	if (o->at_gate)
		o->at_gate(pid, o->at_gate_arg);

	t0 = now_monotonic_ns();
	if (write(gate[1], &go, 1) != 1)
		err = errno;
	close(gate[1]);
	gate[1] = -1;
	/* Exec success closes errp (CLOEXEC); failure sends errno. */
	do {
		got = read(errp[0], &res->spawn_errno, sizeof(res->spawn_errno));
	} while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(res->spawn_errno))
		res->spawn_errno = err;
	if (o->sampler && !res->spawn_errno)
		pab_sampler_watch(o->sampler, pid, o->max_procs);
	if (o->timeout_ns > 0)
		deadline = t0 + o->timeout_ns;

	out_open = err_open = 1;
	for (;;) {
		struct pollfd pfd[3];
		struct signalfd_siginfo si;
		int64_t wait_ns = 1000000000;
		pid_t w = wait4(pid, &status, WNOHANG | __WALL, &res->ru);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = errno;
			break;
		}
		if (w > 0 && WIFSTOPPED(status)) {
			int sig = WSTOPSIG(status);
			int event = status >> 16;
			/* The child is frozen from here to PTRACE_CONT: perfab's own
			 * work at the stop is left out of its wall time. */
			int64_t held_from = now_monotonic_ns();

			if (event == PTRACE_EVENT_EXIT) {
				/* The mm still exists: this is the child's own peak. */
				if (!pab_proc_status_bytes(pid, "VmHWM",
							   &res->own_hwm_bytes))
					res->own_hwm_why = NULL;
				else
					res->own_hwm_why = "VmHWM unreadable at exit";
				if (o->sampler && !res->spawn_errno)
					pab_sampler_at_exit(o->sampler, pid);
				test_exit_hold();
				sig = 0;
			} else if (event) {
				sig = 0; /* group-stop or other event: resume */
			}
			held_ns += now_monotonic_ns() - held_from;
			ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
			continue;
		}
		if (w > 0)
			break; /* exited or killed */
		if (deadline) {
			if (!ns_left(deadline)) {
				if (!res->timed_out) {
					res->timed_out = 1;
					kill(-pid, SIGTERM);
					kill(pid, SIGTERM);
					kill_at = now_monotonic_ns() + o->kill_grace_ns;
				} else if (kill_at && !ns_left(kill_at)) {
					kill(-pid, SIGKILL);
					kill(pid, SIGKILL);
					kill_at = 0;
				}
				wait_ns = 10000000;
			} else if (ns_left(deadline) < wait_ns) {
				wait_ns = ns_left(deadline);
			}
		}
		pfd[0].fd = sfd;
		pfd[0].events = POLLIN;
		pfd[1].fd = out_open ? outp[0] : -1;
		pfd[1].events = POLLIN;
		pfd[2].fd = err_open ? errout[0] : -1;
		pfd[2].events = POLLIN;
		if (poll(pfd, 3, (int)((wait_ns + 999999) / 1000000)) < 0 &&
		    errno != EINTR) {
			err = errno;
			break;
		}
		while (read(sfd, &si, sizeof(si)) > 0) {
			if (si.ssi_signo == SIGCHLD || res->interrupted)
				continue;
			/* perfab is asked to stop: the child's group goes now;
			 * reap it, then the caller cleans up and stops. */
			res->interrupted = (int)si.ssi_signo;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		if (out_open && pfd[1].revents)
			out_open = drain(outp[0], &res->stdout_bytes, NULL, NULL);
		if (err_open && pfd[2].revents)
			err_open = drain(errout[0], &res->stderr_bytes,
					 res->stderr_tail, &tail_len);
	}
	res->wall_ns = now_monotonic_ns() - t0 - held_ns;
	res->held_ns = held_ns;
	/* Leave nothing of the child behind to disturb the next rep. */
	kill(-pid, SIGKILL);
	/* What the child wrote last; descendants may hold the pipes: no wait. */
	if (out_open)
		drain(outp[0], &res->stdout_bytes, NULL, NULL);
	if (err_open)
		drain(errout[0], &res->stderr_bytes, res->stderr_tail, &tail_len);
	/* Keep it printable: it ends up in messages and JSON. */
	for (size_t i = 0; i < tail_len; i++) {
		unsigned char c = (unsigned char)res->stderr_tail[i];

		if ((c < 32 && c != '\n' && c != '\t') || c > 126)
			res->stderr_tail[i] = '?';
	}
	res->stderr_tail[tail_len] = '\0';
	if (o->sampler && !res->spawn_errno) {
		pab_sampler_unwatch(o->sampler, &res->tree);
		res->tree_limit_hit = res->tree.limit_hit;
	}
	close_pair(errp);
	close_pair(outp);
	close_pair(errout);
	close(sfd);
	munmap(stack, CHILD_STACK_BYTES); /* the child has exec'd or is gone */
	if (err) {
		errno = err;
		return -1;
	}
	if (WIFEXITED(status)) {
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->exit_code = -1;
		res->term_signal = WTERMSIG(status);
	}
	return 0;

out_sys:
	err = errno;
	if (stack)
		munmap(stack, CHILD_STACK_BYTES);
	close_pair(gate);
	close_pair(errp);
	close_pair(outp);
	close_pair(errout);
	if (sfd >= 0)
		close(sfd);
	errno = err;
	return -1;
}
