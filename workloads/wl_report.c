/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wl_report.c — the one JSON object a workload run reports
 * (doc/workload-protocol.md §4), written atomically: a temporary file in
 * the report's own directory, fsync, then rename(2), so perfab never reads
 * half a report from a program that died while writing it.
 *
 * The writer is a few fprintf calls rather than a JSON library: the
 * workload programs stay dependency-free, and every value here is a
 * number, null, or a string from the suite table or the command line
 * (escaped).
 */
#include "wl_params.h"
#include "wl_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/banned.h" /* last: makes unsafe libc calls compile errors */

void pab_wl_report_init(struct pab_wl_report *r)
{
	memset(r, 0, sizeof(*r));
	r->live_bytes = PAB_WL_NONE;
	r->live_rss_bytes = PAB_WL_NONE;
	r->pre_rss_bytes = PAB_WL_NONE;
	r->vmhwm_bytes = PAB_WL_NONE;
	r->drain_rss_bytes = PAB_WL_NONE;
	r->release_bound_rss_bytes = PAB_WL_NONE;
	r->release_ms = PAB_WL_NONE;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A double in the shortest of %.15g and %.17g that reads back exactly:
 * 0.05 stays "0.05" rather than "0.050000000000000003". */
static void put_double(FILE *f, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, f);
}

/* A byte or millisecond field: the number, or null when unmeasured. */
static void put_measured(FILE *f, const char *key, int64_t v)
{
	fprintf(f, ",\n  \"%s\": ", key);
	if (v == PAB_WL_NONE)
		fputs("null", f);
	else
		fprintf(f, "%lld", (long long)v);
}

static void put_report(FILE *f, const struct pab_wl *wl,
		       const struct pab_wl_report *r)
{
	int64_t floor = PAB_WL_NONE;

	if (r->pre_rss_bytes != PAB_WL_NONE && r->live_bytes != PAB_WL_NONE)
		floor = r->pre_rss_bytes + r->live_bytes;
	fputs("{\n  \"protocol\": ", f);
	put_string(f, PAB_WORKLOAD_PROTOCOL);
	fputs(",\n  \"program\": ", f);
	put_string(f, wl->program);
	fputs(",\n  \"row\": ", f);
	put_string(f, wl->row->name);
	fputs(",\n  \"params\": {", f);
	for (size_t i = 0; i < wl->row->n_params; i++) {
		fputs(i ? ", " : "", f);
		put_string(f, wl->row->params[i].key);
		fputs(": ", f);
		put_string(f, wl->values[i]);
	}
	fputs("},\n  \"mode\": ", f);
	put_string(f, wl->mode == PAB_WL_LATENCY ? "latency" : "throughput");
	/* An exact integer; readers that hold JSON numbers as doubles lose
	 * digits above 2^53, so perfab keeps seeds below that (documented). */
	fprintf(f, ",\n  \"seed\": %llu", (unsigned long long)wl->seed);
	fputs(",\n  \"scale\": ", f);
	put_double(f, wl->scale);
	fprintf(f, ",\n  \"threads\": %u", r->threads);
	fprintf(f, ",\n  \"ops\": %llu", (unsigned long long)r->ops);
	if (r->iterations)
		fprintf(f, ",\n  \"iterations\": %llu", (unsigned long long)r->iterations);
	fprintf(f, ",\n  \"elapsed_s\": %.9f", r->elapsed_s);
	fprintf(f, ",\n  \"checksum\": \"%016llx\"",
		(unsigned long long)r->checksum);
	put_measured(f, "live_bytes", r->live_bytes);
	put_measured(f, "live_rss_bytes", r->live_rss_bytes);
	put_measured(f, "pre_rss_bytes", r->pre_rss_bytes);
	put_measured(f, "rss_floor_bytes", floor);
	put_measured(f, "vmhwm_bytes", r->vmhwm_bytes);
	put_measured(f, "drain_rss_bytes", r->drain_rss_bytes);
	put_measured(f, "release_bound_rss_bytes", r->release_bound_rss_bytes);
	put_measured(f, "release_ms", r->release_ms);
	if (wl->mode == PAB_WL_LATENCY) {
		fprintf(f, ",\n  \"latency_stride\": %llu",
			(unsigned long long)r->latency_stride);
		fputs(",\n  \"latency_ns\": [", f);
		for (size_t i = 0; i < r->n_latency; i++)
			fprintf(f, "%s%llu", i == 0 ? "" : i % 16 ? "," : ",\n    ",
				(unsigned long long)r->latency_ns[i]);
		fputc(']', f);
	}
	fputs("\n}\n", f);
}

/* Write the report to a temporary file beside `path`, then rename it
 * into place. */
static int write_atomically(const struct pab_wl *wl,
			    const struct pab_wl_report *r, const char *path)
{
	size_t len = strlen(path) + 32;
	char *tmp = malloc(len);
	FILE *f;
	int ret = -1;

	if (!tmp) {
		fprintf(stderr, "%s: error: out of memory writing the report\n",
			wl->program);
		return -1;
	}
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr,
			"%s: error: cannot create report '%s': %s; check that "
			"the directory of %s exists and is writable\n",
			wl->program, tmp, strerror(errno), PAB_ENV_REPORT);
		goto out_free_tmp;
	}
	put_report(f, wl, r);
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
		fprintf(stderr, "%s: error: cannot write report '%s': %s\n",
			wl->program, tmp, strerror(errno));
		fclose(f);
		goto out_unlink_tmp;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: error: cannot close report '%s': %s\n",
			wl->program, tmp, strerror(errno));
		goto out_unlink_tmp;
	}
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "%s: error: cannot rename report '%s' to '%s': %s\n",
			wl->program, tmp, path, strerror(errno));
		goto out_unlink_tmp;
	}
	ret = 0;
	goto out_free_tmp;
out_unlink_tmp:
	unlink(tmp);
out_free_tmp:
	free(tmp);
	return ret;
}

int pab_wl_report_write(const struct pab_wl *wl, const struct pab_wl_report *r)
{
	if (wl->report_path)
		return write_atomically(wl, r, wl->report_path);
	put_report(stdout, wl, r);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "%s: error: cannot write the report to stdout: %s\n",
			wl->program, strerror(errno));
		return -1;
	}
	return 0;
}

void pab_wl_usage(const char *program, const char *synopsis)
{
	printf("usage: %s\n\n", synopsis);
	printf("Speaks %s (doc/workload-protocol.md). Environment: %s, %s,\n"
	       "%s, %s (throughput|latency), %s, %s, %s.\n"
	       "Without %s the report is printed to stdout.\n\nRows:\n",
	       PAB_WORKLOAD_PROTOCOL, PAB_ENV_PROTOCOL, PAB_ENV_ROW,
	       PAB_ENV_PARAMS, PAB_ENV_MODE, PAB_ENV_SEED, PAB_ENV_SCALE,
	       PAB_ENV_REPORT, PAB_ENV_REPORT);
	for (size_t i = 0; i < pab_suite_count(); i++) {
		const struct pab_row_def *row = pab_suite_row(i);

		if (strcmp(row->program, program) != 0)
			continue;
		printf("  %-24s %s%s\n", row->name, row->control ? "[control] " : "",
		       row->description);
		for (size_t k = 0; k < row->n_params; k++)
			printf("      %s=%s\t%s\n", row->params[k].key,
			       row->params[k].value, row->params[k].help);
	}
}
