# SPDX-License-Identifier: GPL-3.0-or-later
# tests/counts.mk — exact instruction counts (src/probe/simcount.c, the
# runner's counting pass, the exact cells of stats/verdict.c) and
# `perfab calibrate`.

unit_tests += tests/unit/test_simcount
tests_unit_test_simcount_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_simcount_LDADD = $(UNIT_LDADD)

counts_tests = tests/e2e/cli_counts.sh tests/e2e/cli_calibrate.sh
TESTS += $(counts_tests)
dist_noinst_SCRIPTS += $(counts_tests)
