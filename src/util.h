/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * util.h — the few helpers every perfab module shares: allocation that
 * cannot fail silently, checked number parsing, clocks, a growable string
 * buffer, small files and directories, and "did you mean". Diagnostics
 * and the exit codes are in diag.h (included here: allocation dies), the
 * terminal-safe printer and colour in term.h, the test hooks in
 * test_hooks.h.
 */
#ifndef PAB_UTIL_H
#define PAB_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

/* Allocation: die on failure. Returned memory is the caller's. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Formatted string in new memory (caller frees). */
char *xasprintf(const char *fmt, ...) PAB_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap) PAB_PRINTF(1, 0);
/* Grow *array (of elem bytes each) so it holds at least need elements. */
void *xgrow(void *array, size_t elem, size_t need, size_t *alloc);
#define ALLOC_GROW(arr, need, alloc) \
	((arr) = xgrow((arr), sizeof(*(arr)), (need), &(alloc)))

/*
 * Checked parsing: the whole string must be a number in [min, max]; no
 * empty input, no trailing junk, no overflow. Return 0 or -1 (errno-free).
 * perfab's syntax of common/numparse.h (no flags): no leading space, and
 * no sign for an unsigned.
 */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_long(const char *s, long min, long max, long *out);

/*
 * pab_env_name_valid: 1 when name can name an environment variable a
 * child is given (not empty, no '=': "C=D" with value "x" would reach the
 * child as C with value "D=x"), else 0.
 */
int pab_env_name_valid(const char *name);
int parse_double(const char *s, double min, double max, double *out);

/* Clocks in nanoseconds. */
int64_t now_monotonic_ns(void);
int64_t now_thread_cpu_ns(void);

/* A growable NUL-terminated string. Zero-initialise or use PAB_STRBUF_INIT. */
struct pab_strbuf {
	char *buf;
	size_t len, alloc;
};
#define PAB_STRBUF_INIT { NULL, 0, 0 }
void pab_strbuf_add(struct pab_strbuf *sb, const char *s, size_t n);
void pab_strbuf_addstr(struct pab_strbuf *sb, const char *s);
void pab_strbuf_addf(struct pab_strbuf *sb, const char *fmt, ...)
	PAB_PRINTF(2, 3);
/* Give up the buffer (caller frees; "" when empty) and reset sb. */
char *pab_strbuf_detach(struct pab_strbuf *sb);
void pab_strbuf_release(struct pab_strbuf *sb);

/* Read a whole small file (e.g. under /proc) into new memory; NULL + errno. */
char *read_file_max(const char *path, size_t max_bytes, size_t *len);

/*
 * pab_read_regular_file: read the whole file at path, which must be a
 * regular file (a symbolic link to one is followed), of at most max_bytes,
 * into new memory (NUL-terminated; its length in *len when len is not
 * NULL). For an input a user or another user can place: what is at path
 * is looked at before it is opened, it is opened O_NONBLOCK and looked at
 * again once open, so a FIFO, device node, socket or directory is refused
 * without being waited on, and a file over max_bytes before a byte is read.
 * what names the file in the reason ("calibration"). Returns the text, or
 * NULL with errno set and a reason (caller frees) in *why that names the
 * file: "calibration 'c.json' is a FIFO, not a regular file".
 */
char *pab_read_regular_file(const char *path, const char *what, size_t max_bytes,
			    size_t *len, char **why);
/* What a file of mode m is, for a message: "a FIFO", "a directory",
 * "a device node", "a socket", "a symbolic link", "a regular file". */
const char *pab_file_kind(mode_t mode);

/*
 * The candidate (of n, NULL-terminated or n given) nearest to word by
 * edit distance, when it is close enough to be a likely typo (at most 2
 * edits, or a prefix of it), else NULL. For "did you mean".
 */
const char *pab_nearest(const char *word, const char *const *cands, size_t n);

/* The directory part of path: "." when it has no '/', "/" for "/x"
 * (new memory). */
char *pab_dir_of(const char *path);

/*
 * pab_remove_tree: remove path and, when it is a directory, everything in
 * it, never following a symlink out of it. Returns 0, or -1 with errno
 * (what could be removed is gone).
 */
int pab_remove_tree(const char *path);

/* 1 when pid names no process any more (kill(pid, 0) says ESRCH). */
int pab_pid_gone(long pid);

#include "common/banned.h"

#endif /* PAB_UTIL_H */
