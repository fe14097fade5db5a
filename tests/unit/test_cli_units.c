/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_cli_units.c — unit tests of the CLI modules linked from
 * libperfab.a: the rotate-reverse/1 protocol, shell-free argv splitting,
 * the artifact round trip and its balance check.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "common/numparse.h"
#include "model/argv_split.h"
#include "store/artifact_read.h"
#include "store/artifact_write.h"
#include "model/experiment.h"
#include "report/format.h"
#include "store/journal.h"
#include "store/tempfile.h"
#include "model/rotation.h"
#include "report/report.h"
#include "run/runconf.h"
#include "term.h"
#include "test_hooks.h"
#include "util.h"

#include "unit.h"

/* Every arm in every position exactly once per block, for 1..6 arms. */
START_TEST(rotation_balance)
{
	size_t n, rep, k, block;

	for (n = 1; n <= 6; n++) {
		for (block = 0; block < 4; block++) {
			size_t count[6][6] = { { 0 } };

			for (rep = block * n; rep < (block + 1) * n; rep++) {
				size_t order[6], seen[6] = { 0 };

				pab_rotation_order(n, rep, order);
				ck_assert_uint_eq(pab_rotation_block(n, rep), block);
				for (k = 0; k < n; k++) {
					ck_assert_uint_lt(order[k], n);
					seen[order[k]]++;
					count[order[k]][k]++;
				}
				for (k = 0; k < n; k++)
					ck_assert_uint_eq(seen[k], 1); /* a permutation */
			}
			for (k = 0; k < n * n; k++)
				ck_assert_uint_eq(count[k / n][k % n], 1);
		}
	}
}
END_TEST

/* Three arms: two blocks run all six permutations; odd blocks reverse. */
START_TEST(rotation_three_arms_all_permutations)
{
	int seen[3][3][3] = { { { 0 } } };
	size_t rep, k, order[3], fwd[3];

	for (rep = 0; rep < 6; rep++) {
		pab_rotation_order(3, rep, order);
		seen[order[0]][order[1]][order[2]]++;
	}
	for (rep = 0; rep < 27; rep++) {
		size_t a = rep / 9, b = rep / 3 % 3, c = rep % 3;

		ck_assert_int_eq(seen[a][b][c], a != b && b != c && a != c);
	}
	for (rep = 0; rep < 3; rep++) {
		pab_rotation_order(3, rep, fwd);
		pab_rotation_order(3, rep + 3, order);
		for (k = 0; k < 3; k++)
			ck_assert_uint_eq(order[k], fwd[2 - k]);
	}
	ck_assert_uint_eq(pab_rotation_round_up(3, 7), 9);
	ck_assert_uint_eq(pab_rotation_round_up(3, 6), 6);
	/* No arms: every rep is in block 0, and reps are not rounded. */
	ck_assert_uint_eq(pab_rotation_block(0, 5), 0);
	ck_assert_uint_eq(pab_rotation_round_up(0, 5), 5);
	ck_assert_uint_eq(pab_rotation_round_up(3, 1), 3);
	ck_assert_uint_eq(pab_rotation_round_up(2, 5), 6);
}
END_TEST

static void check_split(const char *cmd, const char *const *want, size_t n)
{
	char **argv;
	size_t argc, i;
	const char *why;

	ck_assert_msg(!pab_argv_split(cmd, &argv, &argc, &why), "split '%s'", cmd);
	ck_assert_uint_eq(argc, n);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(argv[i], want[i]);
	ck_assert_ptr_null(argv[n]);
	pab_argv_free(argv);
}

START_TEST(argv_split_quoting)
{
	static const char *const w1[] = { "a", "b", "c" };
	static const char *const w2[] = { "x y", "q\"z", "a\\b" };
	static const char *const w3[] = { "abc", "" };
	static const char *const w4[] = { "$(rm", "-rf", "/)", ";", "`id`", "|", "&&" };
	static const char *const w5[] = { "it's", "a b" };
	char **argv;
	size_t argc;
	const char *why;

	check_split("  a \tb\nc  ", w1, 3);
	check_split("'x y' \"q\\\"z\" 'a\\b'", w2, 3);
	check_split("a'b'\"c\" ''", w3, 2);
	check_split("$(rm -rf /) ; `id` | &&", w4, 7);
	check_split("it\\'s a\\ b", w5, 2);
	ck_assert_int_eq(pab_argv_split("'open", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "unterminated single quote");
	ck_assert_int_eq(pab_argv_split("\"open", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "unterminated double quote");
	ck_assert_int_eq(pab_argv_split("   ", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "empty command");
	ck_assert_int_eq(pab_argv_split("x\\", &argv, &argc, &why), -1);
	ck_assert_str_eq(why, "trailing backslash");
}
END_TEST

/* pab_argv_join renders words that split back to themselves. */
/* {NAME} put in for the parameters named, nothing else touched. */
START_TEST(argv_expand_placeholders)
{
	const char *names[] = { "n", "mode" }, *values[] = { "8", "fast" };
	static const char *const cases[] = {
		"{n}", "8",
		"--threads={n},{mode}", "--threads=8,fast",
		"{n}{n}", "88",
		"{N} {x} {} {n", "{N} {x} {} {n",
		"{{n}}", "{8}",
		"", "",
		"{mode}s/{nn}", "fasts/{nn}",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i += 2) {
		char *got = pab_argv_expand(cases[i], names, values, 2);

		ck_assert_str_eq(got, cases[i + 1]);
		free(got);
	}
	ck_assert_int_eq(pab_argv_mentions("a{n}b", "n"), 1);
	ck_assert_int_eq(pab_argv_mentions("a{nn}b {n", "n"), 0);
	ck_assert_int_eq(pab_argv_mentions("{mode}", "mod"), 0);
}
END_TEST

START_TEST(argv_join_round_trip)
{
	char *words[] = { "plain", "with space", "it's", "$(x)", "", NULL };
	char *joined = pab_argv_join(words, 5), **back;
	size_t argc, i;
	const char *why;

	ck_assert_int_eq(pab_argv_split(joined, &back, &argc, &why), 0);
	ck_assert_uint_eq(argc, 5);
	for (i = 0; i < 5; i++)
		ck_assert_str_eq(back[i], words[i]);
	pab_argv_free(back);
	free(joined);
}
END_TEST

static void make_experiment(struct pab_experiment *e, size_t reps)
{
	static const char *names[] = { "base", "head", "null" };
	size_t a, r;

	pab_experiment_init(e);
	e->seed = 42;
	e->n_arms = 3;
	e->arms = xcalloc(3, sizeof(*e->arms));
	for (a = 0; a < 3; a++) {
		e->arms[a].name = xstrdup(names[a]);
		e->arms[a].argv = xcalloc(2, sizeof(char *));
		e->arms[a].argv[0] = xstrdup("/bin/true");
		e->arms[a].argc = 1;
	}
	pab_kv_set(&e->arms[1].env, &e->arms[1].n_env, "LD_PRELOAD", "x.so");
	e->n_rows = 1;
	e->rows = xcalloc(1, sizeof(*e->rows));
	e->rows[0].name = xstrdup("row/1");
	e->rows[0].argv = xcalloc(1, sizeof(char *));
	pab_kv_set(&e->rows[0].params, &e->rows[0].n_params, "threads", "1");
	for (r = 0; r < reps; r++) {
		struct pab_rep *rep = pab_row_add_rep(&e->rows[0], 3);

		rep->block = pab_rotation_block(3, r);
		pab_rotation_order(3, r, rep->order);
		for (a = 0; a < 3; a++) {
			rep->result[a].m[PAB_M_WALL] = 1.0 + 0.01 * (double)(r + a);
			rep->result[a].m[PAB_M_MINOR_FAULTS] = 0; /* a real 0 */
			pab_arm_result_null(&rep->result[a], PAB_M_CYCLES, "no PMU");
		}
	}
	e->reps = e->max_reps = reps;
	e->complete = 1;
}

START_TEST(artifact_round_trip)
{
	struct pab_experiment e, back;
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *file;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	make_experiment(&e, 6);
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	ck_assert_int_eq(pab_artifact_load(path, &back, &why), 0);
	ck_assert_uint_eq(back.n_arms, 3);
	ck_assert_str_eq(back.arms[1].name, "head");
	ck_assert_str_eq(pab_kv_get(back.arms[1].env, back.arms[1].n_env, "LD_PRELOAD"), "x.so");
	ck_assert_uint_eq(back.rows[0].n_reps, 6);
	ck_assert_uint_eq(back.seed, 42);
	ck_assert(back.complete);
	ck_assert_double_eq_tol(back.rows[0].reps[5].result[2].m[PAB_M_WALL], 1.07, 1e-12);
	/* A measured 0 stays 0; an unmeasured value stays NaN with its reason. */
	ck_assert(back.rows[0].reps[0].result[0].m[PAB_M_MINOR_FAULTS] == 0);
	ck_assert(isnan(back.rows[0].reps[0].result[0].m[PAB_M_CYCLES]));
	ck_assert_str_eq(back.rows[0].reps[0].result[0].reason[PAB_M_CYCLES], "no PMU");
	ck_assert_uint_eq(back.rows[0].reps[3].order[0], e.rows[0].reps[3].order[0]);
	ck_assert_int_eq(pab_experiment_check_balanced(&back, &why), 0);
	pab_experiment_release(&back);
	/* No temp file is left next to the artifact. */
	file = xasprintf("%s.tmp.%ld", path, (long)getpid());
	ck_assert_int_ne(access(file, F_OK), 0);
	free(file);
	unlink(path);
	pab_experiment_release(&e);
}
END_TEST

/* Write the first n bytes of text to path. */
static void write_prefix(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	fclose(f);
}

/*
 * The journal reader: records come back in order; a last record cut at
 * any byte is a torn tail (dropped, the rest kept); any byte of a middle
 * record changed is damage (refused), never silently accepted.
 */
START_TEST(journal_torn_tail_and_damage)
{
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *text;
	const char *payloads[] = { "{\"h\":1}", "{\"rep\":1,\"x\":\"a\"}",
				   "{\"rep\":2,\"x\":\"bb\"}", "{\"rep\":3}" };
	struct pab_journal *j;
	struct pab_journal_contents c;
	size_t len, i, end2, n;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(pab_journal_create(path, 7, payloads[0], strlen(payloads[0]), &j, &why), 0);
	for (i = 1; i < 4; i++)
		ck_assert_int_eq(pab_journal_append(j, payloads[i], strlen(payloads[i]), &why), 0);
	ck_assert_uint_eq(pab_journal_last_seq(j), 10);
	pab_journal_close(j);
	ck_assert_int_eq(pab_journal_read(path, &c, &why), 0);
	ck_assert_uint_eq(c.n, 4);
	ck_assert(!c.torn);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(c.records[i].seq, 7 + i);
		ck_assert_uint_eq(c.records[i].len, strlen(payloads[i]));
		ck_assert(!memcmp(c.records[i].payload, payloads[i], c.records[i].len));
	}
	end2 = (size_t)(c.records[2].payload - c.text) + c.records[2].len + 1;
	text = xstrndup(c.text, c.text_len);
	len = c.text_len;
	pab_journal_contents_release(&c);
	/* Every cut inside the last record: three records survive. */
	for (n = end2; n < len; n++) {
		write_prefix(path, text, n);
		ck_assert_int_eq(pab_journal_read(path, &c, &why), 0);
		ck_assert_uint_eq(c.n, 3);
		ck_assert_uint_eq(c.good_bytes, end2);
		ck_assert(c.torn == (n > end2));
		pab_journal_contents_release(&c);
	}
	/* Every byte of record 1 (frame and payload) changed: refused. */
	for (i = (size_t)(strchr(text + 1, '@') - text); i < end2 - 1; i++) {
		char *bad = xstrndup(text, len);

		bad[i] = bad[i] == 'Z' ? 'Y' : 'Z';
		write_prefix(path, bad, len);
		ck_assert_int_eq(pab_journal_read(path, &c, &why), -1);
		ck_assert_ptr_nonnull(why);
		free(why);
		free(bad);
	}
	/* No journal at all is no error. */
	unlink(path);
	ck_assert_int_eq(pab_journal_read(path, &c, &why), 1);
	free(text);
}
END_TEST

/* The bytes of a real journal: a header (seq 0) and one rep (seq 1). */
static char *small_journal(size_t *len)
{
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *text;
	struct pab_journal *j;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(pab_journal_create(path, 0, "{\"h\":1}", 7, &j, &why), 0);
	ck_assert_int_eq(pab_journal_append(j, "{\"rep\":0}", 9, &why), 0);
	pab_journal_close(j);
	text = read_file_max(path, 1 << 20, len);
	ck_assert_ptr_nonnull(text);
	unlink(path);
	return text;
}

/* Append one record numbered seq with payload p to sb, framed by hand. */
static void add_record(struct pab_strbuf *sb, unsigned long long seq, const char *p)
{
	static const char digits[] = "0123456789abcdef";
	char prefix[64], hex[2 * SHA256_DIGEST_SIZE + 2];
	uint8_t d[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;
	int n = snprintf(prefix, sizeof(prefix), "@%llu %zu ", seq, strlen(p));
	size_t i;

	sha256_init(&ctx);
	sha256_update(&ctx, (size_t)n, (const uint8_t *)prefix);
	sha256_update(&ctx, strlen(p), (const uint8_t *)p);
	sha256_digest(&ctx, sizeof(d), d);
	for (i = 0; i < sizeof(d); i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[2 * SHA256_DIGEST_SIZE] = '\n';
	hex[2 * SHA256_DIGEST_SIZE + 1] = '\0';
	pab_strbuf_addf(sb, "%s%s%s\n", prefix, hex, p);
}

#define CRAFTED_BYTES ((size_t)4 << 20)
#define FRAME_WIDTH 88 /* "@" 10 " " 10 " " 64 "\n" */

/*
 * A planted 4 MiB journal costs a reader linear work (work_bytes, the
 * reader's own count of bytes hashed and scanned, at most 4 per byte):
 * a bad record followed by frame lines whose lengths each reach the end
 * of the file (a reader that hashed every candidate did O(size^2) work:
 * minutes) is damage; lines that fail their frame by one byte are a torn
 * tail; 4 MiB of valid records are read whole. A journal over the cap is
 * refused by its size, before it is read.
 */
START_TEST(journal_reader_linear)
{
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *base, line[2 * FRAME_WIDTH];
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	struct pab_journal_contents c;
	size_t blen, start, len, i, lines, seq;
	int fd;

	base = small_journal(&blen);
	/* 1. Damage: a bad record, then lines that each frame the rest. */
	pab_strbuf_add(&sb, base, blen);
	pab_strbuf_addf(&sb, "@2 3 %064d\nabc\n", 0);
	start = sb.len;
	lines = (CRAFTED_BYTES - start) / FRAME_WIDTH;
	len = start + lines * FRAME_WIDTH;
	for (i = 0; i < lines; i++) {
		size_t off = start + (i + 1) * FRAME_WIDTH;
		size_t n = i + 1 < lines ? len - off - 1 : 0;

		ck_assert_int_eq(snprintf(line, sizeof(line), "@%010u %010u %064x\n",
					  (unsigned)(i + 3), (unsigned)n, (unsigned)i),
				 FRAME_WIDTH);
		pab_strbuf_add(&sb, line, FRAME_WIDTH);
	}
	ck_assert_uint_eq(sb.len, len);
	ck_assert_int_eq(pab_journal_parse(xstrndup(sb.buf, sb.len), sb.len, "planted",
					   &c, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "damaged"));
	free(why);
	/* The work of a refusal is not returned; count it on a torn copy:
	 * the same lines with the last hex digit of each made invalid. */
	for (i = start; i < sb.len; i += FRAME_WIDTH)
		sb.buf[i + FRAME_WIDTH - 2] = 'g';
	ck_assert_int_eq(pab_journal_parse(xstrndup(sb.buf, sb.len), sb.len, "planted",
					   &c, &why), 0);
	ck_assert_uint_eq(c.n, 2);
	ck_assert(c.torn);
	ck_assert_uint_eq(c.good_bytes, blen);
	ck_assert_uint_le(c.work_bytes, 4 * c.text_len);
	pab_journal_contents_release(&c);
	/* 2. The bad record's payload reaching the end, nothing framed after. */
	pab_strbuf_release(&sb);
	pab_strbuf_add(&sb, base, blen);
	pab_strbuf_addf(&sb, "@2 %zu %064d\n", CRAFTED_BYTES, 0);
	while (sb.len < CRAFTED_BYTES)
		pab_strbuf_add(&sb, "@1 1 x\n", 7);
	pab_strbuf_add(&sb, "\n", 1);
	ck_assert_int_eq(pab_journal_parse(xstrndup(sb.buf, sb.len), sb.len, "planted",
					   &c, &why), 0);
	ck_assert(c.torn);
	ck_assert_uint_le(c.work_bytes, 4 * c.text_len);
	pab_journal_contents_release(&c);
	/* 3. 4 MiB of valid records: every one read, each hashed once. */
	pab_strbuf_release(&sb);
	pab_strbuf_add(&sb, base, blen);
	for (seq = 2; sb.len < CRAFTED_BYTES; seq++)
		add_record(&sb, seq, "{\"row\":0,\"name\":\"a\",\"rep\":1,\"failed\":false,"
			   "\"fail_reason\":null,\"data\":{}}");
	ck_assert_int_eq(pab_journal_parse(xstrndup(sb.buf, sb.len), sb.len, "planted",
					   &c, &why), 0);
	ck_assert(!c.torn);
	ck_assert_uint_eq(c.n, seq);
	ck_assert_uint_le(c.work_bytes, 4 * c.text_len);
	pab_journal_contents_release(&c);
	pab_strbuf_release(&sb);
	free(base);
	/* 4. Over the cap (a sparse file): refused by its size, unread. */
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)PAB_JOURNAL_MAX_BYTES + 1), 0);
	close(fd);
	ck_assert_int_eq(pab_journal_read(path, &c, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "MiB a journal"));
	free(why);
	unlink(path);
}
END_TEST

START_TEST(artifact_save_failure_keeps_previous)
{
	struct pab_experiment e;
	char *why = NULL;

	make_experiment(&e, 3);
	ck_assert_int_eq(pab_artifact_save(&e, "/nonexistent-dir/x.json", &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent-dir/x.json"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(balance_check_rejects)
{
	struct pab_experiment e;
	char *why;

	make_experiment(&e, 5); /* not whole blocks */
	ck_assert_int_eq(pab_experiment_check_balanced(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "whole number"));
	free(why);
	pab_experiment_release(&e);
	make_experiment(&e, 6);
	e.rows[0].reps[1].order[0] = e.rows[0].reps[0].order[0];
	e.rows[0].reps[1].order[1] = e.rows[0].reps[0].order[1];
	e.rows[0].reps[1].order[2] = e.rows[0].reps[0].order[2];
	ck_assert_int_eq(pab_experiment_check_balanced(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "position"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(durations_and_metric_lists)
{
	double sec = -1;
	int judged[PAB_M_COUNT];
	char *why = NULL;

	ck_assert_int_eq(pab_parse_duration("90", &sec), 0);
	ck_assert_double_eq(sec, 90);
	ck_assert_int_eq(pab_parse_duration("90s", &sec), 0);
	ck_assert_double_eq(sec, 90);
	ck_assert_int_eq(pab_parse_duration("10m", &sec), 0);
	ck_assert_double_eq(sec, 600);
	ck_assert_int_eq(pab_parse_duration("1.5h", &sec), 0);
	ck_assert_double_eq(sec, 5400);
	ck_assert_int_eq(pab_parse_duration("0", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("-5m", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("+5m", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("5x", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("m", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("", &sec), -1);
	ck_assert_int_eq(pab_parse_duration("200h", &sec), -1); /* > a week */
	ck_assert_int_eq(pab_parse_duration(NULL, &sec), -1);

	ck_assert_int_eq(pab_parse_metrics("cpu,peak_rss", judged, &why), 0);
	ck_assert_int_eq(judged[PAB_M_CPU], 1);
	ck_assert_int_eq(judged[PAB_M_PEAK_RSS], 1);
	ck_assert_int_eq(judged[PAB_M_THROUGHPUT], 0);
	ck_assert_int_eq(pab_parse_metrics("p99", judged, &why), 0);
	ck_assert_int_eq(judged[PAB_M_P99], 1);
	ck_assert_int_eq(judged[PAB_M_CPU], 0);
	ck_assert_int_eq(pab_parse_metrics("cpu,,wall", judged, &why), -1);
	ck_assert_ptr_nonnull(why);
	free(why);
	why = NULL;
	ck_assert_int_eq(pab_parse_metrics("rss_floor", judged, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "not a metric that can be judged"));
	free(why);
}
END_TEST

START_TEST(term_safe_escapes_controls)
{
	/* Control characters, DEL, C1 and broken UTF-8 escaped; UTF-8 kept. */
	ck_assert_str_eq(pab_term_safe("a\nb\033[31m\007"), "a\\nb\\x1b[31m\\x07");
	ck_assert_str_eq(pab_term_safe("t\tr\r\\"), "t\\tr\\r\\\\");
	ck_assert_str_eq(pab_term_safe("\x7f\xc2\x9b\xff"), "\\x7f\\xc2\\x9b\\xff");
	ck_assert_str_eq(pab_term_safe("r\xc3\xa9sum\xc3\xa9 \xc2\xb7 \xe2\x80\x94"),
			 "r\xc3\xa9sum\xc3\xa9 \xc2\xb7 \xe2\x80\x94");
	ck_assert_str_eq(pab_term_safe("\xed\xa0\x80"), "\\xed\\xa0\\x80"); /* a surrogate */
	ck_assert_str_eq(pab_term_safe(NULL), "(null)");
}
END_TEST

/* Every PERFAB_TEST_* hook in the table: named once, described, its test
 * there, and read through the table. */
START_TEST(test_hooks_table)
{
	const char *top = getenv("top_srcdir");
	size_t i, k;

	for (i = 0; i < PAB_TEST_HOOK_COUNT; i++) {
		const struct pab_test_hook_def *h = &pab_test_hooks[i];

		ck_assert_ptr_nonnull(h->name);
		ck_assert_int_eq(strncmp(h->name, "PERFAB_TEST_", 12), 0);
		ck_assert(h->what && *h->what && h->test && *h->test);
		for (k = 0; k < i; k++)
			ck_assert_str_ne(h->name, pab_test_hooks[k].name);
		if (top) {
			char *path = xasprintf("%s/%s", top, h->test);

			ck_assert_msg(!access(path, R_OK), "%s: no %s", h->name, path);
			free(path);
		}
	}
	ck_assert_int_eq(setenv("PERFAB_TEST_HISTORY_HOLD", "x", 1), 0);
	ck_assert_str_eq(pab_test_hook(PAB_TEST_HISTORY_HOLD), "x");
	unsetenv("PERFAB_TEST_HISTORY_HOLD");
	ck_assert_ptr_null(pab_test_hook(PAB_TEST_HISTORY_HOLD));
}
END_TEST

/* The one number parser keeps both callers' syntax, by flag. */
START_TEST(numparse_both_syntaxes)
{
	uint64_t u = 0;
	double d = 0;
	long l = 0;

	ck_assert_int_eq(pab_num_u64("7", 0, 100, PAB_NUM_DIGIT_FIRST, &u), 0);
	ck_assert_uint_eq(u, 7);
	ck_assert_int_eq(pab_num_u64("+7", 0, 100, 0, &u), -1);
	ck_assert_int_eq(pab_num_u64("\t7", 0, 100, PAB_NUM_DIGIT_FIRST, &u), -1);
	ck_assert_int_eq(pab_num_u64("4K", 0, UINT64_MAX, 0, &u), -1);
	ck_assert_int_eq(pab_num_u64("4K", 0, UINT64_MAX, PAB_NUM_SIZES, &u), 0);
	ck_assert_uint_eq(u, 4096);
	ck_assert_int_eq(pab_num_double("1.5", 0, 2, PAB_NUM_NO_TAB, &d), 0);
	ck_assert_double_eq(d, 1.5);
	ck_assert_int_eq(pab_num_double("\t1.5", 0, 2, PAB_NUM_NO_TAB, &d), -1);
	ck_assert_int_eq(pab_num_double(" 1.5", 0, 2, 0, &d), -1);
	ck_assert_int_eq(pab_num_long("-3", -5, 5, &l), 0);
	ck_assert_int_eq(l, -3);
	ck_assert_int_eq(pab_num_long(" 3", -5, 5, &l), -1);
}
END_TEST

START_TEST(own_temp_names)
{
	long pid = 0;

	ck_assert(pab_is_own_temp("a.json", "a.json.tmp.123.0123456789abcdef", &pid));
	ck_assert_int_eq(pid, 123);
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.123", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.notes", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.12x.0123456789abcdef", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.123.0123456789ABCDEF", &pid));
	ck_assert(!pab_is_own_temp("a.json", "b.json.tmp.123.0123456789abcdef", &pid));
	ck_assert(!pab_is_own_temp("a.json", "a.json.tmp.123.0123456789abcdef0", &pid));
}
END_TEST

START_TEST(protocol_check_rejects)
{
	struct pab_experiment e;
	size_t r;
	char *why;

	pab_experiment_init(&e);
	e.arms = xcalloc(2, sizeof(*e.arms));
	e.n_arms = 2;
	e.arms[0].name = xstrdup("base");
	e.arms[1].name = xstrdup("head");
	e.rows = xcalloc(1, sizeof(*e.rows));
	e.n_rows = 1;
	e.rows[0].name = xstrdup("r");
	for (r = 0; r < 5; r++) {
		struct pab_rep *rep = pab_row_add_rep(&e.rows[0], 2);

		rep->block = pab_rotation_block(2, r);
		pab_rotation_order(2, r, rep->order);
	}
	ck_assert_int_eq(pab_experiment_check_protocol(&e, &why), 0); /* a partial block is fine */
	e.rows[0].reps[3].block = 7;
	ck_assert_int_eq(pab_experiment_check_protocol(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "block 7, not 1"));
	free(why);
	e.rows[0].reps[3].block = 1;
	e.rows[0].reps[2].order[0] = 0; /* block 1 starts reversed: head first */
	e.rows[0].reps[2].order[1] = 1;
	ck_assert_int_eq(pab_experiment_check_protocol(&e, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "rep 3: the arm order"));
	free(why);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(parse_numbers_checked)
{
	uint64_t u;
	double d;
	long l;

	ck_assert_int_eq(parse_u64("12", 0, 100, &u), 0);
	ck_assert_uint_eq(u, 12);
	ck_assert_int_eq(parse_u64("", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("12x", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("-1", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("101", 0, 100, &u), -1);
	ck_assert_int_eq(parse_u64("99999999999999999999999", 0, UINT64_MAX, &u), -1);
	ck_assert_int_eq(parse_double("2.5", 0, 10, &d), 0);
	ck_assert_int_eq(parse_double("nan", 0, 10, &d), -1);
	ck_assert_int_eq(parse_double("inf", 0, 1e308, &d), -1);
	ck_assert_int_eq(parse_double("1e999", 0, 1e308, &d), -1);
	ck_assert_int_eq(parse_long("-5", -10, 10, &l), 0);
	ck_assert_int_eq(parse_long("5 ", -10, 10, &l), -1);
}
END_TEST


/* An interval with these ends, n = 12, existing. */
static struct pab_interval iv(double median, double lo, double hi)
{
	struct pab_interval v;

	memset(&v, 0, sizeof(v));
	v.n = 12;
	v.median = median;
	v.lo = lo;
	v.hi = hi;
	v.coverage = 0.96;
	v.exists = 1;
	return v;
}

START_TEST(format_change_reads_as_ratio)
{
	struct pab_interval v;
	struct pab_ratio r;
	char buf[128];

	/* A 26-fold throughput gain: head = 26 x base, c = -2500%. */
	v = iv(-2500, -2820, -1400);
	pab_fmt_change(buf, sizeof(buf), PAB_M_THROUGHPUT, &v, 1e4, 0);
	ck_assert_str_eq(buf, "26.0x faster [15.0, 29.2]");
	pab_change_ratio(PAB_M_THROUGHPUT, &v, &r);
	ck_assert_str_eq(r.direction, "faster");
	ck_assert(fabs(r.ratio - 26.0) < 1e-9);
	ck_assert(fabs(r.ratio_low - 15.0) < 1e-9 && fabs(r.ratio_high - 29.2) < 1e-9);
	/* Throughput halved: 2x slower. */
	v = iv(50, 40, 60);
	pab_fmt_change(buf, sizeof(buf), PAB_M_THROUGHPUT, &v, 1e4, PAB_FMT_UTF8);
	ck_assert_str_eq(buf, "2.00\u00d7 slower [1.67, 2.50]");
	/* Times: 1 + c/100. */
	v = iv(21, 15, 29);
	pab_fmt_change(buf, sizeof(buf), PAB_M_CPU, &v, 1.0, 0);
	ck_assert_str_eq(buf, "1.21x slower [1.15, 1.29]");
	v = iv(-50, -60, -20);
	pab_fmt_change(buf, sizeof(buf), PAB_M_P99, &v, 1.0, 0);
	ck_assert_str_eq(buf, "2.00x faster [1.25, 2.50]");
	/* A narrow interval around 0 reads "same". */
	v = iv(0.2, -1.8, 1.1);
	pab_fmt_change(buf, sizeof(buf), PAB_M_WALL, &v, 1.0, PAB_FMT_UTF8);
	ck_assert_str_eq(buf, "same \u00b11.8%");
	/* Memory: the amount from the base median and the paired change. */
	v = iv(8.4, 5.0, 9.1);
	pab_fmt_change(buf, sizeof(buf), PAB_M_PEAK_RSS, &v, 6.2 * 1048576 / 0.084, 0);
	ck_assert_str_eq(buf, "+6.20 MiB (+8.4% [+5.0, +9.1])");
	/* No interval below 6 pairs: a range, said so. */
	v = iv(21, 15, 29);
	v.exists = 0;
	pab_fmt_change(buf, sizeof(buf), PAB_M_CPU, &v, 1.0, 0);
	ck_assert_str_eq(buf, "1.21x slower (range 1.15..1.29, no CI)");
	/* Not finite: the percentages as they are. */
	v = iv(INFINITY, 1, INFINITY);
	pab_fmt_change(buf, sizeof(buf), PAB_M_CPU, &v, 0, 0);
	ck_assert_str_eq(buf, "+inf% [+1.0, +inf]");
}
END_TEST

START_TEST(format_values_si)
{
	char buf[64];

	pab_fmt_value(buf, sizeof(buf), PAB_M_MINOR_FAULTS, 3.35e5);
	ck_assert_str_eq(buf, "335 k");
	pab_fmt_value(buf, sizeof(buf), PAB_M_THROUGHPUT, 1.5e6);
	ck_assert_str_eq(buf, "1.50 M ops/s");
	pab_fmt_value(buf, sizeof(buf), PAB_M_CPU, 0.00152);
	ck_assert_str_eq(buf, "1.52 ms");
	pab_fmt_value(buf, sizeof(buf), PAB_M_P99, 935);
	ck_assert_str_eq(buf, "935 ns");
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, 71.3 * 1048576);
	ck_assert_str_eq(buf, "71.3 MiB");
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, NAN);
	ck_assert_str_eq(buf, "n/a");
	pab_fmt_pair(buf, sizeof(buf), PAB_M_THROUGHPUT, 3.35e6, 5.12e6, 0);
	ck_assert_str_eq(buf, "3.35 M -> 5.12 M ops/s");
	pab_fmt_duration(buf, sizeof(buf), 170);
	ck_assert_str_eq(buf, "3 min");
	pab_fmt_duration(buf, sizeof(buf), 0.2);
	ck_assert_str_eq(buf, "1 s");
}
END_TEST

START_TEST(format_reasons_name_their_bounds)
{
	struct pab_cell_result r;
	/* An amount metric: bounds read in percent. */
	struct pab_reason_ctx ctx = { .metric = PAB_M_PEAK_RSS, .n = 12, .block = 3,
				      .rep_seconds = 4.5, .margin = 3.0, .conf = 0.95 };
	char buf[512];

	/* Above the tolerance, held back by the null arm's noise. */
	memset(&r, 0, sizeof(r));
	r.verdict = PAB_INCONCLUSIVE;
	r.change = iv(22.0, 20.5, 38.7);
	r.noise = 28.5;
	r.allowance = 2.0;
	r.fail_threshold = 28.5;
	r.pass_decider = PAB_DECIDED_TOLERANCE;
	r.fail_decider = PAB_DECIDED_NOISE;
	r.reps_needed = 52;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "beyond the tolerance +2.0%, but FAIL needs it beyond the null arm's "
			 "noise +28.5%; it starts at +20.5%: this machine's noise hides the change "
			 "(see perfab env); about 42 more reps, ~4 min");
	/* Straddling the allowance. */
	r.change = iv(1.0, -0.5, 3.5);
	r.reps_needed = 5000;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "PASS needs the upper end within +2.0% (tolerance), it is +3.5%; "
			 "FAIL needs the lower end beyond +28.5% (null arm's noise), it is -0.5%; "
			 "not decidable at this noise within 1000 reps");
	/* A guard's undecided cell is accepted uncertainty, not a wait. */
	r.half_width = 2.0;
	ctx.role = PAB_ROLE_GUARD;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "PASS needs the upper end within +2.0% (tolerance), it is +3.5%; "
			 "FAIL needs the lower end beyond +28.5% (null arm's noise), it is -0.5%; "
			 "a guard: accepted uncertainty, these reps resolve +-2.0% (it FAILs the "
			 "row only when it proves a regression)");
	ctx.role = PAB_ROLE_REQUIRED;
	/* A required cell the cap cannot decide says what would. */
	{
		struct pab_outlook o = { .resolves_pct = 4.1, .reps_needed = 300,
					 .tolerance_pct = 4.5 };

		ctx.outlook = &o;
		ctx.undecidable = 1;
		ctx.cap_n = 96;
		pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
		ck_assert_str_eq(buf, "PASS needs the upper end within +2.0% (tolerance), it is "
				 "+3.5%; FAIL needs the lower end beyond +28.5% (null arm's noise), "
				 "it is -0.5%; not decidable at +-2.0% on this machine within 96 reps "
				 "(resolves +-4.1%): needs ~300 reps or a tolerance of 4.5%");
		ctx.outlook = NULL;
		ctx.undecidable = 0;
	}
	/* A ratio metric's reason reads on the ratio's scale, as its change does. */
	ctx.metric = PAB_M_CPU;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "PASS needs the upper end within 1.02x slower (tolerance), it is "
			 "1.03x slower; FAIL needs the lower end beyond 1.28x slower (null arm's "
			 "noise), it is 1.01x faster; not decidable at this noise within 1000 reps");
	ctx.metric = PAB_M_PEAK_RSS;
	/* FAIL names every bound it crossed; the fail bound read from the cell. */
	r.verdict = PAB_FAIL;
	r.change = iv(40, 31, 45);
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "its lower end +31.0% is beyond the tolerance +2.0% and the null "
			 "arm's noise +28.5%");
	r.fail_threshold = 2.0;
	r.fail_decider = PAB_DECIDED_TOLERANCE;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "its lower end +31.0% is beyond the tolerance +2.0%");
	/* Fewer than 6 pairs. */
	r.verdict = PAB_INCONCLUSIVE;
	r.change.exists = 0;
	ctx.n = 3;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "no 95% interval exists below 6 paired reps (n=3); about 3 more "
			 "reps, ~14 s");
	r.verdict = PAB_PASS;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* The format table: every name reads back, "md" is Markdown, and only the
 * formats that can print a thing are given it (report.h). */
/*
 * A calibration that widened a judged metric's tolerance to more than 1.5
 * times the declared one is a warning (doc/calibration.md); 1.5 times is
 * not; without a recorded declared tolerance the default is the measure;
 * a metric the ledger does not judge is not named. The declared
 * tolerances survive the artifact's round trip.
 */
START_TEST(calibration_warning_beyond_one_and_a_half)
{
	struct pab_experiment e, back;
	struct pab_ledger l;
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *w;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	make_experiment(&e, 6);
	memset(&l, 0, sizeof(l));
	l.judged[PAB_M_CPU] = l.judged[PAB_M_PEAK_RSS] = 1;
	e.settings.given |= PAB_RUN_CALIBRATION;
	e.settings.calibration_file = xstrdup("cal.json");
	e.settings.calibration_sha256 = xstrdup("0000000000000000000000000000000000000000000000000000000000000000");
	e.settings.calibration_cpu = xstrdup("CPU");
	e.settings.calibration_tol[PAB_M_CPU] = e.tolerance[PAB_M_CPU] = 3.0;
	e.settings.calibration_declared[PAB_M_CPU] = 2.0;
	ck_assert_ptr_null(pab_fmt_calibration_warning(&e, &l)); /* 1.5x */
	e.settings.calibration_tol[PAB_M_CPU] = e.tolerance[PAB_M_CPU] = 3.02;
	w = pab_fmt_calibration_warning(&e, &l);
	ck_assert_ptr_nonnull(w);
	ck_assert_str_eq(w, "warning: calibration 'cal.json' widened the tolerance of cpu 3.02% "
			 "(1.51x the declared 2%): a head that much worse can PASS");
	free(w);
	e.settings.calibration_declared[PAB_M_CPU] = 2.5;
	ck_assert_ptr_null(pab_fmt_calibration_warning(&e, &l));
	e.settings.calibration_declared[PAB_M_CPU] = NAN; /* an earlier artifact */
	w = pab_fmt_calibration_warning(&e, &l);
	ck_assert_ptr_nonnull(strstr(w, "(1.51x the declared 2%)"));
	free(w);
	l.judged[PAB_M_CPU] = 0;
	ck_assert_ptr_null(pab_fmt_calibration_warning(&e, &l));
	e.settings.calibration_declared[PAB_M_CPU] = 2.0;
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	ck_assert_int_eq(pab_artifact_load(path, &back, &why), 0);
	ck_assert(back.settings.calibration_declared[PAB_M_CPU] == 2.0);
	ck_assert(isnan(back.settings.calibration_declared[PAB_M_PEAK_RSS]));
	ck_assert(back.tolerance[PAB_M_CPU] == 3.02);
	pab_experiment_release(&back);
	unlink(path);
	pab_experiment_release(&e);
}
END_TEST

START_TEST(report_format_table)
{
	static const char *const names[] = { "text", "json", "markdown", "junit", "html", "csv" };
	struct pab_report_opts o;
	enum pab_report_format fmt;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ck_assert_int_eq(pab_report_format_parse(names[i], &fmt), 0);
		ck_assert_int_eq(fmt, (int)i);
		ck_assert_str_eq(pab_report_format_name(fmt), names[i]);
		ck_assert(pab_report_can(fmt, PAB_REPORT_LEDGER));
		ck_assert_int_eq(pab_report_can(fmt, PAB_REPORT_SAMPLES),
				 fmt == PAB_REPORT_CSV || fmt == PAB_REPORT_JSON);
		ck_assert_int_eq(pab_report_can(fmt, PAB_REPORT_GATE_REASONS),
				 fmt == PAB_REPORT_TEXT);
	}
	ck_assert_int_eq(pab_report_format_parse("md", &fmt), 0);
	ck_assert_int_eq(fmt, PAB_REPORT_MARKDOWN);
	ck_assert_int_eq(pab_report_format_parse("gate", &fmt), -1);
	ck_assert_int_eq(pab_report_format_parse("", &fmt), -1);
	/* What a format cannot print is refused, and nothing is written. */
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	pab_report_opts_init(&o, PAB_REPORT_MARKDOWN);
	o.what = PAB_REPORT_SAMPLES;
	ck_assert_int_eq(pab_report_print(f, NULL, NULL, &o), -1);
	ck_assert_int_eq(ftell(f), 0);
	fclose(f);
}
END_TEST

START_TEST(argv_shell_syntax_caught)
{
	static const char *const bad[] = { "|", "||", "&&", ";", ">", ">>", "<", "2>&1", "&",
					   "$HOME", "~/bin", "x$(id)", "`id`", NULL };
	static const char *const fine[] = { "a|b", "--x=1", "x=1", "2>1x", "a;b", "100%",
					    NULL };
	const char *hint;
	char *argv[3] = { "./a", NULL, NULL };
	size_t i;

	for (i = 0; bad[i]; i++) {
		argv[1] = (char *)bad[i];
		ck_assert_msg(pab_argv_shell_syntax(argv, 2, &hint) == 1, "%s", bad[i]);
		ck_assert_ptr_nonnull(hint);
	}
	for (i = 0; fine[i]; i++) {
		argv[1] = (char *)fine[i];
		ck_assert_msg(pab_argv_shell_syntax(argv, 2, &hint) == -1, "%s", fine[i]);
	}
	/* A shell's script is the shell's business. */
	{
		char *sh[] = { "/bin/sh", "-c", "a | b; x=$(id) > f", "$0", NULL };
		char *bash[] = { "bash", "-ec", "`id`", NULL };
		char *notsh[] = { "./a", "-c", "$HOME", NULL };
		char *before[] = { "sh", "$X", "-c", "y", NULL };

		ck_assert_int_eq(pab_argv_shell_syntax(sh, 4, &hint), -1);
		ck_assert_int_eq(pab_argv_shell_syntax(bash, 3, &hint), -1);
		ck_assert_int_eq(pab_argv_shell_syntax(notsh, 3, &hint), 2);
		ck_assert_int_eq(pab_argv_shell_syntax(before, 4, &hint), 1);
	}
	/* NAME=value only in front of the command. */
	argv[0] = "FOO=1";
	argv[1] = "./a";
	ck_assert_int_eq(pab_argv_shell_syntax(argv, 2, &hint), 0);
	ck_assert_ptr_nonnull(strstr(hint, "\"env\""));
	argv[0] = "./a";
	argv[1] = "FOO=1";
	ck_assert_int_eq(pab_argv_shell_syntax(argv, 2, &hint), -1);
}
END_TEST

START_TEST(nearest_for_did_you_mean)
{
	static const char *const cmds[] = { "run", "ledger", "gate", "pool", "memgate",
					    "workloads", "env", "help" };

	ck_assert_str_eq(pab_nearest("rnu", cmds, 8), "run");
	ck_assert_str_eq(pab_nearest("legder", cmds, 8), "ledger");
	ck_assert_str_eq(pab_nearest("workload", cmds, 8), "workloads");
	ck_assert_ptr_null(pab_nearest("compare", cmds, 8));
	ck_assert_ptr_null(pab_nearest("x", cmds, 8));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli-units");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rotation_balance);
	tcase_add_test(tc, rotation_three_arms_all_permutations);
	tcase_add_test(tc, argv_split_quoting);
	tcase_add_test(tc, argv_expand_placeholders);
	tcase_add_test(tc, argv_join_round_trip);
	tcase_add_test(tc, artifact_round_trip);
	tcase_add_test(tc, artifact_save_failure_keeps_previous);
	tcase_add_test(tc, journal_torn_tail_and_damage);
	tcase_add_test(tc, journal_reader_linear);
	tcase_add_test(tc, balance_check_rejects);
	tcase_add_test(tc, parse_numbers_checked);
	tcase_add_test(tc, format_change_reads_as_ratio);
	tcase_add_test(tc, format_values_si);
	tcase_add_test(tc, format_reasons_name_their_bounds);
	tcase_add_test(tc, report_format_table);
	tcase_add_test(tc, calibration_warning_beyond_one_and_a_half);
	tcase_add_test(tc, argv_shell_syntax_caught);
	tcase_add_test(tc, nearest_for_did_you_mean);
	tcase_add_test(tc, durations_and_metric_lists);
	tcase_add_test(tc, term_safe_escapes_controls);
	tcase_add_test(tc, test_hooks_table);
	tcase_add_test(tc, numparse_both_syntaxes);
	tcase_add_test(tc, own_temp_names);
	tcase_add_test(tc, protocol_check_rejects);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
