#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/setup-debian.sh — every package perfab needs to run, build and test
# (the README's entry point): ci/setup-runtime.sh, ci/setup-build.sh and
# ci/setup-test.sh in turn. A GitHub runner that only runs perfab needs the
# first; one that builds it, the first two. Safe to run twice.
set -eu
dir=$(dirname "$0")
"$dir/setup-runtime.sh"
"$dir/setup-build.sh"
"$dir/setup-test.sh"
