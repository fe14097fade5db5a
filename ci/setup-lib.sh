# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# ci/setup-lib.sh — sourced by ci/setup-{runtime,build,test}.sh: install
# Debian packages by purpose on Debian 12 and Ubuntu 22.04/24.04.
#
# pkgs_install GROUP...: each GROUP is a package name or alternatives
# "a|b|c" (names that differ between releases, e.g. Ubuntu 24.04's
# libnettle8t64 for Debian 12's libnettle8); a leading "?" marks a group
# that may be missing on a release (chromium is a snap on Ubuntu). Groups
# already installed are skipped, so a machine that has everything never
# touches the network; otherwise apt-get update runs once and each group
# takes its first alternative that the archive offers. Uses sudo when not
# root.

if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
pkgs_updated=

pkg_installed() {
	dpkg-query -W -f '${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'
}

pkg_available() {
	[ -n "$(apt-cache show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p')" ]
}

pkgs_install() {
	want=
	for group in "$@"; do
		optional=
		case $group in \?*) optional=1; group=${group#\?} ;; esac
		have=
		for p in $(echo "$group" | tr '|' ' '); do
			if pkg_installed "$p"; then have=$p; break; fi
		done
		[ -z "$have" ] || continue
		if [ -z "$pkgs_updated" ]; then
			$sudo apt-get update -q
			pkgs_updated=1
		fi
		pick=
		for p in $(echo "$group" | tr '|' ' '); do
			if pkg_available "$p"; then pick=$p; break; fi
		done
		if [ -n "$pick" ]; then
			want="$want $pick"
		elif [ -n "$optional" ]; then
			echo "setup: '$group' is not in this release's archive; skipped" >&2
		else
			echo "setup: none of '$group' is in this release's archive" >&2
			return 1
		fi
	done
	[ -n "$want" ] || return 0
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $want
}
