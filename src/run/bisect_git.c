/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bisect_git.c — git and the builds of `perfab bisect` (bisect_git.h):
 * one small process runner that captures what git prints or appends it
 * to a log, and stops on the stop signals; the questions put to git; the
 * worktree and the build of a revision; the digest of a build.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/runchild.h"
#include "model/argv_split.h"
#include "run/bisect_git.h"
#include "store/digest.h"
#include "term.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Processes                                                          */

/* How a process ended. */
struct proc_end {
	int status;        /* exit status; -1: killed by a signal */
	int interrupted;   /* the stop signal that killed it, or 0 */
};

/* The child's side: redirect, enter cwd, exec; never returns. */
static void proc_child(const char *exe, char *const *argv, const char *cwd, int out_fd,
		       int err_fd, int errpipe)
{
	sigset_t none;
	int devnull, err;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(out_fd >= 0 ? out_fd : devnull, STDOUT_FILENO);
	dup2(err_fd >= 0 ? err_fd : devnull, STDERR_FILENO);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	if (cwd && chdir(cwd))
		goto out_report;
	execv(exe, argv);
out_report:
	err = errno;
	while (write(errpipe, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/*
 * run_proc: argv[0] (looked up in PATH) in cwd (NULL: here); its stdout
 * into *out when out is not NULL, else appended to log; its stderr
 * appended to log (NULL: /dev/null). Waits for it, taking a stop signal
 * as the order to kill its group. Returns 0 with *end filled, or -1 with
 * errno (it could not start: errno is why; ENOENT: no such program).
 */
static int run_proc(char *const *argv, const char *cwd, struct pab_strbuf *out, const char *log,
		    struct proc_end *end)
{
	int pipefd[2] = { -1, -1 }, errpipe[2] = { -1, -1 }, log_fd = -1, err = 0, st = 0;
	int reaped = 0, ret = -1;
	char *exe = pab_resolve_exe(argv[0]);
	pid_t pid;

	memset(end, 0, sizeof(*end));
	if (!exe)
		return -1;
	if (log && (log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666)) < 0)
		goto out_free;
	if ((out && pipe2(pipefd, O_CLOEXEC)) || pipe2(errpipe, O_CLOEXEC))
		goto out_close;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto out_close;
	if (!pid)
		proc_child(exe, argv, cwd, out ? pipefd[1] : log_fd, log_fd, errpipe[1]);
	setpgid(pid, pid);
	close(errpipe[1]);
	errpipe[1] = -1;
	if (out) {
		close(pipefd[1]);
		pipefd[1] = -1;
	}
	while (!reaped || pipefd[0] >= 0) {
		int sig;

		if (pipefd[0] >= 0) {
			struct pollfd p = { pipefd[0], POLLIN, 0 };
			char buf[4096];
			ssize_t k;

			if (poll(&p, 1, 100) > 0) {
				k = read(pipefd[0], buf, sizeof(buf));
				if (k > 0)
					pab_strbuf_add(out, buf, (size_t)k);
				else if (k == 0 || errno != EINTR) {
					close(pipefd[0]);
					pipefd[0] = -1;
				}
			}
		} else if (!reaped) {
			const struct timespec tick = { 0, 100 * 1000 * 1000 };
			sigset_t chld;

			sigemptyset(&chld);
			sigaddset(&chld, SIGCHLD);
			sigtimedwait(&chld, NULL, &tick);
		}
		if (!reaped && waitpid(pid, &st, WNOHANG) == pid)
			reaped = 1;
		sig = reaped ? 0 : pab_spawn_pending_stop();
		if (sig) {
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			kill(-pid, SIGKILL);
			end->interrupted = sig;
			reaped = 1;
			if (pipefd[0] >= 0) {
				close(pipefd[0]);
				pipefd[0] = -1;
			}
		}
	}
	end->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	/* exec failed: the child wrote errno */
	if (read(errpipe[0], &err, sizeof(err)) == (ssize_t)sizeof(err) && err) {
		errno = err;
		goto out_close;
	}
	ret = 0;
out_close:
	err = errno;
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (errpipe[0] >= 0)
		close(errpipe[0]);
	if (errpipe[1] >= 0)
		close(errpipe[1]);
	if (log_fd >= 0)
		close(log_fd);
	errno = err;
out_free:
	err = errno;
	free(exe);
	errno = err;
	return ret;
}

/*
 * git: git -C top ARGS... (NULL-ended), stdout into *out (when not NULL;
 * trailing newlines cut). Returns git's exit status, or -1 with f filled
 * when git cannot run.
 */
static int git(const struct pab_git *g, struct pab_strbuf *out, struct pab_failure *f, ...)
{
	const char *argv[32] = { "git" };
	struct proc_end end;
	size_t n = 1;
	va_list ap;

	if (g && g->top) {
		argv[n++] = "-C";
		argv[n++] = g->top;
	}
	va_start(ap, f);
	while (n < 31 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	if (run_proc((char *const *)argv, NULL, out, NULL, &end))
		return pab_fail_errno(f, "cannot run git (perfab bisect needs it on PATH)");
	while (out && out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
	return end.status;
}

/* ------------------------------------------------------------------ */
/* The repository and its revisions                                   */

int pab_git_open(struct pab_git *g, struct pab_failure *f)
{
	struct pab_strbuf top = PAB_STRBUF_INIT, common = PAB_STRBUF_INIT;
	char resolved[PATH_MAX];
	int rc;

	memset(g, 0, sizeof(*g));
	rc = git(NULL, &top, f, "rev-parse", "--show-toplevel", NULL);
	if (rc < 0)
		goto out_release;
	if (rc || !top.len) {
		pab_fail(f, PAB_FAIL_USAGE, "not in a git work tree: run perfab bisect in a "
			 "checkout of the repository to bisect");
		rc = -1;
		goto out_release;
	}
	g->top = pab_strbuf_detach(&top);
	rc = git(g, &common, f, "rev-parse", "--git-common-dir", NULL);
	if (!rc && common.len) {
		char *path = common.buf[0] == '/' ? xstrdup(common.buf) :
			xasprintf("%s/%s", g->top, common.buf);

		if (realpath(path, resolved))
			g->common_dir = xstrdup(resolved);
		free(path);
	}
	if (!g->common_dir && rc >= 0) {
		pab_fail(f, PAB_FAIL_SYSTEM, "cannot find the git directory of '%s'",
			 pab_term_safe(g->top));
		rc = -1;
	}
out_release:
	pab_strbuf_release(&top);
	pab_strbuf_release(&common);
	return rc ? -1 : 0;
}

void pab_git_release(struct pab_git *g)
{
	free(g->top);
	free(g->common_dir);
	memset(g, 0, sizeof(*g));
}

int pab_git_commit(const struct pab_git *g, const char *rev, const char *opt, char **commit,
		   struct pab_failure *f)
{
	struct pab_strbuf out = PAB_STRBUF_INIT;
	char *spec = xasprintf("%s^{commit}", rev);
	int rc = rev[0] == '-' ? 1 : git(g, &out, f, "rev-parse", "--verify", "--quiet",
					 "--end-of-options", spec, NULL);

	free(spec);
	if (rc > 0 || (!rc && !out.len))
		pab_fail(f, PAB_FAIL_USAGE, "%s '%s': no such commit in '%s' (give a commit, "
			 "a tag or a branch: git log --oneline)", opt, pab_term_safe(rev),
			 pab_term_safe(g->top));
	if (rc) {
		pab_strbuf_release(&out);
		return -1;
	}
	*commit = pab_strbuf_detach(&out);
	return 0;
}

/* The lines of text (at least one) as a new NULL-ended array of new
 * strings, *n of them. */
static char **split_lines(const char *text, size_t *n)
{
	char **v = NULL;
	size_t alloc = 0;
	const char *p = text, *nl;

	*n = 0;
	do {
		nl = strchr(p, '\n');
		ALLOC_GROW(v, *n + 2, alloc);
		if (!nl) {
			v[(*n)++] = xstrdup(p);
			break;
		}
		v[(*n)++] = xstrndup(p, (size_t)(nl - p));
		p = nl + 1;
	} while (1);
	v[*n] = NULL;
	return v;
}

int pab_git_line(const struct pab_git *g, const char *good, const char *bad, char ***commits,
		 size_t *n, struct pab_failure *f)
{
	struct pab_strbuf out = PAB_STRBUF_INIT, parent = PAB_STRBUF_INIT;
	char *range = xasprintf("^%s", good), **v;
	size_t k, i;
	int rc;

	*commits = NULL;
	if (!strcmp(good, bad)) {
		rc = pab_fail(f, PAB_FAIL_USAGE, "--good and --bad name the same commit: give "
			      "--good a commit older than --bad");
		goto out;
	}
	rc = git(g, NULL, f, "merge-base", "--is-ancestor", good, bad, NULL);
	if (rc > 0)
		rc = pab_fail(f, PAB_FAIL_USAGE, "--good %.12s is not an ancestor of --bad "
			      "%.12s: give as GOOD an older commit of BAD's history (git log "
			      "--first-parent BAD), or swap them if BAD is the older", good, bad);
	if (rc)
		goto out;
	rc = git(g, &out, f, "rev-list", "--first-parent", "--reverse", bad, range, NULL);
	if (rc > 0 || (!rc && !out.len))
		rc = pab_fail(f, PAB_FAIL_SYSTEM, "git rev-list cannot list the commits of "
			      "%.12s..%.12s", good, bad);
	if (rc)
		goto out;
	v = split_lines(out.buf, &k);
	/* good must be the first parent of the oldest: on the line. */
	free(range);
	range = xasprintf("%s^", v[0]);
	rc = git(g, &parent, f, "rev-parse", "--verify", "--quiet", range, NULL);
	if (!rc && strcmp(parent.buf, good))
		rc = pab_fail(f, PAB_FAIL_USAGE, "--good %.12s is not on the first-parent line "
			      "of --bad %.12s (it was merged from a side branch): perfab bisect "
			      "follows first parents, each merge one change; give as GOOD a commit "
			      "that git log --first-parent BAD lists", good, bad);
	else if (rc > 0)
		rc = pab_fail(f, PAB_FAIL_SYSTEM, "git cannot read the parent of %.12s", v[0]);
	if (rc) {
		pab_argv_free(v);
		goto out;
	}
	*commits = xcalloc(k + 2, sizeof(**commits));
	(*commits)[0] = xstrdup(good);
	for (i = 0; i < k; i++)
		(*commits)[i + 1] = v[i];
	free(v);
	*n = k + 1;
out:
	free(range);
	pab_strbuf_release(&out);
	pab_strbuf_release(&parent);
	return rc ? -1 : 0;
}

int pab_git_check_clean(const struct pab_git *g, struct pab_failure *f)
{
	struct pab_strbuf out = PAB_STRBUF_INIT;
	int rc = git(g, &out, f, "status", "--porcelain", "--untracked-files=no", NULL);

	if (rc > 0)
		rc = pab_fail(f, PAB_FAIL_SYSTEM, "git status failed in '%s'", pab_term_safe(g->top));
	else if (!rc && out.len)
		rc = pab_fail(f, PAB_FAIL_USAGE, "the work tree '%s' has uncommitted changes: "
			      "perfab bisect measures committed revisions, each in a worktree of "
			      "its own; commit them or put them away (git stash), then run it again",
			      pab_term_safe(g->top));
	pab_strbuf_release(&out);
	return rc ? -1 : 0;
}

void pab_git_info(const struct pab_git *g, const char *commit, struct pab_git_info *info)
{
	struct pab_strbuf out = PAB_STRBUF_INIT;
	struct pab_failure f = { 0 };
	char *p, *q;

	memset(info, 0, sizeof(*info));
	if (!git(g, &out, &f, "log", "-1", "--no-walk", "--format=%h%x1f%aI%x1f%s",
		 "--end-of-options", commit, NULL) &&
	    (p = strchr(out.buf ? out.buf : "", '\x1f')) && (q = strchr(p + 1, '\x1f'))) {
		info->abbrev = xstrndup(out.buf, (size_t)(p - out.buf));
		info->date = xstrndup(p + 1, (size_t)(q - p - 1));
		info->subject = xstrdup(q + 1);
	} else {
		info->abbrev = xstrndup(commit, 12);
		info->date = xstrdup("?");
		info->subject = xstrdup("?");
	}
	pab_failure_release(&f);
	pab_strbuf_release(&out);
}

void pab_git_info_release(struct pab_git_info *info)
{
	free(info->abbrev);
	free(info->subject);
	free(info->date);
	memset(info, 0, sizeof(*info));
}

/* ------------------------------------------------------------------ */
/* Builds                                                             */

int pab_git_build(const struct pab_git *g, const char *commit, const char *dir,
		  const char *log, char *const *build_argv, int *exit_code, int *interrupted,
		  struct pab_failure *f)
{
	const char *add[] = { "git", "-C", g->top, "worktree", "add", "--detach", "--force",
			      dir, commit, NULL };
	struct proc_end end;

	*exit_code = -1;
	*interrupted = 0;
	unlink(log);
	/* A worktree left by an interrupted build goes first. */
	if (!access(dir, F_OK)) {
		git(g, NULL, f, "worktree", "remove", "--force", dir, NULL);
		if (!access(dir, F_OK) && pab_remove_tree(dir))
			return pab_fail_errno(f, "cannot remove the old build '%s'",
					      pab_term_safe(dir));
	}
	git(g, NULL, f, "worktree", "prune", NULL);
	pab_failure_release(f);
	if (run_proc((char *const *)add, NULL, NULL, log, &end))
		return pab_fail_errno(f, "cannot run git (perfab bisect needs it on PATH)");
	if (end.interrupted) {
		*interrupted = end.interrupted;
		return 1;
	}
	if (end.status)
		return pab_fail(f, PAB_FAIL_SYSTEM, "git worktree add cannot check out %.12s at "
				"'%s' (its output: '%s')", commit, pab_term_safe(dir),
				pab_term_safe(log));
	if (run_proc(build_argv, dir, NULL, log, &end)) {
		if (errno != ENOENT && errno != EACCES)
			return pab_fail_errno(f, "cannot run the build command '%s'",
					      pab_term_safe(build_argv[0]));
		*exit_code = 127;
		return 0;
	}
	*exit_code = end.status;
	*interrupted = end.interrupted;
	return end.interrupted ? 1 : 0;
}

/* 1 when path is a regular file inside dir (both resolved). */
static int file_in(const char *dir_real, const char *path, char *resolved)
{
	struct stat st;
	size_t n = strlen(dir_real);

	if (!realpath(path, resolved) || stat(resolved, &st) || !S_ISREG(st.st_mode))
		return 0;
	return !strncmp(resolved, dir_real, n) && resolved[n] == '/';
}

char *pab_bisect_build_digest(const char *dir, char *const *bench_argv, size_t n)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	char dir_real[PATH_MAX], resolved[PATH_MAX];
	char *digest = NULL;
	size_t i;

	if (!realpath(dir, dir_real))
		return NULL;
	for (i = 0; i < n; i++) {
		const char *w = bench_argv[i];
		char *path, *sha;

		if (!*w || (i == 0 && !strchr(w, '/')))
			continue;
		path = w[0] == '/' ? xstrdup(w) : xasprintf("%s/%s", dir_real, w);
		if (file_in(dir_real, path, resolved) && (sha = pab_sha256_file(resolved))) {
			pab_strbuf_addf(&sb, "%s\t%s\n", resolved + strlen(dir_real) + 1, sha);
			free(sha);
		}
		free(path);
	}
	if (sb.len)
		digest = pab_sha256_buf(sb.buf, sb.len);
	pab_strbuf_release(&sb);
	return digest;
}
