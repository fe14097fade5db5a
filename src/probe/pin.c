/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pin.c — hwloc-based placement (pin.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hwloc.h>

#include <cjson/cJSON.h>

#include "probe/pin.h"
#include "term.h"
#include "util.h"

struct pab_pin {
	hwloc_topology_t topo;
	hwloc_bitmap_t children;  /* NULL when unpinned */
	hwloc_bitmap_t sampler;   /* NULL when no separate PU */
	hwloc_bitmap_t allowed;   /* PUs this process may use */
	char *obtained;           /* last binding read back, list form */
	int *count_lock_fds;      /* spare PUs' locks held while counting */
	size_t n_count_locks;
	char **counted;           /* each counting child's binding, list form */
	size_t n_counted;
	char *why_unpinned;
	char *choice;             /* why the children's PU (automatic) */
	int n_allowed;
	int pu_lock_fd;           /* the advisory lock on the children's PU, or -1 */
	enum pab_pu_lock pu_lock; /* the children's PU's lock (automatic choice only) */
	char *pu_lock_why;        /* why it is unknown, or NULL */
	int locked_choice;        /* 1: the automatic choice tried the locks */
	double busy_pct[PAB_PIN_MAX_PUS]; /* per PU over the sampling window; NaN unknown */
};

/*
 * Each PU's busy share (non-idle jiffies, percent) over a short window,
 * from two reads of /proc/stat, into busy[0..PAB_PIN_MAX_PUS) (NaN when
 * unknown). Returns 0, or -1 when /proc/stat cannot be read.
 */
static int read_cpu_jiffies(unsigned long long *total, unsigned long long *idle)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		unsigned cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 || cpu >= PAB_PIN_MAX_PUS)
			continue;
		total[cpu] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		idle[cpu] = v[3] + v[4];
		n++;
	}
	fclose(f);
	return n ? 0 : -1;
}

int pab_pu_busy(double *busy, unsigned window_ms)
{
	static unsigned long long t0[PAB_PIN_MAX_PUS], i0[PAB_PIN_MAX_PUS];
	static unsigned long long t1[PAB_PIN_MAX_PUS], i1[PAB_PIN_MAX_PUS];
	struct timespec ts = { (time_t)(window_ms / 1000), (long)(window_ms % 1000) * 1000000L };
	size_t i;

	for (i = 0; i < PAB_PIN_MAX_PUS; i++)
		busy[i] = NAN;
	memset(t0, 0, sizeof(t0));
	memset(t1, 0, sizeof(t1));
	if (read_cpu_jiffies(t0, i0))
		return -1;
	nanosleep(&ts, NULL);
	if (read_cpu_jiffies(t1, i1))
		return -1;
	for (i = 0; i < PAB_PIN_MAX_PUS; i++)
		if (t1[i] > t0[i])
			busy[i] = 100.0 * (double)((t1[i] - t0[i]) - (i1[i] - i0[i])) /
				  (double)(t1[i] - t0[i]);
	return 0;
}

/* The directory of the per-PU advisory locks (PERFAB_PU_LOCK_DIR, else /tmp). */
static const char *lock_dir(void)
{
	const char *d = getenv("PERFAB_PU_LOCK_DIR");

	return d && *d ? d : "/tmp";
}

/* 1 when st is owned by perfab's user or root: nobody else can replace it
 * (or, for a directory, what is in it). */
static int owned_by_us(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/* What st is, for a message about a lock path that is no lock file. */
static const char *file_kind(const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return "a device";
	if (S_ISLNK(st->st_mode))
		return "a symbolic link";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

/*
 * The lock directory, opened, when its locks can be trusted: owned by
 * perfab's user or root, and sticky if others may write it (else another
 * user could replace a lock while a run holds it). The descriptor, or -1
 * with the reason in *why (new string).
 */
static int lock_dir_open(const char *dir, char **why)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (dfd < 0) {
		*why = xasprintf("cannot open the lock directory '%s': %s", pab_term_safe(dir),
				 strerror(errno));
		return -1;
	}
	if (fstat(dfd, &st)) {
		*why = xasprintf("cannot read the lock directory '%s': %s", pab_term_safe(dir),
				 strerror(errno));
	} else if (!owned_by_us(&st)) {
		*why = xasprintf("the lock directory '%s' belongs to another user (uid %u), who "
				 "can replace any lock in it", pab_term_safe(dir),
				 (unsigned)st.st_uid);
	} else if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		*why = xasprintf("the lock directory '%s' is writable by other users and not "
				 "sticky: any of them can replace a lock (chmod +t it)",
				 pab_term_safe(dir));
	} else {
		return dfd;
	}
	close(dfd);
	return -1;
}

/*
 * Take PU pu's advisory lock without waiting. Returns the descriptor
 * (held for the run; *state PAB_PU_LOCK_FREE), or -1 with *state
 * PAB_PU_LOCK_HELD (another perfab run holds it) or PAB_PU_LOCK_UNKNOWN
 * and the reason in *why (new string): the lock directory or the lock
 * path is not one perfab can trust — a FIFO, device, symbolic link or
 * directory there, a file of another user, a directory others can write
 * without the sticky bit. Nothing here waits: the file is opened
 * non-blocking, after a look at what it is, and checked again once open.
 */
static int pu_lock_try(unsigned pu, enum pab_pu_lock *state, char **why)
{
	const char *dir = lock_dir();
	char *name = xasprintf("perfab-pu-%u.lock", pu);
	int dfd, fd = -1;
	struct stat st;

	*state = PAB_PU_LOCK_UNKNOWN;
	*why = NULL;
	dfd = lock_dir_open(dir, why);
	if (dfd < 0)
		goto out_free_name;
	if (!fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) && !S_ISREG(st.st_mode)) {
		*why = xasprintf("'%s/%s' is %s, not a lock file", pab_term_safe(dir), name,
				 file_kind(&st));
		goto out_close_dir;
	}
	fd = openat(dfd, name, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0) {
		*why = xasprintf("cannot open '%s/%s': %s", pab_term_safe(dir), name,
				 errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		goto out_close_dir;
	}
	if (fstat(fd, &st)) {
		*why = xasprintf("cannot read '%s/%s': %s", pab_term_safe(dir), name,
				 strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		*why = xasprintf("'%s/%s' is %s, not a lock file", pab_term_safe(dir), name,
				 file_kind(&st));
	} else if (!owned_by_us(&st)) {
		*why = xasprintf("'%s/%s' belongs to another user (uid %u), who can remove it "
				 "while a run holds it", pab_term_safe(dir), name,
				 (unsigned)st.st_uid);
	} else if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			*state = PAB_PU_LOCK_HELD;
		else
			*why = xasprintf("cannot lock '%s/%s': %s", pab_term_safe(dir), name,
					 strerror(errno));
	} else {
		*state = PAB_PU_LOCK_FREE;
		goto out_close_dir;
	}
	close(fd);
	fd = -1;
out_close_dir:
	close(dfd);
out_free_name:
	free(name);
	return fd;
}

enum pab_pu_lock pab_pu_lock_state(unsigned pu, char **why)
{
	enum pab_pu_lock state;
	char *reason;
	int fd = pu_lock_try(pu, &state, &reason);

	if (fd >= 0)
		close(fd);
	if (why)
		*why = reason;
	else
		free(reason);
	return state;
}

/*
 * The automatic choice: one PU for the children — the least busy that is
 * not CPU 0 (interrupts and housekeeping land there) and whose lock this
 * run takes (not held by another perfab run, and not unknown); failing
 * that CPU 0 on the same terms; failing that the least busy, not
 * exclusive, said so — and the least busy other PU for the sampler.
 * Records the choice in pin->choice and the children's PU's lock in
 * pin->pu_lock (and why it is unknown).
 */
static void choose_pus(struct pab_pin *pin)
{
	int best = -1, best_rank = 0, pu, fd, sampler = -1, unknown = 0;
	double bb = INFINITY, sb = INFINITY;
	enum pab_pu_lock state;
	char *why;

	pab_pu_busy(pin->busy_pct, 100);
	for (int pass = 0; pass < 3 && best < 0; pass++) {
		hwloc_bitmap_foreach_begin(pu, pin->allowed) {
			double b = pu < PAB_PIN_MAX_PUS && isfinite(pin->busy_pct[pu]) ?
				pin->busy_pct[pu] : 50.0;

			if ((pass == 0 && pu == 0) || (pass == 1 && pu != 0) || b >= bb)
				continue;
			if (pass < 2) {
				/* Only a lock this run holds makes a PU its own:
				 * held elsewhere or unknown, it is not free. */
				fd = pu_lock_try((unsigned)pu, &state, &why);
				free(why);
				unknown |= state == PAB_PU_LOCK_UNKNOWN;
				if (fd < 0)
					continue;
				if (pin->pu_lock_fd >= 0)
					close(pin->pu_lock_fd);
				pin->pu_lock_fd = fd;
			}
			best = pu;
			bb = b;
			best_rank = pass;
		} hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_foreach_begin(pu, pin->allowed) {
		double b = pu < PAB_PIN_MAX_PUS && isfinite(pin->busy_pct[pu]) ?
			pin->busy_pct[pu] : 50.0;

		if (pu != best && b < sb) {
			sampler = pu;
			sb = b;
		}
	} hwloc_bitmap_foreach_end();
	pin->children = hwloc_bitmap_alloc();
	hwloc_bitmap_only(pin->children, (unsigned)best);
	pin->sampler = hwloc_bitmap_alloc();
	hwloc_bitmap_only(pin->sampler, (unsigned)sampler);
	pin->locked_choice = 1;
	pin->pu_lock = best_rank < 2 ? PAB_PU_LOCK_FREE :
		pab_pu_lock_state((unsigned)best, &pin->pu_lock_why);
	pin->choice = xasprintf("PU %d, %s (busy %.0f%% over 100 ms)", best,
				best_rank == 0 ? "the least busy that is not CPU 0 and not held by "
				"another perfab run" : best_rank == 1 ? (unknown ? "CPU 0: no other "
				"PU's lock could be taken (held by another perfab run, or unknown)" :
				"CPU 0: every other PU is held by another perfab run") : unknown ?
				"shared: no PU's lock could be taken (held by another perfab run, or "
				"unknown), so another run may measure on it" :
				"shared: every PU is held by another perfab run",
				isfinite(bb) ? bb : NAN);
}

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

	*why = NULL;
	pin->pu_lock_fd = -1;
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
	choose_pus(pin);
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
	pab_pin_count_release(pin);
	while (pin->n_counted)
		free(pin->counted[--pin->n_counted]);
	free(pin->counted);
	hwloc_topology_destroy(pin->topo);
	free(pin->obtained);
	free(pin->why_unpinned);
	free(pin->choice);
	free(pin->pu_lock_why);
	if (pin->pu_lock_fd >= 0)
		close(pin->pu_lock_fd);
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

size_t pab_pin_count_pus(struct pab_pin *pin, unsigned *pus, size_t cap)
{
	enum pab_pu_lock state;
	size_t n = 0;
	char *why;
	int pu, fd;

	if (!pab_pin_active(pin) || hwloc_bitmap_weight(pin->children) != 1)
		return 0;
	pab_pin_count_release(pin);
	pin->count_lock_fds = xcalloc(cap ? cap : 1, sizeof(*pin->count_lock_fds));
	hwloc_bitmap_foreach_begin(pu, pin->allowed) {
		if (n + 1 >= cap || hwloc_bitmap_isset(pin->children, (unsigned)pu) ||
		    pu >= PAB_PIN_MAX_PUS)
			continue;
		/* Held elsewhere or unknown: another run may time there. */
		fd = pu_lock_try((unsigned)pu, &state, &why);
		free(why);
		if (fd < 0)
			continue;
		pin->count_lock_fds[pin->n_count_locks++] = fd;
		pus[n++] = (unsigned)pu;
	} hwloc_bitmap_foreach_end();
	if (n < cap)
		pus[n++] = (unsigned)hwloc_bitmap_first(pin->children);
	return n;
}

void pab_pin_count_release(struct pab_pin *pin)
{
	while (pin->n_count_locks)
		close(pin->count_lock_fds[--pin->n_count_locks]);
	free(pin->count_lock_fds);
	pin->count_lock_fds = NULL;
}

int pab_pin_child_pu(const struct pab_pin *pin, pid_t pid, unsigned pu, char *got,
		     size_t len)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc(), back = hwloc_bitmap_alloc();
	int ret;

	if (len)
		got[0] = '\0';
	hwloc_bitmap_only(set, pu);
	/* One thread at its gate, as pab_pin_child binds it. */
	ret = hwloc_set_proc_cpubind(pin->topo, pid, set, HWLOC_CPUBIND_THREAD);
	if (!ret && len && !hwloc_get_proc_cpubind(pin->topo, pid, back, HWLOC_CPUBIND_THREAD))
		hwloc_bitmap_list_snprintf(got, len, back);
	hwloc_bitmap_free(set);
	hwloc_bitmap_free(back);
	return ret;
}

void pab_pin_note_counted(struct pab_pin *pin, const char *got)
{
	if (!got || !*got)
		return;
	pin->counted = xrealloc(pin->counted, (pin->n_counted + 1) * sizeof(*pin->counted));
	pin->counted[pin->n_counted++] = xstrdup(got);
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
	if (pin->choice)
		cJSON_AddStringToObject(o, "choice", pin->choice);
	if (pin->locked_choice)
		cJSON_AddStringToObject(o, "pu_lock", pin->pu_lock == PAB_PU_LOCK_FREE ? "held" :
					pin->pu_lock == PAB_PU_LOCK_HELD ? "another run" : "unknown");
	if (pin->pu_lock_why)
		cJSON_AddStringToObject(o, "pu_lock_note", pin->pu_lock_why);
	if (pin->n_counted) {
		cJSON *list = cJSON_AddArrayToObject(o, "counting_cpus");
		size_t i;

		for (i = 0; list && i < pin->n_counted; i++)
			cJSON_AddItemToArray(list, cJSON_CreateString(pin->counted[i]));
	}
	return o;
}

char *pab_pin_describe_text(const struct pab_pin *pin)
{
	cJSON *d = pab_pin_describe(pin);
	char *text = cJSON_PrintUnformatted(d);

	cJSON_Delete(d);
	if (!text)
		BUG("out of memory");
	return text;
}
