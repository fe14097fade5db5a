/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * argv_split.h — turn an arm's COMMAND string into an argv WITHOUT a shell.
 *
 * Nothing is expanded or interpreted: no variables, no globbing, no
 * command substitution, no redirection, no ';' or '|'. Only word splitting
 * and quoting, so a hostile string can never run anything but argv[0]:
 *   - words are separated by blanks (space, tab, newline);
 *   - '...' keeps everything literally up to the next ';
 *   - "..." keeps everything literally except \" and \\ ;
 *   - outside quotes, a backslash keeps the next character literally;
 *   - adjacent quoted/unquoted pieces join into one word: a'b'"c" is abc.
 * Documented in doc/perfab.1 (ARMS).
 */
#ifndef PAB_ARGV_SPLIT_H
#define PAB_ARGV_SPLIT_H

#include <stddef.h>

/*
 * pab_argv_split: split cmd into a new NULL-terminated argv (caller frees
 * with pab_argv_free) and its count in *argc. Returns 0, or -1 with a
 * static reason in *why ("unterminated single quote", "empty command",
 * "trailing backslash"); *out is then NULL.
 */
int pab_argv_split(const char *cmd, char ***out, size_t *argc,
		   const char **why);
void pab_argv_free(char **argv);
/* A copy of a NULL-terminated argv (n entries), deep. */
char **pab_argv_dup(char *const *argv, size_t n);
/* Render argv back so pab_argv_split() gives the same words (for logs). */
char *pab_argv_join(char *const *argv, size_t n);

/*
 * pab_argv_shell_syntax: whether argv looks written for a shell that will
 * never see it. A word that is exactly |, ||, &&, ;, >, >>, <, 2>&1 or &,
 * a first word of the form NAME=value, a word starting with $ or ~, or a
 * word containing $( or a backtick. Everything after a shell's -c option
 * (sh -c 'SCRIPT', bash -ec ...) is the shell's and is not checked.
 * Returns the index of the first such word, or -1 for none; *hint
 * (static) then says what to write instead.
 */
long pab_argv_shell_syntax(char *const *argv, size_t n, const char **hint);

/*
 * pab_argv_expand: word with every {NAME} whose NAME is names[i] replaced
 * by values[i] (n pairs; a brace naming none of them stays as it is).
 * New string, always (a copy when nothing matched).
 */
char *pab_argv_expand(const char *word, const char *const *names,
		      const char *const *values, size_t n);

/* 1 when word holds {name}. */
int pab_argv_mentions(const char *word, const char *name);

#endif /* PAB_ARGV_SPLIT_H */
