/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_resume_settings.c — libFuzzer harness for the settings `perfab run
 * --resume` reads back from an artifact's "run" object: the raw bytes go
 * through the checked JSON reader (pab_json_parse) and, when they are an
 * object, to pab_run_settings_read(). Whatever it accepts must lie in
 * the ranges of the options that set it (so the casts after it are
 * defined), and UBSan sees any cast before the check. A refusal always
 * says why and gives nothing; what is written back reads back the same;
 * everything is released.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "store/json_in.h"
#include "store/run_settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pab_run_settings s, back;
	char *why = NULL;
	cJSON *run = pab_json_parse((const char *)data, size, &why), *out;
	const unsigned checked = PAB_RUN_INTERVAL | PAB_RUN_TIMEOUT | PAB_RUN_SCALE |
		PAB_RUN_MAX_PROCS | PAB_RUN_CGROUP | PAB_RUN_SANITY_GATE |
		PAB_RUN_COUNTERS | PAB_RUN_CPUS | PAB_RUN_BUDGET;

	if (!run) {
		if (!why)
			abort();
		free(why);
		return 0;
	}
	pab_run_settings_read(run, &s);
	if (s.invalid && (s.given & checked))
		abort();
	if (!s.invalid) {
		if (!(s.sample_interval_ms >= 0.1 && s.sample_interval_ms <= 60000) ||
		    !(s.timeout_s >= 0 && s.timeout_s <= 1e7) ||
		    !(s.scale >= 1e-6 && s.scale <= 1e6) ||
		    !(s.budget_s >= 0 && s.budget_s <= 7 * 86400.0) ||
		    s.max_procs < 1 || s.max_procs > 1000000)
			abort();
		/* What the runner does with them next: defined for these. */
		if ((int64_t)(s.timeout_s * 1e9) < 0 ||
		    (int64_t)(s.sample_interval_ms * 1e6) <= 0)
			abort();
	}
	/* Written and read again: the same settings. */
	out = pab_run_settings_json(&s, cJSON_IsObject(run) ? run : NULL);
	pab_run_settings_read(out, &back);
	if (back.given != s.given || (!s.invalid) != (!back.invalid))
		abort();
	pab_run_settings_release(&back);
	pab_run_settings_release(&s);
	cJSON_Delete(out);
	cJSON_Delete(run);
	return 0;
}
