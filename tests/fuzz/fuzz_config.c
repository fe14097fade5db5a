/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_config.c — libFuzzer harness for the --config parser: the raw bytes
 * go to pab_config_parse() (what pab_config_load() does after reading the
 * file), into an experiment initialised as `perfab run` does, and then the
 * experiment and the settings are released on every path, so
 * LeakSanitizer sees any leak. Deterministic; no state between inputs.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cmd_run.h"
#include "model/experiment.h"
#include "run/runconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pab_experiment e;
	struct pab_config_settings s;
	char *why = NULL;
	int ret;
	size_t i;

	pab_experiment_init(&e);
	ret = pab_config_parse((const char *)data, size, "fuzz.json", pab_run_options(),
			       &e, &s, &why);
	if (ret && (!why || !*why))
		abort(); /* a failure always says why */
	if (!ret) {
		if (why)
			abort();
		/* What the parser accepted, the runner relies on. */
		for (i = 0; i < e.n_arms; i++)
			if (!e.arms[i].name || !e.arms[i].argv ||
			    e.arms[i].argv[e.arms[i].argc] ||
			    !pab_valid_arm_name(e.arms[i].name))
				abort();
		for (i = 0; i < e.n_rows; i++)
			if (!e.rows[i].name || !e.rows[i].argv ||
			    e.rows[i].argv[e.rows[i].argc])
				abort();
		if (!isnan(s.reps) && !(s.reps >= 1 && s.reps <= 1e6))
			abort();
	}
	free(why);
	pab_config_settings_release(&s);
	pab_experiment_release(&e);
	return 0;
}
