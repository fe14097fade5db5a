/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * alloc.c — perfab-alloc, the allocator workload: worker threads run a
 * seeded stream of malloc/free (or the Larson server pattern) so that two
 * builds of an allocator, or two allocators swapped in by LD_PRELOAD, do
 * exactly the same work, and report the result in perfab-workload/1.
 *
 * The shape follows the seed pipeline's workload child (reference notes
 * §6): a stream op picks choice = r % 16 and a slot; 6/16 free the oldest
 * slot (a FIFO), 2/16 free a random one, 8/16 replace the slot's block with
 * a fresh malloc of draw_size() bytes, writing one byte per 4 KiB so the
 * pages are really resident. Variants: generations (each worker's stream
 * run by short-lived threads that exit holding blocks, so the blocks are
 * freed by another thread), bursts (pause_ms: all freed and idle between
 * bursts), and Larson (tables of blocks passed between threads round by
 * round, each thread logging its draws in a realloc-grown log).
 *
 * What differs from the seed, on purpose:
 *  - live bytes are summed at a barrier where every worker still holds its
 *    blocks, tables and log (the seed summed them after freeing: always 0);
 *  - the operation sequence is hashed into a checksum that proves two arms
 *    did the same work; it depends on the seed only, never on addresses or
 *    timing, so the Larson rounds are separated by barriers;
 *  - latency mode times single operations of the same sequence on a
 *    power-of-two stride, while throughput mode has no clock in its loops.
 *
 * Only malloc, free and realloc are used, so LD_PRELOAD swaps them all.
 */
#include "pab_pcg32.h"
#include "wl.h"
#include "wl_params.h"
#include "wl_proc.h"
#include "wl_report.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

#define PROGRAM "perfab-alloc"
#define FIFO_CAP 4096     /* ring of slots in allocation order */
#define BURSTS 8          /* bursts of a pause_ms > 0 row */
#define LARSON_ROUNDS 8   /* table hand-overs of a Larson row */
#define LOG_INITIAL 1024  /* first capacity of a Larson log, entries */
#define TOUCH_STRIDE 4096 /* one byte written per this many */

/* The parameters of a run, parsed and scaled. */
struct cfg {
	unsigned threads;
	unsigned generations;
	uint64_t min_size, max_size;
	uint64_t ops;  /* per worker, after PERFAB_SCALE */
	uint64_t pause_ms;
	uint32_t table_slots;
	int log_sizes; /* sizes=log */
	uint32_t slots;
	uint64_t drain_ms, release_bound_ms;
	uint64_t stride; /* latency sampling stride; 0 in throughput mode */
};

struct block {
	char *p;
	uint64_t size; /* requested bytes; 0 when the slot is empty */
};

struct shared;

/*
 * One worker: its generator, its blocks and its bookkeeping. Everything
 * but the blocks is allocated and touched before the work, so it is part
 * of pre_rss_bytes and not of live_bytes.
 */
struct worker {
	unsigned index;
	struct shared *sh;
	pthread_t tid;
	struct pab_pcg32 rng;
	uint64_t hash;     /* checksum of this worker's operations */
	uint64_t live;     /* requested bytes this worker holds now */
	uint64_t live_at_barrier;
	uint64_t op_index; /* operations done so far, for the latency stride */
	uint64_t gen_ops;  /* operations for the generation being run */

	struct block *slots;
	uint32_t *fifo;
	uint32_t fifo_head, fifo_count;

	struct block *table; /* Larson: this worker's own table */
	uint32_t *log;       /* Larson: this worker's log of slots drawn */
	size_t log_len, log_cap;

	uint64_t *lat;
	size_t n_lat;
};

/* What all workers share. `phase` has threads + 1 parties (the main
 * thread takes part to time the phases); `round` has the workers only. */
struct shared {
	struct cfg cfg;
	struct worker *workers;
	struct block **tables; /* Larson: tables[i] == workers[i].table */
	pthread_barrier_t phase;
	pthread_barrier_t round;
	unsigned segments;
};

static void die_oom(uint64_t size)
{
	fprintf(stderr,
		PROGRAM ": error: out of memory: allocating %llu bytes failed; "
		"lower threads, slots, max_size or ops, or free memory\n",
		(unsigned long long)size);
	_exit(PAB_WL_EXIT_FAILURE);
}

/* A block size from the row's distribution. log: pick an octave (bit
 * length) uniformly between those of min_size and max_size, then a size
 * uniformly within it, clamped: 64K-4M gives 4 MiB exactly 1 time in 7. */
static uint64_t draw_size(struct worker *w)
{
	const struct cfg *c = &w->sh->cfg;
	unsigned lo_bits, hi_bits, bits;
	uint64_t base, size;

	if (!c->log_sizes)
		return c->min_size +
		       pab_pcg32_bounded(&w->rng,
					 (uint32_t)(c->max_size - c->min_size + 1));
	lo_bits = 64 - (unsigned)__builtin_clzll(c->min_size);
	hi_bits = 64 - (unsigned)__builtin_clzll(c->max_size);
	bits = lo_bits + pab_pcg32_bounded(&w->rng, hi_bits - lo_bits + 1);
	base = 1ULL << (bits - 1);
	size = base + pab_pcg32_bounded(&w->rng, (uint32_t)base);
	if (size < c->min_size)
		size = c->min_size;
	if (size > c->max_size)
		size = c->max_size;
	return size;
}

static char *alloc_touched(uint64_t size)
{
	char *p = malloc(size);

	if (!p)
		die_oom(size);
	for (uint64_t off = 0; off < size; off += TOUCH_STRIDE)
		p[off] = (char)off;
	return p;
}

static void fifo_push(struct worker *w, uint32_t slot)
{
	if (w->fifo_count == FIFO_CAP) { /* full: forget the oldest */
		w->fifo_head = (w->fifo_head + 1) % FIFO_CAP;
		w->fifo_count--;
	}
	w->fifo[(w->fifo_head + w->fifo_count) % FIFO_CAP] = slot;
	w->fifo_count++;
}

static uint32_t fifo_pop(struct worker *w)
{
	uint32_t slot = w->fifo[w->fifo_head];

	w->fifo_head = (w->fifo_head + 1) % FIFO_CAP;
	w->fifo_count--;
	return slot;
}

/* One stream operation (see the top of the file). */
static inline void stream_op(struct worker *w)
{
	uint32_t choice = pab_pcg32_next(&w->rng) & 15;
	uint32_t slot = pab_pcg32_bounded(&w->rng, w->sh->cfg.slots);
	struct block *b;
	uint64_t size = 0;

	if (choice >= 8 && choice < 14 && w->fifo_count)
		slot = fifo_pop(w);
	b = &w->slots[slot];
	w->hash = pab_wl_mix(w->hash, (uint64_t)choice << 32 | slot);
	w->hash = pab_wl_mix(w->hash, b->size);
	free(b->p);
	w->live -= b->size;
	b->p = NULL;
	b->size = 0;
	if (choice < 8) {
		size = draw_size(w);
		b->p = alloc_touched(size);
		b->size = size;
		w->live += size;
		fifo_push(w, slot);
	}
	w->hash = pab_wl_mix(w->hash, size);
}

/* One Larson draw on `table`: free a random block, allocate a new one,
 * and log the slot. */
static inline void larson_op(struct worker *w, struct block *table)
{
	uint32_t slot = pab_pcg32_bounded(&w->rng, w->sh->cfg.table_slots);
	struct block *b = &table[slot];
	uint64_t size = draw_size(w);

	w->hash = pab_wl_mix(w->hash, (uint64_t)slot << 32 | size);
	w->hash = pab_wl_mix(w->hash, b->size);
	free(b->p);
	b->p = malloc(size);
	if (!b->p)
		die_oom(size);
	b->p[0] = (char)size;
	b->size = size;
	if (w->log_len == w->log_cap) {
		size_t cap = w->log_cap ? 2 * w->log_cap : LOG_INITIAL;
		uint32_t *log = realloc(w->log, cap * sizeof(*log));

		if (!log)
			die_oom(cap * sizeof(*log));
		w->log = log;
		w->log_cap = cap;
	}
	w->log[w->log_len++] = slot;
}

/* Time one operation if it falls on the latency stride. The clocks sit
 * around exactly one operation; the bookkeeping is outside them. */
#define TIMED_OP(w, op)                                                      \
	do {                                                                 \
		if (((w)->op_index++ & ((w)->sh->cfg.stride - 1)) == 0) {    \
			uint64_t t0_ = pab_wl_now_ns();                      \
			op;                                                  \
			(w)->lat[(w)->n_lat++] = pab_wl_now_ns() - t0_;      \
		} else {                                                     \
			op;                                                  \
		}                                                            \
	} while (0)

/* Run n stream operations: two loops so throughput mode has no clock
 * and no stride test in it. */
static void run_stream(struct worker *w, uint64_t n)
{
	if (!w->sh->cfg.stride) {
		for (uint64_t i = 0; i < n; i++)
			stream_op(w);
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		TIMED_OP(w, stream_op(w));
}

static void run_larson_round(struct worker *w, struct block *table, uint64_t n)
{
	if (!w->sh->cfg.stride) {
		for (uint64_t i = 0; i < n; i++)
			larson_op(w, table);
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		TIMED_OP(w, larson_op(w, table));
}

/* Part k of n split into `parts` nearly equal parts (the first n % parts
 * get one more), so every worker and every arm splits identically. */
static uint64_t share(uint64_t n, unsigned parts, unsigned k)
{
	return n / parts + (k < n % parts ? 1 : 0);
}

static void *generation_main(void *arg)
{
	struct worker *w = arg;

	run_stream(w, w->gen_ops);
	return NULL; /* exits holding its blocks: the next thread frees them */
}

/* The stream part of segment `seg`, run by the worker itself or by
 * `generations` short-lived threads one after the other. */
static void stream_segment(struct worker *w, uint64_t n)
{
	unsigned gens = w->sh->cfg.generations;

	if (gens == 1) {
		run_stream(w, n);
		return;
	}
	for (unsigned g = 0; g < gens; g++) {
		pthread_t t;
		int err;

		w->gen_ops = share(n, gens, g);
		err = pthread_create(&t, NULL, generation_main, w);
		if (err) {
			fprintf(stderr,
				PROGRAM ": error: cannot start a generation "
				"thread: %s; lower threads or generations\n",
				strerror(err));
			_exit(PAB_WL_EXIT_FAILURE);
		}
		pthread_join(t, NULL);
	}
}

static void stream_free(struct worker *w)
{
	for (uint32_t s = 0; s < w->sh->cfg.slots; s++) {
		free(w->slots[s].p);
		w->slots[s].p = NULL;
		w->slots[s].size = 0;
	}
	w->live = 0;
	w->fifo_head = w->fifo_count = 0;
}

/* Larson: fill the own table, then pass tables round by round. */
static void larson_segment(struct worker *w)
{
	struct shared *sh = w->sh;
	const struct cfg *c = &sh->cfg;

	for (uint32_t s = 0; s < c->table_slots; s++) {
		uint64_t size = draw_size(w);

		w->table[s].p = malloc(size);
		if (!w->table[s].p)
			die_oom(size);
		w->table[s].p[0] = (char)size;
		w->table[s].size = size;
		w->hash = pab_wl_mix(w->hash, size);
	}
	for (unsigned r = 0; r < LARSON_ROUNDS; r++) {
		/* The barrier makes each table belong to one thread per
		 * round, so the sequence, and the checksum, is fixed. */
		pthread_barrier_wait(&sh->round);
		run_larson_round(w, sh->tables[(w->index + r) % c->threads],
				 share(c->ops, LARSON_ROUNDS, r));
	}
	pthread_barrier_wait(&sh->round);
	/* Live: the own table (filled by whoever held it last) and the log
	 * as written; capacity past log_len is never touched, so no
	 * allocator needs it resident and it is not counted. */
	w->live = w->log_len * sizeof(*w->log);
	for (uint32_t s = 0; s < c->table_slots; s++)
		w->live += w->table[s].size;
}

static void larson_free(struct worker *w)
{
	for (uint32_t s = 0; s < w->sh->cfg.table_slots; s++) {
		free(w->table[s].p);
		w->table[s].p = NULL;
		w->table[s].size = 0;
	}
	free(w->log);
	w->log = NULL;
	w->log_len = w->log_cap = 0;
	w->live = 0;
}

/*
 * A worker's life: setup, then for each segment (one, or BURSTS) the
 * phases go / live / release / done, in step with the main thread, then
 * stay alive until the drain window is over, like the threads of a
 * long-running server, so their thread caches are not torn down early.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct cfg *c = &sh->cfg;

	/* Create this thread's allocator state (arena, cache) in setup so
	 * it is part of pre_rss, not of the work. */
	free(malloc(1));
	pthread_barrier_wait(&sh->phase); /* setup done */
	for (unsigned seg = 0; seg < sh->segments; seg++) {
		pthread_barrier_wait(&sh->phase); /* go */
		if (c->table_slots)
			larson_segment(w);
		else
			stream_segment(w, share(c->ops, sh->segments, seg));
		w->live_at_barrier = w->live;
		pthread_barrier_wait(&sh->phase); /* all live */
		pthread_barrier_wait(&sh->phase); /* main has read RSS */
		if (c->table_slots)
			larson_free(w);
		else
			stream_free(w);
		pthread_barrier_wait(&sh->phase); /* all freed */
	}
	pthread_barrier_wait(&sh->phase); /* drain window over */
	return NULL;
}

static int parse_cfg(const struct pab_wl *wl, struct cfg *c)
{
	static const char *const size_kinds[] = { "uniform", "log", NULL };
	uint64_t v, ops, per_thread_max, phys, worst;
	int kind;

	memset(c, 0, sizeof(*c));
	if (pab_wl_param_u64(wl, "threads", 1, 1024, 0, &v) < 0)
		return -1;
	c->threads = (unsigned)v;
	if (pab_wl_param_u64(wl, "generations", 1, 10000, 0, &v) < 0)
		return -1;
	c->generations = (unsigned)v;
	/* Sizes stay below 4 GiB so a uniform draw is one 32-bit draw. */
	if (pab_wl_param_u64(wl, "min_size", 1, 1ULL << 30, 1, &c->min_size) < 0 ||
	    pab_wl_param_u64(wl, "max_size", 1, 1ULL << 30, 1, &c->max_size) < 0 ||
	    pab_wl_param_u64(wl, "ops", 1, 1ULL << 40, 0, &ops) < 0 ||
	    pab_wl_param_u64(wl, "pause_ms", 0, 60000, 0, &c->pause_ms) < 0 ||
	    pab_wl_param_u64(wl, "table_slots", 0, 1U << 24, 0, &v) < 0)
		return -1;
	c->table_slots = (uint32_t)v;
	kind = pab_wl_param_choice(wl, "sizes", size_kinds);
	if (kind < 0)
		return -1;
	c->log_sizes = kind == 1;
	if (pab_wl_param_u64(wl, "slots", 1, 1U << 20, 0, &v) < 0)
		return -1;
	c->slots = (uint32_t)v;
	if (pab_wl_param_u64(wl, "drain_ms", 0, 600000, 0, &c->drain_ms) < 0 ||
	    pab_wl_param_u64(wl, "release_bound_ms", 0, 600000, 0,
			     &c->release_bound_ms) < 0 ||
	    pab_wl_param_u64(wl, "latency_stride", 0, 1ULL << 40, 0, &v) < 0)
		return -1;
	if (c->min_size > c->max_size) {
		fprintf(stderr,
			PROGRAM ": error: parameter 'min_size' (%llu) is above "
			"'max_size' (%llu); give min_size <= max_size\n",
			(unsigned long long)c->min_size,
			(unsigned long long)c->max_size);
		return -1;
	}
	if (c->table_slots && (c->generations > 1 || c->pause_ms)) {
		fprintf(stderr,
			PROGRAM ": error: parameter 'table_slots' (a Larson "
			"row) cannot be combined with 'generations' > 1 or "
			"'pause_ms' > 0; set table_slots=0 or drop those\n");
		return -1;
	}
	per_thread_max = (1ULL << 40) / c->threads;
	if (pab_wl_scaled(wl, "parameter 'ops'", ops, per_thread_max, &c->ops) < 0)
		return -1;
	/* Refuse a working set the machine cannot hold: at worst every
	 * slot (and table entry) holds a max_size block at once. */
	phys = pab_wl_phys_bytes();
	if (__builtin_mul_overflow((uint64_t)c->slots + c->table_slots,
				   c->max_size, &worst) ||
	    __builtin_mul_overflow(worst, (uint64_t)c->threads, &worst))
		worst = UINT64_MAX;
	if (phys && worst > phys) {
		fprintf(stderr,
			PROGRAM ": error: parameters 'threads', 'slots', "
			"'table_slots' and 'max_size' allow %llu MiB or more live, "
			"more than this machine's %llu MiB; lower them\n",
			(unsigned long long)(worst >> 20),
			(unsigned long long)(phys >> 20));
		return -1;
	}
	if (wl->mode == PAB_WL_LATENCY)
		c->stride = pab_wl_latency_stride(c->ops, v);
	return 0;
}

/* Allocate and touch all bookkeeping before the work. */
static int setup(struct shared *sh, uint64_t seed)
{
	const struct cfg *c = &sh->cfg;

	sh->workers = calloc(c->threads, sizeof(*sh->workers));
	sh->tables = calloc(c->threads, sizeof(*sh->tables));
	if (!sh->workers || !sh->tables)
		return -1;
	for (unsigned i = 0; i < c->threads; i++) {
		struct worker *w = &sh->workers[i];

		w->index = i;
		w->sh = sh;
		w->slots = calloc(c->slots, sizeof(*w->slots));
		w->fifo = calloc(FIFO_CAP, sizeof(*w->fifo));
		if (!w->slots || !w->fifo)
			return -1;
		if (c->table_slots) {
			w->table = calloc(c->table_slots, sizeof(*w->table));
			if (!w->table)
				return -1;
			sh->tables[i] = w->table;
		}
		if (c->stride) {
			w->lat = calloc(PAB_LATENCY_MAX_SAMPLES, sizeof(*w->lat));
			if (!w->lat)
				return -1;
		}
		/* calloc may hand out untouched zero pages: write them so
		 * they count in pre_rss, where they belong. */
		memset(w->slots, 0, c->slots * sizeof(*w->slots));
		memset(w->fifo, 0, FIFO_CAP * sizeof(*w->fifo));
		if (w->table)
			memset(w->table, 0, c->table_slots * sizeof(*w->table));
		if (w->lat)
			memset(w->lat, 0, PAB_LATENCY_MAX_SAMPLES * sizeof(*w->lat));
		/* Every worker's stream is fixed by the run's seed and the
		 * worker's index; nothing else. */
		pab_pcg32_seed(&w->rng, seed, i);
	}
	return 0;
}

/* Join the workers' checksums (in worker order) with the run's shape. */
static uint64_t checksum(const struct shared *sh)
{
	uint64_t h = pab_wl_mix(0, sh->cfg.threads);

	h = pab_wl_mix(h, sh->cfg.ops);
	for (unsigned i = 0; i < sh->cfg.threads; i++)
		h = pab_wl_mix(h, sh->workers[i].hash);
	return h;
}

/* The main thread's side of the phases: times each segment (not the
 * pauses between bursts), and records the largest live moment. */
static void run_phases(struct shared *sh, struct pab_wl_report *r)
{
	uint64_t elapsed_ns = 0;

	pthread_barrier_wait(&sh->phase); /* setup done */
	r->pre_rss_bytes = pab_wl_rss_bytes();
	for (unsigned seg = 0; seg < sh->segments; seg++) {
		uint64_t t0, live = 0;
		int64_t rss;

		if (seg > 0) {
			struct timespec ts = {
				.tv_sec = (time_t)(sh->cfg.pause_ms / 1000),
				.tv_nsec = (long)(sh->cfg.pause_ms % 1000) * 1000000L,
			};

			while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
				;
		}
		t0 = pab_wl_now_ns();
		pthread_barrier_wait(&sh->phase); /* go */
		pthread_barrier_wait(&sh->phase); /* all live */
		/* Every worker holds its blocks now: this is the moment the
		 * live bytes are true, and the RSS beside them. */
		rss = pab_wl_rss_bytes();
		for (unsigned i = 0; i < sh->cfg.threads; i++)
			live += sh->workers[i].live_at_barrier;
		if (r->live_bytes == PAB_WL_NONE || (int64_t)live > r->live_bytes) {
			r->live_bytes = (int64_t)live;
			r->live_rss_bytes = rss;
		}
		pthread_barrier_wait(&sh->phase); /* main has read RSS */
		pthread_barrier_wait(&sh->phase); /* all freed */
		elapsed_ns += pab_wl_now_ns() - t0;
	}
	r->elapsed_s = (double)elapsed_ns / 1e9;
	/* The latency replay only reports latencies: no drain window to wait. */
	if (sh->cfg.stride)
		pab_wl_drain(0, 0, r);
	else
		pab_wl_drain(sh->cfg.drain_ms, sh->cfg.release_bound_ms, r);
	pthread_barrier_wait(&sh->phase); /* drain window over */
}

/* Start every worker thread; a failure exits (the started ones wait at a
 * barrier that can never complete). */
static void start_workers(struct shared *sh)
{
	for (unsigned i = 0; i < sh->cfg.threads; i++) {
		int err = pthread_create(&sh->workers[i].tid, NULL, worker_main,
					 &sh->workers[i]);

		if (err) {
			fprintf(stderr,
				PROGRAM ": error: cannot start worker thread %u: "
				"%s; lower threads\n",
				i, strerror(err));
			_exit(PAB_WL_EXIT_FAILURE);
		}
	}
}

/* Every worker's latency samples into one array (*lat, caller frees) that
 * r points at. 0, or -1 (message printed) when out of memory. */
static int gather_latency(struct shared *sh, struct pab_wl_report *r,
			  uint64_t **lat)
{
	size_t n = 0;

	*lat = calloc((size_t)sh->cfg.threads * PAB_LATENCY_MAX_SAMPLES,
		      sizeof(**lat));
	if (!*lat) {
		fprintf(stderr, PROGRAM ": error: out of memory for "
				"latency samples\n");
		return -1;
	}
	for (unsigned i = 0; i < sh->cfg.threads; i++) {
		memcpy(*lat + n, sh->workers[i].lat,
		       sh->workers[i].n_lat * sizeof(**lat));
		n += sh->workers[i].n_lat;
	}
	r->latency_stride = sh->cfg.stride;
	r->latency_ns = *lat;
	r->n_latency = n;
	return 0;
}

int main(int argc, char **argv)
{
	struct pab_wl wl;
	struct pab_wl_report r;
	struct shared sh;
	uint64_t *lat = NULL;
	int ret = PAB_WL_EXIT_USAGE;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		pab_wl_usage(PROGRAM, PROGRAM " [ROW] [key=value]...");
		return PAB_WL_EXIT_OK;
	}
	if (pab_wl_init(&wl, PROGRAM, NULL, argc, argv) < 0)
		return PAB_WL_EXIT_USAGE;
	memset(&sh, 0, sizeof(sh));
	if (parse_cfg(&wl, &sh.cfg) < 0)
		goto out_release;
	ret = PAB_WL_EXIT_FAILURE;
	sh.segments = sh.cfg.pause_ms ? BURSTS : 1;
	if (setup(&sh, wl.seed) < 0) {
		fprintf(stderr, PROGRAM ": error: out of memory in setup; lower "
				"threads or slots\n");
		goto out_free;
	}
	if (pthread_barrier_init(&sh.phase, NULL, sh.cfg.threads + 1) ||
	    pthread_barrier_init(&sh.round, NULL, sh.cfg.threads)) {
		fprintf(stderr, PROGRAM ": error: cannot create the thread "
				"barriers; lower threads\n");
		goto out_free;
	}
	pab_wl_report_init(&r);
	start_workers(&sh);
	run_phases(&sh, &r);
	for (unsigned i = 0; i < sh.cfg.threads; i++)
		pthread_join(sh.workers[i].tid, NULL);

	r.threads = sh.cfg.threads;
	r.ops = sh.cfg.ops * sh.cfg.threads;
	r.checksum = checksum(&sh);
	if (sh.cfg.stride && gather_latency(&sh, &r, &lat) < 0)
		goto out_free;
	if (pab_wl_report_write(&wl, &r) == 0)
		ret = PAB_WL_EXIT_OK;
	free(lat);
	pthread_barrier_destroy(&sh.phase);
	pthread_barrier_destroy(&sh.round);
out_free:
	if (sh.workers)
		for (unsigned i = 0; i < sh.cfg.threads; i++) {
			free(sh.workers[i].slots);
			free(sh.workers[i].fifo);
			free(sh.workers[i].table);
			free(sh.workers[i].lat);
		}
	free(sh.workers);
	free(sh.tables);
out_release:
	pab_wl_release(&wl);
	return ret;
}
