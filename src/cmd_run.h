/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_run.h — what `perfab run` (cmd_run.c) shares with the other
 * commands and the tests: its option table. Only commands include it.
 */
#ifndef PAB_CMD_RUN_H
#define PAB_CMD_RUN_H

struct pab_option;

/*
 * pab_run_options: the option table of `perfab run`, ended by OPT_END();
 * its ranges are the limits of the same settings in a config
 * (pab_config_parse) and in an artifact's "run" (--resume). Static
 * storage: never freed.
 */
const struct pab_option *pab_run_options(void);

#endif /* PAB_CMD_RUN_H */
