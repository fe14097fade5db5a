/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_artifact.c — unit tests of the artifact on disk (store/): its round trip and the
 * previous file kept on a failed save, the checkpoint journal's torn
 * tails and linear reader, the balance and protocol checks of the loader,
 * perfab's own temporary names, and the calibration warning on the
 * declared tolerances an artifact keeps.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "model/experiment.h"
#include "model/experiment_copy.h"
#include "model/reasons.h"
#include "model/rotation.h"
#include "report/format.h"
#include "store/artifact_read.h"
#include "store/artifact_write.h"
#include "store/checkpoint.h"
#include "store/journal.h"
#include "store/tempfile.h"
#include "util.h"

#include "unit.h"

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
	/* A tolerance above 100% (a noisy metric's; up to 1000% is valid). */
	e.tolerance[PAB_M_P99] = 150;
	e.max_reps = 96;
	/* A child's end as perfab saw it: killed at its timeout. */
	e.rows[0].reps[2].result[1].timed_out = 1;
	e.rows[0].reps[2].result[1].failed = 1;
	e.rows[0].reps[2].result[1].term_signal = 9;
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	ck_assert_int_eq(pab_artifact_load(path, &back, &why), 0);
	ck_assert_double_eq(back.tolerance[PAB_M_P99], 150);
	ck_assert_uint_eq(back.reps, 6);
	ck_assert_uint_eq(back.max_reps, 96);
	ck_assert_int_eq(back.rows[0].reps[2].result[1].timed_out, 1);
	ck_assert_int_eq(back.rows[0].reps[2].result[1].failed, 1);
	ck_assert_int_eq(back.rows[0].reps[2].result[1].term_signal, 9);
	ck_assert_int_eq(back.rows[0].reps[2].result[0].timed_out, 0);
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

/* A null reason is held once however many results give it (model/reasons.h):
 * written, read back and copied, every rep's "no PMU" is one pointer; the
 * pool keeps distinct texts apart as it grows. */
START_TEST(null_reasons_pooled)
{
	struct pab_experiment e, back, copy;
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, text[32];
	const char *first[300];
	int fd = mkstemp(path);
	size_t r, a, i;

	ck_assert_int_ge(fd, 0);
	close(fd);
	make_experiment(&e, 6);
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	ck_assert_int_eq(pab_artifact_load(path, &back, &why), 0);
	pab_experiment_copy(&copy, &back);
	for (r = 0; r < 6; r++)
		for (a = 0; a < 3; a++) {
			ck_assert_ptr_eq(e.rows[0].reps[r].result[a].reason[PAB_M_CYCLES],
					 e.rows[0].reps[0].result[0].reason[PAB_M_CYCLES]);
			ck_assert_ptr_eq(back.rows[0].reps[r].result[a].reason[PAB_M_CYCLES],
					 e.rows[0].reps[0].result[0].reason[PAB_M_CYCLES]);
			ck_assert_ptr_eq(copy.rows[0].reps[r].result[a].reason[PAB_M_CYCLES],
					 e.rows[0].reps[0].result[0].reason[PAB_M_CYCLES]);
		}
	ck_assert_str_eq(copy.rows[0].reps[5].result[2].reason[PAB_M_CYCLES], "no PMU");
	/* The copy and the original are released apart (nothing freed twice). */
	pab_experiment_release(&copy);
	pab_experiment_release(&back);
	pab_experiment_release(&e);
	unlink(path);
	ck_assert_ptr_null(pab_reason_intern(NULL));
	for (i = 0; i < 300; i++) {
		snprintf(text, sizeof(text), "reason %zu", i);
		first[i] = pab_reason_intern(text);
		ck_assert_str_eq(first[i], text);
	}
	for (i = 0; i < 300; i++) {
		snprintf(text, sizeof(text), "reason %zu", i);
		ck_assert_ptr_eq(pab_reason_intern(text), first[i]);
		ck_assert_ptr_ne(first[i], first[(i + 1) % 300]);
	}
}
END_TEST

/* An artifact whose schema is not perfab's (another tool's file, a newer
 * perfab's, none) is refused and says why. */
START_TEST(foreign_schema_refused)
{
	static const char *const foreign[] = { "hyperfine/1", "perfab-artifact/999", "" };
	struct pab_experiment e, back;
	char path[] = "/tmp/perfab-unit-XXXXXX", *why, *text, *at, *end;
	int fd = mkstemp(path);
	size_t i, len;

	ck_assert_int_ge(fd, 0);
	close(fd);
	make_experiment(&e, 6);
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	text = read_file_max(path, 1 << 24, &len);
	ck_assert_ptr_nonnull(text);
	at = strstr(text, "\"schema\":\"");
	ck_assert_ptr_nonnull(at);
	at += strlen("\"schema\":\"");
	end = strchr(at, '"');
	for (i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fprintf(f, "%.*s%s%s", (int)(at - text), text, foreign[i], end);
		fclose(f);
		why = NULL;
		ck_assert_int_ne(pab_artifact_load(path, &back, &why), 0);
		ck_assert_msg(why && (strstr(why, "unknown schema") || strstr(why, "newer perfab")),
			      "schema '%s': %s", foreign[i],
			      why ? why : "(no reason)");
		free(why);
	}
	free(text);
	unlink(path);
	pab_experiment_release(&e);
}
END_TEST

/* A journal must continue its artifact: one that starts after a record
 * the artifact does not hold (the artifact folded records up to 4; the
 * journal starts after 5: record 5's rep would be lost), another run's
 * (another seed), or a record of a rep the artifact holds already, is
 * refused. One that starts after 4 fits. */
START_TEST(journal_must_continue_the_artifact)
{
	struct pab_experiment e;
	char path[] = "/tmp/perfab-unit-XXXXXX", *why = NULL, *jpath, *hdr;
	int fd = mkstemp(path);
	uint64_t first;
	size_t len;

	ck_assert_int_ge(fd, 0);
	close(fd);
	make_experiment(&e, 6);
	e.complete = 0;
	e.journal_id = pab_journal_new_id();
	e.journal_folded = 4;
	hdr = pab_artifact_journal_header(&e, &len, &why);
	ck_assert_ptr_nonnull(hdr);
	jpath = pab_artifact_journal_path(path);
	for (first = 4; first <= 5; first++) {
		struct pab_journal_info info = { 0 };
		struct pab_journal *j;
		int ret;

		ck_assert_int_eq(pab_journal_create(jpath, first, hdr, len, &j, &why), 0);
		pab_journal_close(j);
		why = NULL;
		ret = pab_checkpoint_apply(path, &e, &info, &why);
		if (first == 4) {
			ck_assert_msg(ret == 0, "a journal after record 4: %s", why ? why : "");
		} else {
			ck_assert_int_eq(ret, -1);
			ck_assert_msg(why && strstr(why, "records are missing"), "%s",
				      why ? why : "(no reason)");
			free(why);
		}
	}
	/* Another run's journal (its header names another seed). */
	{
		struct pab_journal_info info = { 0 };
		struct pab_journal *j;
		char *other;
		size_t olen;

		e.seed++;
		other = pab_artifact_journal_header(&e, &olen, &why);
		e.seed--;
		ck_assert_int_eq(pab_journal_create(jpath, 4, other, olen, &j, &why), 0);
		pab_journal_close(j);
		why = NULL;
		ck_assert_int_eq(pab_checkpoint_apply(path, &e, &info, &why), -1);
		ck_assert_msg(why && strstr(why, "belongs to another run"), "%s",
			      why ? why : "(no reason)");
		free(why);
		free(other);
	}
	/* A record of a rep the artifact holds already (its 6th, again). */
	{
		struct pab_journal_info info = { 0 };
		struct pab_journal *j;
		char *rec = pab_artifact_rep_record(&e, 0, &len, &why);

		ck_assert_ptr_nonnull(rec);
		ck_assert_int_eq(pab_journal_create(jpath, 4, hdr, strlen(hdr), &j, &why), 0);
		ck_assert_int_eq(pab_journal_append(j, rec, len, &why), 0);
		pab_journal_close(j);
		why = NULL;
		ck_assert_int_eq(pab_checkpoint_apply(path, &e, &info, &why), -1);
		ck_assert_msg(why && strstr(why, "does not continue the artifact"), "%s",
			      why ? why : "(no reason)");
		ck_assert_uint_eq(e.rows[0].n_reps, 6);
		free(why);
		free(rec);
	}
	unlink(jpath);
	unlink(path);
	free(jpath);
	free(hdr);
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

int main(void)
{
	Suite *s = suite_create("artifact");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, artifact_round_trip);
	tcase_add_test(tc, null_reasons_pooled);
	tcase_add_test(tc, foreign_schema_refused);
	tcase_add_test(tc, journal_must_continue_the_artifact);
	tcase_add_test(tc, journal_torn_tail_and_damage);
	tcase_add_test(tc, journal_reader_linear);
	tcase_add_test(tc, artifact_save_failure_keeps_previous);
	tcase_add_test(tc, balance_check_rejects);
	tcase_add_test(tc, own_temp_names);
	tcase_add_test(tc, protocol_check_rejects);
	tcase_add_test(tc, calibration_warning_beyond_one_and_a_half);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
