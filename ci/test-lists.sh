# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# ci/test-lists.sh — sourced by ci/test.sh and ci/sanitize.sh: the tests
# a CI pass runs, and the order it starts them in.

# all_tests: the TESTS of the Makefile in the current directory (a
# configured build tree), one line, blank-separated.
all_tests() {
	# shellcheck disable=SC2016 # make syntax, not shell
	printf 'pab-print-tests:\n\t@echo $(TESTS)\n' | make -s -f Makefile -f - pab-print-tests
}

# make -j starts tests in the order of TESTS: a pass that starts its long
# tests first does not end on one of them alone.
# long_first LONG LIST: the words of LIST, those named in LONG first (in
# LONG's order), then the others in LIST's order. A name of LONG that LIST
# does not hold is left out: a renamed test is only not moved.
long_first() {
	_first=
	_rest=
	for _t in $1; do
		case " $2 " in *" $_t "*) _first="$_first $_t" ;; esac
	done
	for _t in $2; do
		case " $_first " in *" $_t "*) ;; *) _rest="$_rest $_t" ;; esac
	done
	echo "${_first# }$_rest"
}
