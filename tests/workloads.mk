# SPDX-License-Identifier: GPL-3.0-or-later
# tests/workloads.mk — fragment of the top-level Makefile.am: tests of the
# workload programs and perfab-workload/1 (doc/workload-protocol.md).
# The shell tests run the built programs from $PERFAB_WORKLOAD_DIR at a
# small PERFAB_SCALE and never compare wall-clock times.

workloads_tests = \
	tests/workloads_suite.sh \
	tests/workloads_floor.sh \
	tests/workloads_checksum.sh \
	tests/workloads_spin.sh \
	tests/workloads_latency.sh \
	tests/workloads_errors.sh \
	tests/workloads_protocol.sh

check_PROGRAMS += tests/test_workloads_suite
tests_test_workloads_suite_SOURCES = tests/test_workloads_suite.c \
	common/suite.c workloads/wl_params.c
tests_test_workloads_suite_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/workloads
tests_test_workloads_suite_LDADD = -lm

TESTS += tests/test_workloads_suite $(workloads_tests)
dist_noinst_SCRIPTS += $(workloads_tests)
dist_noinst_DATA += tests/workloads_lib.sh
