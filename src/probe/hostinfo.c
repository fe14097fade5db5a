/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hostinfo.c — the host fingerprint (hostinfo.h).
 *
 * Every probe is a read of one kernel file (or hwloc, uname, a
 * perf_event_open probe, the cgroup module's probe). A file that is absent
 * usually means the feature is absent here (no cpufreq driver in most VMs,
 * no intel_pstate on AMD), so the reasons say that rather than just
 * "No such file or directory". The checklist judged from the fingerprint
 * is checklist.c, a pure function of it, so that it can also judge a
 * fingerprint stored in an artifact.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <hwloc.h>

#include <cjson/cJSON.h>

#include "probe/cgroup.h"
#include "probe/counters.h"
#include "probe/hostinfo.h"
#include "probe/pin.h"
#include "probe/simcount.h"
#include "test_hooks.h"
#include "util.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif

#define SYS_CPU "/sys/devices/system/cpu"

/* ------------------------------------------------------------------ */
/* Reading                                                            */

/* First line of a small file, trimmed of its newline; NULL + errno. */
static char *first_line(const char *path)
{
	char *s = read_file_max(path, 1 << 16, NULL), *nl;

	if (!s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	return s;
}

static void add_null(cJSON *o, cJSON *why, const char *key, const char *reason)
{
	cJSON_AddNullToObject(o, key);
	cJSON_AddStringToObject(why, key, reason);
}

/*
 * Why path could not be read, in words: absent_means explains an absent
 * file (the feature is not there), else the system error. New string.
 */
static char *unreadable_reason(const char *path, int err, const char *absent_means)
{
	if (err == ENOENT && absent_means)
		return xasprintf("%s (no %s)", absent_means, path);
	return xasprintf("cannot read %s: %s", path, strerror(err));
}

/* key = first line of path (a string), or null plus a reason. */
static char *add_file(cJSON *o, cJSON *why, const char *key, const char *path,
		      const char *absent_means)
{
	char *s = first_line(path);

	if (s) {
		cJSON_AddStringToObject(o, key, s);
	} else {
		char *msg = unreadable_reason(path, errno, absent_means);

		add_null(o, why, key, msg);
		free(msg);
	}
	return s;
}

/* key = the integer in path, or null plus a reason. */
static void add_file_long(cJSON *o, cJSON *why, const char *key, const char *path,
			  const char *absent_means)
{
	char *s = first_line(path), *msg;
	long v;

	if (!s) {
		msg = unreadable_reason(path, errno, absent_means);
		add_null(o, why, key, msg);
		free(msg);
		return;
	}
	if (parse_long(s, -1000000, 1000000, &v)) {
		msg = xasprintf("%s holds '%s', not an integer", path, s);
		add_null(o, why, key, msg);
		free(msg);
	} else {
		cJSON_AddNumberToObject(o, key, (double)v);
	}
	free(s);
}

/* The [bracketed] choice of a sysfs selector such as "always [madvise]
 * never", as key; null plus a reason. */
static void add_selector(cJSON *o, cJSON *why, const char *key, const char *path,
			 const char *absent_means)
{
	char *s = first_line(path), *l, *r, *msg;

	if (!s) {
		msg = unreadable_reason(path, errno, absent_means);
		add_null(o, why, key, msg);
		free(msg);
		return;
	}
	l = strchr(s, '[');
	r = l ? strchr(l, ']') : NULL;
	if (r) {
		*r = '\0';
		cJSON_AddStringToObject(o, key, l + 1);
	} else {
		msg = xasprintf("%s holds '%s', with no [selected] value", path, s);
		add_null(o, why, key, msg);
		free(msg);
	}
	free(s);
}

/* The value of "key<spaces>: value" in /proc/cpuinfo (first CPU). */
static char *cpuinfo_field(const char *info, const char *key)
{
	const char *p = info, *v, *nl;
	size_t n = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, n) && (p[n] == ' ' || p[n] == '\t' || p[n] == ':')) {
			v = strchr(p, ':');
			nl = strchr(p, '\n');
			if (v && (!nl || v < nl)) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				return xstrndup(v, nl ? (size_t)(nl - v) : strlen(v));
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static void add_cpu(cJSON *o, cJSON *why, hwloc_topology_t topo)
{
	char *info = read_file_max("/proc/cpuinfo", 1 << 22, NULL);
	char *model = info ? cpuinfo_field(info, "model name") : NULL;
	char *flags = info ? cpuinfo_field(info, "flags") : NULL;
	hwloc_obj_t pkg;
	const char *hw;

	/* Non-x86 /proc/cpuinfo has no "model name": hwloc knows it from
	 * the device tree or MIDR. */
	if (!model && topo &&
	    (pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0)) &&
	    (hw = hwloc_obj_get_info_by_name(pkg, "CPUModel")))
		model = xstrdup(hw);
	/* Test hook: another machine type, for the pooling tests of shards
	 * measured on a mixed fleet (perfab(1) ENVIRONMENT). */
	if (pab_test_hook(PAB_TEST_CPU_MODEL) && *pab_test_hook(PAB_TEST_CPU_MODEL)) {
		free(model);
		model = xstrdup(pab_test_hook(PAB_TEST_CPU_MODEL));
	}
	if (model)
		cJSON_AddStringToObject(o, "cpu_model", model);
	else
		add_null(o, why, "cpu_model",
			 "no 'model name' in /proc/cpuinfo and no CPUModel from hwloc");
	if (flags) {
		char *padded = xasprintf(" %s ", flags);

		cJSON_AddBoolToObject(o, "hypervisor", strstr(padded, " hypervisor ") != NULL);
		free(padded);
	} else {
		add_null(o, why, "hypervisor",
			 "no 'flags' line in /proc/cpuinfo (not x86): cannot tell a VM");
	}
	free(model);
	free(flags);
	free(info);
}

static void add_topology(cJSON *o, cJSON *why, hwloc_topology_t topo)
{
	int pus, cores, pkgs, numa, i, smt = 0;
	hwloc_obj_t core;

	if (!topo) {
		static const char *const keys[] = {
			"pus", "cores", "packages", "numa_nodes", "smt_siblings",
		};

		for (i = 0; i < 5; i++)
			add_null(o, why, keys[i], "hwloc could not load the topology");
		return;
	}
	pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	pkgs = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	/* A core with more than one PU has SMT siblings that share its
	 * pipeline with whatever else runs there. */
	for (i = 0; i < cores; i++) {
		core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
		if (core && hwloc_get_nbobjs_inside_cpuset_by_type(topo, core->cpuset,
								   HWLOC_OBJ_PU) > 1)
			smt = 1;
	}
	cJSON_AddNumberToObject(o, "pus", pus);
	cJSON_AddNumberToObject(o, "cores", cores);
	cJSON_AddNumberToObject(o, "packages", pkgs);
	cJSON_AddNumberToObject(o, "numa_nodes", numa);
	if (cores > 0)
		cJSON_AddBoolToObject(o, "smt_siblings", smt);
	else
		add_null(o, why, "smt_siblings", "hwloc found no cores to inspect");
}

/*
 * The scaling governor of every CPU that has one: "governor" is the common
 * value, or "mixed" with "governors" listing each CPU's.
 */
static void add_governor(cJSON *o, cJSON *why)
{
	cJSON *all = cJSON_CreateArray();
	char *first = NULL, *path, *g, *msg;
	int cpu, mixed = 0, err = 0;

	for (cpu = 0; cpu < 8192; cpu++) {
		path = xasprintf(SYS_CPU "/cpu%d", cpu);
		if (access(path, F_OK)) {
			free(path);
			break;
		}
		free(path);
		path = xasprintf(SYS_CPU "/cpu%d/cpufreq/scaling_governor", cpu);
		g = first_line(path);
		if (!g) {
			if (cpu == 0)
				err = errno;
			free(path);
			continue;
		}
		free(path);
		cJSON_AddItemToArray(all, cJSON_CreateString(g));
		if (!first)
			first = g;
		else {
			mixed |= strcmp(first, g) != 0;
			free(g);
		}
	}
	if (!first) {
		msg = unreadable_reason(SYS_CPU "/cpu0/cpufreq/scaling_governor",
					err ? err : ENOENT,
					"no cpufreq driver exposes a governor: frequency is "
					"managed by firmware or, in a VM, by the host");
		add_null(o, why, "governor", msg);
		free(msg);
		cJSON_Delete(all);
	} else if (mixed) {
		cJSON_AddStringToObject(o, "governor", "mixed");
		cJSON_AddItemToObject(o, "governors", all);
	} else {
		cJSON_AddStringToObject(o, "governor", first);
		cJSON_Delete(all);
	}
	free(first);
}

/* "turbo": "on" / "off" from intel_pstate's no_turbo or cpufreq's boost. */
static void add_turbo(cJSON *o, cJSON *why)
{
	char *no_turbo = add_file(o, why, "intel_no_turbo",
				  SYS_CPU "/intel_pstate/no_turbo",
				  "the intel_pstate driver is not in use");
	char *boost = add_file(o, why, "cpufreq_boost", SYS_CPU "/cpufreq/boost",
			       "the cpufreq driver has no global boost switch");

	if (no_turbo)
		cJSON_AddStringToObject(o, "turbo", strcmp(no_turbo, "1") ? "on" : "off");
	else if (boost)
		cJSON_AddStringToObject(o, "turbo", strcmp(boost, "0") ? "on" : "off");
	else
		add_null(o, why, "turbo",
			 "neither intel_pstate/no_turbo nor cpufreq/boost exists: "
			 "turbo is not controllable from this kernel (a VM, or "
			 "firmware-managed)");
	free(no_turbo);
	free(boost);
}

static void add_load(cJSON *o, cJSON *why)
{
	char *s = first_line("/proc/loadavg"), *p, *end;
	static const char *const keys[] = { "load_1min", "load_5min", "load_15min" };
	double v[3];
	long running;
	int i, ok = s != NULL;

	/* "0.52 0.58 0.59 2/345 12345": checked field by field. */
	for (p = s, i = 0; ok && i < 3; i++) {
		errno = 0;
		v[i] = strtod(p, &end);
		ok = !errno && end != p && *end == ' ' && isfinite(v[i]) && v[i] >= 0;
		p = end + 1;
	}
	if (ok) {
		errno = 0;
		running = strtol(p, &end, 10);
		ok = !errno && end != p && *end == '/';
	}
	if (!ok) {
		for (i = 0; i < 3; i++)
			add_null(o, why, keys[i], s ? "unexpected /proc/loadavg format"
						    : "cannot read /proc/loadavg");
		add_null(o, why, "procs_running", s ? "unexpected /proc/loadavg format"
						     : "cannot read /proc/loadavg");
		goto out;
	}
	for (i = 0; i < 3; i++)
		cJSON_AddNumberToObject(o, keys[i], v[i]);
	/* Includes perfab itself, which is running while it reads. */
	cJSON_AddNumberToObject(o, "procs_running", (double)running);
out:
	free(s);
}

/* key = bytes of a "Name:   N kB" line of /proc/meminfo; null + reason. */
static void add_meminfo(cJSON *o, cJSON *why, const char *info, const char *field,
			const char *key)
{
	char *v = info ? cpuinfo_field(info, field) : NULL, *kb;
	uint64_t n;

	if (!v) {
		add_null(o, why, key, info ? "field missing from /proc/meminfo"
					   : "cannot read /proc/meminfo");
		return;
	}
	kb = strstr(v, " kB");
	if (kb)
		*kb = '\0';
	if (!kb || parse_u64(v, 0, UINT64_MAX / 1024, &n))
		add_null(o, why, key, "unexpected /proc/meminfo format");
	else
		cJSON_AddNumberToObject(o, key, (double)n * 1024);
	free(v);
}

static void add_cgroup(cJSON *o, cJSON *why)
{
	struct statfs sf;
	const char *version;
	char *parent = NULL, *reason = NULL;

	if (statfs("/sys/fs/cgroup", &sf)) {
		char *msg = xasprintf("cannot statfs /sys/fs/cgroup: %s", strerror(errno));

		add_null(o, why, "cgroup_mode", msg);
		free(msg);
	} else if ((unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC) {
		cJSON_AddStringToObject(o, "cgroup_mode", "v2");
	} else if ((unsigned long)sf.f_type == TMPFS_MAGIC) {
		/* systemd's hybrid layout adds a v2 tree at unified/ that holds
		 * no controllers. */
		if (!statfs("/sys/fs/cgroup/unified", &sf) &&
		    (unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC)
			cJSON_AddStringToObject(o, "cgroup_mode", "hybrid");
		else
			cJSON_AddStringToObject(o, "cgroup_mode", "v1");
	} else if ((unsigned long)sf.f_type == CGROUP_SUPER_MAGIC) {
		cJSON_AddStringToObject(o, "cgroup_mode", "v1");
	} else {
		add_null(o, why, "cgroup_mode", "/sys/fs/cgroup is neither cgroupfs nor tmpfs");
	}
	if (pab_cgroup_probe(&version, &parent, &reason)) {
		add_null(o, why, "cgroup_memory", reason);
		free(reason);
	} else {
		cJSON_AddStringToObject(o, "cgroup_memory", version);
		cJSON_AddStringToObject(o, "cgroup_parent", parent);
		free(parent);
	}
}

cJSON *pab_host_fingerprint(void)
{
	cJSON *o = cJSON_CreateObject(), *why = cJSON_CreateObject();
	hwloc_topology_t topo = NULL;
	struct utsname u;
	const char *pmu_why;
	char *meminfo, *valgrind, *valgrind_why;
	int pmu;

	/* On failure topo is NULL, and add_cpu/add_topology say why. */
	(void)pab_topology_load(&topo);
	add_cpu(o, why, topo);
	add_topology(o, why, topo);
	if (topo)
		hwloc_topology_destroy(topo);
	if (!uname(&u)) {
		char *k = xasprintf("%s %s %s", u.sysname, u.release, u.machine);

		cJSON_AddStringToObject(o, "kernel", k);
		free(k);
	} else {
		add_null(o, why, "kernel", "uname failed");
	}
	cJSON_AddBoolToObject(o, "root", geteuid() == 0);
	free(add_file(o, why, "cpufreq_driver", SYS_CPU "/cpu0/cpufreq/scaling_driver",
		      "no cpufreq driver: frequency is managed by firmware or, in a VM, "
		      "by the host"));
	add_governor(o, why);
	add_turbo(o, why);
	free(add_file(o, why, "smt_control", SYS_CPU "/smt/control",
		      "this kernel has no SMT control (older than 4.19, or not x86)"));
	add_file_long(o, why, "smt_active", SYS_CPU "/smt/active",
		      "this kernel has no SMT control (older than 4.19, or not x86)");
	add_selector(o, why, "thp", "/sys/kernel/mm/transparent_hugepage/enabled",
		     "this kernel has no transparent huge pages");
	add_selector(o, why, "thp_defrag", "/sys/kernel/mm/transparent_hugepage/defrag",
		     "this kernel has no transparent huge pages");
	add_file_long(o, why, "aslr", "/proc/sys/kernel/randomize_va_space", NULL);
	free(add_file(o, why, "isolated_cpus", SYS_CPU "/isolated",
		      "this kernel does not report isolated CPUs"));
	free(add_file(o, why, "nohz_full", SYS_CPU "/nohz_full",
		      "this kernel is built without CONFIG_NO_HZ_FULL"));
	add_load(o, why);
	meminfo = read_file_max("/proc/meminfo", 1 << 16, NULL);
	add_meminfo(o, why, meminfo, "MemTotal", "mem_total_bytes");
	add_meminfo(o, why, meminfo, "MemAvailable", "mem_available_bytes");
	free(meminfo);
	add_file_long(o, why, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid",
		      "this kernel has no perf events");
	add_file_long(o, why, "nmi_watchdog", "/proc/sys/kernel/nmi_watchdog",
		      "this kernel has no NMI watchdog");
	pmu = pab_counters_pmu_probe(&pmu_why);
	if (pmu < 0) {
		add_null(o, why, "pmu", pmu_why);
	} else {
		cJSON_AddBoolToObject(o, "pmu", pmu);
		if (!pmu)
			cJSON_AddStringToObject(o, "pmu_why", pmu_why);
	}
	cJSON_AddStringToObject(o, "counters_build", pab_counters_feature());
	/* What counts instructions without a PMU (--counts auto, sim). */
	valgrind = pab_simcount_tool(&valgrind_why);
	if (valgrind)
		cJSON_AddStringToObject(o, "valgrind", valgrind);
	else
		add_null(o, why, "valgrind", valgrind_why);
	free(valgrind);
	free(valgrind_why);
	add_cgroup(o, why);
	cJSON_AddItemToObject(o, "unreadable", why);
	return o;
}

char *pab_host_record(char **cpu_model)
{
	cJSON *host = pab_host_fingerprint();
	const char *cpu;
	char *text;

	cJSON_AddItemToObject(host, "checklist", pab_host_warnings(host));
	cpu = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(host, "cpu_model"));
	*cpu_model = cpu ? xstrdup(cpu) : NULL;
	text = cJSON_PrintUnformatted(host);
	cJSON_Delete(host);
	if (!text)
		BUG("out of memory");
	return text;
}
