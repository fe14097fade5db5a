/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * calibration.h — a perfab-calibration/1 file (doc/calibration.md):
 * what an A/A experiment measured this machine to resolve, per row and
 * metric (pab_calibrate_at, pab_stats.h), built from a finished A/A
 * experiment, written and printed by `perfab calibrate`, and read back by
 * `perfab run --calibration` for its per-metric tolerances.
 */
#ifndef PAB_MODEL_CALIBRATION_H
#define PAB_MODEL_CALIBRATION_H

#include <stdio.h>

struct cJSON; /* cJSON's; a caller passing a tree includes its header */

#include "model/experiment.h"

#define PAB_CALIBRATION_SCHEMA "perfab-calibration/1"
/* Simulated runs per row and metric. */
#define PAB_CALIBRATION_SIMS 2000
/*
 * The largest tolerance (percent) `run --calibration` takes from a file
 * (doc/calibration.md, "The plausible bound"): one above it would PASS a
 * head 1.5 times as slow or as large as its base, which says that the A/A
 * run could not judge the metric at all, or that the file was edited.
 */
#define PAB_CALIBRATION_TOL_MAX 50.0

/*
 * pab_calibration_build: the calibration of e (an A/A experiment: its
 * base arm, a head that runs the same command, and a null arm) for the
 * metrics in judged[]: per row and metric pab_calibrate_at() on the
 * paired changes head vs base and head vs null, with the looks an
 * adaptive run of first look `first` and cap e->max_reps would plan,
 * sized for the gate of e's R rows (doc/method.md §14): each row's
 * tolerance is the smallest at which an unchanged head PASSes by the
 * last look at or below PAB_CAL_BY_REPS reps with probability
 * PAB_CAL_GATE_PASS_PROB^(1/R), and the file's tolerance per metric the
 * largest over the rows; its "definition" says so in words. artifact
 * names the experiment's file (recorded with its SHA-256). Returns the
 * perfab-calibration/1 tree (caller deletes), or NULL with *why (caller
 * frees) when e has no head arm, no row, or no row with two pairs.
 */
struct cJSON *pab_calibration_build(const struct pab_experiment *e, const int judged[PAB_M_COUNT],
			     size_t first, const char *artifact, char **why);

/* The table of a calibration tree, at most 100 columns, to f. */
void pab_calibration_print(FILE *f, const struct cJSON *cal);
/* Write cal to path (pab_write_file_atomic, indented JSON and a newline).
 * Returns 0, or -1 with *why (caller frees). */
int pab_calibration_write(const char *path, const struct cJSON *cal, char **why);
/* The metrics of cal whose tolerance is above PAB_CALIBRATION_TOL_MAX, as
 * "cpu (73.2%), minor_faults (410%)" (new string), or NULL when none is:
 * `run --calibration` refuses such a file. */
char *pab_calibration_implausible(const struct cJSON *cal);
/* Free a tree pab_calibration_build() returned (NULL: no-op). */
void pab_calibration_free(struct cJSON *cal);

/*
 * pab_calibration_parse: the text[0..len) of the calibration file called
 * path (the checked JSON reader): its schema, CPU model and per-metric
 * tolerance ("tolerance": {METRIC: PCT}), into tol[] (NaN for a metric it
 * gives none) and *cpu_model (new). A tolerance that is not a number in
 * [0, PAB_CALIBRATION_TOL_MAX] is refused. Returns 0, or -1 with *why
 * (caller frees; tol[] all NaN, *cpu_model NULL).
 */
int pab_calibration_parse(const char *text, size_t len, const char *path,
			  double tol[PAB_M_COUNT], char **cpu_model, char **why);

/*
 * pab_calibration_load: pab_calibration_parse() of the file at path, read
 * as an untrusted input (pab_read_regular_file: a regular file of at most
 * 16 MiB; a FIFO or device is refused, never waited on), and *sha256, the
 * SHA-256 of the text read (new). Returns 0, or -1 with *why.
 */
int pab_calibration_load(const char *path, double tol[PAB_M_COUNT], char **cpu_model,
			 char **sha256, char **why);

#endif /* PAB_MODEL_CALIBRATION_H */
