/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * digest.c — file digests and digest-checked copies (digest.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "model/digest.h"
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
