# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# ci/long-first.sh — sourced by ci/test.sh and ci/sanitize.sh: the order a
# pass starts its tests in (make -j starts them in the order of TESTS), so
# that it does not end on one long test alone.
#
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
