/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * guard.h — nothing perfab starts or creates outlives it.
 *
 * perfab kills what a child leaves behind at the end of every child, at
 * SIGTERM/SIGINT/SIGHUP and at --timeout (runchild.h, cgroup.h). For the
 * one signal it cannot handle, SIGKILL, it starts a guard first. The
 * process perfab's caller started (the starter) forks the guard, in a
 * session and process group of its own, and the guard forks perfab,
 * which goes on in the caller's session and process group: a SIGKILL to
 * perfab, the starter or their whole group cannot reach the guard. perfab
 * tells the guard, over a socket, which process groups, cgroups and
 * scratch directories exist. The guard is perfab's parent and a child
 * subreaper (PR_SET_CHILD_SUBREAPER), so everything perfab's tree leaves
 * when perfab dies is the guard's child. When the socket closes without
 * perfab having said "done", or the starter dies, the guard kills perfab,
 * every group and cgroup it was told of and every process it adopted (a
 * setsid daemon, a child that left its cgroups), removes the scratch
 * directories, and only then tells the starter how perfab ended; the
 * starter ends the same way (exit status or signal) and forwards TERM,
 * INT and HUP to perfab meanwhile. perfab is a child subreaper too, so
 * descendants a child orphans are perfab's to reap while it runs (not a
 * zombie under an init that never reaps, which would keep a cgroup
 * populated).
 *
 * The scratch directory (where $PERFAB_REPORT lives) is
 * TMPDIR/perfab-<pid>-XXXXXX, flock'ed by perfab for its life; ones whose
 * perfab is gone (PID not running, lock free) are removed at the next
 * start, as are stale cgroups (pab_cgroup_clean_stale()).
 */
#ifndef PAB_GUARD_H
#define PAB_GUARD_H

#include <sys/types.h>

/*
 * pab_guard_start: fork the guard and perfab under it (call while perfab
 * has one thread; stdio is flushed first). Returns 0 in the new perfab
 * process, a child subreaper (a new PID: take nothing named by the PID
 * before); the calling process never returns then, it waits and ends as
 * perfab ends. Returns -1 with errno in the calling process when the
 * guard could not be started: perfab then runs on unguarded, a child
 * subreaper still (a SIGKILL may leave processes behind).
 */
int pab_guard_start(void);

/* Tell the guard: a child's process group exists / is gone. */
void pab_guard_group(pid_t pgid);
void pab_guard_group_done(pid_t pgid);
/* Tell the guard: a cgroup directory exists / was removed. */
void pab_guard_cgroup(const char *path);
void pab_guard_cgroup_done(const char *path);

/*
 * pab_guard_done: perfab cleaned up itself; the guard exits without doing
 * anything. Called last, on every exit path perfab handles.
 */
void pab_guard_done(void);

/*
 * pab_kill_orphans: kill and reap every child perfab has while no measured
 * child runs. perfab being a child subreaper, those are exactly what
 * measured children left running (daemons, setsid ones included, that
 * were orphaned), so this works without a cgroup too. Repeats until none
 * is left (a dying one may fork) or a deadline of a few seconds passes.
 */
void pab_kill_orphans(void);

/*
 * pab_scratch_create: remove stale scratch directories, then create
 * TMPDIR/perfab-<pid>-XXXXXX (TMPDIR unset: /tmp), lock it, tell the guard.
 * Returns the path (caller frees) or NULL with errno set.
 */
char *pab_scratch_create(void);

/* Remove the scratch directory and all in it. */
void pab_scratch_remove(const char *path);

#endif /* PAB_GUARD_H */
