# SPDX-License-Identifier: GPL-3.0-or-later
# tests/probes.mk — the machine-awareness probes: performance counters,
# the per-child memory cgroup, the noise checklist and `perfab env`
# (doc/env.md); and what a child's measurement records end to end: the
# measuring window, the exec check, a child's own peak RSS, the tree
# sampler, and metrics with no probe reported as null. The counter and cgroup unit tests link libperfab and adapt
# to the machine (PMU or not, root or not) but never pass vacuously: see
# each file's header.

unit_tests += tests/unit/test_counters
tests_unit_test_counters_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_counters_LDADD = $(UNIT_LDADD)

unit_tests += tests/unit/test_cgroup
tests_unit_test_cgroup_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_cgroup_LDADD = $(UNIT_LDADD)

env_tests = tests/e2e/env_checklist.sh
TESTS += $(env_tests)
dist_noinst_SCRIPTS += $(env_tests)

unit_tests += tests/unit/test_checklist
tests_unit_test_checklist_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_checklist_LDADD = $(UNIT_LDADD)

measure_tests = \
	tests/e2e/measure_window.sh \
	tests/e2e/measure_exec_window.sh \
	tests/e2e/measure_peak_rss.sh \
	tests/e2e/measure_tree_sample.sh \
	tests/e2e/measure_probes.sh \
	tests/e2e/measure_cgroup_reuse.sh
TESTS += $(measure_tests)
dist_noinst_SCRIPTS += $(measure_tests)
