/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_perf.c — perf's cpu-clock samples by function (profile_perf.h).
 * `perf script -F period,ip,sym,dso` prints each sample as its period on a
 * line of its own, then one line per frame, innermost first ("\tADDR SYM
 * (DSO)"), then a blank line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/profile_perf.h"
#include "probe/runchild.h"
#include "test_hooks.h"
#include "util.h"

extern char **environ;

/* Largest perf script output read. */
#define SCRIPT_MAX_BYTES ((size_t)512 << 20)

char *pab_perf_tool(char **why)
{
	const char *env = getenv(PAB_PERF_ENV);
	const char *name = env && *env ? env : "perf";
	char *exe = pab_resolve_exe(name);

	*why = NULL;
	if (!exe)
		*why = xasprintf("perf is not available ('%s': %s%s): install perf (Debian: "
				 "apt-get install linux-perf) for time by call stack", name,
				 strerror(errno), env && *env ? ", from " PAB_PERF_ENV :
				 ", looked up on PATH");
	return exe;
}

/* `tool record -q EVENTS... -F hz CALLGRAPH [--max-size=MAX M] -o
 * out_prefix.data -- argv` (max_mib: 0 for none). */
static char **perf_record_argv(const char *tool, const char *out_prefix, char *const *argv,
			       const char *const *events, int hz, const char *call_graph,
			       unsigned max_mib, char ***opts_out)
{
	size_t n = 0, k = 0, i;
	char **out, **opts = xcalloc(4, sizeof(*opts));

	while (argv[n])
		n++;
	out = xcalloc(n + 18, sizeof(*out));
	opts[0] = xasprintf("%d", hz);
	opts[1] = xasprintf("%s.data", out_prefix);
	out[k++] = (char *)tool;
	out[k++] = "record";
	out[k++] = "-q";
	for (i = 0; events[i]; i++) {
		out[k++] = "-e";
		out[k++] = (char *)events[i];
	}
	out[k++] = "-F";
	out[k++] = opts[0];
	out[k++] = "--call-graph";
	out[k++] = (char *)call_graph;
	if (max_mib)
		out[k++] = opts[2] = xasprintf("--max-size=%uM", max_mib);
	out[k++] = "-o";
	out[k++] = opts[1];
	out[k++] = "--";
	for (i = 0; i < n; i++)
		out[k++] = argv[i];
	*opts_out = opts;
	return out;
}

char **pab_perf_argv(const char *tool, const char *out_prefix, char *const *argv,
		     char ***opts_out)
{
	static const char *const events[] = { "cpu-clock", NULL };

	return perf_record_argv(tool, out_prefix, argv, events, PAB_PERF_HZ, "fp", 0, opts_out);
}

char **pab_perf_wall_argv(const char *tool, const char *out_prefix, char *const *argv,
			  char ***opts_out)
{
	static const char *const events[] = { "cpu-clock", "sched:sched_switch", NULL };

	return perf_record_argv(tool, out_prefix, argv, events, PAB_PERF_WALL_HZ, "dwarf",
				pab_perf_wall_max_mib(), opts_out);
}

unsigned pab_perf_wall_max_mib(void)
{
	const char *v = pab_test_hook(PAB_TEST_PERF_WALL_MAX_MIB);
	char *end;
	unsigned long mib;

	if (!v || !*v)
		return PAB_PERF_WALL_MAX_MIB;
	errno = 0;
	mib = strtoul(v, &end, 10);
	return errno || *end || !mib || mib > 1u << 20 ? PAB_PERF_WALL_MAX_MIB : (unsigned)mib;
}

/* A frame line "\tADDR SYM (DSO)": the symbol and the object's file
 * name into name and dso (new memory). The last " (" opens the object: a
 * C++ symbol may hold parentheses and blanks. 0, or -1. */
static int frame_of(const char *p, const char *end, char **name, char **dso)
{
	const char *sym, *open;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (sym = p; sym < end && *sym != ' '; sym++)
		;
	for (open = end - 1; open > sym && !(open[0] == '(' && open[-1] == ' '); open--)
		;
	if (sym >= end || open <= sym || end[-1] != ')')
		return -1;
	sym++;
	*name = xstrndup(sym, (size_t)(open - 1 - sym));
	*dso = xstrndup(open + 1, (size_t)(end - open - 2));
	return 0;
}

/* One sample's frames, innermost first. */
struct sample {
	double period;
	char **names, **dsos;
	size_t n, alloc, alloc2;
	int open;
};

/* Drop sm's frames. */
static void sample_drop(struct sample *sm)
{
	size_t i;

	for (i = 0; i < sm->n; i++) {
		free(sm->names[i]);
		free(sm->dsos[i]);
	}
	sm->n = 0;
	sm->open = 0;
}

/* The frame line q..le into sm (a line that is not one is left out):
 * "[unknown]" reads "???", an object by its file name. */
static void sample_frame(struct sample *sm, const char *q, const char *le)
{
	char *name, *dso;
	const char *base;

	if (frame_of(q, le, &name, &dso))
		return;
	base = strrchr(dso, '/') ? strrchr(dso, '/') + 1 : dso;
	ALLOC_GROW(sm->names, sm->n + 1, sm->alloc);
	ALLOC_GROW(sm->dsos, sm->n + 1, sm->alloc2);
	sm->names[sm->n] = xstrdup(!strcmp(name, "[unknown]") ? "???" : name);
	sm->dsos[sm->n++] = xstrdup(!strcmp(dso, "[kernel.kallsyms]") ? dso : base);
	free(name);
	free(dso);
}

/* The end of a parse: sm's arrays freed, p and stacks merged. */
static void parse_done(struct sample *sm, struct pab_profile *p, struct pab_profile *stacks)
{
	free(sm->names);
	free(sm->dsos);
	pab_profile_merge(p);
	if (stacks)
		pab_profile_merge(stacks);
}

/* The sample's time to its first frame that is not the kernel's, and
 * its user frames, outermost first, as one folded stack "a;b;c". */
static void sample_end(struct sample *sm, struct pab_profile *p, struct pab_profile *stacks)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	const char *leaf = NULL, *leaf_dso = NULL;
	size_t i;

	if (!sm->open)
		return;
	for (i = 0; i < sm->n && !leaf; i++)
		if (strcmp(sm->dsos[i], "[kernel.kallsyms]"))
			leaf = sm->names[i], leaf_dso = sm->dsos[i];
	pab_profile_add(p, leaf ? leaf : "[kernel]", leaf_dso, sm->period, NAN);
	for (i = sm->n; stacks && i-- > 0;)
		if (strcmp(sm->dsos[i], "[kernel.kallsyms]"))
			pab_strbuf_addf(&sb, "%s%s", sb.len ? ";" : "", sm->names[i]);
	if (stacks)
		pab_profile_add(stacks, sb.len ? sb.buf : "[kernel]", NULL, sm->period, NAN);
	pab_strbuf_release(&sb);
	sample_drop(sm);
}

size_t pab_profile_perf_parse(const char *text, size_t len, struct pab_profile *p,
			      struct pab_profile *stacks)
{
	const char *q = text, *end = text + len;
	struct sample sm = { 0 };
	size_t samples = 0;

	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *le = nl ? nl : end;
		char word[32];
		const char *w = q;
		size_t wl;

		while (w < le && *w == ' ')
			w++;
		wl = (size_t)(le - w);
		while (wl && w[wl - 1] == ' ')
			wl--;
		if (*q != '\t' && wl && wl < sizeof(word)) {
			double period;

			memcpy(word, w, wl);
			word[wl] = '\0';
			if (!parse_double(word, 0, 1e18, &period)) {
				sample_end(&sm, p, stacks);
				sm.period = period;
				sm.open = 1;
				samples++;
			}
		} else if (*q == '\t' && sm.open) {
			sample_frame(&sm, q, le);
		} else if (q == le) {
			sample_end(&sm, p, stacks);
		}
		q = le + 1;
	}
	sample_end(&sm, p, stacks);
	parse_done(&sm, p, stacks);
	return samples;
}

/* Off-CPU waits, by thread: a switch away from the CPU to sleep or wait
 * (state S or D; a preemption, R, is the machine's load, not the
 * program's wait) opens one, the thread's next event of any kind closes
 * it. */
struct wait {
	long tid;
	double since;    /* seconds, perf's clock */
	char *function;  /* the function that waited; NULL: preempted, ready */
	char *stack;     /* folded, ending in PAB_PERF_OFF_CPU */
};

struct waits {
	struct wait *v;
	size_t n, alloc;
};

/* The thread's open wait, or NULL. */
static struct wait *wait_of(struct waits *w, long tid)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].tid == tid)
			return &w->v[i];
	return NULL;
}

/* Close tid's open wait at t, into p and stacks (a time ready to run into
 * times->ready_ns alone). */
static void wait_close(struct waits *w, long tid, double t, struct pab_profile *p,
		       struct pab_profile *stacks, struct pab_perf_wall_times *times)
{
	struct wait *x = wait_of(w, tid);
	double ns;

	if (!x)
		return;
	ns = (t - x->since) * 1e9;
	if (ns > 0 && !x->function) {
		times->ready_ns += ns;
	} else if (ns > 0) {
		pab_profile_add(p, x->function, NULL, ns, NAN);
		if (stacks)
			pab_profile_add(stacks, x->stack, NULL, ns, NAN);
		times->off_ns += ns;
	}
	free(x->function);
	free(x->stack);
	*x = w->v[--w->n];
}

/* A frame of the kernel, the C library or the dynamic loader: a wait is
 * the first frame outside them's (usleep's caller, not clock_nanosleep). */
static int system_frame(const char *dso)
{
	return !strcmp(dso, "[kernel.kallsyms]") || !strcmp(dso, "inlined") ||
		!strncmp(dso, "libc.so", 7) || !strncmp(dso, "libc-", 5) ||
		!strncmp(dso, "ld-linux", 8) || !strncmp(dso, "libpthread", 10);
}

/* The switch-out sample sm of tid at t opens its wait. */
static void wait_open(struct waits *w, long tid, double t, struct sample *sm)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	struct wait *x;
	const char *fn = NULL;
	size_t i;

	for (i = 0; i < sm->n && !fn; i++)
		if (!system_frame(sm->dsos[i]))
			fn = sm->names[i];
	for (i = 0; i < sm->n && !fn; i++)
		if (strcmp(sm->dsos[i], "[kernel.kallsyms]"))
			fn = sm->names[i];
	for (i = sm->n; i-- > 0;)
		if (strcmp(sm->dsos[i], "[kernel.kallsyms]"))
			pab_strbuf_addf(&sb, "%s;", sm->names[i]);
	pab_strbuf_addstr(&sb, PAB_PERF_OFF_CPU);
	ALLOC_GROW(w->v, w->n + 1, w->alloc);
	x = &w->v[w->n++];
	x->tid = tid;
	x->since = t;
	x->function = xasprintf("%s " PAB_PERF_OFF_CPU, fn ? fn : "[kernel]");
	x->stack = pab_strbuf_detach(&sb);
}

/* The preemption of tid at t opens its time ready to run. */
static void ready_open(struct waits *w, long tid, double t)
{
	ALLOC_GROW(w->v, w->n + 1, w->alloc);
	w->v[w->n].tid = tid;
	w->v[w->n].since = t;
	w->v[w->n].function = w->v[w->n].stack = NULL;
	w->n++;
}

/* A header line "TID TIME: PERIOD EVENT: TRACE" (kind 1: on the CPU, 2: a
 * switch to wait, 4: a preemption), or a task event "TID TIME:
 * PERF_RECORD_EXIT(...)" (kind 3, period 0): 1 with its fields, else 0. */
static int wall_header(const char *q, const char *le, long *tid, double *t, double *period,
		       int *kind)
{
	char line[512], ev[64];
	size_t n = (size_t)(le - q);
	const char *trace;

	if (n >= sizeof(line) || *q == '\t')
		return 0;
	memcpy(line, q, n);
	line[n] = '\0';
	if (sscanf(line, " %ld %lf: %lf %63s", tid, t, period, ev) != 4) {
		if (sscanf(line, " %ld %lf: %63s", tid, t, ev) != 3 ||
		    strncmp(ev, "PERF_RECORD_", 12))
			return 0;
		*period = 0;
		*kind = 3;
		return 1;
	}
	if (!strncmp(ev, "cpu-clock", 9)) {
		*kind = 1;
	} else if (!strcmp(ev, "sched:sched_switch:")) {
		trace = strstr(line, " prev_state=");
		*kind = !trace ? 3 : trace[12] == 'S' || trace[12] == 'D' ? 2 :
			trace[12] == 'R' ? 4 : 3;
	} else {
		*kind = 3;
	}
	return 1;
}

size_t pab_profile_perf_wall_parse(const char *text, size_t len, struct pab_profile *p,
				   struct pab_profile *stacks, struct pab_perf_wall_times *times)
{
	const char *q = text, *end = text + len;
	struct sample sm = { 0 };
	struct waits w = { 0 };
	size_t samples = 0, i;
	long tid = 0;
	double t = 0, period = 0, t_first = NAN;
	int kind = 0;

	memset(times, 0, sizeof(*times));
	while (q <= end) {
		const char *nl = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
		const char *le = nl ? nl : end;
		if (q == le || q == end) {
			/* A sample ends: on the CPU, its time as the cpu profile's;
			 * a switch to wait, the thread's wait opens. */
			if (sm.open && kind == 1) {
				sample_end(&sm, p, stacks);
				times->on_ns += period;
			} else if (sm.open && kind == 2) {
				wait_open(&w, tid, t, &sm);
			}
			sample_drop(&sm);
		} else if (*q != '\t' && wall_header(q, le, &tid, &t, &period, &kind)) {
			sample_drop(&sm);
			wait_close(&w, tid, t, p, stacks, times);
			if (kind == 4)
				ready_open(&w, tid, t);
			/* perf stamps the tasks it found at its start with time 0. */
			if (isnan(t_first) && t > 0)
				t_first = t;
			if (t > 0)
				times->span_ns = (t - t_first) * 1e9;
			sm.period = period;
			sm.open = kind == 1 || kind == 2;
			samples += kind == 1 || kind == 2;
		} else if (*q == '\t' && sm.open) {
			sample_frame(&sm, q, le);
		}
		if (q == end)
			break;
		q = le + 1;
	}
	sample_drop(&sm);
	/* A wait no event closed: the thread ended asleep, or the run did. */
	for (i = 0; i < w.n; i++) {
		free(w.v[i].function);
		free(w.v[i].stack);
	}
	free(w.v);
	parse_done(&sm, p, stacks);
	return samples;
}

/* `tool script -i data -F fields [--show-task-events]` into out_path,
 * read back (new memory, *len), or NULL with *why. */
static char *perf_script(const char *tool, const char *data, const char *fields,
			 int task_events, const char *out_path, size_t *len, char **why)
{
	char *argv[] = { (char *)tool, "script", "-i", (char *)data, "-F", (char *)fields,
			 task_events ? "--show-task-events" : NULL, NULL };
	posix_spawn_file_actions_t fa;
	char *text;
	pid_t pid;
	int status = 0, err;

	*why = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	err = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		*why = xasprintf("'%s script' failed on '%s'%s%s", tool, data, err ? ": " : "",
				 err ? strerror(err) : "");
		return NULL;
	}
	text = read_file_max(out_path, SCRIPT_MAX_BYTES, len);
	if (!text)
		*why = xasprintf("cannot read '%s': %s", out_path, strerror(errno));
	return text;
}

long pab_profile_perf_file(const char *tool, const char *data, const char *out_path,
			   struct pab_profile *p, struct pab_profile *stacks, char **why)
{
	size_t len, n;
	char *text = perf_script(tool, data, "period,ip,sym,dso", 0, out_path, &len, why);

	if (!text)
		return -1;
	n = pab_profile_perf_parse(text, len, p, stacks);
	free(text);
	if (!n)
		*why = xasprintf("perf recorded no sample in '%s'", data);
	return (long)n;
}

/* Test hook: the first N wall profiles lose their switches to wait, as
 * when perf's reader falls behind and drops events: each becomes a
 * switch of a thread that ended (X), which opens nothing
 * (tests/e2e/attribution_time.sh). */
static void lose_waits_for_test(char *text)
{
	static long lost;
	const char *v = pab_test_hook(PAB_TEST_PERF_WALL_LOSE_WAITS);
	long n;
	char *s;

	if (!v || parse_long(v, 0, 1000, &n) || lost >= n)
		return;
	lost++;
	for (s = text; (s = strstr(s, " prev_state=")); s += 12)
		if (s[12] == 'S' || s[12] == 'D')
			s[12] = 'X';
}

long pab_profile_perf_wall_file(const char *tool, const char *data, const char *out_path,
				struct pab_profile *p, struct pab_profile *stacks,
				struct pab_perf_wall_times *times, char **why)
{
	size_t len, n;
	char *text = perf_script(tool, data, "tid,time,period,event,trace,ip,sym,dso", 1,
				 out_path, &len, why);

	if (!text)
		return -1;
	lose_waits_for_test(text);
	n = pab_profile_perf_wall_parse(text, len, p, stacks, times);
	free(text);
	if (!n)
		*why = xasprintf("perf recorded no sample in '%s'", data);
	return (long)n;
}
