# SPDX-License-Identifier: GPL-3.0-or-later
# tests/local.mk — test fragments, one per area, each owned with its module.
EXTRA_DIST += tests/lib.sh
include tests/stats.mk
include tests/workloads.mk
include tests/cli.mk
include tests/run.mk
include tests/probes.mk
include tests/docs.mk
include tests/team.mk
include tests/fuzz.mk
include tests/package.mk

# The layering of the source tree (doc/hacking.md).
TESTS += tests/layering.sh
dist_noinst_SCRIPTS += tests/layering.sh
