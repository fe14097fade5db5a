/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * runchild.h — run ONE measured child and report what it cost.
 *
 * The child is forked, put in its own process group, held at a gate while
 * perfab attaches (ptrace exit stop, CPU binding), then released into
 * the exec — never through a shell — of the program opened before the
 * clone (execveat on that descriptor; by path where the kernel cannot),
 * so the file the caller checked just before is the file that runs. perfab waits with wait4 for the child's
 * rusage; ptrace's exit stop lets it read the child's OWN VmHWM while the
 * process still exists (ru_maxrss would carry the parent's peak across
 * exec). The wall time runs from the gate's release to the reap, less the
 * time the child is held frozen at ptrace stops while perfab reads it:
 * perfab's own work there is not the child's cost. A timeout sends SIGTERM to the whole group, then SIGKILL.
 *
 * The caller must have SIGCHLD blocked in every thread (pab_spawn_setup()
 * does it; call it before starting threads). SIGTERM, SIGINT and SIGHUP
 * (those not ignored when pab_spawn_setup() runs: an ignored one stays
 * ignored) are blocked too and handled here: one that arrives while a
 * child runs kills the child's group at once and is reported in
 * res->interrupted;
 * one pending when pab_spawn_measure() is called starts nothing. The
 * caller then cleans up and stops (pab_spawn_pending_stop() asks between
 * children). Children may run side by side, one thread waiting on each:
 * a SIGCHLD or stop signal reaches only one thread's wait, so those waits
 * look every 10 ms, and share a stop through o->stop_shared. The child also gets PR_SET_PDEATHSIG (SIGKILL), and every
 * descriptor above stderr is closed at its exec.
 */
#ifndef PAB_RUNCHILD_H
#define PAB_RUNCHILD_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "probe/pin.h"
#include "probe/sampler.h"

struct pab_spawn_opts {
	const char *exe;      /* resolved path to execve */
	char *const *argv;    /* argv[0] as the user wrote it */
	char *const *envp;    /* the complete environment */
	struct pab_pin *pin;  /* may be NULL */
	struct pab_sampler *sampler; /* may be NULL */
	int64_t timeout_ns;   /* 0 = none */
	int64_t kill_grace_ns;/* SIGTERM -> SIGKILL delay */
	long max_procs;       /* kill the group when its tree exceeds this (0 = no limit) */
	/* Called while the child is held at the gate, before its exec: the
	 * place to open counters on it or move it into a cgroup. May be NULL. */
	void (*at_gate)(pid_t pid, void *arg);
	void *at_gate_arg;
	const char *stdin_path; /* the child's stdin; NULL: /dev/null */
	int stdout_fd;        /* > 0: the child's stdout (perfab's descriptor,
			       * e.g. 1 or 2 or a file); 0: a pipe, counted
			       * and dropped */
	int echo_stderr;      /* copy the child's stderr to perfab's as it comes */
	/* Children run side by side, each waited on by its own thread
	 * (run/count_batch.h): */
	int pu_given;         /* bind to PU pu alone, not to pin's children's set
			       * (pin->obtained is left alone) */
	unsigned pu;
	/* A directory the child does not see: an empty read-only tmpfs over
	 * it, in a mount namespace of the child's own, where the kernel lets
	 * perfab make one (as root); elsewhere the child sees it as it is.
	 * NULL: nothing hidden. */
	const char *hide_dir;
	int *stop_shared;     /* a stop signal taken by any of the batch's waits
			       * is stored here, and every wait that sees it
			       * stops its child as if it had taken it; NULL:
			       * one child at a time */
};

struct pab_spawn_result {
	int spawn_errno;      /* non-zero: exec failed, nothing ran */
	int64_t wall_ns;      /* gate release to reap, less held_ns */
	int64_t held_ns;      /* the child sat at ptrace stops while perfab
			       * read it (VmHWM, the exit-stop sample) */
	struct rusage ru;     /* of the child and its reaped descendants */
	int exit_code;        /* -1 when killed by a signal */
	int term_signal;
	int timed_out;
	uint64_t own_hwm_bytes;  /* child's VmHWM at exit */
	const char *own_hwm_why; /* static reason when not read, else NULL */
	struct pab_tree_peaks tree;
	int tree_limit_hit;   /* killed for exceeding max_procs */
	int interrupted;      /* SIGTERM/SIGINT/SIGHUP that stopped perfab, or 0 */
	/* Output is drained as it comes and never held whole: stdout is
	 * counted and dropped, the last PAB_STDERR_TAIL bytes of stderr kept. */
	uint64_t stdout_bytes, stderr_bytes;
	char stderr_tail[4096 + 1];  /* NUL-terminated */
	char pu_obtained[64]; /* with pu_given: the binding the kernel reports
			       * back, list form ("" when unread) */
};
#define PAB_STDERR_TAIL 4096

/* Block SIGCHLD, SIGTERM, SIGINT and SIGHUP (those not ignored) in the
 * calling thread (threads created later inherit). */
void pab_spawn_setup(void);

/* A pending SIGTERM, SIGINT or SIGHUP (taken), or 0. */
int pab_spawn_pending_stop(void);

/* Run and measure. Returns 0 (see res for how it went) or -1 on a system
 * error before the child could start (errno set). */
int pab_spawn_measure(const struct pab_spawn_opts *o,
		      struct pab_spawn_result *res);

/*
 * pab_resolve_exe: the path execvp would run for name (a name with a '/'
 * is taken as is), checked to be an executable regular file. New string,
 * or NULL with errno set.
 */
char *pab_resolve_exe(const char *name);

#endif /* PAB_RUNCHILD_H */
