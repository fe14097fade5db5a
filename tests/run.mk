# SPDX-License-Identifier: GPL-3.0-or-later
# tests/run.mk — unit tests of the runner's pure parts (src/run/): the
# adaptive-reps policy, the sanity gate, the plan's checks of the options,
# and the typed run settings (src/model/run_settings.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_run_plan
TESTS += tests/unit/test_run_plan
endif
tests_unit_test_run_plan_SOURCES = tests/unit/test_run_plan.c
tests_unit_test_run_plan_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
tests_unit_test_run_plan_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)
