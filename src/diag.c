/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diag.c — perfab's diagnostics: the exit codes' table and the messages
 * to stderr (diag.h).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

const struct pab_exit_status pab_exit_statuses[PAB_EXIT_NO_REGRESSION + 1] = {
	[PAB_EXIT_PASS] = { PAB_EXIT_PASS,
		"PASS, or a command that succeeded (gate --inconclusive pass: also INCONCLUSIVE)" },
	[PAB_EXIT_FAIL] = { PAB_EXIT_FAIL,
		"FAIL: a cell failed beyond its threshold or a child of a head arm failed; "
		"memgate check: a scenario above its limit" },
	[PAB_EXIT_USAGE] = { PAB_EXIT_USAGE,
		"bad usage or bad input: an unknown option, a malformed value, a file that "
		"cannot be read or is not valid, a command that cannot be run" },
	[PAB_EXIT_INCONCLUSIVE] = { PAB_EXIT_INCONCLUSIVE,
		"INCONCLUSIVE: nothing failed, but something could not be decided; never a pass" },
	[PAB_EXIT_REFUSED] = { PAB_EXIT_REFUSED,
		"refused data: an incomplete, unbalanced or unpoolable artifact, or a ledger "
		"that could not be built; no verdict" },
	[PAB_EXIT_SANITY] = { PAB_EXIT_SANITY,
		"an artifact the sanity gate stopped was given to be pooled with others, or to "
		"memgate (a run the gate stops FAILs: exit 1)" },
	[PAB_EXIT_FILTERED] = { PAB_EXIT_FILTERED,
		"memgate check refused a filtered run (not every scenario of the baseline)" },
	[PAB_EXIT_RUNTIME] = { PAB_EXIT_RUNTIME,
		"could not run: a checkpoint not written, the artifact locked, a child not "
		"spawned or measured, another system error" },
	[PAB_EXIT_NO_VERDICT] = { PAB_EXIT_NO_VERDICT,
		"no verdict: the base arm or the environment (a --setup, --prepare, --cleanup "
		"or warmup run) failed, so nothing is known of the head" },
	[PAB_EXIT_NO_REGRESSION] = { PAB_EXIT_NO_REGRESSION,
		"bisect: no regression between GOOD and BAD (BAD is not worse than GOOD)" },
};

static void (*before_line)(void *);
static void *before_line_arg;

void pab_diag_before_line(void (*fn)(void *), void *arg)
{
	before_line = fn;
	before_line_arg = arg;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	if (before_line)
		before_line(before_line_arg);
	fprintf(stderr, "perfab: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void pab_verror(const char *fmt, va_list ap)
{
	vreport("error: ", fmt, ap);
}

void pab_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pab_verror(fmt, ap);
	va_end(ap);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pab_verror(fmt, ap);
	va_end(ap);
	exit(code);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fputs("perfab: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(PAB_EXIT_RUNTIME);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

void pab_die_of_signal(int sig)
{
	sigset_t set;

	fflush(stderr);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfab: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}
