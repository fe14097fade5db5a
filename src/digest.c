/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * digest.c — file digests and digest-checked copies (digest.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "digest.h"
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

char *pab_copy_file(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out, err;
	char *s = NULL;

	if (in < 0)
		return NULL;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		err = errno;
		close(in);
		errno = err;
		return NULL;
	}
	s = hash_copy(in, out);
	err = errno;
	if (s && (fsync(out) || close(out))) {
		err = errno;
		free(s);
		s = NULL;
	} else if (!s) {
		close(out);
	}
	close(in);
	errno = err;
	return s;
}
