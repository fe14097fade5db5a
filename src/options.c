/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options.c — the option parser and --help generator behind options.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "term.h"
#include "util.h"

void pab_strlist_push(struct pab_strlist *l, const char *s)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = s;
}

void pab_strlist_release(struct pab_strlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

/* An option's line of --help: "  %-28s " and its help folded under its
 * column (doc/hacking.md "Output width"); a left column too wide for its
 * field stands alone, its help on the next line. */
#define HELP_LEFT 28
#define HELP_COL (2 + HELP_LEFT + 1)

static void print_option(FILE *f, const char *left, const char *help)
{
	if (strlen(left) > HELP_LEFT)
		fprintf(f, "  %s\n%*s", left, HELP_COL, "");
	else
		fprintf(f, "  %-*s ", HELP_LEFT, left);
	pab_print_folded(f, HELP_COL, HELP_COL, help);
}

static void print_help(FILE *f, const struct pab_option *opts,
		       const char *usage, const char *description)
{
	const struct pab_option *o;

	fprintf(f, "usage: %s\n", usage);
	if (description) {
		fputc('\n', f);
		pab_print_folded(f, 0, 0, description);
	}
	fputc('\n', f);
	for (o = opts; o->type != PAB_OPT_END; o++) {
		char left[64];
		int n;

		if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c, --%s", o->short_name,
				     o->long_name);
		else
			n = snprintf(left, sizeof(left), "    --%s", o->long_name);
		if (o->argh && n > 0 && (size_t)n < sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->argh);
		print_option(f, left, o->help);
	}
	print_option(f, "-h, --help", "show this help and exit");
}

void pab_usage_error(const struct pab_option *opts, const char *usage,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pab_verror(fmt, ap);
	va_end(ap);
	fprintf(stderr, "usage: %s\n", usage);
	(void)opts;
	fputs("(run with --help for all options)\n", stderr);
	exit(PAB_EXIT_USAGE);
}

static const struct pab_option *find_long(const struct pab_option *opts,
					  const char *name, size_t len)
{
	for (; opts->type != PAB_OPT_END; opts++)
		if (strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, name, len))
			return opts;
	return NULL;
}

/* The long option name nearest to name (a likely typo), or NULL. */
static const char *nearest_long(const struct pab_option *opts, const char *name)
{
	const char *names[128];
	size_t n = 0;

	for (; opts->type != PAB_OPT_END && n < 127; opts++)
		names[n++] = opts->long_name;
	names[n++] = "help";
	return pab_nearest(name, names, n);
}

static const struct pab_option *find_short(const struct pab_option *opts,
					   char c)
{
	for (; opts->type != PAB_OPT_END; opts++)
		if (opts->short_name && opts->short_name == c)
			return opts;
	return NULL;
}

/*
 * Store arg in o's value, or exit with a usage error. hint, when not NULL,
 * follows the error of a value o cannot take, in parentheses (the advice
 * of another tool's option spelled as o was, options.h).
 */
static void set_value(const struct pab_option *o, const char *arg,
		      const struct pab_option *opts, const char *usage, const char *hint)
{
	switch (o->type) {
	case PAB_OPT_FLAG:
		*(int *)o->value = 1;
		return;
	case PAB_OPT_STRING:
		*(const char **)o->value = arg;
		return;
	case PAB_OPT_LIST:
		pab_strlist_push(o->value, arg);
		return;
	case PAB_OPT_U64:
		if (parse_u64(arg, (uint64_t)o->min, (uint64_t)o->max, o->value))
			pab_usage_error(opts, usage,
					"option '--%s' needs a whole number in [%.0f, %.0f], not '%s'%s%s%s",
					o->long_name, o->min, o->max, arg, hint ? " (" : "",
					hint ? hint : "", hint ? ")" : "");
		return;
	case PAB_OPT_DOUBLE:
		if (parse_double(arg, o->min, o->max, o->value))
			pab_usage_error(opts, usage,
					"option '--%s' needs a number in [%g, %g], not '%s'%s%s%s",
					o->long_name, o->min, o->max, arg, hint ? " (" : "",
					hint ? hint : "", hint ? ")" : "");
		return;
	case PAB_OPT_END:
		break;
	}
	BUG("option type %d", (int)o->type);
}

static const char *foreign_tool;
static const struct pab_foreign_option *foreign;

void pab_options_foreign(const char *tool, const struct pab_foreign_option *table)
{
	foreign_tool = tool;
	foreign = table;
}

/* The entry of the foreign table naming spelling name[0..len) ("--sort",
 * "-i"), or NULL. */
static const struct pab_foreign_option *foreign_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; foreign && foreign[i].names; i++) {
		const char *n = foreign[i].names;

		while (*n) {
			size_t nl = strcspn(n, "|");

			if (nl == len && !strncmp(n, name, len))
				return &foreign[i];
			n += nl + (n[nl] == '|');
		}
	}
	return NULL;
}

/* 1 when s is a whole number as the other tool would read one. */
static int all_digits(const char *s)
{
	return *s && !s[strspn(s, "0123456789")];
}

void pab_parse_options(int argc, char **argv, const struct pab_option *opts,
		       const char *usage, const char *description,
		       struct pab_strlist *positional)
{
	int i, only_positional = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct pab_option *o = NULL;
		const struct pab_foreign_option *fo;
		const char *val = NULL;
		char *hint = NULL;
		size_t len; /* of the spelling: "--name" or "-x" */

		if (only_positional || a[0] != '-' || !a[1]) {
			pab_strlist_push(positional, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			only_positional = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help(stdout, opts, usage, description);
			exit(0);
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			len = (eq ? (size_t)(eq - a) : strlen(a));
			o = find_long(opts, a + 2, len - 2);
			fo = foreign_find(a, len);
			if (!o && fo)
				pab_usage_error(opts, usage, "'%.*s' is %s's: %s", (int)len, a,
						foreign_tool, fo->advice);
			if (!o) {
				char *name = xstrndup(a + 2, len - 2);
				const char *near = nearest_long(opts, name);

				free(name);
				if (near)
					pab_usage_error(opts, usage, "unknown option '%.*s'; did you mean '--%s'?",
							(int)len, a, near);
				pab_usage_error(opts, usage, "unknown option '%.*s'", (int)len, a);
			}
			if (eq) {
				if (o->type == PAB_OPT_FLAG)
					pab_usage_error(opts, usage,
							"option '--%s' takes no value",
							o->long_name);
				val = eq + 1;
			}
		} else {
			len = 2;
			o = find_short(opts, a[1]);
			fo = foreign_find(a, len);
			/* -r5 and -r=5, as getopt and hyperfine read them; a flag
			 * takes nothing after it (no bundles: -qn is unknown). */
			if (o && o->type != PAB_OPT_FLAG && a[2])
				val = a + 2 + (a[2] == '=');
			else if ((!o || a[2]) && fo)
				pab_usage_error(opts, usage, "'%.*s' is %s's: %s", (int)len, a,
						foreign_tool, fo->advice);
			else if (!o || a[2])
				pab_usage_error(opts, usage, "unknown option '%s'", a);
		}
		if (o->type != PAB_OPT_FLAG && !val) {
			if (i + 1 >= argc)
				pab_usage_error(opts, usage,
						"option '--%s' needs a value (%s)",
						o->long_name, o->argh ? o->argh : "VALUE");
			val = argv[++i];
		}
		/* A spelling this command shares with the other tool (options.h). */
		if (fo && val) {
			if (fo->number && all_digits(val))
				pab_usage_error(opts, usage, "'%.*s %s' reads as %s's: %s", (int)len, a, val,
						foreign_tool, fo->advice);
			hint = xasprintf("%s's %.*s: %s", foreign_tool, (int)len, a, fo->advice);
		}
		set_value(o, val, opts, usage, hint);
		free(hint);
		if (o->type == PAB_OPT_LIST && o->nargs > 1) {
			int k;

			if (i + o->nargs - 1 >= argc)
				pab_usage_error(opts, usage, "option '--%s' needs %d values (%s)",
						o->long_name, o->nargs, o->argh);
			for (k = 1; k < o->nargs; k++)
				set_value(o, argv[++i], opts, usage, NULL);
		}
	}
	foreign_tool = NULL;
	foreign = NULL;
}

const struct pab_option *pab_option_find(const struct pab_option *opts,
					 const char *long_name)
{
	const struct pab_option *o;

	for (o = opts; o->type != PAB_OPT_END; o++)
		if (o->long_name && !strcmp(o->long_name, long_name))
			return o;
	return NULL;
}
