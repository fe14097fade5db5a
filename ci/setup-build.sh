#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/setup-build.sh — the packages that build perfab from a clone:
# compiler, autotools, pkg-config and the -dev packages of its libraries.
# Debian 12, Ubuntu 22.04 and 24.04 (ci/setup-lib.sh). Safe to run twice.
set -eu
. "$(dirname "$0")/setup-lib.sh"
pkgs_install \
	build-essential make autoconf automake 'pkgconf|pkg-config' \
	libgsl-dev libcjson-dev libhwloc-dev libpfm4-dev nettle-dev libsqlite3-dev
