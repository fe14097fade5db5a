#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/setup-runtime.sh — the packages a built perfab needs to run: the
# shared libraries it links (GSL, libcjson, hwloc, libpfm4, nettle, SQLite),
# and valgrind, which counts instructions where there is no PMU (--counts).
# Debian 12, Ubuntu 22.04 and 24.04 (ci/setup-lib.sh). Safe to run twice.
set -eu
. "$(dirname "$0")/setup-lib.sh"
pkgs_install \
	'libgsl27t64|libgsl27|libgsl28' 'libgslcblas0t64|libgslcblas0' \
	'libcjson1' 'libhwloc15t64|libhwloc15' 'libpfm4t64|libpfm4' \
	'libnettle8t64|libnettle8' 'libsqlite3-0' procps valgrind
