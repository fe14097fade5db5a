/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_counters.c — the counters module (src/probe/counters.h) on real children.
 *
 * Every test forks a child held on a pipe (as spawn.c holds it), opens the
 * counters on it, releases it into exec, reaps it with wait4 and reads.
 * Whether this machine has a hardware PMU is decided here by a direct
 * perf_event_open probe that does not go through the module, so a module
 * that wrongly claims "no PMU" (or reports 0 for an unopened counter) on a
 * machine that has one fails, and so does the reverse.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/counters.h"
#include "unit.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* 1 when a user-only hardware instructions counter opens on this thread. */
static int machine_has_pmu(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	close((int)fd);
	return 1;
}

static int built_with_libpfm(void)
{
	return pab_counters_feature()[0] != '-';
}

struct held {
	pid_t pid;
	int gate;    /* write end: one byte releases the child */
};

/*
 * Fork a child that waits for one byte on a pipe, then execs argv (or,
 * with argv NULL, exits without exec).
 */
static struct held hold_child(char *const argv[])
{
	struct held h;
	int fds[2];
	char go;

	ck_assert_int_eq(pipe(fds), 0);
	h.pid = fork();
	ck_assert_int_ge(h.pid, 0);
	if (h.pid == 0) {
		close(fds[1]);
		if (read(fds[0], &go, 1) != 1)
			_exit(126);
		if (!argv)
			_exit(0);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[0]);
	h.gate = fds[1];
	return h;
}

/* Release the child and reap it; its rusage (tree) goes to *ru. */
static void release_and_reap(struct held *h, struct rusage *ru)
{
	int status;

	ck_assert_int_eq(write(h->gate, "g", 1), 1);
	close(h->gate);
	ck_assert_int_eq(wait4(h->pid, &status, 0, ru), h->pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}

static size_t find(const struct pab_counters *c, const char *name)
{
	size_t i;

	for (i = 0; i < pab_counters_count(c); i++)
		if (!strcmp(pab_counters_name(c, i), name))
			return i;
	ck_abort_msg("no counter named '%s'", name);
	return 0;
}

static double must_read(struct pab_counters *c, const char *name)
{
	const char *why = NULL;
	double v = -1;

	if (pab_counters_read(c, find(c, name), &v, &why))
		ck_abort_msg("counter '%s' unreadable: %s", name, why);
	return v;
}

static double ru_cpu_ns(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e9 +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1e3;
}

/*
 * The hardware counters either count (PMU) or say why not (no PMU). Without
 * a PMU (or libpfm4) only the reason is checked, never a count: the case
 * TCASE reports SKIP for that half (unit_skip), not PASS; a NULL TCASE
 * (a second counter of a case that already said so) reports nothing.
 */
static void check_hardware(const char *tcase, struct pab_counters *c, const char *name)
{
	const char *why = NULL;
	double v = -12345;
	int rc = pab_counters_read(c, find(c, name), &v, &why);

	if (!built_with_libpfm()) {
		ck_assert_int_eq(rc, -1);
		ck_assert_ptr_nonnull(strstr(why, "not built in"));
		if (tcase)
			unit_skip(tcase, "libpfm4 not built in: the hardware counters say why, "
				  "their counts are not checked");
	} else if (machine_has_pmu()) {
		ck_assert_msg(rc == 0, "'%s' unreadable on a machine with a PMU: %s",
			      name, why);
		ck_assert(v > 0);
	} else {
		ck_assert_msg(rc == -1, "'%s' read %g on a machine without a PMU", name, v);
		ck_assert_double_eq(v, -12345); /* untouched, not zeroed */
		ck_assert_msg(why && strstr(why, "PMU"), "reason '%s' does not name the PMU",
			      why ? why : "(null)");
		if (tcase)
			unit_skip(tcase, "no hardware PMU here: the hardware counters say why, "
				  "their counts are not checked");
	}
}

START_TEST(defaults_on_true)
{
	char *argv[] = { "/bin/true", NULL };
	struct held h = hold_child(argv);
	struct pab_counters *c = pab_counters_open(h.pid, NULL, 0);
	static const char *const want[] = {
		"instructions", "cycles", "task_clock", "page_faults", "context_switches",
	};
	struct rusage ru;
	size_t i;

	ck_assert_uint_eq(pab_counters_count(c), NELEMS(want));
	for (i = 0; i < NELEMS(want); i++)
		ck_assert_str_eq(pab_counters_name(c, i), want[i]);
	release_and_reap(&h, &ru);
	check_hardware("defaults_on_true", c, "instructions");
	check_hardware(NULL, c, "cycles");
	ck_assert(must_read(c, "task_clock") > 0);
	/* exec alone maps and touches pages: a true program faults. */
	ck_assert(must_read(c, "page_faults") > 0);
	ck_assert(must_read(c, "context_switches") >= 0);
	pab_counters_close(c);
}
END_TEST

/*
 * CPU burnt by a grandchild is counted (inherit=1), and task_clock agrees
 * with the kernel's own accounting of the reaped tree (wait4 rusage).
 */
START_TEST(burn_in_grandchild_is_counted)
{
	char *argv[] = { "/bin/sh", "-c",
			 "/bin/sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'",
			 NULL };
	struct held h = hold_child(argv);
	struct pab_counters *c = pab_counters_open(h.pid, NULL, 0);
	struct rusage ru;
	double task_ns, cpu_ns, faults;

	release_and_reap(&h, &ru);
	task_ns = must_read(c, "task_clock");
	cpu_ns = ru_cpu_ns(&ru);
	faults = must_read(c, "page_faults");
	ck_assert_msg(cpu_ns > 50e6, "the loop burnt only %.0f ns: too fast to test", cpu_ns);
	/* rusage ticks are coarse; the two must still agree to within 25%. */
	ck_assert_msg(task_ns > 0.75 * cpu_ns && task_ns < 1.25 * cpu_ns + 20e6,
		      "task_clock %.0f ns vs rusage %.0f ns", task_ns, cpu_ns);
	/* Two shells' worth of faults, counted from both processes. */
	ck_assert_msg(faults >= 0.5 * (double)(ru.ru_minflt + ru.ru_majflt),
		      "page_faults %.0f vs rusage %ld", faults,
		      ru.ru_minflt + ru.ru_majflt);
	check_hardware("burn_in_grandchild_is_counted", c, "instructions");
	pab_counters_close(c);
}
END_TEST

/*
 * The software events' kernel hooks stay on between children: one disabled
 * event of each kind with a static key (page-faults, context-switches,
 * minor-faults, major-faults, cpu-migrations) is held on perfab itself,
 * once, close-on-exec, and outlives every set. Per child, the kernel would
 * otherwise rewrite its text and interrupt every CPU at each open and
 * close (counters.c).
 */
static int held_perf_fds(int *cloexec)
{
	char path[64], target[64];
	int fd, n = 0;

	*cloexec = 1;
	for (fd = 0; fd < 1024; fd++) {
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (strcmp(target, "anon_inode:[perf_event]"))
			continue;
		n++;
		if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
			*cloexec = 0;
	}
	return n;
}

START_TEST(software_event_keys_held)
{
	char *argv[] = { "/bin/true", NULL };
	int round, cloexec;

	for (round = 0; round < 2; round++) {
		struct held h = hold_child(argv);
		struct pab_counters *c = pab_counters_open(h.pid, NULL, 0);
		struct rusage ru;

		release_and_reap(&h, &ru);
		ck_assert(must_read(c, "page_faults") > 0);
		pab_counters_close(c);
		ck_assert_int_eq(held_perf_fds(&cloexec), 5);
		ck_assert_msg(cloexec, "a held event is inherited across exec");
	}
}
END_TEST

/* A child that never execs never enables its counters: -1, never 0. */
START_TEST(no_exec_reads_unavailable)
{
	struct held h = hold_child(NULL);
	struct pab_counters *c = pab_counters_open(h.pid, NULL, 0);
	struct rusage ru;
	const char *why = NULL;
	double v = -7;
	size_t i = find(c, "task_clock");

	release_and_reap(&h, &ru);
	ck_assert_int_eq(pab_counters_read(c, i, &v, &why), -1);
	ck_assert_double_eq(v, -7);
	ck_assert_ptr_nonnull(strstr(why, "never enabled"));
	pab_counters_close(c);
}
END_TEST

START_TEST(bogus_event)
{
	static const char *const bogus[] = { "no_such_event_xyz:u" };
	static const char *const good[] = { "instructions:u", "cycles:u", "task-clock" };
	char *argv[] = { "/bin/true", NULL };
	char *why = NULL;
	const char *rwhy = NULL;
	struct held h;
	struct pab_counters *c;
	struct rusage ru;
	double v = -3;

	ck_assert_int_eq(pab_counters_check_events(bogus, 1, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "'no_such_event_xyz:u'"), "reason: %s", why);
	ck_assert_msg(strstr(why, built_with_libpfm() ? "unknown event" : "not built in"),
		      "reason: %s", why);
	free(why);
	why = NULL;
	if (built_with_libpfm()) {
		ck_assert_msg(pab_counters_check_events(good, NELEMS(good), &why) == 0,
			      "valid events refused: %s", why);
		ck_assert_ptr_null(why);
	}

	h = hold_child(argv);
	c = pab_counters_open(h.pid, bogus, 1);
	/* The bogus one, then the three software events. */
	ck_assert_uint_eq(pab_counters_count(c), 4);
	ck_assert_str_eq(pab_counters_name(c, 0), "no_such_event_xyz");
	release_and_reap(&h, &ru);
	ck_assert_int_eq(pab_counters_read(c, 0, &v, &rwhy), -1);
	ck_assert_double_eq(v, -3);
	ck_assert_msg(strstr(rwhy, built_with_libpfm() ? "unknown event" : "not built in"),
		      "reason: %s", rwhy);
	/* One bad event does not spoil the set. */
	ck_assert(must_read(c, "task_clock") > 0);
	pab_counters_close(c);
}
END_TEST

START_TEST(names_and_dedup)
{
	static const char *const ev[] = {
		"perf::instructions:u", "INST_RETIRED:ANY_P", "page-faults", "cpu-migrations",
	};
	struct pab_counters *c = pab_counters_open(getpid(), ev, NELEMS(ev));
	static const char *const want[] = {
		"instructions", "inst_retired", "page_faults", "cpu_migrations",
		"task_clock", "context_switches", /* page-faults not added twice */
	};
	size_t i;

	ck_assert_uint_eq(pab_counters_count(c), NELEMS(want));
	for (i = 0; i < NELEMS(want); i++)
		ck_assert_str_eq(pab_counters_name(c, i), want[i]);
	pab_counters_close(c);
}
END_TEST

/* -1 when unreadable. */
static long paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * As an unprivileged user the reasons name perf_event_paranoid: at 2,
 * context switches (which count kernel mode) are refused with that reason
 * while task_clock still opens user-only; at 3 and above everything is;
 * at 1 and below all software counters open. Runs only as root, which can
 * become nobody.
 */
START_TEST(unprivileged_reasons)
{
	struct passwd *pw = getpwnam("nobody");
	long par = paranoid();
	pid_t pid;
	int status;

	if (geteuid() != 0 || !pw || par < 0) {
		unit_skip("unprivileged_reasons", "needs root, a 'nobody' user and a readable "
			  "perf_event_paranoid");
		return;
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Plain exit codes: Check's assertions belong to the test process. */
		char *argv[] = { "/bin/true", NULL };
		struct held h;
		struct pab_counters *c;
		const char *why = "";
		double v;
		int st, rc_cs, rc_tc;
		char want[64];

		if (setgid(pw->pw_gid) || setuid(pw->pw_uid))
			_exit(90);
		/* Changing uid made us undumpable, which would make the
		 * kernel's ptrace check refuse every counter on our child. */
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			_exit(95);
		h = hold_child(argv);
		c = pab_counters_open(h.pid, NULL, 0);
		if (write(h.gate, "g", 1) != 1 || waitpid(h.pid, &st, 0) != h.pid)
			_exit(91);
		rc_tc = pab_counters_read(c, 2, &v, &why);
		rc_cs = pab_counters_read(c, 4, &v, &why);
		snprintf(want, sizeof(want), "perf_event_paranoid=%ld forbids", par);
		if (par <= 1)
			_exit(rc_tc == 0 && rc_cs == 0 ? 0 : 92);
		if (rc_cs != -1 || !strstr(why, want)) {
			fprintf(stderr, "context_switches: rc %d, reason '%s'\n", rc_cs, why);
			_exit(93);
		}
		if (par == 2 && rc_tc != 0)
			_exit(94);
		pab_counters_close(c);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* The module's probe agrees with the independent one. */
START_TEST(pmu_probe_agrees)
{
	const char *why = NULL;
	int got = pab_counters_pmu_probe(&why);

	if (machine_has_pmu()) {
		ck_assert_int_eq(got, 1);
		ck_assert_ptr_null(why);
	} else {
		ck_assert_int_ne(got, 1);
		ck_assert_ptr_nonnull(why);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("core");

	fprintf(stderr, "test_counters: this machine has %s hardware PMU; libpfm4 %s\n",
		machine_has_pmu() ? "a" : "no",
		built_with_libpfm() ? "built in" : "not built in");
	tcase_add_test(tc, defaults_on_true);
	tcase_add_test(tc, burn_in_grandchild_is_counted);
	tcase_add_test(tc, no_exec_reads_unavailable);
	tcase_add_test(tc, software_event_keys_held);
	tcase_add_test(tc, bogus_event);
	tcase_add_test(tc, names_and_dedup);
	tcase_add_test(tc, unprivileged_reasons);
	tcase_add_test(tc, pmu_probe_agrees);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
