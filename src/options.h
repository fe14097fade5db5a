/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options.h — table-driven option parsing (after git's parse-options):
 * each subcommand declares its options once, in an array, and both the
 * parser and the generated --help read that array, so they cannot drift.
 *
 * Accepted spellings: --name VALUE, --name=VALUE, -x VALUE, -xVALUE,
 * -x=VALUE, and "--" to end options. Positional arguments may be
 * interleaved with options.
 */
#ifndef PAB_OPTIONS_H
#define PAB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

enum pab_opt_type {
	PAB_OPT_END = 0,
	PAB_OPT_FLAG,   /* int *: set to 1 */
	PAB_OPT_STRING, /* const char **: last one wins */
	PAB_OPT_LIST,   /* struct pab_strlist *: every occurrence appended
			 * (nargs words each, when nargs > 1) */
	PAB_OPT_U64,    /* uint64_t *: checked against [min, max] */
	PAB_OPT_DOUBLE, /* double *: checked against [min, max] */
};

/* A growable list of borrowed strings (argv pointers). */
struct pab_strlist {
	const char **v;
	size_t n, alloc;
};
void pab_strlist_push(struct pab_strlist *l, const char *s);
void pab_strlist_release(struct pab_strlist *l);

struct pab_option {
	enum pab_opt_type type;
	char short_name;        /* 0 for none */
	const char *long_name;
	void *value;
	const char *argh;       /* placeholder in help, e.g. "N" */
	const char *help;
	double min, max;        /* numeric range (U64 and DOUBLE) */
	int nargs;              /* LIST: words each occurrence takes (0: 1) */
};

#define OPT_FLAG(s, l, v, h) { PAB_OPT_FLAG, (s), (l), (v), NULL, (h), 0, 0, 0 }
#define OPT_STRING(s, l, v, a, h) { PAB_OPT_STRING, (s), (l), (v), (a), (h), 0, 0, 0 }
#define OPT_LIST(s, l, v, a, h) { PAB_OPT_LIST, (s), (l), (v), (a), (h), 0, 0, 0 }
/* --name A B C: nargs words, all appended to the list (argh names them). */
#define OPT_LIST_N(s, l, v, a, h, n) { PAB_OPT_LIST, (s), (l), (v), (a), (h), 0, 0, (n) }
#define OPT_U64(s, l, v, a, h, lo, hi) { PAB_OPT_U64, (s), (l), (v), (a), (h), (lo), (hi), 0 }
#define OPT_DOUBLE(s, l, v, a, h, lo, hi) { PAB_OPT_DOUBLE, (s), (l), (v), (a), (h), (lo), (hi), 0 }
#define OPT_END() { PAB_OPT_END, 0, NULL, NULL, NULL, NULL, 0, 0, 0 }

/*
 * Another tool's options that a command answers with advice instead of
 * "unknown option" (perfab run: hyperfine's, doc/perfab.1 "hyperfine's
 * options"). names is "--sort" or "-i|--ignore-failure" (either spelling
 * matches, with or without =VALUE, a short one with its value attached);
 * advice says how this command does it.
 *
 * A spelling the command has too (-n, -w) keeps the command's meaning.
 * Its advice is added to the error of a value the command cannot read
 * (-n NAME: -n is --reps); and when number is 1 (the other tool's option
 * takes a whole number), a whole number after that spelling is refused
 * with the advice, because it would be read silently in the other sense
 * (-w 3: hyperfine's three warmup runs, not the rows whose names hold a
 * 3). The long name of the command's option still takes any value.
 */
struct pab_foreign_option {
	const char *names;
	const char *advice;
	int number;
};

/*
 * pab_options_foreign: the next pab_parse_options() call consults table
 * (ended by a NULL names; NULL: none), naming the other tool tool in its
 * messages ("'--sort' is hyperfine's: ..."). Both are borrowed; the parse
 * forgets them when it returns.
 */
void pab_options_foreign(const char *tool, const struct pab_foreign_option *table);

/*
 * pab_parse_options: parse argv[1..argc) (argv[0] is the subcommand name)
 * against opts. -h/--help prints the generated help to stdout and exits 0;
 * an unknown option, a missing or malformed value prints the error and the
 * usage to stderr and exits PAB_EXIT_USAGE. Positional arguments are
 * appended to *positional (borrowed pointers). usage is the synopsis line(s)
 * without "usage: "; description is printed under it in --help.
 */
void pab_parse_options(int argc, char **argv, const struct pab_option *opts,
		       const char *usage, const char *description,
		       struct pab_strlist *positional);

/* The option of opts called --long_name, or NULL. */
const struct pab_option *pab_option_find(const struct pab_option *opts,
					 const char *long_name);

/* Print the usage to stderr and exit PAB_EXIT_USAGE, after a message. */
_Noreturn void pab_usage_error(const struct pab_option *opts,
			       const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* PAB_OPTIONS_H */
