# SPDX-License-Identifier: GPL-3.0-or-later
# tests/attribution.mk — attribution (doc/attribution.md): the profiles'
# difference and readers (a unit test), and runs of a test program of
# known causes (tests/data/attr/attr_prog.c, built with debug info) whose
# FAILs must name the function or allocation site that moved. The harness
# sets PERFAB_ATTRIBUTE=never; these tests ask for attribution.

unit_tests += tests/unit/test_attribution
tests_unit_test_attribution_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_attribution_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/data/attr/attr_prog
tests_data_attr_attr_prog_SOURCES = tests/data/attr/attr_prog.c
# Frame pointers: perf follows them for the call stacks of the flame graph.
tests_data_attr_attr_prog_CFLAGS = $(AM_CFLAGS) -g -O1 -fno-omit-frame-pointer

attribution_tests = tests/e2e/attribution_counts.sh tests/e2e/attribution_heap.sh \
	tests/e2e/attribution_time.sh
TESTS += $(attribution_tests)
dist_noinst_SCRIPTS += $(attribution_tests)
