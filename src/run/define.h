/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * define.h — the experiment's definition from `perfab run`'s options:
 * arms (argv, env; run/arms.h) and rows (program, argv, params) from
 * --config, --arm (or CMD_BASE CMD_HEAD), --arms, --head-env, --null-arm /
 * --no-null-arm, --workloads, --parameter-scan / --parameter-list and
 * --shard. A fresh plan (plan.c) continues from it; the resume plan
 * (resume.c) checks the artifact against it. Nothing prints: failures
 * return -1 with a struct pab_failure filled.
 */
#ifndef PAB_RUN_DEFINE_H
#define PAB_RUN_DEFINE_H

#include "model/experiment.h"
#include "run/failure.h"
#include "run/plan_data.h"
#include "run/runconf.h"

/* Most rows parameter scans may make. */
#define PAB_PARAM_MAX_VALUES 10000

/*
 * pab_check_list_items: a list option's items, split at sep (blanks around
 * an item trimmed when trim): 0 when none is empty and none comes twice,
 * else -1 and the reason in f (PAB_FAIL_USAGE), naming the option what and
 * the list.
 */
int pab_check_list_items(const char *what, const char *list, char sep, int trim,
			 struct pab_failure *f);

/*
 * pab_plan_define: the definition o gives into e (initialised, empty), the
 * config's settings into *cs (filled first, so the caller releases it with
 * pab_config_settings_release either way). Without rows from the config,
 * --workloads or the scans, one row "command" runs the arms' commands as
 * they are. 0, or -1 with f filled (PAB_FAIL_USAGE); the caller releases
 * e either way.
 */
int pab_plan_define(struct pab_experiment *e, const struct pab_run_opts *o,
		    struct pab_config_settings *cs, struct pab_failure *f);

#endif /* PAB_RUN_DEFINE_H */
