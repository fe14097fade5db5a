/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * checklist.c — the noise checklist (checklist.h): one rule per item, each
 * a pure function of the fingerprint's keys (doc/env.md lists them). An
 * item whose key is missing or null is UNKNOWN with the reason the
 * fingerprint recorded in "unreadable", never a guess.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "probe/checklist.h"
#include "util.h"

static const char *fp_str(const cJSON *fp, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(fp, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* 1 and *out when key is a number. */
static int fp_num(const cJSON *fp, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(fp, key);

	if (!cJSON_IsNumber(v))
		return 0;
	*out = v->valuedouble;
	return 1;
}

/* 1 / 0 for a boolean key, -1 when absent or null. */
static int fp_bool(const cJSON *fp, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(fp, key);

	return cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
}

/* The recorded reason key could not be read (or a stock phrase). */
static const char *fp_why(const cJSON *fp, const char *key)
{
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(fp, "unreadable");
	const char *s = fp_str(u, key);

	return s ? s : "not recorded in this fingerprint";
}

static void item(cJSON *a, const char *name, const char *status, const char *detail,
		 const char *fix)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "item", name);
	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddStringToObject(o, "detail", detail);
	if (fix)
		cJSON_AddStringToObject(o, "fix", fix);
	else
		cJSON_AddNullToObject(o, "fix");
	cJSON_AddItemToArray(a, o);
}

/* item() with a formatted detail. */
static void itemf(cJSON *a, const char *name, const char *status, const char *fix,
		  const char *fmt, ...) PAB_PRINTF(5, 6);
static void itemf(cJSON *a, const char *name, const char *status, const char *fix,
		  const char *fmt, ...)
{
	char *s;
	va_list ap;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	item(a, name, status, s, fix);
	free(s);
}

static void check_governor(cJSON *a, const cJSON *fp)
{
	const char *g = fp_str(fp, "governor");

	if (!g)
		item(a, "governor", "UNKNOWN", fp_why(fp, "governor"), NULL);
	else if (!strcmp(g, "performance"))
		item(a, "governor", "OK", "every CPU uses the performance governor", NULL);
	else
		itemf(a, "governor", "WARNING", "cpupower frequency-set -g performance",
		      "scaling governor is '%s': the clock follows the load, so the "
		      "first arm after an idle moment runs slower", g);
}

static void check_turbo(cJSON *a, const cJSON *fp)
{
	const char *t = fp_str(fp, "turbo");

	if (!t)
		item(a, "turbo", "UNKNOWN", fp_why(fp, "turbo"), NULL);
	else if (!strcmp(t, "off"))
		item(a, "turbo", "OK", "turbo boost is off", NULL);
	else if (fp_str(fp, "intel_no_turbo"))
		item(a, "turbo", "WARNING",
		     "turbo boost is on: the clock depends on temperature and on what "
		     "the other cores do",
		     "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	else
		item(a, "turbo", "WARNING",
		     "CPU boost is on: the clock depends on temperature and on what "
		     "the other cores do",
		     "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
}

static void check_smt(cJSON *a, const cJSON *fp)
{
	const char *ctl = fp_str(fp, "smt_control");
	double active = -1;
	int sib = fp_bool(fp, "smt_siblings");
	int have_active = fp_num(fp, "smt_active", &active);
	const char *fix = "echo off > /sys/devices/system/cpu/smt/control";

	if (ctl && (!strcmp(ctl, "on") && (!have_active || active != 0)))
		item(a, "smt", "WARNING",
		     "SMT is on: a sibling thread shares the measured core's pipeline "
		     "and caches (or pin with perfab run --cpus to one PU per core)", fix);
	else if (sib == 1)
		item(a, "smt", "WARNING",
		     "hwloc sees cores with several PUs (SMT siblings): they share "
		     "pipelines and caches (or pin with perfab run --cpus to one PU per "
		     "core)", ctl ? fix : "boot with nosmt");
	else if (ctl)
		itemf(a, "smt", "OK", NULL, "SMT control is '%s'%s", ctl,
		      fp_bool(fp, "hypervisor") == 1
		      ? "; in a VM the host may still run vCPUs on sibling threads" : "");
	else if (sib == 0)
		item(a, "smt", "OK", "hwloc sees one PU per core", NULL);
	else
		itemf(a, "smt", "UNKNOWN", NULL, "%s; %s", fp_why(fp, "smt_control"),
		      fp_why(fp, "smt_siblings"));
}

static void check_thp(cJSON *a, const cJSON *fp)
{
	const char *t = fp_str(fp, "thp");

	if (!t)
		item(a, "thp", "UNKNOWN", fp_why(fp, "thp"), NULL);
	else if (!strcmp(t, "always"))
		item(a, "thp", "WARNING",
		     "transparent huge pages are 'always': RSS and fault counts jump in "
		     "2 MiB steps depending on alignment and khugepaged timing",
		     "echo never > /sys/kernel/mm/transparent_hugepage/enabled");
	else
		itemf(a, "thp", "OK", NULL, "transparent huge pages are '%s'%s", t,
		      !strcmp(t, "madvise") ? " (only where the program asks)" : "");
}

static void check_aslr(cJSON *a, const cJSON *fp)
{
	double v;

	if (!fp_num(fp, "aslr", &v))
		item(a, "aslr", "UNKNOWN", fp_why(fp, "aslr"), NULL);
	else if (v == 0)
		item(a, "aslr", "WARNING",
		     "ASLR is off: each executable keeps one memory layout, so layout "
		     "luck becomes a constant bias between arms instead of noise the "
		     "null arm measures",
		     "echo 2 > /proc/sys/kernel/randomize_va_space");
	else
		itemf(a, "aslr", "OK", NULL,
		      "ASLR is %s: layout luck varies per run and shows up as noise",
		      v >= 2 ? "full" : "partial");
}

static void check_isolated(cJSON *a, const cJSON *fp)
{
	const char *iso = fp_str(fp, "isolated_cpus");
	double pus = 0;
	char *fix;

	if (!iso) {
		item(a, "isolated_cpus", "UNKNOWN", fp_why(fp, "isolated_cpus"), NULL);
	} else if (*iso) {
		itemf(a, "isolated_cpus", "OK", NULL,
		      "CPUs %s are isolated: pass them to perfab run --cpus", iso);
	} else if (fp_num(fp, "pus", &pus) && pus >= 2) {
		/* Isolate the last PU: CPU 0 takes most interrupts. */
		fix = xasprintf("boot with isolcpus=%.0f nohz_full=%.0f rcu_nocbs=%.0f, "
				"then perfab run --cpus %.0f", pus - 1, pus - 1, pus - 1,
				pus - 1);
		item(a, "isolated_cpus", "WARNING",
		     "no CPU is isolated: the scheduler puts other work on the "
		     "measured cores", fix);
		free(fix);
	} else {
		item(a, "isolated_cpus", "WARNING",
		     "no CPU is isolated, and with one PU none can be", "use a machine "
		     "with at least two CPUs");
	}
}

static void check_load(cJSON *a, const cJSON *fp)
{
	double load, pus = 1, running = 0;

	if (!fp_num(fp, "load_1min", &load)) {
		item(a, "load", "UNKNOWN", fp_why(fp, "load_1min"), NULL);
		return;
	}
	if (!fp_num(fp, "pus", &pus) || pus < 1)
		pus = 1;
	fp_num(fp, "procs_running", &running);
	/* A quarter of the machine busy already means the arms compete
	 * with it for caches, memory bandwidth and the scheduler. */
	if (load > 0.25 * pus)
		itemf(a, "load", "WARNING",
		      "wait until the machine is idle, or stop what runs (top -o %CPU)",
		      "load average %.2f on %.0f PUs (%.0f running now): other work "
		      "competes with the measured arms", load, pus, running);
	else
		itemf(a, "load", "OK", NULL, "load average %.2f on %.0f PUs", load, pus);
}

static void check_memory(cJSON *a, const cJSON *fp)
{
	double total, avail;

	if (!fp_num(fp, "mem_total_bytes", &total) ||
	    !fp_num(fp, "mem_available_bytes", &avail) || total <= 0)
		itemf(a, "memory", "UNKNOWN", NULL, "%s", fp_why(fp, "mem_available_bytes"));
	else if (avail < 0.2 * total)
		itemf(a, "memory", "WARNING", "stop memory-hungry jobs or drop caches "
		      "(sync; echo 3 > /proc/sys/vm/drop_caches)",
		      "only %.0f MiB of %.0f MiB available: reclaim and swapping "
		      "disturb both timing and RSS", avail / 1048576, total / 1048576);
	else
		itemf(a, "memory", "OK", NULL, "%.0f MiB of %.0f MiB available",
		      avail / 1048576, total / 1048576);
}

static void check_nmi(cJSON *a, const cJSON *fp)
{
	double v;

	if (!fp_num(fp, "nmi_watchdog", &v))
		item(a, "nmi_watchdog", "UNKNOWN", fp_why(fp, "nmi_watchdog"), NULL);
	else if (v != 0 && fp_bool(fp, "pmu") == 1)
		item(a, "nmi_watchdog", "WARNING",
		     "the NMI watchdog is on: it interrupts every CPU periodically and "
		     "holds a hardware counter", "sysctl -w kernel.nmi_watchdog=0");
	else
		itemf(a, "nmi_watchdog", "OK", NULL, "the NMI watchdog is %s",
		      v != 0 ? "on but has no PMU to use" : "off");
}

/*
 * Without a PMU, cycles are null and instructions are counted by valgrind
 * where it is installed (--counts auto, doc/perfab.1): the fingerprint's
 * "valgrind" says whether it is (a path, or null); a fingerprint taken
 * before that key existed leaves it open.
 */
static void check_pmu(cJSON *a, const cJSON *fp)
{
	int pmu = fp_bool(fp, "pmu");
	const char *build = fp_str(fp, "counters_build");
	const char *vg = fp_str(fp, "valgrind");
	const char *why = fp_str(fp, "pmu_why") ? fp_str(fp, "pmu_why") : "no hardware PMU";
	int vg_known = vg || cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(fp, "valgrind"));

	if (pmu == 1 && build && build[0] == '-')
		item(a, "pmu", "WARNING",
		     "a PMU is present but perfab was built without libpfm4: "
		     "instructions and cycles will be null",
		     "install libpfm4-dev and rebuild perfab (configure --with-libpfm=yes)");
	else if (pmu == 1)
		item(a, "pmu", "OK", "hardware counters are available", NULL);
	else if (pmu == 0 && vg)
		itemf(a, "pmu", "WARNING",
		      "for cycles: run on bare metal, or give the VM a virtual PMU (e.g. "
		      "QEMU/KVM -cpu host,pmu=on)",
		      "cycles will be null; instructions are counted by valgrind (%s, "
		      "--counts auto): %s", vg, why);
	else if (pmu == 0 && vg_known)
		itemf(a, "pmu", "WARNING",
		      "install valgrind for instruction counts (Debian: apt-get install "
		      "valgrind); for cycles: run on bare metal, or give the VM a virtual PMU "
		      "(e.g. QEMU/KVM -cpu host,pmu=on)",
		      "instructions and cycles will be null: %s, and valgrind, which counts "
		      "instructions without one, is not installed", why);
	else if (pmu == 0)
		itemf(a, "pmu", "WARNING",
		      "for cycles: run on bare metal, or give the VM a virtual PMU (e.g. "
		      "QEMU/KVM -cpu host,pmu=on); instructions need only valgrind",
		      "cycles will be null, and instructions are counted under valgrind "
		      "where it is installed (--counts auto), else null: %s", why);
	else
		item(a, "pmu", "UNKNOWN", fp_why(fp, "pmu"), NULL);
}

static void check_paranoid(cJSON *a, const cJSON *fp)
{
	double v;

	if (!fp_num(fp, "perf_event_paranoid", &v))
		item(a, "perf_event_paranoid", "UNKNOWN", fp_why(fp, "perf_event_paranoid"),
		     NULL);
	else if (fp_bool(fp, "root") == 1)
		itemf(a, "perf_event_paranoid", "OK", NULL,
		      "perf_event_paranoid is %.0f, which does not restrict root", v);
	else if (v > 1)
		itemf(a, "perf_event_paranoid", "WARNING",
		      "sysctl -w kernel.perf_event_paranoid=1",
		      "perf_event_paranoid is %.0f: as an unprivileged user, %s will be null",
		      v, v > 2 ? "every counter" : "context_switches and kernel-mode counts");
	else
		itemf(a, "perf_event_paranoid", "OK", NULL, "perf_event_paranoid is %.0f", v);
}

static void check_cgroup(cJSON *a, const cJSON *fp)
{
	const char *v = fp_str(fp, "cgroup_memory");

	if (v)
		itemf(a, "cgroup", "OK", NULL,
		      "each child gets a %s memory cgroup under %s (cgroup_peak)", v,
		      fp_str(fp, "cgroup_parent") ? fp_str(fp, "cgroup_parent") : "?");
	else
		itemf(a, "cgroup", "WARNING",
		      fp_bool(fp, "root") == 1 ? "see doc/env.md (cgroup)"
					       : "run perfab as root, or in a delegated cgroup",
		      "cgroup_peak will be null: %s", fp_why(fp, "cgroup_memory"));
}

static void check_virt(cJSON *a, const cJSON *fp)
{
	int hv = fp_bool(fp, "hypervisor");

	if (hv == 1)
		item(a, "virtualization", "WARNING",
		     "running in a VM: other guests steal time and share caches; the "
		     "null arm measures it, but expect wider intervals",
		     "for final numbers use bare metal or a VM with dedicated, pinned vCPUs");
	else if (hv == 0)
		item(a, "virtualization", "OK", "no hypervisor flag: bare metal", NULL);
	else
		item(a, "virtualization", "UNKNOWN", fp_why(fp, "hypervisor"), NULL);
}

cJSON *pab_host_warnings(const cJSON *fp)
{
	cJSON *a = cJSON_CreateArray();

	check_governor(a, fp);
	check_turbo(a, fp);
	check_smt(a, fp);
	check_thp(a, fp);
	check_aslr(a, fp);
	check_isolated(a, fp);
	check_load(a, fp);
	check_memory(a, fp);
	check_nmi(a, fp);
	check_pmu(a, fp);
	check_paranoid(a, fp);
	check_cgroup(a, fp);
	check_virt(a, fp);
	return a;
}
