/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * digest.c — file digests and digest-checked copies (digest.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "store/digest.h"
#include "store/tempfile.h"
#include "util.h"

static char *hex(const uint8_t *d, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *s = xmalloc(2 * n + 1);
	size_t i;

	for (i = 0; i < n; i++) {
		s[2 * i] = digits[d[i] >> 4];
		s[2 * i + 1] = digits[d[i] & 15];
	}
	s[2 * n] = '\0';
	return s;
}

/* Hash src; when dst_fd >= 0 also write every byte there. */
static char *hash_copy(int src_fd, int dst_fd)
{
	struct sha256_ctx ctx;
	uint8_t buf[65536], digest[SHA256_DIGEST_SIZE];
	ssize_t got;

	sha256_init(&ctx);
	for (;;) {
		got = read(src_fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return NULL;
		if (!got)
			break;
		sha256_update(&ctx, (size_t)got, buf);
		if (dst_fd >= 0) {
			ssize_t off = 0;

			while (off < got) {
				ssize_t w = write(dst_fd, buf + off, (size_t)(got - off));

				if (w < 0 && errno == EINTR)
					continue;
				if (w < 0)
					return NULL;
				off += w;
			}
		}
	}
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
	return hex(digest, SHA256_DIGEST_SIZE);
}

char *pab_sha256_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	char *s;

	if (fd < 0)
		return NULL;
	s = hash_copy(fd, -1);
	err = errno;
	close(fd);
	errno = err;
	return s;
}

char *pab_sha256_file_id(const char *path, struct pab_file_id *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	struct stat st;
	char *s = NULL;

	memset(id, 0, sizeof(*id));
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		err = errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		err = EINVAL;
		goto out_close;
	}
	s = hash_copy(fd, -1);
	err = errno;
	if (s) {
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->size = st.st_size;
		id->mtime = st.st_mtim;
	}
out_close:
	close(fd);
	errno = err;
	return s;
}

int pab_file_id_same(const char *path, const struct pab_file_id *id)
{
	struct stat st;

	return !stat(path, &st) && st.st_dev == id->dev && st.st_ino == id->ino &&
	       st.st_size == id->size && st.st_mtim.tv_sec == id->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == id->mtime.tv_nsec;
}

char *pab_script_interpreter(const char *path)
{
	char buf[256];
	ssize_t got;
	size_t b, e;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 3 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	buf[got] = '\0';
	for (b = 2; buf[b] == ' ' || buf[b] == '\t'; b++)
		;
	for (e = b; buf[e] && buf[e] != ' ' && buf[e] != '\t' && buf[e] != '\n'; e++)
		;
	return e > b ? xstrndup(buf + b, e - b) : NULL;
}

char *pab_sha256_buf(const void *data, size_t len)
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
	return hex(digest, SHA256_DIGEST_SIZE);
}

struct copy {
	int in;
	char *sum;
};

static int copy_fn(FILE *f, void *arg)
{
	struct copy *c = arg;

	if (lseek(c->in, 0, SEEK_SET) < 0 || fflush(f) ||
	    fchmod(fileno(f), 0755))
		return -1;
	free(c->sum);
	c->sum = hash_copy(c->in, fileno(f));
	return c->sum ? 0 : -1;
}

char *pab_copy_file(const char *src, const char *dst)
{
	struct copy c = { open(src, O_RDONLY | O_CLOEXEC), NULL };
	char *why;
	int err;

	if (c.in < 0)
		return NULL;
	if (pab_write_file_atomic(dst, copy_fn, &c, &why)) {
		err = errno;
		free(why);
		free(c.sum);
		close(c.in);
		errno = err;
		return NULL;
	}
	close(c.in);
	return c.sum;
}
