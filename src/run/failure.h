/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * failure.h — why planning or running an experiment failed. The run/
 * modules print no error and exit nowhere: they return -1 and fill a
 * struct pab_failure, and the command (cmd_run.c) says why and exits with
 * the code that the kind maps to (diag.h, enum pab_exit).
 */
#ifndef PAB_RUN_FAILURE_H
#define PAB_RUN_FAILURE_H

#include "util.h"

enum pab_failure_kind {
	PAB_FAIL_NONE = 0,
	PAB_FAIL_USAGE,   /* bad options, definition or input (PAB_EXIT_USAGE) */
	PAB_FAIL_REFUSED, /* --resume refused: the artifact does not match what
			   * would run, or a program changed (PAB_EXIT_REFUSED) */
	PAB_FAIL_SYSTEM,  /* the system failed perfab: a file, a process, a
			   * checkpoint's write (PAB_EXIT_RUNTIME) */
	PAB_FAIL_LOAD,    /* the artifact to resume did not load: load_ret is
			   * pab_artifact_load()'s return */
};

struct pab_failure {
	enum pab_failure_kind kind;
	int load_ret;   /* PAB_FAIL_LOAD only */
	char *why;      /* the message, without "perfab: error: " (owned) */
};

/* Set f to kind and the formatted message; returns -1. */
int pab_fail(struct pab_failure *f, enum pab_failure_kind kind, const char *fmt, ...)
	PAB_PRINTF(3, 4);
/* pab_fail(PAB_FAIL_SYSTEM) with ": strerror(errno)" appended; returns -1. */
int pab_fail_errno(struct pab_failure *f, const char *fmt, ...) PAB_PRINTF(2, 3);
/* Free f's message and clear it. */
void pab_failure_release(struct pab_failure *f);

#endif /* PAB_RUN_FAILURE_H */
