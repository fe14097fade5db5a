/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pin.c — hwloc-based placement (pin.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <hwloc.h>

#include "probe/pin.h"
#include "util.h"

struct pab_pin {
	hwloc_topology_t topo;
	hwloc_bitmap_t children;  /* NULL when unpinned */
	hwloc_bitmap_t sampler;   /* NULL when no separate PU */
	hwloc_bitmap_t allowed;   /* PUs this process may use */
	char *obtained;           /* last binding read back, list form */
	char *why_unpinned;
	int n_allowed;
};

static char *bitmap_list(hwloc_const_bitmap_t set)
{
	char *s = NULL;

	if (hwloc_bitmap_list_asprintf(&s, set) < 0 || !s)
		return xstrdup("?");
	return s;
}

/* hwloc's plugins for PCI, GL, OpenCL, GPUs and libxml2 would map libxml2,
 * ICU, libstdc++ and X11 into perfab (about 2.5 MiB of its resident set)
 * for I/O discovery perfab never asks for. */
#define PAB_HWLOC_UNUSED_PLUGINS \
	"hwloc_pci,hwloc_gl,hwloc_opencl,hwloc_xml_libxml,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero"

int pab_topology_load(hwloc_topology_t *topo)
{
	/* A blacklist the user exported is theirs; ours is set only for the
	 * load and removed before any child could inherit it. */
	int ours = getenv("HWLOC_PLUGINS_BLACKLIST") == NULL;
	int rc;

	if (ours)
		setenv("HWLOC_PLUGINS_BLACKLIST", PAB_HWLOC_UNUSED_PLUGINS, 1);
	rc = hwloc_topology_init(topo);
	if (rc)
		*topo = NULL;
	else if ((rc = hwloc_topology_load(*topo)) != 0) {
		hwloc_topology_destroy(*topo);
		*topo = NULL;
	}
	if (ours)
		unsetenv("HWLOC_PLUGINS_BLACKLIST");
	return rc;
}

#define PAB_CPU_MAX 65535

/*
 * 1 when s is a list like 1-3,5 of CPU numbers in [0, PAB_CPU_MAX]:
 * checked here, since hwloc's list parser wraps numbers past UINT_MAX
 * (4294967296 would become CPU 0).
 */
static int cpu_list_ok(const char *s)
{
	char *copy = xstrdup(s), *item, *save = NULL;
	int ok = *s != '\0';

	for (item = strtok_r(copy, ",", &save); ok && item; item = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(item, '-');
		uint64_t lo, hi;

		if (dash) {
			*dash = '\0';
			ok = !parse_u64(item, 0, PAB_CPU_MAX, &lo) &&
			     !parse_u64(dash + 1, 0, PAB_CPU_MAX, &hi) && lo <= hi;
		} else {
			ok = !parse_u64(item, 0, PAB_CPU_MAX, &lo);
		}
	}
	free(copy);
	return ok && s[strlen(s) - 1] != ',' && !strstr(s, ",,");
}

struct pab_pin *pab_pin_new(const char *cpus, char **why)
{
	struct pab_pin *pin = xcalloc(1, sizeof(*pin));
	hwloc_const_bitmap_t allowed;
	hwloc_bitmap_t want = NULL;
	int last;

	*why = NULL;
	if (pab_topology_load(&pin->topo)) {
		*why = xasprintf("hwloc cannot read the machine topology");
		free(pin);
		return NULL;
	}
	/* Usable PUs: the machine's allowed set within perfab's own binding
	 * (taskset, a cpuset cgroup), which children inherit anyway. */
	pin->allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(pin->topo));
	{
		hwloc_bitmap_t mine = hwloc_bitmap_alloc();

		if (!hwloc_get_cpubind(pin->topo, mine, HWLOC_CPUBIND_PROCESS) &&
		    hwloc_bitmap_intersects(mine, pin->allowed))
			hwloc_bitmap_and(pin->allowed, pin->allowed, mine);
		hwloc_bitmap_free(mine);
	}
	allowed = pin->allowed;
	pin->n_allowed = hwloc_bitmap_weight(allowed);
	if (cpus) {
		want = hwloc_bitmap_alloc();
		if (!cpu_list_ok(cpus) || hwloc_bitmap_list_sscanf(want, cpus) < 0 ||
		    hwloc_bitmap_iszero(want)) {
			*why = xasprintf("cannot parse --cpus '%s': use a list like 1-3,5 of CPU "
					 "numbers up to %d", pab_term_safe(cpus), PAB_CPU_MAX);
			goto out_fail;
		}
		if (!hwloc_bitmap_isincluded(want, allowed)) {
			char *a = bitmap_list(allowed);

			*why = xasprintf("--cpus '%s' is not within the CPUs this process may use (%s)",
					 cpus, a);
			free(a);
			goto out_fail;
		}
		pin->children = want;
		want = NULL;
		pin->sampler = hwloc_bitmap_dup(allowed);
		hwloc_bitmap_andnot(pin->sampler, pin->sampler, pin->children);
		if (hwloc_bitmap_iszero(pin->sampler)) {
			hwloc_bitmap_free(pin->sampler);
			pin->sampler = NULL;
		} else {
			hwloc_bitmap_only(pin->sampler, hwloc_bitmap_last(pin->sampler));
		}
		return pin;
	}
	if (pin->n_allowed < 2) {
		pin->why_unpinned = xstrdup("one usable PU: children and sampler share it, unpinned");
		return pin;
	}
	last = hwloc_bitmap_last(allowed);
	pin->sampler = hwloc_bitmap_alloc();
	hwloc_bitmap_only(pin->sampler, (unsigned)last);
	pin->children = hwloc_bitmap_dup(allowed);
	hwloc_bitmap_clr(pin->children, (unsigned)last);
	return pin;

out_fail:
	hwloc_bitmap_free(want);
	hwloc_bitmap_free(pin->allowed);
	hwloc_topology_destroy(pin->topo);
	free(pin);
	return NULL;
}

void pab_pin_free(struct pab_pin *pin)
{
	if (!pin)
		return;
	hwloc_bitmap_free(pin->children);
	hwloc_bitmap_free(pin->sampler);
	hwloc_bitmap_free(pin->allowed);
	hwloc_topology_destroy(pin->topo);
	free(pin->obtained);
	free(pin->why_unpinned);
	free(pin);
}

int pab_pin_active(const struct pab_pin *pin)
{
	return pin && pin->children;
}

int pab_pin_sampler_thread(const struct pab_pin *pin)
{
	if (!pin || !pin->sampler)
		return 0;
	return hwloc_set_cpubind(pin->topo, pin->sampler, HWLOC_CPUBIND_THREAD);
}

int pab_pin_runner_thread(const struct pab_pin *pin)
{
	if (!pab_pin_active(pin))
		return 0;
	return hwloc_set_cpubind(pin->topo, pin->children, HWLOC_CPUBIND_THREAD);
}

int pab_pin_child(struct pab_pin *pin, pid_t pid)
{
	hwloc_bitmap_t got;

	if (!pab_pin_active(pin))
		return 0;
	/* The child is one thread at its gate (runchild.c), and exec and any
	 * thread it starts later inherit the binding: binding that thread
	 * spares listing /proc/PID/task twice per child. */
	if (hwloc_set_proc_cpubind(pin->topo, pid, pin->children,
				   HWLOC_CPUBIND_THREAD))
		return -1;
	got = hwloc_bitmap_alloc();
	if (!hwloc_get_proc_cpubind(pin->topo, pid, got, HWLOC_CPUBIND_THREAD)) {
		char *s = bitmap_list(got);

		if (!pin->obtained || strcmp(pin->obtained, s)) {
			free(pin->obtained);
			pin->obtained = s;
		} else {
			free(s);
		}
	}
	hwloc_bitmap_free(got);
	return 0;
}

cJSON *pab_pin_describe(const struct pab_pin *pin)
{
	cJSON *o = cJSON_CreateObject();
	char *s;

	cJSON_AddBoolToObject(o, "pinned", pab_pin_active(pin));
	cJSON_AddNumberToObject(o, "allowed_pus", pin->n_allowed);
	if (pin->children) {
		s = bitmap_list(pin->children);
		cJSON_AddStringToObject(o, "children_cpus", s);
		free(s);
	} else {
		cJSON_AddNullToObject(o, "children_cpus");
	}
	if (pin->sampler) {
		s = bitmap_list(pin->sampler);
		cJSON_AddStringToObject(o, "sampler_cpu", s);
		free(s);
	} else {
		cJSON_AddNullToObject(o, "sampler_cpu");
	}
	if (pin->obtained)
		cJSON_AddStringToObject(o, "children_obtained", pin->obtained);
	else
		cJSON_AddNullToObject(o, "children_obtained");
	if (pin->why_unpinned)
		cJSON_AddStringToObject(o, "note", pin->why_unpinned);
	return o;
}
