# SPDX-License-Identifier: GPL-3.0-or-later
# tests/workloads.mk — the workload programs and perfab-workload/1
# (doc/workload-protocol.md): the suite's row table (a plain C unit test)
# and shell tests that run the built programs from $PERFAB_WORKLOAD_DIR at
# a small PERFAB_SCALE and never compare wall-clock times.

workloads_tests = \
	tests/e2e/workloads_suite.sh \
	tests/e2e/workloads_floor.sh \
	tests/e2e/workloads_checksum.sh \
	tests/e2e/workloads_spin.sh \
	tests/e2e/workloads_latency.sh \
	tests/e2e/workloads_errors.sh \
	tests/e2e/workloads_protocol.sh \
	tests/e2e/workloads_through_run.sh

check_PROGRAMS += tests/unit/test_workloads_suite
tests_unit_test_workloads_suite_SOURCES = tests/unit/test_workloads_suite.c \
	common/suite.c common/numparse.c workloads/wl_params.c
tests_unit_test_workloads_suite_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/workloads
tests_unit_test_workloads_suite_LDADD = -lm

TESTS += tests/unit/test_workloads_suite $(workloads_tests)
dist_noinst_SCRIPTS += $(workloads_tests)
