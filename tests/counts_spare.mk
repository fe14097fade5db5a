# SPDX-License-Identifier: GPL-3.0-or-later
# tests/counts_spare.mk — the counting pass's children side by side on
# spare PUs (src/run/count_batch.c) and timed reps that stop when decided.

counts_spare_tests = tests/e2e/counts_spare.sh
TESTS += $(counts_spare_tests)
dist_noinst_SCRIPTS += $(counts_spare_tests)

unit_tests += tests/unit/test_looks_fixed
tests_unit_test_looks_fixed_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_looks_fixed_LDADD = $(UNIT_LDADD)
