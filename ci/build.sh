#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/build.sh — configure and build perfab out of tree in _build/ (or $1).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$top/configure" ${PERFAB_CONFIGURE_FLAGS:-}
make -j"$(nproc)"
