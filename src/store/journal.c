/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * journal.c — the append-only checkpoint journal (journal.h): framing,
 * SHA-256 self-checks, durable appends, and a reader that drops a torn
 * tail but refuses damage.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "store/journal.h"
#include "store/tempfile.h"
#include "test_hooks.h"
#include "util.h"

/* Largest record payload perfab writes or reads. */
#define RECORD_MAX_BYTES ((size_t)1 << 30)
/* "@" + 20 digits + " " + 10 digits + " " + 64 hex + "\n", with room. */
#define FRAME_LINE_MAX 128

struct pab_journal {
	int fd;
	char *path;
	uint64_t bytes;    /* file length: the end of the last good record */
	uint64_t next_seq;
	char *buf;         /* the frame being written; reused, never shrinks */
	size_t alloc;
};

static void hex_digest(struct sha256_ctx *ctx, char out[2 * SHA256_DIGEST_SIZE + 1])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t d[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_digest(ctx, sizeof(d), d);
	for (i = 0; i < sizeof(d); i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * SHA256_DIGEST_SIZE] = '\0';
}

/* The checksum of a record: SHA-256 of "@SEQ LEN " and the payload. */
static void record_sum(const char *prefix, size_t prefix_len, const char *payload,
		       size_t len, char out[2 * SHA256_DIGEST_SIZE + 1])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, prefix_len, (const uint8_t *)prefix);
	sha256_update(&ctx, len, (const uint8_t *)payload);
	hex_digest(&ctx, out);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t put = write(fd, p, n);

		if (put < 0 && errno == EINTR)
			continue;
		if (put < 0)
			return -1;
		if (!put) {
			errno = EIO;
			return -1;
		}
		p += put;
		n -= (size_t)put;
	}
	return 0;
}

static struct pab_journal *journal_new(int fd, const char *path,
				       uint64_t bytes, uint64_t next_seq)
{
	struct pab_journal *j = xcalloc(1, sizeof(*j));

	j->fd = fd;
	j->path = xstrdup(path);
	j->bytes = bytes;
	j->next_seq = next_seq;
	return j;
}

char *pab_journal_new_id(void)
{
	uint64_t w[2];
	size_t i;

	for (i = 0; i < 2; i++)
		if (getrandom(&w[i], sizeof(w[i]), 0) != (ssize_t)sizeof(w[i]))
			w[i] = (uint64_t)now_monotonic_ns() ^ ((uint64_t)getpid() << 32) ^ i;
	return xasprintf("%016llx%016llx", (unsigned long long)w[0],
			 (unsigned long long)w[1]);
}

int pab_journal_create(const char *path, uint64_t first_seq, const char *header,
		       size_t len, struct pab_journal **out, char **why)
{
	int fd, err;

	*out = NULL;
	*why = NULL;
	if (unlink(path) && errno != ENOENT) {
		err = errno;
		*why = xasprintf("cannot replace '%s': %s", path, strerror(err));
		errno = err;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		err = errno;
		*why = xasprintf("cannot create '%s': %s", path, strerror(err));
		errno = err;
		return -1;
	}
	*out = journal_new(fd, path, 0, first_seq);
	if (pab_journal_append(*out, header, len, why)) {
		err = errno;
		pab_journal_close(*out);
		*out = NULL;
		unlink(path);
		errno = err;
		return -1;
	}
	pab_sync_dir_of(path);
	return 0;
}

int pab_journal_append(struct pab_journal *j, const char *payload, size_t len,
		       char **why)
{
	char prefix[48], sum[2 * SHA256_DIGEST_SIZE + 1];
	size_t plen, total, half;
	int err;

	*why = NULL;
	if (len > RECORD_MAX_BYTES)
		BUG("journal record of %zu bytes", len);
	plen = (size_t)snprintf(prefix, sizeof(prefix), "@%llu %zu ",
				(unsigned long long)j->next_seq, len);
	record_sum(prefix, plen, payload, len, sum);
	total = plen + 2 * SHA256_DIGEST_SIZE + 1 + len + 1;
	ALLOC_GROW(j->buf, total, j->alloc);
	memcpy(j->buf, prefix, plen);
	memcpy(j->buf + plen, sum, 2 * SHA256_DIGEST_SIZE);
	j->buf[plen + 2 * SHA256_DIGEST_SIZE] = '\n';
	memcpy(j->buf + plen + 2 * SHA256_DIGEST_SIZE + 1, payload, len);
	j->buf[total - 1] = '\n';

	/* Under the crash matrix: a crash with half the record on disk. */
	half = pab_test_hook(PAB_TEST_CRASH_AT) ? total / 2 : 0;
	if (half) {
		if (write_all(j->fd, j->buf, half) || fdatasync(j->fd))
			goto out_fail;
		pab_crash_point("journal: record half written");
	}
	if (write_all(j->fd, j->buf + half, total - half))
		goto out_fail;
	pab_crash_point("journal: record written, not synced");
	if (fdatasync(j->fd))
		goto out_fail;
	pab_test_io_log("journal", total);
	j->bytes += total;
	j->next_seq++;
	pab_crash_point("journal: record synced");
	return 0;

out_fail:
	err = errno ? errno : EIO;
	*why = xasprintf("cannot append to '%s': %s", j->path, strerror(err));
	/* No half record left behind, where the file system lets us. */
	if (!ftruncate(j->fd, (off_t)j->bytes))
		fdatasync(j->fd);
	errno = err;
	return -1;
}

uint64_t pab_journal_bytes(const struct pab_journal *j)
{
	return j->bytes;
}

uint64_t pab_journal_last_seq(const struct pab_journal *j)
{
	return j->next_seq - 1;
}

void pab_journal_close(struct pab_journal *j)
{
	if (!j)
		return;
	close(j->fd);
	free(j->path);
	free(j->buf);
	free(j);
}

int pab_journal_remove(const char *path, char **why)
{
	struct stat st;
	int err;

	*why = NULL;
	/* Nothing there is nothing to do, even where unlink would say EROFS. */
	if (lstat(path, &st) && errno == ENOENT)
		return 0;
	if (unlink(path) && errno != ENOENT) {
		err = errno;
		*why = xasprintf("cannot remove '%s': %s", path, strerror(err));
		errno = err;
		return -1;
	}
	pab_sync_dir_of(path);
	return 0;
}

/* Digits text[*p..) into *v (at most max_digits, at least one); 0 or -1. */
static int parse_digits(const char *t, size_t end, size_t *p, int max_digits,
			uint64_t *v)
{
	int n = 0;

	*v = 0;
	while (*p < end && t[*p] >= '0' && t[*p] <= '9') {
		if (++n > max_digits)
			return -1;
		*v = *v * 10 + (uint64_t)(t[*p] - '0');
		(*p)++;
	}
	return n ? 0 : -1;
}

/*
 * The frame line starting at text[p] ("@SEQ LEN SHA256\n"), by its syntax
 * alone: 1 with its sequence number, payload length, the offset of its
 * checksum and of its payload, else 0. It reads no byte past the first
 * newline at or after p, and counts the bytes it read in *work.
 */
static int parse_frame(const char *t, size_t len, size_t p, uint64_t *seq,
		       uint64_t *n, size_t *hex_at, size_t *off, size_t *work)
{
	size_t q = p + 1, line_end, i;
	int ok = 0;

	if (p >= len || t[p] != '@')
		goto out;
	line_end = p + FRAME_LINE_MAX < len ? p + FRAME_LINE_MAX : len;
	if (parse_digits(t, line_end, &q, 20, seq) || q >= line_end || t[q++] != ' ')
		goto out;
	if (parse_digits(t, line_end, &q, 10, n) || *n > RECORD_MAX_BYTES ||
	    q >= line_end || t[q++] != ' ')
		goto out;
	*hex_at = q;
	for (i = 0; i < 2 * SHA256_DIGEST_SIZE; i++, q++)
		if (q >= line_end || !((t[q] >= '0' && t[q] <= '9') ||
				       (t[q] >= 'a' && t[q] <= 'f')))
			goto out;
	if (q >= line_end || t[q++] != '\n')
		goto out;
	*off = q;
	ok = 1;
out:
	*work += (q < len ? q + 1 : len) - p;
	return ok;
}

/*
 * The record starting at text[p]: 1 and its sequence number, payload and
 * end offset when it is whole and checks out, else 0. Hashes its payload
 * once (counted in *work).
 */
static int parse_record(const char *t, size_t len, size_t p, uint64_t *seq,
			size_t *off, size_t *plen, size_t *end, size_t *work)
{
	size_t hex_at, q;
	uint64_t n;
	char sum[2 * SHA256_DIGEST_SIZE + 1];

	if (!parse_frame(t, len, p, seq, &n, &hex_at, &q, work))
		return 0;
	if (n >= len - q || t[q + n] != '\n')
		return 0; /* payload and its newline do not fit: torn */
	record_sum(t + p, hex_at - p, t + q, (size_t)n, sum);
	*work += (size_t)n;
	if (memcmp(sum, t + hex_at, 2 * SHA256_DIGEST_SIZE))
		return 0;
	*off = q;
	*plen = (size_t)n;
	*end = q + (size_t)n + 1;
	return 1;
}

/*
 * The first frame line after byte p that starts a line, or 0 when there
 * is none. One pass: a frame line holds no newline but its last byte, so
 * the candidates' bytes do not overlap.
 */
static size_t next_frame_line(const char *t, size_t len, size_t p, size_t *work)
{
	const char *nl;
	uint64_t seq, n;
	size_t hex_at, off;

	while (p < len && (nl = memchr(t + p, '\n', len - p))) {
		*work += (size_t)(nl - (t + p)) + 1;
		p = (size_t)(nl - t) + 1;
		if (parse_frame(t, len, p, &seq, &n, &hex_at, &off, work))
			return p;
	}
	if (p < len)
		*work += len - p;
	return 0;
}

int pab_journal_parse(char *text, size_t len, const char *name,
		      struct pab_journal_contents *c, char **why)
{
	size_t p = 0, alloc = 0, q;

	memset(c, 0, sizeof(*c));
	*why = NULL;
	c->text = text;
	c->text_len = len;
	while (p < c->text_len) {
		uint64_t seq;
		size_t off, plen, end;

		if (parse_record(c->text, c->text_len, p, &seq, &off, &plen, &end,
				 &c->work_bytes)) {
			if (c->n && seq != c->records[c->n - 1].seq + 1) {
				*why = xasprintf("'%s': the record at byte %zu has sequence number "
						 "%llu where %llu was due: records are missing or "
						 "out of order", name, p, (unsigned long long)seq,
						 (unsigned long long)(c->records[c->n - 1].seq + 1));
				goto out_refuse;
			}
			ALLOC_GROW(c->records, c->n + 1, alloc);
			c->records[c->n].seq = seq;
			c->records[c->n].payload = c->text + off;
			c->records[c->n].len = plen;
			c->n++;
			p = end;
			continue;
		}
		/*
		 * A bad record. Appends are whole and synced one by one, so only
		 * the last record can be torn: any frame line after this one,
		 * valid or not, means this is not the last record, and what
		 * explains it is damage, not a crash. No candidate is hashed, so
		 * the reader stays linear in the file's size.
		 */
		q = next_frame_line(c->text, c->text_len, p, &c->work_bytes);
		if (q) {
			*why = xasprintf("'%s': the record at byte %zu (number %zu) is bad, "
					 "yet another record starts at byte %zu: the journal is "
					 "damaged, not torn by a crash", name, p, c->n, q);
			goto out_refuse;
		}
		c->torn = 1;
		c->torn_bytes = c->text_len - p;
		break;
	}
	c->good_bytes = p;
	return 0;

out_refuse:
	pab_journal_contents_release(c);
	return -1;
}

int pab_journal_read(const char *path, struct pab_journal_contents *c,
		     char **why)
{
	struct stat st;
	size_t len;
	char *text;

	memset(c, 0, sizeof(*c));
	*why = NULL;
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 1;
		*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = xasprintf("'%s' is not a regular file", path);
		return -1;
	}
	if ((uint64_t)st.st_size > PAB_JOURNAL_MAX_BYTES) {
		*why = xasprintf("'%s' is %llu bytes, more than the %zu MiB a journal "
				 "perfab writes can hold (it folds into its artifact long "
				 "before): not a journal of this run; move it away",
				 path, (unsigned long long)st.st_size,
				 PAB_JOURNAL_MAX_BYTES >> 20);
		return -1;
	}
	text = read_file_max(path, PAB_JOURNAL_MAX_BYTES, &len);
	if (!text) {
		if (errno == EFBIG)
			*why = xasprintf("'%s' grew past the %zu MiB a journal perfab writes "
					 "can hold while it was read: move it away", path,
					 PAB_JOURNAL_MAX_BYTES >> 20);
		else
			*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	return pab_journal_parse(text, len, path, c, why);
}

void pab_journal_contents_release(struct pab_journal_contents *c)
{
	free(c->text);
	free(c->records);
	memset(c, 0, sizeof(*c));
}
