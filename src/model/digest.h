/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * digest.h — SHA-256 of a file (nettle), as 64 lowercase hex digits, so an
 * artifact pins the exact executables an arm ran.
 */
#ifndef PAB_DIGEST_H
#define PAB_DIGEST_H

#include <stddef.h>

/* New hex string, or NULL with errno set when path cannot be read. */
char *pab_sha256_file(const char *path);

/* SHA-256 of len bytes at data: new hex string. */
char *pab_sha256_buf(const void *data, size_t len);

/*
 * pab_copy_file: copy src to dst (mode 0755) through
 * pab_write_file_atomic() (so dst is only ever a regular file, replaced
 * atomically); returns the
 * SHA-256 of the bytes copied (new string), or NULL with errno set.
 */
char *pab_copy_file(const char *src, const char *dst);

#endif /* PAB_DIGEST_H */
