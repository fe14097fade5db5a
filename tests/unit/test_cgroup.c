/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_cgroup.c — the per-child memory cgroup (src/probe/cgroup.h), both paths.
 *
 * Available path (when this machine gives perfab a memory cgroup, e.g. as
 * root on cgroup v1): a child that touches 64 MiB after attach shows a
 * peak of at least 64 MiB, a child that touches 1 MiB shows much less (so
 * a peak read from the wrong cgroup, e.g. perfab's own, fails), and the
 * directory is gone after free.
 *
 * Unavailable path, forced: PERFAB_CGROUP_ROOT at a missing directory and
 * at a directory that is not a cgroup; and, as root, for real: an
 * unprivileged user cannot create a cgroup below root's.
 */
#include "config.h"

#include <check.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/cgroup.h"
#include "unit.h"

#define MiB (1024.0 * 1024.0)

/* Fork a child that waits on a pipe, touches touch_bytes, and exits. */
static pid_t hold_child(size_t touch_bytes, int *gate)
{
	int fds[2];
	pid_t pid;
	char go;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *p;
		size_t i;

		close(fds[1]);
		if (read(fds[0], &go, 1) != 1)
			_exit(126);
		p = mmap(NULL, touch_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(125);
		for (i = 0; i < touch_bytes; i += 4096)
			p[i] = 1;
		_exit(0);
	}
	close(fds[0]);
	*gate = fds[1];
	return pid;
}

static void release_and_reap(pid_t pid, int gate)
{
	int status;

	ck_assert_int_eq(write(gate, "g", 1), 1);
	close(gate);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}

/* The peak of a child touching bytes, in its own cgroup; -1 when no
 * cgroup can be had here (then *skip_why is set). */
static double peak_of_child(size_t bytes, char **skip_why)
{
	char *why = NULL;
	struct pab_cgroup *cg = pab_cgroup_new(&why);
	const char *pwhy = NULL;
	char *path;
	double peak = -1;
	struct stat st;
	int gate;
	pid_t pid;

	if (!cg) {
		ck_assert_ptr_nonnull(why);
		*skip_why = why;
		return -1;
	}
	ck_assert_ptr_null(why);
	ck_assert(!strcmp(pab_cgroup_version(cg), "v1") ||
		  !strcmp(pab_cgroup_version(cg), "v2"));
	path = strdup(pab_cgroup_path(cg));
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));

	/* Nothing attached yet: never 0, always a reason. */
	ck_assert_int_eq(pab_cgroup_peak(cg, &peak, &pwhy), -1);
	ck_assert_ptr_nonnull(pwhy);
	ck_assert_double_eq(peak, -1);

	pid = hold_child(bytes, &gate);
	ck_assert_int_eq(pab_cgroup_attach(cg, pid), 0);
	release_and_reap(pid, gate);
	if (pab_cgroup_peak(cg, &peak, &pwhy))
		ck_abort_msg("peak unreadable: %s", pwhy);
	pab_cgroup_free(cg);
	ck_assert_msg(stat(path, &st) == -1, "'%s' still exists after free", path);
	free(path);
	return peak;
}

START_TEST(peak_64mib)
{
	char *skip = NULL;
	double big = peak_of_child(64u << 20, &skip), small;

	if (big < 0) {
		const char *version;
		char *parent = NULL, *pwhy = NULL;

		/* Only acceptable where the probe agrees nothing can be had;
		 * the unavailable path itself is tested below. */
		if (!pab_cgroup_probe(&version, &parent, &pwhy))
			ck_abort_msg("'%s' (%s) looks usable but new failed: %s",
				     parent, version, skip);
		unit_skip("peak_64mib", "no cgroup here (%s)", skip);
		free(pwhy);
		free(skip);
		return;
	}
	small = peak_of_child(1u << 20, &skip);
	fprintf(stderr, "peak_64mib: 64 MiB child peak %.1f MiB, 1 MiB child %.1f MiB\n",
		big / MiB, small / MiB);
	ck_assert_msg(big >= 64 * MiB, "peak %.1f MiB < 64 MiB", big / MiB);
	/* Bounded: the child's own pages plus some kernel overhead, not the
	 * whole machine's or perfab's cgroup's usage. */
	ck_assert_msg(big < 96 * MiB, "peak %.1f MiB: not the child's own cgroup", big / MiB);
	ck_assert_msg(small < 32 * MiB, "1 MiB child peak %.1f MiB", small / MiB);
	ck_assert(small > 0);
}
END_TEST

/* PERFAB_CGROUP_ROOT pointing at a real cgroup is where cgroups go. */
START_TEST(override_honoured)
{
	const char *version;
	char *parent = NULL, *why = NULL;
	struct pab_cgroup *cg;
	size_t n;

	if (pab_cgroup_probe(&version, &parent, &why)) {
		unit_skip("override_honoured", "no usable cgroup root (%s)", why);
		free(why);
		return;
	}
	setenv("PERFAB_CGROUP_ROOT", parent, 1);
	cg = pab_cgroup_new(&why);
	unsetenv("PERFAB_CGROUP_ROOT");
	ck_assert_msg(cg != NULL, "'%s': %s", parent, why);
	n = strlen(parent);
	ck_assert(!strncmp(pab_cgroup_path(cg), parent, n));
	ck_assert(!strncmp(pab_cgroup_path(cg) + n, "/perfab-", 8));
	ck_assert_str_eq(pab_cgroup_version(cg), version);
	pab_cgroup_free(cg);
	free(parent);
}
END_TEST

START_TEST(attach_bad_pid)
{
	char *why = NULL;
	struct pab_cgroup *cg = pab_cgroup_new(&why);

	if (!cg) {
		unit_skip("attach_bad_pid", "no cgroup here (%s)", why);
		free(why);
		return;
	}
	/* pid_max is at most 4M: this pid cannot exist. */
	ck_assert_int_eq(pab_cgroup_attach(cg, 999999999), -1);
	pab_cgroup_free(cg);
}
END_TEST

START_TEST(override_missing_dir)
{
	char *why = NULL;
	struct pab_cgroup *cg;

	setenv("PERFAB_CGROUP_ROOT", "/nonexistent/perfab-cgroup-test", 1);
	cg = pab_cgroup_new(&why);
	unsetenv("PERFAB_CGROUP_ROOT");
	ck_assert_ptr_null(cg);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "'/nonexistent/perfab-cgroup-test'") &&
		      strstr(why, "PERFAB_CGROUP_ROOT") &&
		      strstr(why, "No such file or directory"), "reason: %s", why);
	free(why);
}
END_TEST

/* A writable directory that is not a cgroup: refused before any mkdir. */
START_TEST(override_not_a_cgroup)
{
	char dir[] = "/tmp/perfab-cg-XXXXXX";
	char *why = NULL, *probe_parent = NULL, *probe_why = NULL;
	const char *version = NULL;
	struct pab_cgroup *cg;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("PERFAB_CGROUP_ROOT", dir, 1);
	cg = pab_cgroup_new(&why);
	ck_assert_int_eq(pab_cgroup_probe(&version, &probe_parent, &probe_why), -1);
	unsetenv("PERFAB_CGROUP_ROOT");
	ck_assert_ptr_null(cg);
	ck_assert_msg(why && strstr(why, "not a memory cgroup"), "reason: %s", why);
	ck_assert_ptr_null(probe_parent);
	ck_assert_ptr_nonnull(probe_why);
	/* Nothing was created inside it. */
	ck_assert_int_eq(rmdir(dir), 0);
	free(why);
	free(probe_why);
}
END_TEST

/*
 * A cgroup v2 directory without the memory controller (systemd's hybrid
 * layout mounts one at /sys/fs/cgroup/unified; the v1 hierarchy holds the
 * controller) is refused with that reason, before anything is written.
 */
START_TEST(override_v2_without_memory)
{
	const char *dir = "/sys/fs/cgroup/unified";
	char *ctl = NULL, *why = NULL;
	size_t len = 0;
	FILE *f = fopen("/sys/fs/cgroup/unified/cgroup.controllers", "r");
	struct pab_cgroup *cg;

	if (!f || getline(&ctl, &len, f) < 0 || strstr(ctl, "memory")) {
		unit_skip("override_v2_without_memory", "no hybrid v2 tree without memory here");
		if (f)
			fclose(f);
		free(ctl);
		return;
	}
	fclose(f);
	free(ctl);
	setenv("PERFAB_CGROUP_ROOT", dir, 1);
	cg = pab_cgroup_new(&why);
	unsetenv("PERFAB_CGROUP_ROOT");
	ck_assert_ptr_null(cg);
	ck_assert_msg(why && strstr(why, "without the memory controller"), "reason: %s", why);
	free(why);
}
END_TEST

/* As an unprivileged user nothing can be created below root's cgroup. */
START_TEST(unprivileged_refused)
{
	struct passwd *pw = getpwnam("nobody");
	const char *version;
	char *parent = NULL, *why = NULL;
	pid_t pid;
	int status;

	if (geteuid() != 0 || !pw || pab_cgroup_probe(&version, &parent, &why)) {
		unit_skip("unprivileged_refused", "needs root, 'nobody' and a cgroup root can use");
		free(why);
		return;
	}
	free(parent);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Plain exit codes: Check's assertions belong to the test process. */
		struct pab_cgroup *cg;

		if (setgid(pw->pw_gid) || setuid(pw->pw_uid))
			_exit(90);
		cg = pab_cgroup_new(&why);
		if (cg)
			_exit(91);
		if (!why || !strstr(why, "cannot") || !strstr(why, "root")) {
			fprintf(stderr, "reason: %s\n", why ? why : "(null)");
			_exit(92);
		}
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, peak_64mib);
	tcase_add_test(tc, override_honoured);
	tcase_add_test(tc, attach_bad_pid);
	tcase_add_test(tc, override_missing_dir);
	tcase_add_test(tc, override_not_a_cgroup);
	tcase_add_test(tc, override_v2_without_memory);
	tcase_add_test(tc, unprivileged_refused);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
