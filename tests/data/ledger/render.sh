# SPDX-License-Identifier: GPL-3.0-or-later
# tests/data/ledger/render.sh — the one way the ledger corpus is rendered,
# sourced by regen.sh (which writes the goldens in expected/) and by
# tests/e2e/ledger_corpus.sh (which renders again and compares), so the two
# cannot drift. Defines functions only; every variable it sets starts
# with lc_. POSIX sh.
#
# A case (a line of cases) is rendered in every format it names: perfab
# ledger ARGS --format FORMAT, run in tests/data so paths in messages are
# the relative ones of cases, with standard input from /dev/null and
# standard output a file (never a terminal: no colour), in an environment
# pinned where perfab reads it: NO_COLOR=1, TERM=dumb, LC_ALL=C, TZ=UTC,
# COLUMNS=80, no GITHUB_STEP_SUMMARY (it would append a Markdown copy to
# that file) and no PERFAB_TEST_* hook. Standard output goes to
# NAME.FORMAT.out byte for byte; NAME.FORMAT.err holds "exit N" and then
# standard error byte for byte.
#
# The one normalisation: JUnit stamps its <testsuite> with the time of the
# report and this host's name (timestamp="2026-12-01T13:10:10"
# hostname="vm"), which no artifact determines. On that line only, a
# timestamp of exactly that shape becomes timestamp="YYYY-MM-DDTHH:MM:SS"
# and the hostname value becomes "HOSTNAME"; a stamp of any other shape is
# left as it is, so a changed format still shows in the diff. Nothing else
# in any format depends on the time, the host or the terminal.

lc_formats='text wide json markdown junit html'

# ledger_corpus_each DATADIR: the cases of DATADIR/ledger/cases expanded,
# one "NAME FORMAT ARGS..." line per case and format, in file order.
ledger_corpus_each() {
	while read -r lc_name lc_fmts lc_args; do
		case $lc_name in '' | '#'*) continue ;; esac
		if [ "$lc_fmts" = all ]; then lc_fmts=$lc_formats; fi
		for lc_f in $(printf '%s\n' "$lc_fmts" | tr ',' ' '); do
			printf '%s %s %s\n' "$lc_name" "$lc_f" "$lc_args"
		done
	done <"$1/ledger/cases"
}

# ledger_corpus_normalise: stdin to stdout, the JUnit stamp normalised
# (see the top of this file).
ledger_corpus_normalise() {
	sed -e '/^  <testsuite name="perfab ledger" /s/ timestamp="[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]" hostname="[^"]*"/ timestamp="YYYY-MM-DDTHH:MM:SS" hostname="HOSTNAME"/'
}

# ledger_corpus_render PERFAB DATADIR OUTDIR: render every case in every
# format into OUTDIR (which must exist). Returns 0, or 1 when a format
# name in cases is unknown; a perfab that fails is recorded, not an error.
ledger_corpus_render() {
	lc_perfab=$1
	lc_data=$(cd "$2" && pwd) || return 1
	lc_out=$(cd "$3" && pwd) || return 1
	ledger_corpus_each "$lc_data" >"$lc_out/.cases" || return 1
	lc_ret=0
	# One subshell holds the pinned environment for every case: a process
	# or two per case, not a dozen (the corpus renders ~300 times).
	(
		cd "$lc_data" || exit 99
		for lc_v in $(env | sed -n 's/^\(PERFAB_TEST_[A-Za-z0-9_]*\)=.*/\1/p'); do
			unset "$lc_v"
		done
		unset GITHUB_STEP_SUMMARY
		NO_COLOR=1 TERM=dumb LC_ALL=C TZ=UTC COLUMNS=80
		export NO_COLOR TERM LC_ALL TZ COLUMNS
		set -f
		lc_ret=0
		while read -r lc_name lc_f lc_args; do
			case $lc_f in
			wide) lc_opts='--format text --wide' ;;
			text | json | markdown | junit | html) lc_opts="--format $lc_f" ;;
			*) echo "cases: '$lc_name': unknown format '$lc_f'" >&2; lc_ret=1; continue ;;
			esac
			lc_o=$lc_out/$lc_name.$lc_f
			lc_rc=0
			# shellcheck disable=SC2086 # ARGS are words by design
			"$lc_perfab" ledger $lc_args $lc_opts </dev/null >"$lc_o.out" 2>"$lc_o.stderr" || lc_rc=$?
			if [ "$lc_f" = junit ]; then
				ledger_corpus_normalise <"$lc_o.out" >"$lc_o.tmp" && mv "$lc_o.tmp" "$lc_o.out"
			fi
			{ echo "exit $lc_rc"; cat "$lc_o.stderr"; } >"$lc_o.err"
			rm -f "$lc_o.stderr"
		done <"$lc_out/.cases"
		exit $lc_ret
	) || lc_ret=1
	rm -f "$lc_out/.cases"
	return $lc_ret
}

# ledger_corpus_files DATADIR: every file of the corpus that a tarball must
# carry, relative to the top of the tree, sorted: the scripts, the cases,
# the artifacts (and journals) of DATADIR/ledger, and the two goldens of
# every case and format.
ledger_corpus_files() {
	{
		for lc_f in README cases make-corpus.sh regen.sh render.sh; do
			echo "tests/data/ledger/$lc_f"
		done
		for lc_f in "$1"/ledger/*.json "$1"/ledger/*.json.journal; do
			if [ -f "$lc_f" ]; then echo "tests/data/ledger/${lc_f##*/}"; fi
		done
		ledger_corpus_each "$1" | while read -r lc_name lc_f lc_args; do
			echo "tests/data/ledger/expected/$lc_name.$lc_f.out"
			echo "tests/data/ledger/expected/$lc_name.$lc_f.err"
		done
	} | LC_ALL=C sort -u
}

# ledger_corpus_filesmk DATADIR: the text of files.mk, the automake fragment
# that distributes ledger_corpus_files (included from tests/ledger.mk).
ledger_corpus_filesmk() {
	echo '# SPDX-License-Identifier: GPL-3.0-or-later'
	echo '# tests/data/ledger/files.mk — written by tests/data/ledger/regen.sh, do'
	echo '# not edit: every file of the ledger corpus, for EXTRA_DIST (tests/ledger.mk).'
	echo 'ledger_corpus_files = \'
	ledger_corpus_files "$1" | sed -e 's/^/	/' -e '$!s/$/ \\/'
}
