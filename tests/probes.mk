# SPDX-License-Identifier: GPL-3.0-or-later
# tests/probes.mk — fragment of the top-level Makefile.am: tests of the
# machine-awareness probes — performance counters, the per-child memory
# cgroup and `perfab env` (doc/env.md). The unit tests link libperfab and
# adapt to the machine (PMU or not, root or not) but never pass vacuously:
# see each file's header.

if HAVE_CHECK
check_PROGRAMS += tests/test_counters tests/test_cgroup
TESTS += tests/test_counters tests/test_cgroup
endif

tests_test_counters_SOURCES = tests/test_counters.c
tests_test_counters_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
tests_test_counters_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)

tests_test_cgroup_SOURCES = tests/test_cgroup.c
tests_test_cgroup_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
tests_test_cgroup_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)

env_tests = tests/env_checklist.sh
TESTS += $(env_tests)
dist_noinst_SCRIPTS += $(env_tests)
