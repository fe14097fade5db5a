/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_calibration.c — libFuzzer harness for the calibration reader: the
 * raw bytes go to pab_calibration_parse() (what `perfab run --calibration`
 * does once pab_calibration_load() has read a regular file), and what it
 * accepted is checked against its contract: every tolerance it gives is a
 * number in [0, PAB_CALIBRATION_TOL_MAX] (the plausible bound,
 * doc/calibration.md), the CPU model is a string; a refusal says why and
 * gives no tolerance. Everything is released on every path, so
 * LeakSanitizer sees any leak. Deterministic; no state between inputs.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "store/calibration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double tol[PAB_M_COUNT];
	char *cpu = NULL, *why = NULL;
	size_t m;
	int ret;

	ret = pab_calibration_parse((const char *)data, size, "fuzz.json", tol, &cpu, &why);
	if (ret) {
		if (!why || !*why || cpu)
			abort(); /* a refusal says why and gives nothing */
		for (m = 0; m < PAB_M_COUNT; m++)
			if (!isnan(tol[m]))
				abort();
	} else {
		if (why || !cpu)
			abort();
		for (m = 0; m < PAB_M_COUNT; m++)
			if (!isnan(tol[m]) && !(tol[m] >= 0 && tol[m] <= PAB_CALIBRATION_TOL_MAX))
				abort();
	}
	free(why);
	free(cpu);
	return 0;
}
