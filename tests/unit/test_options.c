/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_options.c — the table-driven option parser (src/options.h) on a
 * command-like table of every option type, ranges included: one table of
 * command lines, each with what it must parse to, or the exit code and
 * the words of the message it must end with. pab_parse_options() exits
 * on -h and on misuse, so every case runs in a child whose stdout and
 * stderr are kept in files; a parse that returns prints what it parsed.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "options.h"
#include "util.h"

#include "unit.h"

static const char usage[] = "perfab try [-q] [--arm NAME=CMD]... [--reps N] FILE...";

/* Parse argv against a table of every option type and print the result:
 * "q=1 out=X arm=[A,B] reps=N tol=T pos=[P,Q]". Runs in the child. */
static void parse_and_print(int argc, char **argv)
{
	int quiet = 0;
	const char *out = NULL;
	struct pab_strlist arms = { 0 }, pos = { 0 }, scans = { 0 };
	uint64_t reps = 0;
	double tol = -1;
	size_t i;
	const struct pab_option opts[] = {
		OPT_FLAG('q', "quiet", &quiet, "print less"),
		OPT_STRING('o', "out", &out, "OUT", "write the artifact here"),
		OPT_LIST(0, "arm", &arms, "NAME=CMD", "an arm (repeatable)"),
		OPT_U64('n', "reps", &reps, "N", "paired reps", 2, 1000000),
		OPT_DOUBLE(0, "tolerance", &tol, "PCT", "allowance in percent", 0, 1000),
		OPT_LIST_N(0, "scan", &scans, "NAME MIN MAX", "a scan (three words)", 3),
		OPT_END(),
	};
	/* Another tool's options (options.h): one this table lacks, one
	 * spelling it shares whose value reads otherwise (-n NAME), and one
	 * whose whole-number value would be read silently in the other sense. */
	static const struct pab_foreign_option other[] = {
		{ "--sort|-s", "rows stay in order", 0 },
		{ "-n|--command-name", "-n is --reps here", 0 },
		{ "-o", "-o is --out here", 1 },
		{ NULL, NULL, 0 },
	};

	pab_options_foreign("other", other);
	pab_parse_options(argc, argv, opts, usage, "Try the option parser.", &pos);
	printf("q=%d out=%s arm=[", quiet, out ? out : "-");
	for (i = 0; i < arms.n; i++)
		printf("%s%s", i ? "," : "", arms.v[i]);
	printf("] reps=%llu tol=%g pos=[", (unsigned long long)reps, tol);
	for (i = 0; i < pos.n; i++)
		printf("%s%s", i ? "," : "", pos.v[i]);
	printf("]");
	for (i = 0; i < scans.n; i++)
		printf("%s%s", i ? "," : " scan=", scans.v[i]);
	printf("\n");
	pab_strlist_release(&scans);
	pab_strlist_release(&arms);
	pab_strlist_release(&pos);
}

struct opt_case {
	const char *argv[10]; /* after the subcommand name; NULL-ended */
	int exit_code;
	const char *out;     /* substring of stdout (the parse, or the help) */
	const char *err;     /* substring of stderr; NULL: stderr is empty */
};

#define NOTHING "q=0 out=- arm=[] reps=0 tol=-1 pos=[]"

static const struct opt_case cases[] = {
	{ { NULL }, 0, NOTHING, NULL },
	/* every spelling of a value */
	{ { "-q", "-o", "a.json", "--reps", "5", "--tolerance", "2.5", "f1", NULL }, 0,
	  "q=1 out=a.json arm=[] reps=5 tol=2.5 pos=[f1]", NULL },
	{ { "--quiet", "--out=b.json", "--reps=7", "-n", "8", NULL }, 0,
	  "q=1 out=b.json arm=[] reps=8 tol=-1 pos=[]", NULL },
	{ { "--out", "x", "--out", "y", NULL }, 0, "out=y ", NULL }, /* last one wins */
	{ { "--arm", "base=a b", "--arm=head=c", "--arm", "x=", NULL }, 0,
	  "arm=[base=a b,head=c,x=]", NULL },
	/* positionals anywhere; "--" ends options; "-" is a positional */
	{ { "f1", "-q", "f2", "--", "-q", "--reps", "-", NULL }, 0,
	  "q=1 out=- arm=[] reps=0 tol=-1 pos=[f1,f2,-q,--reps,-]", NULL },
	{ { "--out", "-q", NULL }, 0, "q=0 out=-q ", NULL }, /* a value may start with '-' */
	{ { "--tolerance=", NULL }, 2, "", "option '--tolerance' needs a number in [0, 1000], not ''" },
	/* ranges, bounds included */
	{ { "--reps", "2", "--tolerance", "0", NULL }, 0, "reps=2 tol=0 ", NULL },
	{ { "--reps", "1000000", "--tolerance", "1000", NULL }, 0, "reps=1000000 tol=1000 ", NULL },
	{ { "--reps", "1", NULL }, 2, "", "option '--reps' needs a whole number in [2, 1000000], not '1'" },
	{ { "--reps", "1000001", NULL }, 2, "", "needs a whole number in [2, 1000000], not '1000001'" },
	{ { "--reps", "-3", NULL }, 2, "", "not '-3'" },
	{ { "--reps", "5x", NULL }, 2, "", "not '5x'" },
	{ { "--reps", "", NULL }, 2, "", "not ''" },
	{ { "--reps", "2.5", NULL }, 2, "", "not '2.5'" },
	{ { "--reps", "18446744073709551617", NULL }, 2, "", "not '18446744073709551617'" },
	{ { "--tolerance", "1000.5", NULL }, 2, "", "option '--tolerance' needs a number in [0, 1000], not '1000.5'" },
	{ { "--tolerance", "-0.1", NULL }, 2, "", "not '-0.1'" },
	{ { "--tolerance", "nan", NULL }, 2, "", "not 'nan'" },
	{ { "--tolerance", "1e400", NULL }, 2, "", "not '1e400'" },
	/* an option of three words, repeatable; its words may start with '-' */
	{ { "--scan", "n", "1", "8", "f", "--scan=k", "-2", "2", NULL }, 0,
	  "pos=[f] scan=n,1,8,k,-2,2", NULL },
	{ { "--scan", "n", "1", NULL }, 2, "", "option '--scan' needs 3 values (NAME MIN MAX)" },
	{ { "--help", NULL }, 0, "      --scan NAME MIN MAX      a scan (three words)\n", NULL },
	/* misuse */
	{ { "--reps", NULL }, 2, "", "option '--reps' needs a value (N)" },
	{ { "-o", NULL }, 2, "", "option '--out' needs a value (OUT)" },
	{ { "--quiet=yes", NULL }, 2, "", "option '--quiet' takes no value" },
	{ { "--rep", "3", NULL }, 2, "", "unknown option '--rep'; did you mean '--reps'?" },
	{ { "--colour", NULL }, 2, "", "unknown option '--colour'" },
	{ { "-x", NULL }, 2, "", "unknown option '-x'" },
	{ { "-qn", "3", NULL }, 2, "", "unknown option '-qn'" },
	/* a short option's value attached, as getopt and hyperfine read it */
	{ { "-n5", "-oX", NULL }, 0, "q=0 out=X arm=[] reps=5 ", NULL },
	{ { "-n=6", "-o=", NULL }, 0, "q=0 out= arm=[] reps=6 ", NULL },
	{ { "-n7x", NULL }, 2, "", "needs a whole number in [2, 1000000], not '7x'" },
	{ { "-q1", NULL }, 2, "", "unknown option '-q1'" },
	/* another tool's options: advice, never a guess */
	{ { "--sort", NULL }, 2, "", "'--sort' is other's: rows stay in order" },
	{ { "--sort=x", "f", NULL }, 2, "", "'--sort' is other's: rows stay in order" },
	{ { "-s", NULL }, 2, "", "'-s' is other's: rows stay in order" },
	{ { "-sx", NULL }, 2, "", "'-s' is other's: rows stay in order" },
	{ { "--command-name", "x", NULL }, 2, "", "'--command-name' is other's: -n is --reps here" },
	{ { "-n", "x", NULL }, 2, "",
	  "option '--reps' needs a whole number in [2, 1000000], not 'x' (other's -n: -n is --reps here)" },
	{ { "-n", "4", NULL }, 0, "reps=4 ", NULL },
	{ { "-o", "3", NULL }, 2, "", "'-o 3' reads as other's: -o is --out here" },
	{ { "-o03", NULL }, 2, "", "'-o 03' reads as other's: -o is --out here" },
	{ { "-o", "3x", "--out", "4", NULL }, 0, "out=4 ", NULL },
	{ { "--out", "3", NULL }, 0, "out=3 ", NULL },
	{ { "--reps", "0", NULL }, 2, "", "usage: perfab try [-q]" },
	{ { "--reps", "0", NULL }, 2, "", "(run with --help for all options)" },
	/* --help: to stdout, exit 0, whatever follows */
	{ { "-h", "--bogus", NULL }, 0, "usage: perfab try [-q] [--arm NAME=CMD]... [--reps N] FILE...", NULL },
	{ { "--help", NULL }, 0, "\nTry the option parser.\n", NULL },
	{ { "--help", NULL }, 0, "  -q, --quiet                  print less\n", NULL },
	{ { "--help", NULL }, 0, "  -n, --reps N                 paired reps\n", NULL },
	{ { "--help", NULL }, 0, "      --arm NAME=CMD           an arm (repeatable)\n", NULL },
	{ { "--help", NULL }, 0, "  -h, --help                   show this help and exit\n", NULL },
};

/* The whole of a small file (caller frees). */
static char *slurp(const char *path)
{
	size_t len;
	char *s = read_file_max(path, 1 << 20, &len);

	ck_assert_msg(s != NULL, "cannot read '%s'", path);
	return s;
}

START_TEST(option_table)
{
	const struct opt_case *c = &cases[_i];
	char dir[] = "/tmp/perfab-test-options.XXXXXX", out[64], err[64];
	char *argv[12], *o, *e, line[256] = "";
	int argc = 0, status, fd;
	pid_t pid;
	size_t k;

	argv[argc++] = "try";
	for (k = 0; c->argv[k]; k++) {
		argv[argc++] = (char *)c->argv[k];
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " '%s'", c->argv[k]);
	}
	argv[argc] = NULL;
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	fflush(NULL);
	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(120);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(120);
		parse_and_print(argc, argv);
		fflush(NULL);
		_exit(0);
	}
	ck_assert(waitpid(pid, &status, 0) == pid);
	o = slurp(out);
	e = slurp(err);
	unlink(out);
	unlink(err);
	rmdir(dir);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == c->exit_code,
		      "try%s: exit %d, expected %d; stderr: %s", line,
		      WIFEXITED(status) ? WEXITSTATUS(status) : -1, c->exit_code, e);
	ck_assert_msg(strstr(o, c->out) != NULL, "try%s: stdout\n%s\nlacks\n%s", line, o, c->out);
	if (c->err) {
		ck_assert_msg(!strncmp(e, "perfab: error: ", 15), "try%s: stderr '%s'", line, e);
		ck_assert_msg(strstr(e, c->err) != NULL, "try%s: stderr\n%s\nlacks\n%s", line, e,
			      c->err);
		ck_assert_msg(!*o, "try%s: misuse printed to stdout: %s", line, o);
	} else {
		ck_assert_msg(!*e, "try%s: stderr '%s'", line, e);
	}
	free(o);
	free(e);
}
END_TEST

START_TEST(strlist_grows)
{
	struct pab_strlist l = { 0 };
	static const char *const words[] = { "a", "b", "c" };
	size_t i;

	for (i = 0; i < 1000; i++)
		pab_strlist_push(&l, words[i % 3]);
	ck_assert_uint_eq(l.n, 1000);
	ck_assert_uint_ge(l.alloc, 1000);
	ck_assert_str_eq(l.v[999], "a");
	ck_assert_str_eq(l.v[500], "c");
	pab_strlist_release(&l);
	ck_assert_ptr_null(l.v);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_uint_eq(l.alloc, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, option_table, 0, (int)NELEMS(cases));
	tcase_add_test(tc, strlist_grows);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
