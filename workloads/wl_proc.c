/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl_proc.c — what a workload program measures about itself: the
 * monotonic clock, RSS from /proc/self/statm, its own VmHWM, and the drain
 * window after the work.
 *
 * The program reads its *own* high-water mark because the parent's view
 * (wait4's ru_maxrss) carries the parent's peak across execve. Readings
 * that fail are PAB_WL_NONE, reported as null: a missing /proc must look
 * unmeasured, never like zero memory.
 */
#include "wl_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

uint64_t pab_wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Read a small /proc file into buf (NUL-terminated); length or -1.
 * Plain read(2), no stdio: this runs every 10 ms in the drain window and
 * must not allocate (an allocation would disturb what is measured). */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((size_t)got < size - 1) {
		n = read(fd, buf + got, size - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

int64_t pab_wl_rss_bytes(void)
{
	char buf[256], *p, *end;
	unsigned long long pages;
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0 || read_small("/proc/self/statm", buf, sizeof(buf)) <= 0)
		return PAB_WL_NONE;
	/* Field 1 is the total size, field 2 the resident pages. */
	p = strchr(buf, ' ');
	if (!p)
		return PAB_WL_NONE;
	errno = 0;
	pages = strtoull(p + 1, &end, 10);
	if (errno || end == p + 1 || (*end != ' ' && *end != '\n'))
		return PAB_WL_NONE;
	return (int64_t)(pages * (unsigned long long)page);
}

int64_t pab_wl_vmhwm_bytes(void)
{
	char buf[4096], *p, *end;
	unsigned long long kib;

	if (read_small("/proc/self/status", buf, sizeof(buf)) <= 0)
		return PAB_WL_NONE;
	p = strstr(buf, "\nVmHWM:");
	if (!p)
		return PAB_WL_NONE;
	p += strlen("\nVmHWM:");
	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	kib = strtoull(p, &end, 10);
	if (errno || end == p || strncmp(end, " kB", 3) != 0)
		return PAB_WL_NONE;
	return (int64_t)(kib * 1024ULL);
}

uint64_t pab_wl_phys_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)page;
}

/* Sleep until the monotonic time t_ns (absolute, so the 10 ms sampling
 * schedule does not drift by the cost of each reading). */
static void sleep_until_ns(uint64_t t_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t_ns / 1000000000ULL),
		.tv_nsec = (long)(t_ns % 1000000000ULL),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

#define SAMPLE_MS 10

/* Time of the k-th release sample, ms after the drain window opened. */
static uint64_t tick_at(size_t k, uint64_t bound_ms)
{
	uint64_t t = (uint64_t)k * SAMPLE_MS;

	return t < bound_ms ? t : bound_ms;
}

void pab_wl_drain(uint64_t drain_ms, uint64_t release_bound_ms,
		  struct pab_wl_report *r)
{
	uint64_t t0 = pab_wl_now_ns();
	size_t n = (size_t)((release_bound_ms + SAMPLE_MS - 1) / SAMPLE_MS) + 1;
	uint64_t end_ms = drain_ms > release_bound_ms ? drain_ms : release_bound_ms;
	int64_t *rss = calloc(n, sizeof(*rss));
	size_t k = 0;
	int drained = 0;

	/*
	 * The schedule is the 10 ms ticks up to the release bound (the last
	 * tick is the bound itself, which need not be a multiple of 10), with
	 * the drain reading inserted at drain_ms (which need not be a tick). The
	 * sample array is allocated before t0's first reading, and freed
	 * after the last, so it is constant over the window.
	 */
	for (;;) {
		uint64_t tick_ms = k < n ? tick_at(k, release_bound_ms) : UINT64_MAX;
		uint64_t at_ms = !drained && drain_ms < tick_ms ? drain_ms : tick_ms;
		int64_t v;

		if (at_ms > end_ms)
			break;
		sleep_until_ns(t0 + at_ms * 1000000ULL);
		v = pab_wl_rss_bytes();
		if (!drained && at_ms == drain_ms) {
			r->drain_rss_bytes = v;
			drained = 1;
		}
		if (at_ms == tick_ms) {
			if (rss)
				rss[k] = v;
			k++;
		}
	}
	if (rss && k == n && rss[n - 1] != PAB_WL_NONE) {
		int64_t bound = rss[n - 1];

		r->release_bound_rss_bytes = bound;
		for (size_t i = 0; i < n; i++) {
			if (rss[i] != PAB_WL_NONE &&
			    rss[i] <= bound + (int64_t)(1 << 20)) {
				r->release_ms =
					(int64_t)tick_at(i, release_bound_ms);
				break;
			}
		}
	}
	free(rss);
	r->vmhwm_bytes = pab_wl_vmhwm_bytes();
}
