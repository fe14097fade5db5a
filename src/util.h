/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * util.h — the few helpers every perfab module shares: fatal errors,
 * allocation that cannot fail silently, checked number parsing, clocks,
 * and a growable string buffer.
 *
 * Messages follow one shape: "perfab: <lowercase message>", the subject in
 * quotes, the reason, and what to do. die() exits with a given code;
 * BUG() aborts on a broken invariant (a perfab defect, never user error).
 */
#ifndef PAB_UTIL_H
#define PAB_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes: the contract scripts rely on (doc/perfab.1 EXIT STATUS). */
enum pab_exit {
	PAB_EXIT_PASS = 0,         /* PASS, or a command that succeeded */
	PAB_EXIT_FAIL = 1,         /* verdict FAIL */
	PAB_EXIT_USAGE = 2,        /* bad usage or bad input */
	PAB_EXIT_INCONCLUSIVE = 3, /* verdict INCONCLUSIVE */
	PAB_EXIT_REFUSED = 4,      /* incomplete, unbalanced or unpoolable data */
	PAB_EXIT_SANITY = 5,       /* a gated artifact pooled, or given to memgate */
	PAB_EXIT_FILTERED = 6,     /* memgate: filtered run vs full baseline */
	PAB_EXIT_RUNTIME = 7,      /* could not run: I/O, spawn, system error */
};

/* What each exit code means, for `perfab help exit-codes` (and so for the
 * man page, which the docs test compares with it). */
struct pab_exit_status {
	enum pab_exit code;
	const char *meaning;  /* one line */
};

/* The table, PAB_EXIT_RUNTIME + 1 entries in code order. */
extern const struct pab_exit_status pab_exit_statuses[PAB_EXIT_RUNTIME + 1];

#define PAB_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Print "perfab: error: ..." to stderr and exit(code). */
_Noreturn void die(int code, const char *fmt, ...) PAB_PRINTF(2, 3);
/* die() with ": strerror(errno)" appended; code PAB_EXIT_RUNTIME. */
_Noreturn void die_errno(const char *fmt, ...) PAB_PRINTF(1, 2);
/* "perfab: warning: ..." to stderr. */
void warning(const char *fmt, ...) PAB_PRINTF(1, 2);
/* "perfab: note: ..." to stderr. */
void note(const char *fmt, ...) PAB_PRINTF(1, 2);
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
	PAB_PRINTF(3, 4);
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

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
int64_t now_process_cpu_ns(void);

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
 * Test hook for the crash matrix (tests/crash_matrix.sh): with
 * PERFAB_TEST_CRASH_AT=N in the environment, the N-th call (counting from
 * 1, over the whole process) kills perfab with SIGKILL on the spot, as a
 * power cut or the OOM killer would. name says where, for the test's log
 * (printed to stderr just before dying). PERFAB_TEST_CRASH_AT=list prints
 * every point passed, numbered, and kills nothing, so a test can find the
 * points worth killing at. Without the variable: a no-op.
 */
void pab_crash_point(const char *name);

/*
 * Test hook for checkpoint costs (tests/cli_journal.sh): with
 * PERFAB_TEST_IO_LOG=FILE in the environment, every checkpoint write
 * appends "WHAT BYTES" (e.g. "journal 1234", "artifact 56789") as a line
 * to FILE, so a test can measure bytes written per rep. Without the
 * variable: a no-op.
 */
void pab_test_io_log(const char *what, uint64_t bytes);

/*
 * Benchmark hook for the measuring window (ci/bench-overhead.sh): 1 when
 * piece ("ptrace", "sampler", "pin", "counters") is named in the
 * comma-separated PERFAB_TEST_WITHOUT, so the cost of each piece of
 * perfab's own work around a child can be measured by leaving it out.
 * Without the variable: 0.
 */
int pab_test_without(const char *piece);

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
 * pab_term_safe: s as it may reach a terminal: control characters (C0,
 * DEL and C1, so ESC, BEL, CR, newline), bidirectional formatting
 * characters (U+061C, U+200E/F, U+202A-E, U+2066-9, each byte), bytes
 * that are not UTF-8 and the backslash are escaped (\n, \t, \r, \\, else
 * \xHH); everything else as is. Every name from a config, a command line or an artifact goes
 * through it before it is printed as text (ledger, progress, messages).
 * Returns a thread-local buffer valid until eight more calls in the same
 * thread, so a message can take several; "(null)" for NULL.
 */
const char *pab_term_safe(const char *s);

/*
 * pab_remove_tree: remove path and, when it is a directory, everything in
 * it, never following a symlink out of it. Returns 0, or -1 with errno
 * (what could be removed is gone).
 */
int pab_remove_tree(const char *path);

/* 1 when pid names no process any more (kill(pid, 0) says ESRCH). */
int pab_pid_gone(long pid);

/*
 * 1 when stream fd is a terminal, NO_COLOR is unset or empty (no-color.org:
 * set and non-empty disables colour) and TERM is not "dumb".
 */
int use_color(int fd);

#include "common/banned.h"

#endif /* PAB_UTIL_H */
