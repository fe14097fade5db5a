/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cmd_env.c — `perfab env`: the host fingerprint every artifact records
 * and the noise checklist judged from it (hostinfo.h), like `pyperf
 * system show`. It only reads: every fix is printed, none is applied.
 *
 * --fingerprint FILE judges a stored fingerprint instead of this machine:
 * an artifact (its "host") or a bare fingerprint object, e.g. to see what
 * was wrong with the machine a surprising run came from.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "store/run_record.h"
#include "probe/envfacts.h"
#include "report/env.h"
#include "options.h"
#include "term.h"
#include "util.h"

/* The fingerprint in path: an artifact's "host" or a bare object. */
static char *load_fingerprint(const char *path)
{
	char *why, *host = pab_fingerprint_load(path, &why);

	if (!host)
		die(PAB_EXIT_USAGE, "%s", why);
	return host;
}

int cmd_env(int argc, char **argv)
{
	const char *usage = "perfab env [--format text|json] [--fingerprint FILE]";
	const char *format = "text", *from = NULL;
	struct pab_strlist pos = { 0 };
	const struct pab_option opts[] = {
		OPT_STRING('f', "format", &format, "FMT", "text (default) or json"),
		OPT_STRING(0, "fingerprint", &from, "FILE",
			   "judge the fingerprint stored in FILE (an artifact, or env "
			   "--format json output) instead of this machine"),
		OPT_END(),
	};
	struct pab_env_facts facts;
	char *host;
	int json;

	pab_parse_options(argc, argv, opts, usage,
			  "Show the host fingerprint recorded in every artifact and a "
			  "checklist of what will add noise, each with the command that "
			  "fixes it. Reads only; changes nothing.", &pos);
	if (pos.n)
		pab_usage_error(opts, usage, "unexpected argument '%s'", pos.v[0]);
	if (!strcmp(format, "json"))
		json = 1;
	else if (!strcmp(format, "text"))
		json = 0;
	else
		pab_usage_error(opts, usage, "unknown --format '%s' (text or json)", format);
	host = from ? load_fingerprint(from) : NULL;
	pab_env_facts_gather(host, &facts);
	pab_report_env(facts.host, facts.checklist, facts.placement, json);
	pab_env_facts_release(&facts);
	free(host);
	pab_strlist_release(&pos);
	if (fflush(stdout))
		die_errno("cannot write to stdout");
	return 0;
}
