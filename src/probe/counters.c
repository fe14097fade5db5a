/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * counters.c — performance counters for one measured child (counters.h).
 *
 * The only file that knows whether libpfm4 is built in. Hardware events go
 * through libpfm4's encoder (which knows every PMU's event names and the
 * :u/:k modifiers); the software events perfab always records
 * (task-clock, page-faults, context-switches) are encoded here directly,
 * so they work in a build without libpfm4 and on machines without a PMU.
 *
 * Every counter is opened on its own (no group): inherit=1, which is what
 * makes a multi-process workload count as a whole, cannot be combined with
 * PERF_FORMAT_GROUP reads on the kernels perfab supports. Each counter is
 * therefore scaled for multiplexing on its own, from its own
 * time_enabled/time_running.
 */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>
#endif

#include "probe/counters.h"
#include "util.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

#define NO_PMU_WHY "no hardware PMU on this machine (the kernel has no PMU " \
	"driver for hardware events, as in most VMs without a virtual PMU; " \
	"see dmesg | grep -i 'Performance Events')"

struct pab_counter {
	char *event;        /* as the caller spelt it */
	char *name;         /* metric name (counters.h) */
	int fd;             /* -1 when it could not be opened */
	char *why;          /* reason it is unavailable (owned) */
};

struct pab_counters {
	struct pab_counter *v;
	size_t n, alloc;
};

/*
 * Software events perfab encodes itself. time_based: the count is time on
 * CPU, which excluding kernel mode does not filter, so a denied full
 * counter may be retried user-only without changing what it means. Fault
 * and switch counts would silently lose their kernel-side share, so they
 * are not retried.
 */
static const struct sw_event {
	const char *name;
	uint64_t config;
	int time_based;
	int always;         /* added to every set */
} sw_events[] = {
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK, 1, 1 },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS, 0, 1 },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 1 },
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK, 1, 0 },
	{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, 0 },
	{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, 0 },
	{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0 },
};
#define N_SW (sizeof(sw_events) / sizeof(sw_events[0]))

static const char *const default_events[] = { "instructions:u", "cycles:u" };

static long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				int cpu, int group_fd, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

const char *pab_counters_feature(void)
{
#ifdef HAVE_LIBPFM
	return "libpfm4";
#else
	return "-libpfm4";
#endif
}

static const struct sw_event *find_sw(const char *event)
{
	size_t i;

	for (i = 0; i < N_SW; i++)
		if (!strcmp(sw_events[i].name, event))
			return &sw_events[i];
	return NULL;
}

/*
 * The metric name of an event: "perf::instructions:u" -> "instructions",
 * "INST_RETIRED:ANY_P" -> "inst_retired", "task-clock" -> "task_clock".
 * New string.
 */
static char *event_metric_name(const char *event)
{
	const char *p = event, *q;
	char *name, *s;

	while ((q = strstr(p, "::")))
		p = q + 2;
	q = strchr(p, ':');
	name = xstrndup(p, q ? (size_t)(q - p) : strlen(p));
	for (s = name; *s; s++) {
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
		else if (*s == '-' || *s == '.')
			*s = '_';
	}
	return name;
}

/* -1 when unreadable. */
static long read_paranoid(void)
{
	char *s = read_file_max("/proc/sys/kernel/perf_event_paranoid", 64, NULL);
	long v = -1;
	char *nl;

	if (!s)
		return -1;
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	if (parse_long(s, -100, 100, &v))
		v = -1;
	free(s);
	return v;
}

/* Does the effective capability set hold CAP_PERFMON or CAP_SYS_ADMIN
 * (either lifts perf_event_paranoid)? Read from /proc so no libcap. */
static int privileged_for_perf(void)
{
	char *st = read_file_max("/proc/self/status", 1 << 16, NULL), *p, *nl;
	uint64_t caps = 0;
	int ok = 0;

	char *end;

	if (!st)
		return geteuid() == 0;
	p = strstr(st, "\nCapEff:");
	if (p) {
		p += strlen("\nCapEff:");
		while (*p == ' ' || *p == '\t')
			p++;
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		errno = 0;
		caps = strtoull(p, &end, 16);
		if (!errno && end != p && !*end)
			ok = (caps >> CAP_PERFMON_BIT & 1) ||
			     (caps >> CAP_SYS_ADMIN_BIT & 1);
	}
	free(st);
	return ok;
}

/* ------------------------------------------------------------------ */
/* The PMU probe                                                      */

static pthread_once_t pmu_once = PTHREAD_ONCE_INIT;
static int pmu_state;
static const char *pmu_why;

static void pmu_probe_once(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	/* User-only: the least privileged hardware counter there is, so a
	 * refusal is about the PMU, not about kernel profiling. */
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close((int)fd);
		pmu_state = 1;
		pmu_why = NULL;
		return;
	}
	switch (errno) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
		pmu_state = 0;
		pmu_why = NO_PMU_WHY;
		break;
	case ENOSYS:
		pmu_state = 0;
		pmu_why = "this kernel has no perf_event_open (built without CONFIG_PERF_EVENTS)";
		break;
	case EACCES:
	case EPERM:
		pmu_state = -1;
		pmu_why = "not permitted to open a hardware counter (perf_event_paranoid, "
			  "CAP_PERFMON or a seccomp/LSM policy), so whether a PMU exists is unknown";
		break;
	default:
		pmu_state = -1;
		pmu_why = "the perf_event_open probe failed for another reason, so whether a PMU exists is unknown";
		break;
	}
}

int pab_counters_pmu_probe(const char **why)
{
	pthread_once(&pmu_once, pmu_probe_once);
	if (why)
		*why = pmu_why;
	return pmu_state;
}

/* ------------------------------------------------------------------ */
/* libpfm4                                                            */

#ifdef HAVE_LIBPFM
static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_init_ret;
static int pfm_has_core_pmu;

static void pfm_init_once(void)
{
	pfm_pmu_info_t info;
	int i;

	pfm_init_ret = pfm_initialize();
	if (pfm_init_ret != PFM_SUCCESS)
		return;
	pfm_for_all_pmus(i) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(i, &info) == PFM_SUCCESS && info.is_present &&
		    info.type == PFM_PMU_TYPE_CORE)
			pfm_has_core_pmu = 1;
	}
}

/* Encode event into attr. 0, or -1 and *why (new memory). */
static int pfm_encode(const char *event, struct perf_event_attr *attr, char **why)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_init_ret != PFM_SUCCESS) {
		*why = xasprintf("libpfm4 could not initialise (%s), so event '%s' "
				 "cannot be encoded", pfm_strerror(pfm_init_ret), event);
		return -1;
	}
	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	/* PFM_PLM3: user level only unless the name says otherwise (":k"),
	 * which perf_event_paranoid=2 allows to unprivileged users. */
	ret = pfm_get_os_event_encoding(event, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		*why = xasprintf("unknown event '%s' for libpfm4: %s%s", event,
				 pfm_strerror(ret),
				 pfm_has_core_pmu ? "" :
				 " (libpfm4 found no hardware PMU here, so only the generic "
				 "perf events such as instructions and cycles are known)");
		return -1;
	}
	return 0;
}
#else
static int pfm_encode(const char *event, struct perf_event_attr *attr, char **why)
{
	(void)attr;
	*why = xasprintf("not built in: perfab was built without libpfm4, so "
			 "event '%s' cannot be encoded (install libpfm4-dev and "
			 "configure --with-libpfm=yes)", event);
	return -1;
}
#endif

/* ------------------------------------------------------------------ */
/* Opening                                                            */

static int is_hardware_type(uint32_t type)
{
	return type != PERF_TYPE_SOFTWARE && type != PERF_TYPE_TRACEPOINT;
}

/* Why perf_event_open(attr) failed with err, for event. New string. */
static char *open_failure(const char *event, const struct perf_event_attr *attr,
			  int err)
{
	const char *why;
	long paranoid;
	int priv;

	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
		if (is_hardware_type(attr->type) && pab_counters_pmu_probe(&why) == 0)
			return xstrdup(why);
		return xasprintf("this machine cannot count '%s' (perf_event_open: %s)",
				 event, strerror(err));
	case EACCES:
	case EPERM:
		paranoid = read_paranoid();
		priv = privileged_for_perf();
		/* The kernel's rules: above 2 (Debian's 3) nothing is allowed
		 * unprivileged; above 1, nothing that counts kernel mode. */
		if (!priv && (paranoid > 2 || (paranoid > 1 && !attr->exclude_kernel)))
			return xasprintf("perf_event_paranoid=%ld forbids it: run as root "
					 "or set kernel.perf_event_paranoid<=1", paranoid);
		if (!priv)
			return xasprintf("missing CAP_PERFMON (perf_event_open: %s): run as "
					 "root or grant perfab cap_perfmon", strerror(err));
		return xasprintf("perf_event_open refused '%s' although perfab holds "
				 "CAP_PERFMON (%s): a seccomp or LSM policy denies it",
				 event, strerror(err));
	case ENOSYS:
		return xstrdup("this kernel has no perf_event_open (built without "
			       "CONFIG_PERF_EVENTS)");
	case EMFILE:
	case ENFILE:
		return xasprintf("out of file descriptors opening '%s' (%s): raise "
				 "ulimit -n", event, strerror(err));
	case ESRCH:
		return xasprintf("the process to count is gone (%s)", strerror(err));
	case EINVAL:
		return xasprintf("the kernel rejected the encoding of '%s' "
				 "(perf_event_open: %s)", event, strerror(err));
	default:
		return xasprintf("perf_event_open: %s", strerror(err));
	}
}

/* Open one counter k for event on pid; on failure k->why is set. */
static void open_one(struct pab_counter *k, pid_t pid)
{
	const struct sw_event *sw = find_sw(k->event);
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	if (sw) {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = sw->config;
		attr.exclude_hv = 1;
	} else if (pfm_encode(k->event, &attr, &k->why)) {
		return;
	}
	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Counting, never sampling, whatever the encoder filled in. */
	attr.sample_period = 0;
	attr.sample_type = 0;
	attr.freq = 0;
	fd = sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && sw && sw->time_based && (errno == EACCES || errno == EPERM)) {
		attr.exclude_kernel = 1;
		fd = sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		k->why = open_failure(k->event, &attr, errno);
		return;
	}
	k->fd = (int)fd;
}

/*
 * The kernel turns a software event's hooks on (a static key) when the
 * first event of its kind opens and off when the last one closes, each
 * time rewriting kernel text and interrupting every CPU: per child, and
 * on the CPU a timed child may be using (perf record of a run of /bin/true
 * children: ~11% of perfab's CPU). One disabled event of each such kind,
 * held on perfab itself for the process's life, keeps the keys on; it
 * counts nothing. A kind that cannot be held is opened per child as
 * before. (task-clock and cpu-clock have a PMU of their own, no key.)
 */
static pthread_once_t hold_once = PTHREAD_ONCE_INIT;

static void hold_sw_keys(void)
{
	size_t i;

	for (i = 0; i < N_SW; i++) {
		struct perf_event_attr attr;

		if (sw_events[i].time_based)
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = sw_events[i].config;
		attr.disabled = 1;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		/* Held, never closed: the descriptor is the hold. */
		(void)sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
}

static int has_name(const struct pab_counters *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return 1;
	return 0;
}

static void add_event(struct pab_counters *c, const char *event, pid_t pid)
{
	struct pab_counter *k;

	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	k = &c->v[c->n++];
	memset(k, 0, sizeof(*k));
	k->fd = -1;
	k->event = xstrdup(event);
	k->name = event_metric_name(event);
	if (!*k->name) {
		k->why = xasprintf("event '%s' has no name", event);
		return;
	}
	open_one(k, pid);
}

struct pab_counters *pab_counters_open(pid_t pid, const char *const *events,
				       size_t n_events)
{
	struct pab_counters *c = xcalloc(1, sizeof(*c));
	size_t i;

	pthread_once(&hold_once, hold_sw_keys);
	if (!events) {
		events = default_events;
		n_events = sizeof(default_events) / sizeof(default_events[0]);
	}
	for (i = 0; i < n_events; i++)
		add_event(c, events[i], pid);
	for (i = 0; i < N_SW; i++) {
		char *name;

		if (!sw_events[i].always)
			continue;
		name = event_metric_name(sw_events[i].name);
		if (!has_name(c, name))
			add_event(c, sw_events[i].name, pid);
		free(name);
	}
	return c;
}

size_t pab_counters_count(const struct pab_counters *c)
{
	return c ? c->n : 0;
}

const char *pab_counters_name(const struct pab_counters *c, size_t i)
{
	if (!c || i >= c->n)
		BUG("counter %zu of %zu", i, c ? c->n : 0);
	return c->v[i].name;
}

int pab_counters_read(struct pab_counters *c, size_t i, double *value,
		      const char **why)
{
	struct pab_counter *k;
	uint64_t buf[3];
	ssize_t got;

	if (!c || i >= c->n)
		BUG("counter %zu of %zu", i, c ? c->n : 0);
	k = &c->v[i];
	if (k->fd < 0) {
		*why = k->why ? k->why : "not opened";
		return -1;
	}
	do
		got = read(k->fd, buf, sizeof(buf));
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(buf)) {
		free(k->why);
		k->why = got < 0 ? xasprintf("reading counter '%s': %s", k->event,
					      strerror(errno))
				 : xasprintf("reading counter '%s': short read", k->event);
		*why = k->why;
		return -1;
	}
	/* buf: value, time_enabled, time_running. */
	if (buf[1] == 0) {
		*why = "the counter was never enabled: the child did not reach exec";
		return -1;
	}
	if (buf[2] == 0) {
		*why = "the counter never got a PMU slot (multiplexed out for the whole run)";
		return -1;
	}
	*value = (double)buf[0];
	if (buf[2] < buf[1])
		*value = *value * ((double)buf[1] / (double)buf[2]);
	return 0;
}

void pab_counters_close(struct pab_counters *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		if (c->v[i].fd >= 0)
			close(c->v[i].fd);
		free(c->v[i].event);
		free(c->v[i].name);
		free(c->v[i].why);
	}
	free(c->v);
	free(c);
}

int pab_counters_check_events(const char *const *events, size_t n, char **why)
{
	struct perf_event_attr attr;
	size_t i;

	*why = NULL;
	for (i = 0; i < n; i++) {
		if (!events[i] || !*events[i]) {
			*why = xstrdup("empty event name in the counter list: give "
				       "libpfm4 names such as instructions:u,cycles:u");
			return -1;
		}
		if (find_sw(events[i]))
			continue;
		if (pfm_encode(events[i], &attr, why))
			return -1;
	}
	return 0;
}
