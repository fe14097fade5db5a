/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_attribution.c — the pieces of attribution (doc/attribution.md)
 * that run nothing: the difference of two profiles (src/profile.h), the
 * readers of cachegrind's and DHAT's files (probe/profile_cg.h,
 * probe/profile_dhat.h, probe/profile_perf.h), an ELF file's names (probe/elfsyms.h), and the
 * artifact's "attribution" list read back as written
 * (store/attribution_json.h through the artifact codec).
 *
 * The files fed to the readers are what valgrind 3.19 writes: a
 * cachegrind file with fl= and fn= lines (a function under two files, a
 * line of no debug info), a DHAT file whose first frames are the
 * allocator's.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/attribution.h"
#include "probe/elfsyms.h"
#include "probe/profile_cg.h"
#include "probe/profile_dhat.h"
#include "probe/profile_perf.h"
#include "profile.h"
#include "store/artifact_read.h"
#include "store/artifact_write.h"
#include "util.h"

#include "unit.h"

/* Two profiles: hot moves by +300, cold by -20, same does not move,
 * gone leaves (-50), new comes (+70). */
static void two_profiles(struct pab_profile *b, struct pab_profile *h)
{
	pab_profile_init(b);
	pab_profile_init(h);
	pab_profile_add(b, "hot", "a.c", 600, NAN);
	pab_profile_add(b, "hot", "b.c", 400, NAN); /* the same name elsewhere */
	pab_profile_add(b, "cold", "c.c", 100, NAN);
	pab_profile_add(b, "same", NULL, 5, NAN);
	pab_profile_add(b, "gone", NULL, 50, NAN);
	pab_profile_add(h, "hot", "a.c", 1300, NAN);
	pab_profile_add(h, "cold", "c.c", 80, NAN);
	pab_profile_add(h, "same", NULL, 5, NAN);
	pab_profile_add(h, "new", "n.c", 70, NAN);
}

START_TEST(diff_orders_by_change)
{
	struct pab_profile b, h;
	struct pab_profile_move *v;
	size_t n;
	double sum;

	two_profiles(&b, &h);
	ck_assert(b.total == 1155 && h.total == 1455);
	sum = pab_profile_diff(&b, &h, 10, &v, &n);
	/* "same" did not move: left out; the rest by |change|. */
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(v[0].name, "hot");
	ck_assert(v[0].base == 1000 && v[0].head == 1300);
	ck_assert_str_eq(v[0].where, "a.c"); /* the largest amount's file */
	ck_assert_str_eq(v[1].name, "new");
	ck_assert(v[1].base == 0 && v[1].head == 70);
	ck_assert_str_eq(v[2].name, "gone");
	ck_assert(v[2].base == 50 && v[2].head == 0);
	ck_assert_str_eq(v[3].name, "cold");
	ck_assert(sum == 300 + 70 - 50 - 20);
	pab_profile_moves_free(v, n);
	/* top 1: only hot, and the sum is its change alone. */
	sum = pab_profile_diff(&b, &h, 1, &v, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert(sum == 300);
	ck_assert(pab_profile_amount(&b, "hot") == 1000 && pab_profile_amount(&b, "nope") == 0);
	pab_profile_moves_free(v, n);
	pab_profile_release(&b);
	pab_profile_release(&h);
}
END_TEST

START_TEST(explained_share)
{
	struct pab_attribution a;

	pab_attribution_init(&a);
	ck_assert(isnan(pab_attribution_explained(&a)));
	a.base_total = 1000;
	a.head_total = 1400;
	a.items = xcalloc(2, sizeof(*a.items));
	a.n_items = 2;
	a.items[0].name = xstrdup("f");
	a.items[0].base = 100, a.items[0].head = 420;
	a.items[1].name = xstrdup("g");
	a.items[1].base = 10, a.items[1].head = 50;
	ck_assert(fabs(pab_attribution_explained(&a) - 0.9) < 1e-12);
	ck_assert(pab_attribution_change(&a) == 400);
	a.head_total = 1000; /* no change: no share */
	ck_assert(isnan(pab_attribution_explained(&a)));
	pab_attribution_release(&a);
}
END_TEST

static const char cg_file[] =
	"desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	"cmd: ./prog extra_pct=30\n"
	"events: Ir\n"
	"fl=/src/prog.c\n"
	"fn=sort_keys\n"
	"45 900\n"
	"46 600\n"
	"fn=main\n"
	"90 7\n"
	"fl=/src/other.c\n"
	"fn=sort_keys\n"
	"3 100\n"
	"fl=???\n"
	"fn=???\n"
	"0 2000\n"
	"summary: 3607\n";

START_TEST(cachegrind_by_function_and_line)
{
	struct pab_profile fns, lines;
	char *why = NULL;

	pab_profile_init(&fns);
	pab_profile_init(&lines);
	ck_assert_int_eq(pab_profile_cachegrind_parse(cg_file, strlen(cg_file), &fns, &lines,
						      &why), 0);
	ck_assert_ptr_null(why);
	ck_assert(fns.total == 3607);
	ck_assert(pab_profile_amount(&fns, "sort_keys") == 1600);
	ck_assert(pab_profile_amount(&fns, "main") == 7);
	ck_assert(pab_profile_amount(&fns, PAB_PROFILE_UNKNOWN) == 2000);
	ck_assert(pab_profile_amount(&lines, "/src/prog.c:45") == 900);
	ck_assert(pab_profile_amount(&lines, "/src/other.c:3") == 100);
	/* A line of no debug info is no source line. */
	ck_assert(lines.total == 1607);
	pab_profile_release(&fns);
	pab_profile_release(&lines);
}
END_TEST

START_TEST(cachegrind_refusals)
{
	static const char no_events[] = "fn=f\n1 2\n";
	static const char junk[] = "events: Ir\nfn=f\n1 x2\n";
	static const char other_col[] = "events: Dr Ir\nfn=f\n1 5 7\n2 5\n";
	struct pab_profile fns, lines;
	char *why = NULL;

	pab_profile_init(&fns);
	pab_profile_init(&lines);
	ck_assert_int_eq(pab_profile_cachegrind_parse(no_events, strlen(no_events), &fns, &lines,
						      &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "events:"));
	free(why);
	ck_assert_int_eq(pab_profile_cachegrind_parse(junk, strlen(junk), &fns, &lines, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "malformed"));
	free(why);
	pab_profile_release(&fns);
	pab_profile_init(&fns);
	/* Ir in the second column; a short line's missing counts are 0. */
	ck_assert_int_eq(pab_profile_cachegrind_parse(other_col, strlen(other_col), &fns, &lines,
						      &why), 0);
	ck_assert(pab_profile_amount(&fns, "f") == 7);
	pab_profile_release(&fns);
	pab_profile_release(&lines);
}
END_TEST

/* One 32 MiB block from grow_cache, 2000 blocks of 256 B from
 * small_nodes, a block freed before the peak (gb 0). */
static const char dhat_file[] =
	"{\"dhatFileVersion\":2,\"mode\":\"heap\",\"cmd\":\"./prog hold_mib=32\",\"pid\":7,"
	"\"pps\":[{\"tb\":33554432,\"tbk\":1,\"mb\":33554432,\"mbk\":1,\"gb\":33554432,"
	"\"gbk\":1,\"eb\":33554432,\"ebk\":1,\"fs\":[1,2,3]},"
	"{\"tb\":512000,\"tbk\":2000,\"gb\":512000,\"gbk\":2000,\"fs\":[1,4,3]},"
	"{\"tb\":64,\"tbk\":1,\"gb\":0,\"gbk\":0,\"fs\":[5,3]}],"
	"\"ftbl\":[\"[root]\","
	"\"0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)\","
	"\"0x1091E4: grow_cache (prog.c:52)\",\"0x109233: main (prog.c:94)\","
	"\"0x1091F0: small_nodes (prog.c:63)\","
	"\"0x4841F00: calloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)\"]}";

START_TEST(dhat_sites_at_peak)
{
	struct pab_profile p;
	char *why = NULL;
	size_t i;
	int seen = 0;

	pab_profile_init(&p);
	ck_assert_int_eq(pab_profile_dhat_parse(dhat_file, strlen(dhat_file), &p, &why), 0);
	ck_assert_uint_eq(p.n, 2);
	for (i = 0; i < p.n; i++) {
		if (!strcmp(p.v[i].name, "grow_cache (prog.c:52)")) {
			ck_assert(p.v[i].amount == 33554432 && p.v[i].blocks == 1);
			ck_assert_str_eq(p.v[i].where, "main (prog.c:94)");
			seen++;
		} else {
			ck_assert_str_eq(p.v[i].name, "small_nodes (prog.c:63)");
			ck_assert(p.v[i].amount == 512000 && p.v[i].blocks == 2000);
			seen++;
		}
	}
	ck_assert_int_eq(seen, 2);
	pab_profile_release(&p);
	pab_profile_init(&p);
	ck_assert_int_eq(pab_profile_dhat_parse("{\"pps\":1}", 9, &p, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "not a DHAT"));
	free(why);
	pab_profile_release(&p);
}
END_TEST

START_TEST(elf_names_of_this_test)
{
	struct pab_elf_names n;
	char *why = NULL;

	/* The test program itself is built with a symbol table. */
	ck_assert_int_eq(pab_elf_names("/proc/self/exe", &n, &why), 0);
	ck_assert_int_eq(n.symtab, 1);
	ck_assert_int_eq(pab_elf_names("/etc/hostname", &n, &why), -1);
	ck_assert_ptr_nonnull(why);
	free(why);
}
END_TEST

/* perf script -F period,ip,sym,dso: a sample in sort_keys, one whose
 * leaf is the kernel's on behalf of memset, one of kernel frames only. */
static const char perf_script[] =
	"    100000 \n"
	"\t            1149 sort_keys (/tmp/prog)\n"
	"\t            11a0 main (/tmp/prog)\n"
	"\n"
	"    100000 \n"
	"\tffffffff82241156 exc_page_fault ([kernel.kallsyms])\n"
	"\t           1c2f0 __memset_avx2_unaligned_erms (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\t            11a0 main (/tmp/prog)\n"
	"\n"
	"    250000 \n"
	"\tffffffff8162bc5f __split_vma ([kernel.kallsyms])\n"
	"\n"
	"    100000 \n"
	"\t    7f392a7978a8 [unknown] ([unknown])\n";

START_TEST(perf_samples_by_function)
{
	struct pab_profile p, st;

	pab_profile_init(&p);
	pab_profile_init(&st);
	ck_assert_uint_eq(pab_profile_perf_parse(perf_script, strlen(perf_script), &p, &st), 4);
	ck_assert(p.total == 550000);
	ck_assert(pab_profile_amount(&p, "sort_keys") == 100000);
	ck_assert(pab_profile_amount(&p, "main") == 0); /* not the first frame */
	ck_assert(pab_profile_amount(&p, "__memset_avx2_unaligned_erms") == 100000);
	ck_assert(pab_profile_amount(&p, "[kernel]") == 250000);
	ck_assert(pab_profile_amount(&p, "???") == 100000);
	/* Stacks of user frames, outermost first. */
	ck_assert(pab_profile_amount(&st, "main;sort_keys") == 100000);
	ck_assert(pab_profile_amount(&st, "main;__memset_avx2_unaligned_erms") == 100000);
	ck_assert(pab_profile_amount(&st, "[kernel]") == 250000);
	ck_assert(st.total == 550000);
	pab_profile_release(&p);
	pab_profile_release(&st);
}
END_TEST

/* `perf script -F tid,time,period,event,trace,ip,sym,dso` of a wall
 * profile: thread 7 runs (a cpu-clock sample), sleeps in usleep called by
 * wait_for_reply for 0.2 s (closed by its next sample), is preempted
 * (R: the machine's load, not a wait: time ready to run, in no profile)
 * and sleeps at the end unclosed. */
static const char perf_wall_script[] =
	"      7 100.000000:     500000 cpu-clock: \n"
	"\t            11f3 sort_keys (/t/attr_prog)\n"
	"\t            108a main (/t/attr_prog)\n"
	"\n"
	"      7 100.001000:          1 sched:sched_switch: prev_comm=a prev_pid=7 "
	"prev_prio=120 prev_state=S ==> next_comm=b next_pid=8 next_prio=120\n"
	"\tffffffff82246e88 __schedule ([kernel.kallsyms])\n"
	"\t           cf503 __GI___clock_nanosleep (inlined)\n"
	"\t           ff294 usleep (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\t            11ac wait_for_reply (/t/attr_prog)\n"
	"\t            1090 main (/t/attr_prog)\n"
	"\n"
	"      7 100.201000:     500000 cpu-clock: \n"
	"\t            11f3 sort_keys (/t/attr_prog)\n"
	"\t            108a main (/t/attr_prog)\n"
	"\n"
	"      7 100.202000:          1 sched:sched_switch: prev_comm=a prev_pid=7 "
	"prev_prio=120 prev_state=R ==> next_comm=b next_pid=8 next_prio=120\n"
	"\tffffffff82246e88 __schedule ([kernel.kallsyms])\n"
	"\t            11f3 sort_keys (/t/attr_prog)\n"
	"\n"
	"      7 100.900000:     500000 cpu-clock: \n"
	"\t            11f3 sort_keys (/t/attr_prog)\n"
	"\n"
	"      7 100.901000:          1 sched:sched_switch: prev_comm=a prev_pid=7 "
	"prev_prio=120 prev_state=D ==> next_comm=b next_pid=8 next_prio=120\n"
	"\t            11ac wait_for_reply (/t/attr_prog)\n";

START_TEST(perf_wall_script_waits_and_runs)
{
	struct pab_profile p, st;
	struct pab_perf_wall_times tm;

	pab_profile_init(&p);
	pab_profile_init(&st);
	ck_assert_uint_eq(pab_profile_perf_wall_parse(perf_wall_script, sizeof(perf_wall_script) - 1,
						      &p, &st, &tm), 5);
	ck_assert(tm.on_ns == 1500000);
	/* The sleep: 0.2 s to usleep's caller, not to the C library; the
	 * preemption's 0.698 s until the next sample is no wait but time
	 * ready to run; the record spans 0.901 s. */
	ck_assert(fabs(tm.off_ns - 2e8) < 1);
	ck_assert(fabs(tm.ready_ns - 6.98e8) < 1);
	ck_assert(fabs(tm.span_ns - 9.01e8) < 1);
	ck_assert(fabs(pab_profile_amount(&p, "wait_for_reply [off-CPU]") - 2e8) < 1);
	ck_assert(pab_profile_amount(&p, "usleep [off-CPU]") == 0);
	ck_assert(pab_profile_amount(&p, "sort_keys") == 1500000);
	ck_assert(fabs(pab_profile_amount(&st, "main;wait_for_reply;usleep;"
					  "__GI___clock_nanosleep;[off-CPU]") - 2e8) < 1);
	ck_assert(pab_profile_amount(&st, "main;sort_keys") == 1000000);
	ck_assert(fabs(p.total - (1500000 + 2e8)) < 1);
	pab_profile_release(&p);
	pab_profile_release(&st);
}
END_TEST

/* A program that sleeps and exits before perf samples it again: the
 * kernel records no switch after the exit, so its exit (a task event of
 * --show-task-events) closes the wait; a thread that has not exited keeps
 * its wait open to the end of the data, and counts nothing. The record
 * spans its events from the exec to the exit: the task perf found at its
 * start is stamped 0 and left out. */
static const char perf_wall_exit_script[] =
	"      0     0.000000: PERF_RECORD_COMM: perf-exec:7/7\n"
	"      7 100.000000: PERF_RECORD_COMM exec: attr_prog:7/7\n"
	"      7 100.000000:     500000 cpu-clock: \n"
	"\t            108a main (/t/attr_prog)\n"
	"\n"
	"      7 100.001000:          1 sched:sched_switch: prev_comm=a prev_pid=7 "
	"prev_prio=120 prev_state=S ==> next_comm=b next_pid=8 next_prio=120\n"
	"\t           ff294 usleep (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\t            11ac wait_for_reply (/t/attr_prog)\n"
	"\n"
	"      9 100.002000:          1 sched:sched_switch: prev_comm=a prev_pid=9 "
	"prev_prio=120 prev_state=S ==> next_comm=b next_pid=8 next_prio=120\n"
	"\t            11ac poll_loop (/t/attr_prog)\n"
	"\n"
	"      7 100.221000: PERF_RECORD_EXIT(7:7):(6:6)\n";

START_TEST(perf_wall_exit_closes_the_wait)
{
	struct pab_profile p;
	struct pab_perf_wall_times tm;

	pab_profile_init(&p);
	ck_assert_uint_eq(pab_profile_perf_wall_parse(perf_wall_exit_script,
						      sizeof(perf_wall_exit_script) - 1, &p, NULL,
						      &tm), 3);
	ck_assert(tm.on_ns == 500000);
	ck_assert(fabs(tm.off_ns - 2.2e8) < 1);
	ck_assert(tm.ready_ns == 0);
	ck_assert(fabs(tm.span_ns - 2.21e8) < 1);
	ck_assert(fabs(pab_profile_amount(&p, "wait_for_reply [off-CPU]") - 2.2e8) < 1);
	ck_assert(pab_profile_amount(&p, "poll_loop [off-CPU]") == 0);
	pab_profile_release(&p);
}
END_TEST

/* One attribution, put at the end of a stored artifact. */
static const char attr_json[] =
	",\"attribution\":[{\"row\":\"r\",\"arm\":\"head\",\"metric\":\"peak_rss\","
	"\"profiler\":\"dhat\",\"source\":\"extra run\",\"note\":null,\"base_total\":10,"
	"\"head_total\":110,\"cost_s\":1.5,\"base_stripped\":false,\"head_stripped\":true,"
	"\"items\":[{\"name\":\"grow (p.c:5)\",\"where\":null,\"base\":0,\"head\":100,"
	"\"base_blocks\":0,\"head_blocks\":1}]}]}";

/* tests/data/demo-run.json with attr_json in place of its last brace. */
static char *artifact_with_attr(size_t *len)
{
	char *demo = unit_data("demo-run.json", NULL), *end = strrchr(demo, '}'), *text;

	*end = '\0';
	text = xasprintf("%s%s", demo, attr_json);
	free(demo);
	*len = strlen(text);
	return text;
}

START_TEST(artifact_keeps_attribution)
{
	struct pab_experiment e;
	char path[] = "/tmp/perfab-test-attr-XXXXXX", *why = NULL, *in, *text;
	size_t in_len, len;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	in = artifact_with_attr(&in_len);
	ck_assert_msg(!pab_artifact_parse(in, in_len, &e, &why), "%s", why ? why : "");
	ck_assert_uint_eq(e.n_attr, 1);
	ck_assert_int_eq(e.attr[0].metric, PAB_M_PEAK_RSS);
	ck_assert_int_eq(e.attr[0].head_stripped, 1);
	ck_assert(e.attr[0].items[0].head_blocks == 1);
	/* Saved and read again: the same attribution. */
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	pab_experiment_release(&e);
	text = read_file_max(path, 1 << 24, &len);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(text, "\"head_blocks\":1"));
	ck_assert_int_eq(pab_artifact_parse(text, len, &e, &why), 0);
	ck_assert_uint_eq(e.n_attr, 1);
	ck_assert(e.attr[0].cost_s == 1.5 && e.attr[0].head_total == 110);
	ck_assert_str_eq(e.attr[0].items[0].name, "grow (p.c:5)");
	pab_experiment_release(&e);
	free(text);
	/* An unknown metric is refused, with where it is. */
	memcpy(strstr(in, "\"metric\":\"peak_rss\"") + 9, "\"peak_rsX\"", 10);
	ck_assert_int_ne(pab_artifact_parse(in, in_len, &e, &why), 0);
	ck_assert_ptr_nonnull(strstr(why, "attribution"));
	free(why);
	free(in);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("attribution");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, diff_orders_by_change);
	tcase_add_test(tc, explained_share);
	tcase_add_test(tc, cachegrind_by_function_and_line);
	tcase_add_test(tc, cachegrind_refusals);
	tcase_add_test(tc, dhat_sites_at_peak);
	tcase_add_test(tc, elf_names_of_this_test);
	tcase_add_test(tc, perf_samples_by_function);
	tcase_add_test(tc, perf_wall_script_waits_and_runs);
	tcase_add_test(tc, perf_wall_exit_closes_the_wait);
	tcase_add_test(tc, artifact_keeps_attribution);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
