#!/bin/sh
# ci/setup-debian.sh — install every Debian package perfab needs to build,
# test and run its demo. Uses sudo when not root. Safe to run twice.
set -eu
pkgs="build-essential autoconf automake pkgconf
      libgsl-dev libcjson-dev libhwloc-dev libpfm4-dev nettle-dev check
      libjemalloc2 jq python3 procps chromium
      clang libclang-rt-14-dev valgrind"
if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $pkgs
