# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bisect.mk — perfab bisect: the search against a model oracle
# (unit), and the command on scratch git repositories end to end: a 10%
# step among 16 commits found with exact counts (and a commit that does
# not build, an interrupt and the resume), a memory step and two changes
# in one range, a time step with --counts off, and the refusals.
unit_tests += tests/unit/test_bisect
tests_unit_test_bisect_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_bisect_LDADD = $(UNIT_LDADD)

bisect_tests = \
	tests/e2e/bisect_counts.sh \
	tests/e2e/bisect_memory.sh \
	tests/e2e/bisect_time.sh \
	tests/e2e/bisect_refuse.sh

TESTS += $(bisect_tests)
dist_noinst_SCRIPTS += $(bisect_tests)
