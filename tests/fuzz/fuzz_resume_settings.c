/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_resume_settings.c — libFuzzer harness for the settings `perfab run
 * --resume` reads back from an artifact's "run" object: the raw bytes go
 * through the checked JSON reader (pab_json_parse) and, when they are an
 * object, to pab_resume_settings_read(). Whatever it accepts must lie in
 * the ranges of the options that set it (so the casts after it are
 * defined), and UBSan sees any cast before the check. A failure always
 * says why; everything is released.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/json_in.h"
#include "builtin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pab_resume_settings s;
	char *why = NULL;
	cJSON *run = pab_json_parse((const char *)data, size, &why);
	int ret;

	if (!run) {
		if (!why)
			abort();
		free(why);
		return 0;
	}
	ret = pab_resume_settings_read(run, &s, &why);
	if (ret && !why)
		abort();
	if (!ret) {
		if (why)
			abort();
		if (!(s.interval_ms >= 0.1 && s.interval_ms <= 60000) ||
		    !(s.timeout_s >= 0 && s.timeout_s <= 1e7) ||
		    !(s.scale >= 1e-6 && s.scale <= 1e6) ||
		    s.max_procs < 1 || s.max_procs > 1000000)
			abort();
		/* What cmd_run() does with them next: defined for these. */
		if ((int64_t)(s.timeout_s * 1e9) < 0 ||
		    (int64_t)(s.interval_ms * 1e6) <= 0)
			abort();
	}
	free(why);
	cJSON_Delete(run);
	return 0;
}
