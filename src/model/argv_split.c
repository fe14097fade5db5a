/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * argv_split.c — shell-free word splitting for arm commands (argv_split.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/argv_split.h"
#include "util.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int pab_argv_split(const char *cmd, char ***out, size_t *argc,
		   const char **why)
{
	char **argv = NULL;
	size_t n = 0, alloc = 0;
	struct pab_strbuf word = PAB_STRBUF_INIT;
	const char *p = cmd;
	int in_word = 0;

	*out = NULL;
	*argc = 0;
	for (;;) {
		char c = *p;

		if (!c || is_blank(c)) {
			if (in_word) {
				ALLOC_GROW(argv, n + 2, alloc);
				argv[n++] = pab_strbuf_detach(&word);
				in_word = 0;
			}
			if (!c)
				break;
			p++;
			continue;
		}
		in_word = 1;
		if (c == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end) {
				*why = "unterminated single quote";
				goto out_fail;
			}
			pab_strbuf_add(&word, p + 1, (size_t)(end - p - 1));
			if (!word.buf)
				pab_strbuf_add(&word, "", 0);
			p = end + 1;
		} else if (c == '"') {
			p++;
			if (!word.buf)
				pab_strbuf_add(&word, "", 0);
			while (*p && *p != '"') {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				pab_strbuf_add(&word, p, 1);
				p++;
			}
			if (!*p) {
				*why = "unterminated double quote";
				goto out_fail;
			}
			p++;
		} else if (c == '\\') {
			if (!p[1]) {
				*why = "trailing backslash";
				goto out_fail;
			}
			pab_strbuf_add(&word, p + 1, 1);
			p += 2;
		} else {
			pab_strbuf_add(&word, p, 1);
			p++;
		}
	}
	if (!n) {
		*why = "empty command";
		goto out_fail;
	}
	argv[n] = NULL;
	*out = argv;
	*argc = n;
	return 0;

out_fail:
	pab_strbuf_release(&word);
	while (n)
		free(argv[--n]);
	free(argv);
	return -1;
}

void pab_argv_free(char **argv)
{
	char **p;

	if (!argv)
		return;
	for (p = argv; *p; p++)
		free(*p);
	free(argv);
}

char **pab_argv_dup(char *const *argv, size_t n)
{
	char **copy = xcalloc(n + 1, sizeof(*copy));
	size_t i;

	for (i = 0; i < n; i++)
		copy[i] = xstrdup(argv[i]);
	return copy;
}

char *pab_argv_join(char *const *argv, size_t n)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *a = argv[i];

		if (i)
			pab_strbuf_addstr(&sb, " ");
		if (*a && !strpbrk(a, " \t\n\r'\"\\;$`|&<>(){}*?[]#~")) {
			pab_strbuf_addstr(&sb, a);
			continue;
		}
		/* Single-quote, closing and reopening around embedded quotes. */
		pab_strbuf_addstr(&sb, "'");
		for (; *a; a++) {
			if (*a == '\'')
				pab_strbuf_addstr(&sb, "'\\''");
			else
				pab_strbuf_add(&sb, a, 1);
		}
		pab_strbuf_addstr(&sb, "'");
	}
	return pab_strbuf_detach(&sb);
}

/* NAME=value with a shell variable name. */
static int is_assignment(const char *w)
{
	const char *p = w;

	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_'))
		return 0;
	for (p++; *p && *p != '='; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return *p == '=';
}

/* A shell's -c option ("-c", "-ec", "-xc"): what follows is its script. */
static int shell_dash_c(char *const *argv, size_t i)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "mksh",
					      "ash", "busybox", NULL };
	const char *base = strrchr(argv[0], '/'), *w = argv[i];
	size_t k;

	base = base ? base + 1 : argv[0];
	for (k = 0; shells[k]; k++)
		if (!strcmp(base, shells[k]))
			break;
	return shells[k] && w[0] == '-' && w[1] != '-' && strchr(w, 'c');
}

long pab_argv_shell_syntax(char *const *argv, size_t n, const char **hint)
{
	static const char *const ops[] = { "|", "||", "&&", ";", ">", ">>", "<",
					   "2>&1", "&", NULL };
	size_t i, k;

	*hint = NULL;
	for (i = 0; i < n; i++) {
		const char *w = argv[i];

		if (i > 0 && shell_dash_c(argv, i))
			return -1; /* sh -c 'SCRIPT' ...: the shell's own syntax */
		for (k = 0; ops[k]; k++)
			if (!strcmp(w, ops[k])) {
				*hint = "pipes, redirections and command lists need a shell: "
					"write sh -c '...' as the command";
				return (long)i;
			}
		if (i == 0 && is_assignment(w)) {
			*hint = "an environment assignment before the command needs a shell: "
				"put it in the config's \"env\" (or --head-env), or run env NAME=value CMD";
			return (long)i;
		}
		if (w[0] == '$' || strstr(w, "$(") || strchr(w, '`')) {
			*hint = "nothing is expanded without a shell: expand it in your own shell "
				"(outside single quotes), or write sh -c '...' as the command";
			return (long)i;
		}
		if (w[0] == '~') {
			*hint = "'~' is not expanded without a shell: write the full path";
			return (long)i;
		}
	}
	return -1;
}

/* The index of the name that {...} at p (p[0] == '{') names, or -1. */
static long placeholder_at(const char *p, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);

		if (!strncmp(p + 1, names[i], len) && p[1 + len] == '}')
			return (long)i;
	}
	return -1;
}

char *pab_argv_expand(const char *word, const char *const *names,
		      const char *const *values, size_t n)
{
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	const char *p;

	for (p = word; *p; p++) {
		long i = *p == '{' ? placeholder_at(p, names, n) : -1;

		if (i < 0) {
			pab_strbuf_add(&sb, p, 1);
			continue;
		}
		pab_strbuf_addstr(&sb, values[i]);
		p += strlen(names[i]) + 1;
	}
	return sb.buf ? pab_strbuf_detach(&sb) : xstrdup("");
}

int pab_argv_mentions(const char *word, const char *name)
{
	const char *p;

	for (p = strchr(word, '{'); p; p = strchr(p + 1, '{'))
		if (placeholder_at(p, &name, 1) == 0)
			return 1;
	return 0;
}
