# SPDX-License-Identifier: GPL-3.0-or-later
# tests/run.mk — unit tests of the runner's pure parts (src/run/): the
# adaptive-reps policy, the sanity gate, the plan's checks of the options,
# and the typed run settings (src/store/run_settings.c).
unit_tests += tests/unit/test_run_plan
tests_unit_test_run_plan_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_run_plan_LDADD = $(UNIT_LDADD)
