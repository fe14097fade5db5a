/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * workload.c — the safe reader of workload reports (workload.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/digest.h"
#include "store/workload_report.h"
#include "pab_stats.h"
#include "util.h"
#include "run/workload.h"
#include "common/suite.h"

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device node";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int pab_workload_report_read(const char *path, char **text, size_t *len, char **why)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	int64_t deadline = now_monotonic_ns() + PAB_REPORT_DEADLINE_NS;
	char chunk[65536];
	struct stat st;
	int fd, ret = -1;

	*text = NULL;
	*len = 0;
	*why = NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		*why = errno == ELOOP ?
			xstrdup("the workload report is a symbolic link: refused") :
			xasprintf("cannot open the workload report: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		*why = xasprintf("cannot inspect the workload report: %s", strerror(errno));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = xasprintf("the workload report is %s, not a regular file: refused",
				 kind_of(st.st_mode));
		goto out_close;
	}
	if ((uint64_t)st.st_size > PAB_REPORT_MAX_BYTES) {
		*why = xasprintf("the workload report has %lld bytes, more than perfab reads "
				 "(%zu)", (long long)st.st_size, PAB_REPORT_MAX_BYTES);
		goto out_close;
	}
	for (;;) {
		ssize_t got = read(fd, chunk, sizeof(chunk));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*why = xasprintf("cannot read the workload report: %s", strerror(errno));
			goto out_close;
		}
		if (!got)
			break;
		if (sb.len + (size_t)got > PAB_REPORT_MAX_BYTES) {
			*why = xasprintf("the workload report grew past %zu bytes while read",
					 PAB_REPORT_MAX_BYTES);
			goto out_close;
		}
		pab_strbuf_add(&sb, chunk, (size_t)got);
		if (now_monotonic_ns() > deadline) {
			*why = xstrdup("reading the workload report took too long: refused");
			goto out_close;
		}
	}
	*len = sb.len;
	*text = pab_strbuf_detach(&sb);
	ret = 1;
out_close:
	close(fd);
	pab_strbuf_release(&sb);
	return ret;
}

/* Store x as metric id, or null it when no artifact could carry it. */
static void set_checked(struct pab_arm_result *res, enum pab_metric_id id, double x)
{
	char *why;

	if (isfinite(x) && fabs(x) <= PAB_METRIC_ABS_MAX) {
		res->m[id] = x;
		return;
	}
	why = xasprintf("the workload reported %s = %g: beyond what an artifact holds "
			"(|x| <= %g); refused", pab_metrics[id].name, x, PAB_METRIC_ABS_MAX);
	pab_arm_result_null(res, id, why);
	free(why);
}

/* Latency mode: p99 of the report's latency_ns samples (the valid ones). */
static void report_p99(const struct pab_workload_report *rep, struct pab_arm_result *res)
{
	double p99;

	if (!rep->n_latency)
		pab_arm_result_null(res, PAB_M_P99, "the latency replay reported no samples");
	else if (pab_quantile(rep->latency_ns, rep->n_latency, 0.99, &p99))
		pab_arm_result_null(res, PAB_M_P99, "cannot compute p99 of the latency samples");
	else
		set_checked(res, PAB_M_P99, p99);
}

/*
 * The report is read leniently past its header: a value that is not a
 * number nulls its metric with a reason (the rep keeps its other metrics)
 * instead of refusing the whole report.
 */
int pab_workload_report_parse(const char *text, size_t len, int latency,
			      struct pab_arm_result *res, char **why)
{
	struct pab_workload_report rep;
	double ops, elapsed;
	size_t i;

	if (pab_workload_report_decode(text, len, PAB_WORKLOAD_PROTOCOL, &rep, why))
		return -1;
	if (latency) {
		report_p99(&rep, res);
		pab_workload_report_release(&rep);
		return 1;
	}
	ops = rep.ops;
	elapsed = rep.elapsed_s;
	if (ops >= 0 && elapsed > 0)
		set_checked(res, PAB_M_THROUGHPUT, ops / elapsed);
	else
		pab_arm_result_null(res, PAB_M_THROUGHPUT,
				    "the workload report lacks ops or elapsed_s");
	for (i = 0; i < PAB_M_COUNT; i++) {
		double x;

		if (!pab_metrics[i].report_key)
			continue;
		x = rep.key[i];
		if (x >= 0)
			set_checked(res, (enum pab_metric_id)i, x);
		else
			pab_arm_result_null(res, (enum pab_metric_id)i,
					    "the workload did not report it");
	}
	if (!isfinite(res->m[PAB_M_PEAK_RSS])) {
		double hwm = rep.vmhwm_bytes;

		if (hwm > 0 && hwm <= PAB_METRIC_ABS_MAX)
			res->m[PAB_M_PEAK_RSS] = hwm;
	}
	if (rep.checksum) {
		size_t n = strlen(rep.checksum);

		free(res->checksum);
		if (n <= PAB_REPORT_STRING_MAX) {
			res->checksum = xstrdup(rep.checksum);
		} else {
			char *sum = pab_sha256_buf(rep.checksum, n);

			res->checksum = xasprintf("sha256:%s", sum);
			free(sum);
		}
	}
	pab_workload_report_release(&rep);
	return 1;
}

int pab_workload_report_collect(const char *path, int latency,
				struct pab_arm_result *res, char **why)
{
	char *text;
	size_t len;
	int ret = pab_workload_report_read(path, &text, &len, why);

	if (ret <= 0)
		return ret;
	ret = pab_workload_report_parse(text, len, latency, res, why);
	free(text);
	return ret;
}
