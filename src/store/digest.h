/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * digest.h — SHA-256 of a file (nettle), as 64 lowercase hex digits, so an
 * artifact pins the exact executables an arm ran.
 */
#ifndef PAB_DIGEST_H
#define PAB_DIGEST_H

#include <stddef.h>

#include "model/file_id.h"

/* New hex string, or NULL with errno set when path cannot be read. */
char *pab_sha256_file(const char *path);

/*
 * pab_sha256_file_id: pab_sha256_file(), and the identity of the very
 * file hashed (fstat of the descriptor read) in *id. Refuses anything but
 * a regular file (EINVAL). New hex string, or NULL with errno set.
 */
char *pab_sha256_file_id(const char *path, struct pab_file_id *id);

/*
 * pab_file_id_same: 1 when path (followed) is still the file id names,
 * 0 when it is another or is gone.
 */
int pab_file_id_same(const char *path, const struct pab_file_id *id);

/*
 * pab_script_interpreter: when the file at path starts with "#!", the
 * interpreter it names (the first word after "#!"; new string), else
 * NULL (also when it cannot be read).
 */
char *pab_script_interpreter(const char *path);

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
