# SPDX-License-Identifier: GPL-3.0-or-later
# tests/counts.mk — exact instruction counts (src/probe/simcount.c, the
# runner's counting pass, the count cache, the exact cells of
# stats/verdict.c).

unit_tests += tests/unit/test_simcount
tests_unit_test_simcount_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_simcount_LDADD = $(UNIT_LDADD)
unit_tests += tests/unit/test_count_cache
tests_unit_test_count_cache_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_count_cache_LDADD = $(UNIT_LDADD)

counts_tests = \
	tests/e2e/counts_exact.sh \
	tests/e2e/counts_child.sh \
	tests/e2e/counts_cache.sh \
	tests/e2e/counts_debug_hidden.sh
TESTS += $(counts_tests)
dist_noinst_SCRIPTS += $(counts_tests)
