/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cgroup.c — a memory cgroup per measured child (cgroup.h).
 *
 * Finding the place: /proc/self/cgroup says where perfab sits in each
 * hierarchy, /proc/self/mountinfo where each hierarchy is mounted (and
 * which subtree of it, for bind mounts in containers). The parent of every
 * cgroup perfab creates is perfab's own cgroup in the hierarchy that holds
 * the memory controller.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe/cgroup.h"
#include "util.h"

struct pab_cgroup {
	char *path;
	char *parent;
	const char *version;   /* "v1" / "v2" */
	const char *peak_file; /* memory.peak / memory.max_usage_in_bytes */
	int attached;
	char *why;             /* last pab_cgroup_peak reason (owned) */
	char *freezer;         /* v1: a freezer cgroup of the same name, or NULL */
};

static unsigned cgroup_seq;

static int is_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	int ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

/* Does the space-separated list in file dir/name contain word? */
static int file_has_word(const char *dir, const char *name, const char *word)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *s = read_file_max(p, 1 << 12, NULL), *t;
	size_t n = strlen(word);
	int found = 0;

	for (t = s; t && (t = strstr(t, word)); t += n) {
		if ((t == s || t[-1] == ' ') &&
		    (t[n] == ' ' || t[n] == '\n' || t[n] == '\0')) {
			found = 1;
			break;
		}
	}
	free(s);
	free(p);
	return found;
}

/* Does the comma-separated list s contain word? */
static int csv_has(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word), i = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && s[j] != ',')
			j++;
		if (j - i == n && !memcmp(s + i, word, n))
			return 1;
		i = j + 1;
	}
	return 0;
}

/* mountinfo escapes ' ', '\t', '\n' and '\\' as \ooo: decode in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/*
 * The mount point and mount root of the hierarchy whose fstype is fstype
 * ("cgroup2", or "cgroup" with super option opt). 0 and two new strings,
 * or -1.
 */
static int find_mount(const char *fstype, const char *opt, char **mnt, char **root)
{
	char *info = read_file_max("/proc/self/mountinfo", 1 << 22, NULL);
	char *line, *next, *f[5], *dash, *fs, *src, *super, *e;
	int ret = -1, i;

	if (!info)
		return -1;
	for (line = info; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* id parent maj:min root mountpoint opts ... - fstype source super */
		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		fs = dash + 3;
		src = strchr(fs, ' ');
		if (!src)
			continue;
		*src++ = '\0';
		super = strchr(src, ' ');
		if (!super)
			continue;
		super++;
		e = line;
		for (i = 0; i < 5 && e; i++) {
			f[i] = e;
			e = strchr(e, ' ');
			if (e)
				*e++ = '\0';
		}
		if (i < 5 || strcmp(fs, fstype))
			continue;
		if (opt && !csv_has(super, strlen(super), opt))
			continue;
		unescape_octal(f[3]);
		unescape_octal(f[4]);
		*root = xstrdup(f[3]);
		*mnt = xstrdup(f[4]);
		ret = 0;
		break;
	}
	free(info);
	return ret;
}

/*
 * perfab's path in the hierarchy: the v2 entry ("0::/path") when
 * controller is NULL, else the v1 entry listing controller. New string or
 * NULL.
 */
static char *own_cgroup_path(const char *controller)
{
	char *info = read_file_max("/proc/self/cgroup", 1 << 16, NULL);
	char *line, *next, *c1, *c2, *path = NULL;

	if (!info)
		return NULL;
	for (line = info; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		if (controller ? csv_has(c1 + 1, (size_t)(c2 - c1 - 1), controller)
			       : (c2 == c1 + 1 && !strncmp(line, "0:", 2))) {
			path = xstrdup(c2 + 1);
			break;
		}
	}
	free(info);
	return path;
}

/*
 * The directory of perfab's own cgroup in a hierarchy: mount point plus
 * the path below the mount's root (a container may mount only its own
 * subtree, whose root is then a prefix of the path). New string or NULL.
 */
static char *own_cgroup_dir(const char *fstype, const char *opt, const char *controller)
{
	char *mnt = NULL, *root = NULL, *path = own_cgroup_path(controller), *dir = NULL;
	const char *rel;
	size_t rl;

	if (!path)
		goto out;
	if (find_mount(fstype, opt, &mnt, &root))
		goto out;
	rel = path;
	rl = strlen(root);
	if (strcmp(root, "/") && !strncmp(path, root, rl) &&
	    (path[rl] == '/' || path[rl] == '\0'))
		rel = path + rl;
	while (*rel == '/')
		rel++;
	dir = *rel ? xasprintf("%s/%s", mnt, rel) : xstrdup(mnt);
out:
	free(mnt);
	free(root);
	free(path);
	return dir;
}

/*
 * Decide where cgroups go: 0, *version and *parent (new memory), or -1 and
 * *why (new memory).
 */
static int find_parent(const char **version, char **parent, char **why)
{
	const char *env = getenv("PERFAB_CGROUP_ROOT");
	char *v2 = NULL, *v1 = NULL;
	struct stat st;
	int ret = -1;

	*parent = NULL;
	*why = NULL;
	if (env && *env) {
		int err = stat(env, &st) ? errno : 0;

		if (err || !S_ISDIR(st.st_mode)) {
			*why = xasprintf("cgroup root '%s' (PERFAB_CGROUP_ROOT) is "
					 "unusable: %s: unset it or point it at a cgroup",
					 env, err ? strerror(err) : "not a directory");
			goto out;
		}
		if (is_file(env, "cgroup.controllers")) {
			/* Checked before anything is written: enabling a
			 * controller the hierarchy does not have only fails. */
			if (!file_has_word(env, "cgroup.controllers", "memory")) {
				*why = xasprintf("cgroup root '%s' (PERFAB_CGROUP_ROOT) is "
						 "cgroup v2 without the memory controller "
						 "(not in its cgroup.controllers): point it at "
						 "a cgroup whose parent enables memory", env);
				goto out;
			}
			*version = "v2";
		} else if (is_file(env, "memory.usage_in_bytes")) {
			*version = "v1";
		} else {
			*why = xasprintf("cgroup root '%s' (PERFAB_CGROUP_ROOT) is not a "
					 "memory cgroup (no cgroup.controllers, no "
					 "memory.usage_in_bytes): unset it or point it at "
					 "a cgroup", env);
			goto out;
		}
		*parent = xstrdup(env);
		ret = 0;
		goto out;
	}
	/* v2 first: it is where every current distribution is going. */
	v2 = own_cgroup_dir("cgroup2", NULL, NULL);
	if (v2 && file_has_word(v2, "cgroup.controllers", "memory")) {
		*version = "v2";
		*parent = v2;
		v2 = NULL;
		ret = 0;
		goto out;
	}
	v1 = own_cgroup_dir("cgroup", "memory", "memory");
	if (v1) {
		*version = "v1";
		*parent = v1;
		v1 = NULL;
		ret = 0;
		goto out;
	}
	if (v2)
		*why = xasprintf("the memory controller is not available to perfab's "
				 "cgroup v2 '%s' and no cgroup v1 memory hierarchy is "
				 "mounted: enable it in the parent's cgroup.subtree_control",
				 v2);
	else
		*why = xstrdup("no cgroup hierarchy with a memory controller is "
			       "mounted (see /proc/self/cgroup and /proc/self/mountinfo)");
out:
	free(v1);
	free(v2);
	return ret;
}

int pab_cgroup_probe(const char **version, char **parent, char **why)
{
	if (find_parent(version, parent, why))
		return -1;
	if (access(*parent, W_OK)) {
		*why = xasprintf("cannot create cgroups under '%s': %s: run perfab as "
				 "root or in a delegated cgroup", *parent, strerror(errno));
		free(*parent);
		*parent = NULL;
		return -1;
	}
	return 0;
}

/* Write s to dir/name. 0 or -1 with errno. */
static int write_file(const char *dir, const char *name, const char *s)
{
	char *p = xasprintf("%s/%s", dir, name);
	size_t n = strlen(s);
	int fd, ret = -1, err;
	ssize_t w;

	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto out_free;
	w = write(fd, s, n);
	if (w == (ssize_t)n)
		ret = 0;
	else if (w >= 0)
		errno = EIO;
	err = errno;
	close(fd);
	errno = err;
out_free:
	err = errno;
	free(p);
	errno = err;
	return ret;
}

/*
 * cgroup v2 only lets a cgroup's children use the memory controller when
 * the cgroup enables it in cgroup.subtree_control, which it refuses for a
 * cgroup holding processes (other than the root). New reason or NULL.
 */
static char *v2_enable_memory(const char *parent)
{
	if (file_has_word(parent, "cgroup.subtree_control", "memory"))
		return NULL;
	if (!write_file(parent, "cgroup.subtree_control", "+memory"))
		return NULL;
	if (errno == EBUSY)
		return xasprintf("cannot enable the memory controller below '%s': "
				 "perfab itself is in that cgroup and cgroup v2 forbids "
				 "controllers on a cgroup holding processes: start perfab "
				 "in a delegated cgroup of its own with an empty child "
				 "for it (see doc/env.md)", parent);
	return xasprintf("cannot enable the memory controller below '%s': %s: %s",
			 parent, strerror(errno), geteuid() ? "run perfab as root or in a "
			 "delegated cgroup" : "the cgroup file system is read-only or the "
			 "controller is not available here (see doc/env.md)");
}

/*
 * cgroup v1 cannot kill a cgroup in one step; with the freezer controller
 * mounted, a freezer cgroup named like the memory one lets perfab freeze
 * everything, kill it frozen (nothing can fork meanwhile) and thaw. New
 * path, or NULL when there is no usable freezer (then killing falls back to
 * reading cgroup.procs until it is empty).
 */
static char *v1_freezer(const char *memory_path)
{
	char *parent = own_cgroup_dir("cgroup", "freezer", "freezer");
	const char *leaf = strrchr(memory_path, '/');
	char *dir = NULL;

	if (parent && leaf && !access(parent, W_OK)) {
		dir = xasprintf("%s%s", parent, leaf);
		if (mkdir(dir, 0755) || !is_file(dir, "freezer.state")) {
			rmdir(dir);
			free(dir);
			dir = NULL;
		}
	}
	free(parent);
	return dir;
}

struct pab_cgroup *pab_cgroup_new(char **why)
{
	struct pab_cgroup *cg = NULL;
	const char *version;
	char *parent = NULL, *path = NULL;
	unsigned tries;
	int err = 0;

	if (find_parent(&version, &parent, why))
		goto out;
	if (!strcmp(version, "v2") && (*why = v2_enable_memory(parent)))
		goto out;
	/* EEXIST only when an earlier perfab with the same pid crashed and
	 * left its cgroup behind: take the next number. */
	for (tries = 0; tries < 100; tries++) {
		unsigned n = __atomic_fetch_add(&cgroup_seq, 1, __ATOMIC_RELAXED);

		free(path);
		path = xasprintf("%s/perfab-%ld-%u", parent, (long)getpid(), n);
		err = mkdir(path, 0755) ? errno : 0;
		if (err != EEXIST)
			break;
	}
	if (err) {
		*why = xasprintf("cannot create cgroup '%s': %s: %sset "
				 "PERFAB_CGROUP_ROOT to a writable memory cgroup",
				 path, strerror(err), geteuid() ? "run perfab as root, or in a "
				 "delegated cgroup (v2), or " : "");
		goto out;
	}
	cg = xcalloc(1, sizeof(*cg));
	cg->path = path;
	cg->parent = parent;
	cg->version = version;
	cg->peak_file = !strcmp(version, "v2") ? "memory.peak" : "memory.max_usage_in_bytes";
	path = parent = NULL;
	if (!is_file(cg->path, cg->peak_file)) {
		*why = !strcmp(version, "v2")
			? xasprintf("cgroup '%s' has no memory.peak: cgroup v2 records "
				    "a memory high-water mark from Linux 5.19 on; use a "
				    "newer kernel or the v1 memory controller", cg->path)
			: xasprintf("cgroup '%s' has no memory.max_usage_in_bytes: is "
				    "the memory controller really mounted there?", cg->path);
		pab_cgroup_free(cg);
		cg = NULL;
		goto out;
	}
	if (!strcmp(version, "v1"))
		cg->freezer = v1_freezer(cg->path);
	*why = NULL;
out:
	free(path);
	free(parent);
	return cg;
}

int pab_cgroup_attach(struct pab_cgroup *cg, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", (long)pid);
	if (write_file(cg->path, "cgroup.procs", buf))
		return -1;
	cg->attached = 1;
	if (cg->freezer && write_file(cg->freezer, "cgroup.procs", buf)) {
		/* Best effort: without it, killing reads cgroup.procs. */
		rmdir(cg->freezer);
		free(cg->freezer);
		cg->freezer = NULL;
	}
	return 0;
}

const char *pab_cgroup_freezer_path(const struct pab_cgroup *cg)
{
	return cg->freezer;
}

int pab_cgroup_peak(struct pab_cgroup *cg, double *bytes, const char **why)
{
	char *p, *s = NULL, *nl;
	uint64_t v;
	int ret = -1;

	free(cg->why);
	cg->why = NULL;
	if (!cg->attached) {
		*why = "no process was attached to the cgroup";
		return -1;
	}
	p = xasprintf("%s/%s", cg->path, cg->peak_file);
	s = read_file_max(p, 256, NULL);
	if (!s) {
		cg->why = xasprintf("cannot read '%s': %s", p, strerror(errno));
		goto out;
	}
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	if (parse_u64(s, 0, UINT64_MAX, &v)) {
		cg->why = xasprintf("'%s' holds '%s', not a byte count", p, s);
		goto out;
	}
	if (v == 0) {
		cg->why = xasprintf("'%s' is 0: nothing ran in the cgroup", p);
		goto out;
	}
	*bytes = (double)v;
	ret = 0;
out:
	if (ret)
		*why = cg->why;
	free(s);
	free(p);
	return ret;
}

const char *pab_cgroup_version(const struct pab_cgroup *cg)
{
	return cg->version;
}

const char *pab_cgroup_path(const struct pab_cgroup *cg)
{
	return cg->path;
}

/* Write state to dir/freezer.state; for FROZEN, wait (briefly) until it is. */
static void freeze(const char *dir, const char *state)
{
	struct timespec ms = { 0, 1000000 };
	char *p = xasprintf("%s/freezer.state", dir);
	int i;

	if (!write_file(dir, "freezer.state", state) && !strcmp(state, "FROZEN"))
		for (i = 0; i < 2000; i++) {
			char *now = read_file_max(p, 64, NULL);
			int done = !now || !strncmp(now, "FROZEN", 6);

			free(now);
			if (done)
				break;
			nanosleep(&ms, NULL);
		}
	free(p);
}

/* 1 when the cgroup.procs file at path can be read and lists no process. */
static int procs_empty(const char *path)
{
	char *s = read_file_max(path, 1 << 22, NULL);
	int empty = s && !s[strspn(s, " \n")];

	free(s);
	return empty;
}

int pab_cgroup_kill_path(const char *dir)
{
	struct timespec ms = { 0, 1000000 };
	char *procs = xasprintf("%s/cgroup.procs", dir);
	int round, ret = -1, freezer;

	/* Empty stays empty (nothing in it can fork): a reaped child's cgroup
	 * needs no kill, nor a freeze (two writes, ~4 ms a child on v1). */
	if (procs_empty(procs)) {
		free(procs);
		return 0;
	}
	freezer = is_file(dir, "freezer.state");
	/* cgroup v2 (Linux >= 5.14) kills the whole cgroup in one write,
	 * forks in flight included. */
	if (is_file(dir, "cgroup.kill"))
		(void)write_file(dir, "cgroup.kill", "1");
	/* v1, or v2 as a check: SIGKILL whatever is listed until nothing is
	 * (a process forking meanwhile shows up in the next round). Dying
	 * processes are not listed. */
	for (round = 0; round < 10000; round++) {
		char *s, *line, *next;
		int any = 0;

		if (freezer)
			freeze(dir, "FROZEN");
		s = read_file_max(procs, 1 << 22, NULL);
		if (!s) {
			if (freezer)
				freeze(dir, "THAWED");
			break; /* gone, or not a cgroup */
		}
		for (line = s; *line; line = next) {
			long pid;

			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			else
				next = line + strlen(line);
			if (*line && !parse_long(line, 1, INT32_MAX, &pid)) {
				kill((pid_t)pid, SIGKILL);
				any = 1;
			}
		}
		free(s);
		/* Thawed, the frozen and killed die at once. */
		if (freezer)
			freeze(dir, "THAWED");
		if (!any) {
			ret = 0;
			break;
		}
		nanosleep(&ms, NULL);
	}
	free(procs);
	return ret;
}

int pab_cgroup_kill(struct pab_cgroup *cg)
{
	if (cg->freezer)
		pab_cgroup_kill_path(cg->freezer);
	return pab_cgroup_kill_path(cg->path);
}

int pab_cgroup_reset(struct pab_cgroup *cg)
{
	if (pab_cgroup_kill(cg))
		return -1;
	cg->attached = 0;
	if (!strcmp(cg->version, "v1")) {
		/* Give back what the last child left charged (page cache),
		 * then restart the high-water mark from what remains. */
		(void)write_file(cg->path, "memory.force_empty", "0");
		return write_file(cg->path, "memory.max_usage_in_bytes", "0");
	}
	/* v2: memory.peak is reset per open file from Linux 6.12; perfab
	 * reads it through a fresh open, so a reused v2 cgroup cannot
	 * start again from zero: the caller makes a new one. */
	errno = ENOTSUP;
	return -1;
}

/* Remove the cgroup directory dir, retrying while the kernel finishes
 * tearing down exited tasks. 0 or -1. */
static int remove_dir(const char *dir)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 2000; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		nanosleep(&ms, NULL);
	}
	return -1;
}

void pab_cgroup_free(struct pab_cgroup *cg)
{
	if (!cg)
		return;
	/* Whatever is still inside (a daemonised grandchild) dies with it:
	 * nothing a child started outlives its measurement. */
	pab_cgroup_kill(cg);
	remove_dir(cg->path);
	if (cg->freezer)
		remove_dir(cg->freezer);
	free(cg->freezer);
	free(cg->path);
	free(cg->parent);
	free(cg->why);
	free(cg);
}

/* Remove perfab-<pid>-<n> cgroups of dead perfab processes under parent. */
static size_t clean_stale_under(const char *parent)
{
	struct dirent *de;
	size_t removed = 0;
	DIR *d = opendir(parent);

	while (d && (de = readdir(d))) {
		long pid;
		unsigned n;
		char tail;
		char *dir;

		if (sscanf(de->d_name, "perfab-%ld-%u%c", &pid, &n, &tail) != 2 ||
		    pid == (long)getpid() || !pab_pid_gone(pid))
			continue;
		dir = xasprintf("%s/%s", parent, de->d_name);
		pab_cgroup_kill_path(dir);
		if (!remove_dir(dir))
			removed++;
		free(dir);
	}
	if (d)
		closedir(d);
	return removed;
}

size_t pab_cgroup_clean_stale(void)
{
	const char *version;
	char *parent = NULL, *why = NULL, *freezer;
	size_t removed;

	if (find_parent(&version, &parent, &why)) {
		free(why);
		return 0;
	}
	removed = clean_stale_under(parent);
	freezer = !strcmp(version, "v1") ? own_cgroup_dir("cgroup", "freezer", "freezer") : NULL;
	if (freezer)
		removed += clean_stale_under(freezer);
	free(freezer);
	free(parent);
	return removed;
}
