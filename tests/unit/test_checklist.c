/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_checklist.c — the noise checklist (src/probe/checklist.h) on
 * made-up machines: a fingerprint where every item is OK, and one table
 * of changes to it, each naming the item it moves, the status it must get
 * and words its detail and fix must hold (boundaries included: a load of
 * exactly a quarter of the PUs, exactly a fifth of the memory free). Also:
 * an empty fingerprint gives every item, UNKNOWN with the recorded
 * reason, and the checklist of a real artifact's fingerprint recomputes
 * to the one stored beside it.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "probe/checklist.h"
#include "util.h"

#include "unit.h"

static const char *const items[] = {
	"governor", "turbo", "smt", "thp", "aslr", "isolated_cpus", "load", "memory",
	"nmi_watchdog", "pmu", "perf_event_paranoid", "cgroup", "virtualization",
};

/* A quiet, well-set-up bare-metal machine: every item OK. */
static const char ideal[] =
	"{\"governor\": \"performance\", \"turbo\": \"off\", \"intel_no_turbo\": null,"
	" \"smt_control\": \"off\", \"smt_active\": 0, \"smt_siblings\": false,"
	" \"hypervisor\": false, \"thp\": \"never\", \"aslr\": 2, \"isolated_cpus\": \"3\","
	" \"pus\": 4, \"load_1min\": 0.1, \"procs_running\": 1,"
	" \"mem_total_bytes\": 8589934592, \"mem_available_bytes\": 6442450944,"
	" \"nmi_watchdog\": 0, \"pmu\": true, \"counters_build\": \"libpfm4\","
	" \"perf_event_paranoid\": 1, \"root\": false, \"cgroup_memory\": \"v2\","
	" \"cgroup_parent\": \"/sys/fs/cgroup/perfab\", \"unreadable\": {}}";

struct check_case {
	const char *change;  /* JSON object: members replace ideal's (null included) */
	const char *item;
	const char *status;
	const char *detail;  /* substring of the detail */
	const char *fix;     /* substring of the fix; NULL: the fix is null */
};

static const struct check_case cases[] = {
	{ "{}", "governor", "OK", "performance governor", NULL },
	{ "{\"governor\": \"powersave\"}", "governor", "WARNING",
	  "scaling governor is 'powersave'", "cpupower frequency-set -g performance" },
	{ "{\"governor\": null, \"unreadable\": {\"governor\": \"no cpufreq driver\"}}",
	  "governor", "UNKNOWN", "no cpufreq driver", NULL },
	{ "{\"governor\": null}", "governor", "UNKNOWN", "not recorded in this fingerprint", NULL },

	{ "{}", "turbo", "OK", "turbo boost is off", NULL },
	{ "{\"turbo\": \"on\", \"intel_no_turbo\": \"0\"}", "turbo", "WARNING",
	  "turbo boost is on", "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo" },
	{ "{\"turbo\": \"on\"}", "turbo", "WARNING", "CPU boost is on",
	  "echo 0 > /sys/devices/system/cpu/cpufreq/boost" },
	{ "{\"turbo\": null}", "turbo", "UNKNOWN", "not recorded", NULL },

	{ "{}", "smt", "OK", "SMT control is 'off'", NULL },
	{ "{\"smt_control\": \"on\", \"smt_active\": 1}", "smt", "WARNING", "SMT is on",
	  "echo off > /sys/devices/system/cpu/smt/control" },
	{ "{\"smt_control\": \"on\", \"smt_active\": null}", "smt", "WARNING", "SMT is on",
	  "smt/control" },
	{ "{\"smt_control\": \"on\", \"smt_active\": 0}", "smt", "OK", "SMT control is 'on'", NULL },
	{ "{\"smt_control\": null, \"smt_siblings\": true}", "smt", "WARNING",
	  "several PUs (SMT siblings)", "boot with nosmt" },
	{ "{\"smt_control\": \"notsupported\", \"hypervisor\": true}", "smt", "OK",
	  "in a VM the host may still run vCPUs on sibling threads", NULL },
	{ "{\"smt_control\": null, \"smt_siblings\": false}", "smt", "OK", "one PU per core", NULL },
	{ "{\"smt_control\": null, \"smt_siblings\": null, \"unreadable\":"
	  " {\"smt_control\": \"no smt dir\", \"smt_siblings\": \"no hwloc\"}}",
	  "smt", "UNKNOWN", "no smt dir; no hwloc", NULL },

	{ "{}", "thp", "OK", "transparent huge pages are 'never'", NULL },
	{ "{\"thp\": \"always\"}", "thp", "WARNING", "2 MiB steps",
	  "echo never > /sys/kernel/mm/transparent_hugepage/enabled" },
	{ "{\"thp\": \"madvise\"}", "thp", "OK", "(only where the program asks)", NULL },

	{ "{}", "aslr", "OK", "ASLR is full", NULL },
	{ "{\"aslr\": 1}", "aslr", "OK", "ASLR is partial", NULL },
	{ "{\"aslr\": 0}", "aslr", "WARNING", "ASLR is off",
	  "echo 2 > /proc/sys/kernel/randomize_va_space" },
	{ "{\"aslr\": \"2\"}", "aslr", "UNKNOWN", "not recorded", NULL },

	{ "{}", "isolated_cpus", "OK", "CPUs 3 are isolated: pass them to perfab run --cpus", NULL },
	{ "{\"isolated_cpus\": \"\"}", "isolated_cpus", "WARNING", "no CPU is isolated",
	  "boot with isolcpus=3 nohz_full=3 rcu_nocbs=3, then perfab run --cpus 3" },
	{ "{\"isolated_cpus\": \"\", \"pus\": 1}", "isolated_cpus", "WARNING",
	  "with one PU none can be", "at least two CPUs" },

	{ "{}", "load", "OK", "load average 0.10 on 4 PUs", NULL },
	{ "{\"load_1min\": 1.0}", "load", "OK", "load average 1.00 on 4 PUs", NULL },
	{ "{\"load_1min\": 1.01, \"procs_running\": 3}", "load", "WARNING",
	  "load average 1.01 on 4 PUs (3 running now)", "top -o %CPU" },
	{ "{\"load_1min\": 0.5, \"pus\": null}", "load", "WARNING", "on 1 PUs", "idle" },
	{ "{\"load_1min\": null, \"unreadable\": {\"load_1min\": \"no /proc/loadavg\"}}",
	  "load", "UNKNOWN", "no /proc/loadavg", NULL },

	{ "{}", "memory", "OK", "6144 MiB of 8192 MiB available", NULL },
	{ "{\"mem_available_bytes\": 1717986918.4}", "memory", "OK", "1638 MiB of 8192 MiB", NULL },
	{ "{\"mem_available_bytes\": 1073741824}", "memory", "WARNING",
	  "only 1024 MiB of 8192 MiB available", "drop_caches" },
	{ "{\"mem_total_bytes\": 0}", "memory", "UNKNOWN", "not recorded", NULL },

	{ "{}", "nmi_watchdog", "OK", "the NMI watchdog is off", NULL },
	{ "{\"nmi_watchdog\": 1}", "nmi_watchdog", "WARNING", "the NMI watchdog is on",
	  "sysctl -w kernel.nmi_watchdog=0" },
	{ "{\"nmi_watchdog\": 1, \"pmu\": false}", "nmi_watchdog", "OK",
	  "on but has no PMU to use", NULL },

	{ "{}", "pmu", "OK", "hardware counters are available", NULL },
	{ "{\"counters_build\": \"-libpfm4\"}", "pmu", "WARNING", "built without libpfm4",
	  "configure --with-libpfm=yes" },
	{ "{\"pmu\": false, \"pmu_why\": \"no PMU driver\"}", "pmu", "WARNING",
	  "counted under valgrind where it is installed (--counts auto), else null: no PMU driver",
	  "instructions need only valgrind" },
	{ "{\"pmu\": false}", "pmu", "WARNING", "null: no hardware PMU", "bare metal" },
	/* what is true here: valgrind counts, or neither does */
	{ "{\"pmu\": false, \"pmu_why\": \"no PMU driver\", \"valgrind\": \"/usr/bin/valgrind\"}",
	  "pmu", "WARNING",
	  "cycles will be null; instructions are counted by valgrind (/usr/bin/valgrind, "
	  "--counts auto): no PMU driver", "for cycles: run on bare metal" },
	{ "{\"pmu\": false, \"valgrind\": null, \"unreadable\": {\"valgrind\": \"not on PATH\"}}",
	  "pmu", "WARNING",
	  "instructions and cycles will be null: no hardware PMU, and valgrind, which counts "
	  "instructions without one, is not installed", "apt-get install valgrind" },
	{ "{\"valgrind\": null}", "pmu", "OK", "hardware counters are available", NULL },
	{ "{\"pmu\": null}", "pmu", "UNKNOWN", "not recorded", NULL },

	{ "{}", "perf_event_paranoid", "OK", "perf_event_paranoid is 1", NULL },
	{ "{\"perf_event_paranoid\": 2}", "perf_event_paranoid", "WARNING",
	  "context_switches and kernel-mode counts will be null",
	  "sysctl -w kernel.perf_event_paranoid=1" },
	{ "{\"perf_event_paranoid\": 3}", "perf_event_paranoid", "WARNING",
	  "every counter will be null", "perf_event_paranoid=1" },
	{ "{\"perf_event_paranoid\": 3, \"root\": true}", "perf_event_paranoid", "OK",
	  "which does not restrict root", NULL },

	{ "{}", "cgroup", "OK", "a v2 memory cgroup under /sys/fs/cgroup/perfab", NULL },
	{ "{\"cgroup_memory\": null, \"unreadable\": {\"cgroup_memory\": \"not delegated\"}}",
	  "cgroup", "WARNING", "cgroup_peak will be null: not delegated",
	  "run perfab as root, or in a delegated cgroup" },
	{ "{\"cgroup_memory\": null, \"root\": true}", "cgroup", "WARNING",
	  "cgroup_peak will be null", "see doc/env.md (cgroup)" },

	{ "{}", "virtualization", "OK", "bare metal", NULL },
	{ "{\"hypervisor\": true}", "virtualization", "WARNING", "running in a VM",
	  "dedicated, pinned vCPUs" },
	{ "{\"hypervisor\": null}", "virtualization", "UNKNOWN", "not recorded", NULL },
};

/* The item called name in a checklist. */
static const cJSON *find_item(const cJSON *list, const char *name)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, list)
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "item")), name))
			return it;
	return NULL;
}

static const char *field(const cJSON *item, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, key));
}

/* Every item, in the documented order, each with a status and a detail;
 * a fix exactly for the warnings. */
static void assert_shape(const cJSON *list)
{
	size_t i;

	ck_assert_int_eq(cJSON_GetArraySize(list), (int)NELEMS(items));
	for (i = 0; i < NELEMS(items); i++) {
		const cJSON *it = cJSON_GetArrayItem(list, (int)i);
		const char *status = field(it, "status");

		ck_assert_str_eq(field(it, "item"), items[i]);
		ck_assert_msg(status && (!strcmp(status, "OK") || !strcmp(status, "WARNING") ||
					 !strcmp(status, "UNKNOWN")), "%s: status", items[i]);
		ck_assert_msg(field(it, "detail") && *field(it, "detail"), "%s: detail", items[i]);
		ck_assert_msg(!strcmp(status, "WARNING") ? field(it, "fix") != NULL
			      : cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(it, "fix")),
			      "%s: a fix exactly for a WARNING", items[i]);
	}
}

START_TEST(ideal_machine_is_all_ok)
{
	cJSON *fp = cJSON_Parse(ideal), *list = pab_host_warnings(fp);
	size_t i;

	assert_shape(list);
	for (i = 0; i < NELEMS(items); i++)
		ck_assert_msg(!strcmp(field(cJSON_GetArrayItem(list, (int)i), "status"), "OK"),
			      "%s: %s", items[i], field(cJSON_GetArrayItem(list, (int)i), "detail"));
	cJSON_Delete(list);
	cJSON_Delete(fp);
}
END_TEST

START_TEST(checklist_table)
{
	const struct check_case *c = &cases[_i];
	cJSON *fp = cJSON_Parse(ideal), *change = cJSON_Parse(c->change), *list, *m;
	const cJSON *it;
	const char *detail, *fix;

	ck_assert_msg(change != NULL, "case %d: bad JSON", _i);
	cJSON_ArrayForEach(m, change) {
		cJSON_DeleteItemFromObjectCaseSensitive(fp, m->string);
		cJSON_AddItemToObject(fp, m->string, cJSON_Duplicate(m, 1));
	}
	list = pab_host_warnings(fp);
	assert_shape(list);
	it = find_item(list, c->item);
	detail = field(it, "detail");
	fix = field(it, "fix");
	ck_assert_msg(!strcmp(field(it, "status"), c->status), "%s %s: %s, not %s (%s)", c->item,
		      c->change, field(it, "status"), c->status, detail);
	ck_assert_msg(strstr(detail, c->detail) != NULL, "%s %s: detail '%s' lacks '%s'", c->item,
		      c->change, detail, c->detail);
	if (c->fix)
		ck_assert_msg(fix && strstr(fix, c->fix), "%s %s: fix '%s' lacks '%s'", c->item,
			      c->change, fix ? fix : "(null)", c->fix);
	else
		ck_assert_msg(!fix, "%s %s: an unexpected fix '%s'", c->item, c->change, fix);
	cJSON_Delete(list);
	cJSON_Delete(change);
	cJSON_Delete(fp);
}
END_TEST

/* Nothing recorded: every item is still there, none is OK, and but for
 * cgroup, which without a usable cgroup is a WARNING: every other item is
 * UNKNOWN, and each says nothing was recorded. NULL reads the same. */
START_TEST(empty_fingerprint)
{
	cJSON *empty = cJSON_CreateObject(), *list = pab_host_warnings(empty);
	cJSON *none = pab_host_warnings(NULL);
	size_t i;

	assert_shape(list);
	assert_shape(none);
	for (i = 0; i < NELEMS(items); i++) {
		const cJSON *it = cJSON_GetArrayItem(list, (int)i);
		const char *want = !strcmp(items[i], "cgroup") ? "WARNING" : "UNKNOWN";

		ck_assert_msg(!strcmp(field(it, "status"), want), "%s: %s", items[i],
			      field(it, "status"));
		ck_assert_msg(strstr(field(it, "detail"), "not recorded in this fingerprint") != NULL,
			      "%s: %s", items[i], field(it, "detail"));
		ck_assert_str_eq(field(it, "detail"),
				 field(cJSON_GetArrayItem(none, (int)i), "detail"));
	}
	cJSON_Delete(none);
	cJSON_Delete(list);
	cJSON_Delete(empty);
}
END_TEST

/* A real machine's fingerprint (an artifact of tests/data/pool/): its
 * checklist, judged again, is the one perfab stored with it. */
START_TEST(real_fingerprint_recomputes)
{
	char *text;
	size_t len;
	int i;
	cJSON *root, *host, *list, *stored;

	text = unit_data("pool/a.json", &len);
	root = cJSON_ParseWithLength(text, len);
	host = cJSON_GetObjectItemCaseSensitive(root, "host");
	stored = cJSON_DetachItemFromObjectCaseSensitive(host, "checklist");
	list = pab_host_warnings(host);
	ck_assert_int_eq(cJSON_GetArraySize(list), cJSON_GetArraySize(stored));
	for (i = 0; i < cJSON_GetArraySize(list); i++) {
		char *got = cJSON_PrintUnformatted(cJSON_GetArrayItem(list, i));
		char *want = cJSON_PrintUnformatted(cJSON_GetArrayItem(stored, i));

		ck_assert_msg(!strcmp(got, want), "item %d:\n  %.300s\nstored:\n  %.300s", i, got,
			      want);
		free(got);
		free(want);
	}
	cJSON_Delete(stored);
	cJSON_Delete(list);
	cJSON_Delete(root);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("checklist");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, ideal_machine_is_all_ok);
	tcase_add_loop_test(tc, checklist_table, 0, (int)NELEMS(cases));
	tcase_add_test(tc, empty_fingerprint);
	tcase_add_test(tc, real_fingerprint_recomputes);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
