/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_report.c — libFuzzer harness for the workload-report reader: the
 * raw bytes go to pab_workload_report_parse() (what perfab does with the file a
 * child left at $PERFAB_REPORT, after pab_workload_report_read()), in throughput
 * and in latency mode, into a fresh result. Whatever it accepts must be
 * something an artifact can carry: every metric finite and within
 * PAB_METRIC_ABS_MAX, a checksum of bounded length, and a failure always
 * says why. Everything is released, so LeakSanitizer sees any leak.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/experiment.h"
#include "run/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int latency;

	for (latency = 0; latency < 2; latency++) {
		struct pab_arm_result r;
		char *why = NULL;
		int ret, m;

		pab_arm_result_init(&r);
		ret = pab_workload_report_parse((const char *)data, size, latency, &r, &why);
		if (ret != 1 && ret != -1)
			abort();
		if ((ret < 0) != (why != NULL))
			abort(); /* a refusal says why, an accepted report does not */
		for (m = 0; m < PAB_M_COUNT; m++)
			if (!isnan(r.m[m]) && !(fabs(r.m[m]) <= PAB_METRIC_ABS_MAX))
				abort();
		if (r.checksum && strlen(r.checksum) > PAB_REPORT_STRING_MAX &&
		    strncmp(r.checksum, "sha256:", 7))
			abort();
		free(why);
		pab_arm_result_release(&r);
	}
	return 0;
}
