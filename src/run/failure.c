/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * failure.c — filling a struct pab_failure (failure.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run/failure.h"

int pab_fail(struct pab_failure *f, enum pab_failure_kind kind, const char *fmt, ...)
{
	va_list ap;

	free(f->why);
	va_start(ap, fmt);
	f->why = xvasprintf(fmt, ap);
	va_end(ap);
	f->kind = kind;
	return -1;
}

int pab_fail_errno(struct pab_failure *f, const char *fmt, ...)
{
	int err = errno;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	pab_fail(f, PAB_FAIL_SYSTEM, "%s: %s", msg, strerror(err));
	free(msg);
	return -1;
}

void pab_failure_release(struct pab_failure *f)
{
	free(f->why);
	f->why = NULL;
	f->kind = PAB_FAIL_NONE;
	f->load_ret = 0;
}
