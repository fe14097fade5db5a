/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diag.h — perfab's diagnostics: the exit codes, and the messages it
 * writes to stderr.
 *
 * Messages follow one shape: "perfab: <lowercase message>", the subject in
 * quotes, the reason, and what to do. pab_error() reports an error and
 * returns; die() reports one and exits with a given code; BUG() aborts on
 * a broken invariant (a perfab defect, never user error). None of them
 * makes its arguments terminal-safe: names from outside go through
 * pab_term_safe() (term.h) first.
 */
#ifndef PAB_DIAG_H
#define PAB_DIAG_H

#include <stdarg.h>

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
	PAB_EXIT_NO_VERDICT = 8,   /* the base arm or the environment failed */
	PAB_EXIT_NO_REGRESSION = 9, /* bisect: BAD is not worse than GOOD */
};

/* What each exit code means, for `perfab help exit-codes` (and so for the
 * man page, which the docs test compares with it). */
struct pab_exit_status {
	enum pab_exit code;
	const char *meaning;  /* one line */
};

/* The table, PAB_EXIT_NO_REGRESSION + 1 entries in code order. */
extern const struct pab_exit_status pab_exit_statuses[PAB_EXIT_NO_REGRESSION + 1];

#define PAB_PRINTF(f, a) __attribute__((format(printf, f, a)))

/*
 * pab_error: print "perfab: error: ..." (and a newline) to stderr and
 * return, for a command that reports the error and then cleans up and
 * returns its exit code; pab_verror takes a va_list.
 */
void pab_error(const char *fmt, ...) PAB_PRINTF(1, 2);
void pab_verror(const char *fmt, va_list ap) PAB_PRINTF(1, 0);
/* pab_error(), then exit(code). */
_Noreturn void die(int code, const char *fmt, ...) PAB_PRINTF(2, 3);
/* die() with ": strerror(errno)" appended; code PAB_EXIT_RUNTIME. */
_Noreturn void die_errno(const char *fmt, ...) PAB_PRINTF(1, 2);
/*
 * Every message above is one whole line, flushed at once (stderr may be
 * fully buffered during a run). pab_diag_before_line: fn(arg) is called
 * before each, e.g. to clear a status line that would otherwise be glued
 * to the message; NULL: none.
 */
void pab_diag_before_line(void (*fn)(void *), void *arg);
/* "perfab: warning: ..." to stderr. */
void warning(const char *fmt, ...) PAB_PRINTF(1, 2);
/* "perfab: note: ..." to stderr. */
void note(const char *fmt, ...) PAB_PRINTF(1, 2);
/*
 * pab_die_of_signal: end perfab as the stop signal sig would have, once a
 * command has said where it stopped and cleaned up: stderr flushed, sig's
 * default action restored and sig unblocked and raised, so a parent sees a
 * death by sig, not an exit code (a shell's loop stops on it); 128 + sig
 * should the signal not kill.
 */
_Noreturn void pab_die_of_signal(int sig);

_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
	PAB_PRINTF(3, 4);
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

#endif /* PAB_DIAG_H */
