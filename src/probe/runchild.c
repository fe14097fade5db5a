/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runchild.c — one measured child (runchild.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/proc.h"
#include "probe/runchild.h"
#include "test_hooks.h"
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
			/* a directory says so, not "Permission denied" */
			errno = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
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
	int exe_fd;    /* o->exe opened before the clone (O_PATH), or -1 */
};

/*
 * Exec o->exe through the descriptor opened on it before the clone, so
 * the file that runs is the file opened right after the caller checked
 * it, whatever the gate's wait let happen to the path (doc/perfab.1,
 * TRUST MODEL). Falls back to the path where the kernel cannot: no
 * execveat (ENOSYS), no descriptor, or a #! script, whose interpreter
 * opens the script by name and so cannot be handed a close-on-exec
 * descriptor (ENOENT). Returns only on failure, errno set.
 */
__attribute__((no_sanitize("address", "undefined")))
static void exec_checked(const struct child_args *c)
{
#ifdef SYS_execveat
	if (c->exe_fd >= 0) {
		syscall(SYS_execveat, c->exe_fd, "", c->o->argv, c->o->envp, AT_EMPTY_PATH);
		if (errno != ENOSYS && errno != ENOENT)
			return;
	}
#endif
	execve(c->o->exe, c->o->argv, c->o->envp);
}

/* Hide dir from the child (runchild.h, hide_dir), best effort: without
 * the right to make a mount namespace (not root), nothing happens. Only
 * system calls, as child_main. */
__attribute__((no_sanitize("address", "undefined")))
static void hide_dir(const char *dir)
{
	if (unshare(CLONE_NEWNS))
		return;
	/* Private first, so the tmpfs never shows in perfab's namespace. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL))
		return;
	mount("perfab-hidden", dir, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
	      "size=4k,mode=0755");
}

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
	devnull = open(c->o->stdin_path ? c->o->stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0)
		devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(c->o->stdout_fd > 0 ? c->o->stdout_fd : c->out_w, STDOUT_FILENO);
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
	if (c->o->hide_dir)
		hide_dir(c->o->hide_dir);
	exec_checked(c);
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
 * Test hook (tests/e2e/measure_window.sh): PERFAB_TEST_EXIT_HOLD_MS=N makes perfab
 * dawdle N ms at every child's exit stop, to prove that its own work there
 * stays out of the child's wall time.
 */
static void test_exit_hold(void)
{
	const char *s = pab_test_hook(PAB_TEST_EXIT_HOLD_MS);
	uint64_t ms;
	struct timespec ts;

	if (!s || parse_u64(s, 1, 60000, &ms))
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Test hook (tests/e2e/measure_exec_window.sh): PERFAB_TEST_GATE_SWAP=FILE
 * renames FILE.swap over FILE at every child's gate, after the caller
 * checked the program and before its exec, as a rival could.
 */
static void test_gate_swap(void)
{
	const char *s = pab_test_hook(PAB_TEST_GATE_SWAP);
	char *from;

	if (!s || !*s)
		return;
	from = xasprintf("%s.swap", s);
	rename(from, s); /* gone after the first swap: nothing more to do */
	free(from);
}

static int64_t ns_left(int64_t deadline)
{
	int64_t now = now_monotonic_ns();

	return deadline > now ? deadline - now : 0;
}

/* Copy buf[0..n) to perfab's stderr (--show-output); a short write drops
 * the rest: showing output never stalls the child. */
static void echo(const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

/* Read what is there (non-blocking); keep the tail of stderr, and with
 * echo_to copy it to perfab's stderr. 0 at EOF. */
static int drain_echo(int fd, uint64_t *count, char *tail, size_t *tail_len, int echo_to)
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
		if (echo_to)
			echo(buf, (size_t)got);
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

static int drain(int fd, uint64_t *count, char *tail, size_t *tail_len)
{
	return drain_echo(fd, count, tail, tail_len, 0);
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/* One spawn's state, in pab_spawn_measure()'s frame: the cloned child
 * reads ca (it shares perfab's memory) until its exec. */
struct spawn {
	const struct pab_spawn_opts *o;
	struct pab_spawn_result *res;
	int gate[2], errp[2], outp[2], errout[2];
	int sfd;
	void *stack;
	struct child_args ca;
	pid_t pid;
	int status, err;
	int out_open, err_open;
	int64_t t0, deadline, kill_at, held_ns;
	size_t tail_len;
};

/* The pipes, the SIGCHLD signalfd and the child's stack; -1 (errno). */
static int spawn_prepare(struct spawn *sp)
{
	sigset_t chld;

	wait_set(&chld, 1);
	if (pipe2(sp->gate, O_CLOEXEC) || pipe2(sp->errp, O_CLOEXEC) ||
	    pipe2(sp->outp, O_CLOEXEC) || pipe2(sp->errout, O_CLOEXEC))
		return -1;
	sp->sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sp->sfd < 0)
		return -1;
	sp->stack = mmap(NULL, CHILD_STACK_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (sp->stack == MAP_FAILED) {
		sp->stack = NULL;
		return -1;
	}
	return 0;
}

/* Clone the child (held at the gate) and close its ends; -1 (errno). */
static int spawn_clone(struct spawn *sp)
{
	struct child_args *ca = &sp->ca;

	ca->o = sp->o;
	ca->gate = sp->gate[0];
	ca->errfd = sp->errp[1];
	ca->out_w = sp->outp[1];
	ca->err_w = sp->errout[1];
	ca->close_fds[0] = sp->gate[1];
	ca->close_fds[1] = sp->errp[0];
	ca->close_fds[2] = sp->outp[0];
	ca->close_fds[3] = sp->errout[0];
	ca->parent = getpid();
	ca->max_fd = (int)(sysconf(_SC_OPEN_MAX) > 0 && sysconf(_SC_OPEN_MAX) < 65536 ?
			   sysconf(_SC_OPEN_MAX) : 65536);
	/* The program, pinned before the gate: the child execs this very
	 * file (exec_checked). Unopenable: the exec by path says why. */
	ca->exe_fd = open(sp->o->exe, O_PATH | O_CLOEXEC);
	if (under_valgrind()) {
		/* valgrind refuses general clone(): a plain fork does the same
		 * job, only with a dearer exec. */
		sp->pid = fork();
		if (!sp->pid)
			child_main(ca);
	} else {
		sp->pid = clone(child_main, (char *)sp->stack + CHILD_STACK_BYTES,
				CLONE_VM | SIGCHLD, ca);
	}
	/* The child has its own copy (its descriptor table is its own). */
	if (ca->exe_fd >= 0)
		close(ca->exe_fd);
	if (sp->pid < 0)
		return -1;
	close(sp->gate[0]);
	close(sp->errp[1]);
	close(sp->outp[1]);
	close(sp->errout[1]);
	sp->gate[0] = sp->errp[1] = sp->outp[1] = sp->errout[1] = -1;
	fcntl(sp->outp[0], F_SETFL, O_NONBLOCK);
	fcntl(sp->errout[0], F_SETFL, O_NONBLOCK);
	setpgid(sp->pid, sp->pid);
	return 0;
}

/* At the gate: ptrace (EXITKILL: if perfab dies, the traced child dies
 * with it), the CPU binding, the caller's probes. */
static void spawn_attach(struct spawn *sp)
{
	const struct pab_spawn_opts *o = sp->o;
	struct pab_spawn_result *res = sp->res;

	if (pab_test_without("ptrace")) {
		res->own_hwm_why = "not read (PERFAB_TEST_WITHOUT=ptrace)";
	} else if (ptrace(PTRACE_SEIZE, sp->pid, NULL,
			  (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL))) {
		res->own_hwm_why = "ptrace is not permitted here (see /proc/sys/kernel/yama/ptrace_scope)";
	}
	if (o->pin && !pab_test_without("pin") &&
	    (o->pu_given ? pab_pin_child_pu(o->pin, sp->pid, o->pu, res->pu_obtained,
					    sizeof(res->pu_obtained)) :
	     pab_pin_child(o->pin, sp->pid)))
		warning("cannot bind the child to its CPUs: %s", strerror(errno));
	if (o->at_gate)
		o->at_gate(sp->pid, o->at_gate_arg);
	test_gate_swap();
}

/* Open the gate: the clock starts; the exec's outcome, the sampler, the
 * deadline. */
static void spawn_release(struct spawn *sp)
{
	const struct pab_spawn_opts *o = sp->o;
	struct pab_spawn_result *res = sp->res;
	char go = 'g';
	ssize_t got;

	sp->t0 = now_monotonic_ns();
	if (write(sp->gate[1], &go, 1) != 1)
		sp->err = errno;
	close(sp->gate[1]);
	sp->gate[1] = -1;
	/* Exec success closes errp (CLOEXEC); failure sends errno. */
	do {
		got = read(sp->errp[0], &res->spawn_errno, sizeof(res->spawn_errno));
	} while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(res->spawn_errno))
		res->spawn_errno = sp->err;
	if (o->sampler && !res->spawn_errno)
		pab_sampler_watch(o->sampler, sp->pid, o->max_procs);
	if (o->timeout_ns > 0)
		sp->deadline = sp->t0 + o->timeout_ns;
}

/* A ptrace stop of the child: at its exit its own VmHWM (the mm still
 * exists) and the sampler's last look; then on. The child is frozen
 * from here to PTRACE_CONT: perfab's own work at the stop is left out of
 * its wall time. */
static void spawn_stopped(struct spawn *sp)
{
	const struct pab_spawn_opts *o = sp->o;
	struct pab_spawn_result *res = sp->res;
	int sig = WSTOPSIG(sp->status), event = sp->status >> 16;
	int64_t held_from = now_monotonic_ns();

	if (event == PTRACE_EVENT_EXIT) {
		if (!pab_proc_status_bytes(sp->pid, "VmHWM", &res->own_hwm_bytes))
			res->own_hwm_why = NULL;
		else
			res->own_hwm_why = "VmHWM unreadable at exit";
		if (o->sampler && !res->spawn_errno)
			pab_sampler_at_exit(o->sampler, sp->pid);
		test_exit_hold();
		sig = 0;
	} else if (event) {
		sig = 0; /* group-stop or other event: resume */
	}
	sp->held_ns += now_monotonic_ns() - held_from;
	ptrace(PTRACE_CONT, sp->pid, NULL, (void *)(long)sig);
}

/* The timeout: SIGTERM to the group, SIGKILL after the grace. Returns
 * how long the wait may last (ns). */
static int64_t spawn_deadline(struct spawn *sp)
{
	/* Side by side, another thread's wait may take this child's SIGCHLD. */
	int64_t wait_ns = sp->o->stop_shared ? 10000000 : 1000000000;

	if (!sp->deadline)
		return wait_ns;
	if (!ns_left(sp->deadline)) {
		if (!sp->res->timed_out) {
			sp->res->timed_out = 1;
			kill(-sp->pid, SIGTERM);
			kill(sp->pid, SIGTERM);
			sp->kill_at = now_monotonic_ns() + sp->o->kill_grace_ns;
		} else if (sp->kill_at && !ns_left(sp->kill_at)) {
			kill(-sp->pid, SIGKILL);
			kill(sp->pid, SIGKILL);
			sp->kill_at = 0;
		}
		return 10000000;
	}
	return ns_left(sp->deadline) < wait_ns ? ns_left(sp->deadline) : wait_ns;
}

/* Side by side (o->stop_shared): a stop this wait took goes to the
 * others, and one another wait took stops this child too. */
static void share_stop(struct spawn *sp)
{
	int *shared = sp->o->stop_shared, sig;

	if (!shared)
		return;
	if (sp->res->interrupted) {
		sig = 0;
		__atomic_compare_exchange_n(shared, &sig, sp->res->interrupted, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		return;
	}
	sig = __atomic_load_n(shared, __ATOMIC_SEQ_CST);
	if (!sig)
		return;
	sp->res->interrupted = sig;
	kill(-sp->pid, SIGKILL);
	kill(sp->pid, SIGKILL);
}

/* Wait up to wait_ns for a signal or output: a stop signal kills the
 * child's group at once; output is drained. Returns -1 when poll failed. */
static int spawn_poll(struct spawn *sp, int64_t wait_ns)
{
	struct pab_spawn_result *res = sp->res;
	struct signalfd_siginfo si;
	struct pollfd pfd[3];

	pfd[0].fd = sp->sfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = sp->out_open ? sp->outp[0] : -1;
	pfd[1].events = POLLIN;
	pfd[2].fd = sp->err_open ? sp->errout[0] : -1;
	pfd[2].events = POLLIN;
	if (poll(pfd, 3, (int)((wait_ns + 999999) / 1000000)) < 0 && errno != EINTR)
		return -1;
	while (read(sp->sfd, &si, sizeof(si)) > 0) {
		if (si.ssi_signo == SIGCHLD || res->interrupted)
			continue;
		/* perfab is asked to stop: the child's group goes now;
		 * reap it, then the caller cleans up and stops. */
		res->interrupted = (int)si.ssi_signo;
		kill(-sp->pid, SIGKILL);
		kill(sp->pid, SIGKILL);
	}
	share_stop(sp);
	if (sp->out_open && pfd[1].revents)
		sp->out_open = drain(sp->outp[0], &res->stdout_bytes, NULL, NULL);
	if (sp->err_open && pfd[2].revents)
		sp->err_open = drain_echo(sp->errout[0], &res->stderr_bytes, res->stderr_tail,
					  &sp->tail_len, sp->o->echo_stderr);
	return 0;
}

/* Until the child is reaped (or waiting fails: sp->err). */
static void spawn_wait(struct spawn *sp)
{
	sp->out_open = sp->err_open = 1;
	for (;;) {
		pid_t w = wait4(sp->pid, &sp->status, WNOHANG | __WALL, &sp->res->ru);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			sp->err = errno;
			break;
		}
		if (w > 0 && WIFSTOPPED(sp->status)) {
			spawn_stopped(sp);
			continue;
		}
		if (w > 0)
			break; /* exited or killed */
		if (spawn_poll(sp, spawn_deadline(sp))) {
			sp->err = errno;
			break;
		}
	}
}

/* After the reap: the wall time, nothing of the child left behind, its
 * last output, the sampler's peaks, how it ended. */
static void spawn_collect(struct spawn *sp)
{
	const struct pab_spawn_opts *o = sp->o;
	struct pab_spawn_result *res = sp->res;
	size_t i;

	res->wall_ns = now_monotonic_ns() - sp->t0 - sp->held_ns;
	res->held_ns = sp->held_ns;
	/* Leave nothing of the child behind to disturb the next rep. */
	kill(-sp->pid, SIGKILL);
	/* What the child wrote last; descendants may hold the pipes: no wait. */
	if (sp->out_open)
		drain(sp->outp[0], &res->stdout_bytes, NULL, NULL);
	if (sp->err_open)
		drain_echo(sp->errout[0], &res->stderr_bytes, res->stderr_tail, &sp->tail_len,
			   o->echo_stderr);
	/* Keep it printable: it ends up in messages and JSON. */
	for (i = 0; i < sp->tail_len; i++) {
		unsigned char c = (unsigned char)res->stderr_tail[i];

		if ((c < 32 && c != '\n' && c != '\t') || c > 126)
			res->stderr_tail[i] = '?';
	}
	res->stderr_tail[sp->tail_len] = '\0';
	if (o->sampler && !res->spawn_errno) {
		pab_sampler_unwatch(o->sampler, &res->tree);
		res->tree_limit_hit = res->tree.limit_hit;
	}
	if (sp->err)
		return; /* no status: the wait failed */
	if (WIFEXITED(sp->status)) {
		res->exit_code = WEXITSTATUS(sp->status);
	} else if (WIFSIGNALED(sp->status)) {
		res->exit_code = -1;
		res->term_signal = WTERMSIG(sp->status);
	}
}

/* Close what spawn_prepare() opened (the child has exec'd or is gone). */
static void spawn_release_fds(struct spawn *sp)
{
	if (sp->stack)
		munmap(sp->stack, CHILD_STACK_BYTES);
	close_pair(sp->gate);
	close_pair(sp->errp);
	close_pair(sp->outp);
	close_pair(sp->errout);
	if (sp->sfd >= 0)
		close(sp->sfd);
}

int pab_spawn_measure(const struct pab_spawn_opts *o,
		      struct pab_spawn_result *res)
{
	struct spawn sp = {
		.o = o, .res = res, .gate = { -1, -1 }, .errp = { -1, -1 },
		.outp = { -1, -1 }, .errout = { -1, -1 }, .sfd = -1,
	};
	int err;

	memset(res, 0, sizeof(*res));
	res->own_hwm_why = "not read";
	res->interrupted = pab_spawn_pending_stop();
	if (o->stop_shared && res->interrupted)
		__atomic_store_n(o->stop_shared, res->interrupted, __ATOMIC_SEQ_CST);
	else if (o->stop_shared)
		res->interrupted = __atomic_load_n(o->stop_shared, __ATOMIC_SEQ_CST);
	if (res->interrupted)
		return 0; /* perfab is being stopped: start nothing */
	if (spawn_prepare(&sp) || spawn_clone(&sp))
		goto out_sys;
	spawn_attach(&sp);
	spawn_release(&sp);
	spawn_wait(&sp);
	err = sp.err;
	spawn_collect(&sp);
	spawn_release_fds(&sp);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;

out_sys:
	err = errno;
	spawn_release_fds(&sp);
	errno = err;
	return -1;
}
