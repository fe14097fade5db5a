/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * spin.c — perfab-spin, the calibration workload: a deterministic CPU busy
 * loop with knobs that inject a known change, so perfab's own verdicts can
 * be checked end to end. `slowdown_pct` adds that percentage of
 * iterations (a slowdown of exactly known size in work, whatever the
 * machine), `extra_mib` holds touched memory during the work (peak RSS
 * bloat), `leak_mib` keeps touched memory after the drain (a leak).
 *
 * It speaks perfab-workload/1 like perfab-alloc, and also runs as a plain
 * command: `perfab-spin slowdown_pct=100 work=2000000` prints its report.
 * ops counts the nominal work (what a user's operations would be), so an
 * injected slowdown lowers throughput = ops / elapsed exactly as a slower
 * implementation would; `iterations` reports the work actually done, a
 * deterministic count that tests check independently of time.
 */
#include "wl.h"
#include "wl_params.h"
#include "wl_proc.h"
#include "wl_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

#define PROGRAM "perfab-spin"
#define MIB (1ULL << 20)
#define PAGE 4096

/* Kept reachable until exit: this memory is the injected leak. volatile,
 * so the compiler keeps the store and leak checkers see the pointer. */
static char *volatile leaked;

struct cfg {
	uint64_t iterations; /* work after scale and slowdown */
	uint64_t nominal;    /* work after scale: the ops reported */
	uint64_t extra_bytes, leak_bytes;
	uint64_t chunk;
	uint64_t drain_ms, release_bound_ms;
	uint64_t stride; /* latency mode: time every stride-th chunk */
};

/*
 * `n` iterations of a dependent chain (an LCG step and an xorshift): each
 * step needs the previous one, so the compiler can neither vectorise nor
 * drop it, and its cost per iteration is stable.
 */
static inline uint64_t spin(uint64_t x, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		x ^= x >> 29;
	}
	return x;
}

static char *alloc_touched(uint64_t bytes)
{
	char *p;

	if (!bytes)
		return NULL;
	p = malloc(bytes);
	if (!p) {
		fprintf(stderr,
			PROGRAM ": error: out of memory: allocating %llu MiB "
			"failed; lower extra_mib or leak_mib\n",
			(unsigned long long)(bytes / MIB));
		exit(PAB_WL_EXIT_FAILURE);
	}
	for (uint64_t off = 0; off < bytes; off += PAGE)
		p[off] = (char)(off / PAGE);
	return p;
}

static int parse_cfg(const struct pab_wl *wl, struct cfg *c)
{
	uint64_t work, pct, jitter, jseed, extra, leak, stride, phys;

	memset(c, 0, sizeof(*c));
	if (pab_wl_param_u64(wl, "work", 1, 1ULL << 40, 0, &work) < 0 ||
	    pab_wl_param_u64(wl, "slowdown_pct", 0, 10000, 0, &pct) < 0 ||
	    pab_wl_param_u64(wl, "jitter_pct", 0, 90, 0, &jitter) < 0 ||
	    pab_wl_param_u64(wl, "jitter_seed", 0, 1ULL << 40, 0, &jseed) < 0 ||
	    pab_wl_param_u64(wl, "extra_mib", 0, 1U << 20, 0, &extra) < 0 ||
	    pab_wl_param_u64(wl, "leak_mib", 0, 1U << 20, 0, &leak) < 0 ||
	    pab_wl_param_u64(wl, "chunk", 1, 1ULL << 30, 0, &c->chunk) < 0 ||
	    pab_wl_param_u64(wl, "drain_ms", 0, 600000, 0, &c->drain_ms) < 0 ||
	    pab_wl_param_u64(wl, "release_bound_ms", 0, 600000, 0,
			     &c->release_bound_ms) < 0 ||
	    pab_wl_param_u64(wl, "latency_stride", 0, 1ULL << 40, 0, &stride) < 0)
		return -1;
	if (pab_wl_scaled(wl, "parameter 'work'", work, 1ULL << 40, &work) < 0)
		return -1;
	/* Scale first, then slow down, so slowdown_pct=100 is exactly 2x
	 * the iterations at any scale. */
	c->nominal = work;
	c->iterations = work + work * pct / 100;
	/* Injected noise: this run's work moved by up to +-jitter_pct, drawn
	 * per process, or with jitter_seed from the rep's seed and it (arms
	 * given different jitter_seeds differ; a run is repeatable). */
	if (jitter) {
		uint64_t r = jseed ? wl->seed ^ (jseed * 0x9e3779b97f4a7c15ULL) :
			pab_wl_now_ns() ^ ((uint64_t)getpid() << 20);
		int64_t step;

		r = spin(r, 8);
		step = (int64_t)(r % (2 * jitter * 100 + 1)) - (int64_t)(jitter * 100);
		c->iterations = (uint64_t)((int64_t)c->iterations +
					   (int64_t)work / 10000 * step);
	}
	c->extra_bytes = extra * MIB;
	c->leak_bytes = leak * MIB;
	phys = pab_wl_phys_bytes();
	if (phys && c->extra_bytes + c->leak_bytes > phys) {
		fprintf(stderr,
			PROGRAM ": error: parameters 'extra_mib' and 'leak_mib' "
			"ask for %llu MiB, more than this machine's %llu MiB; "
			"lower them\n",
			(unsigned long long)(extra + leak),
			(unsigned long long)(phys / MIB));
		return -1;
	}
	if (wl->mode == PAB_WL_LATENCY)
		c->stride = pab_wl_latency_stride(
			(c->iterations + c->chunk - 1) / c->chunk, stride);
	return 0;
}

/* The work: memory first (held across the loop), then the loop in
 * chunks, timing every stride-th chunk in latency mode. */
static uint64_t run(const struct cfg *c, uint64_t seed, uint64_t *lat,
		    size_t *n_lat, struct pab_wl_report *r)
{
	char *extra = alloc_touched(c->extra_bytes);
	uint64_t x = seed, done = 0, k = 0;

	leaked = alloc_touched(c->leak_bytes);
	while (done < c->iterations) {
		uint64_t n = c->iterations - done < c->chunk ?
				     c->iterations - done : c->chunk;

		if (c->stride && (k & (c->stride - 1)) == 0) {
			uint64_t t0 = pab_wl_now_ns();

			x = spin(x, n);
			lat[(*n_lat)++] = pab_wl_now_ns() - t0;
		} else {
			x = spin(x, n);
		}
		done += n;
		k++;
	}
	/* Both blocks are held here, at once: the live moment. */
	r->live_bytes = (int64_t)(c->extra_bytes + c->leak_bytes);
	r->live_rss_bytes = pab_wl_rss_bytes();
	free(extra);
	return x;
}

int main(int argc, char **argv)
{
	struct pab_wl wl;
	struct pab_wl_report r;
	struct cfg c;
	uint64_t *lat = NULL, t0, x;
	size_t n_lat = 0;
	int ret = PAB_WL_EXIT_USAGE;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		pab_wl_usage(PROGRAM, PROGRAM " [spin] [key=value]...");
		return PAB_WL_EXIT_OK;
	}
	if (pab_wl_init(&wl, PROGRAM, "spin", argc, argv) < 0)
		return PAB_WL_EXIT_USAGE;
	if (parse_cfg(&wl, &c) < 0)
		goto out_release;
	ret = PAB_WL_EXIT_FAILURE;
	if (c.stride) {
		lat = calloc(PAB_LATENCY_MAX_SAMPLES, sizeof(*lat));
		if (!lat) {
			fprintf(stderr, PROGRAM ": error: out of memory\n");
			goto out_release;
		}
		memset(lat, 0, PAB_LATENCY_MAX_SAMPLES * sizeof(*lat));
	}
	pab_wl_report_init(&r);
	r.pre_rss_bytes = pab_wl_rss_bytes(); /* /proc before the clock */
	t0 = pab_wl_now_ns();
	x = run(&c, wl.seed, lat, &n_lat, &r);
	r.elapsed_s = (double)(pab_wl_now_ns() - t0) / 1e9;
	/* The latency replay only reports latencies: no drain window to wait. */
	if (wl.mode == PAB_WL_LATENCY)
		pab_wl_drain(0, 0, &r);
	else
		pab_wl_drain(c.drain_ms, c.release_bound_ms, &r);

	r.threads = 1;
	r.ops = c.nominal;
	r.iterations = c.iterations;
	r.checksum = pab_wl_mix(pab_wl_mix(x, c.iterations), c.leak_bytes);
	r.latency_stride = c.stride;
	r.latency_ns = lat;
	r.n_latency = n_lat;
	if (pab_wl_report_write(&wl, &r) == 0)
		ret = PAB_WL_EXIT_OK;
	free(lat);
out_release:
	pab_wl_release(&wl);
	return ret;
}
