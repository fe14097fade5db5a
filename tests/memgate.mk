# SPDX-License-Identifier: GPL-3.0-or-later
# tests/memgate.mk — the memory gate (`perfab memgate`, doc/memgate.md):
# baselines recorded from real runs of the calibration workload, a leak
# and extra memory injected and caught.

memgate_tests = \
	tests/e2e/memgate_pass.sh \
	tests/e2e/memgate_leak.sh \
	tests/e2e/memgate_filtered.sh \
	tests/e2e/memgate_input.sh

TESTS += $(memgate_tests)
dist_noinst_SCRIPTS += $(memgate_tests)
