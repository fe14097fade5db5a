# SPDX-License-Identifier: GPL-3.0-or-later
# tests/run.mk — running arms (src/run/, src/model/rotation.c,
# argv_split.c): the front door and its defaults, arms and their
# rotation, placement on PUs, hyperfine's options and habits (hooks,
# parameters, stdio), failing children, head variants and progress; and
# unit tests of the runner's pure parts: the adaptive-reps policy, the
# plan's checks of the options, the typed run settings
# (src/store/run_settings.c), option parsing and the values a user types.
unit_tests += tests/unit/test_run_plan
tests_unit_test_run_plan_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_run_plan_LDADD = $(UNIT_LDADD)

unit_tests += tests/unit/test_runconf
tests_unit_test_runconf_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_runconf_LDADD = $(UNIT_LDADD)

unit_tests += tests/unit/test_options
tests_unit_test_options_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_options_LDADD = $(UNIT_LDADD)

unit_tests += tests/unit/test_rotation_argv
tests_unit_test_rotation_argv_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rotation_argv_LDADD = $(UNIT_LDADD)

unit_tests += tests/unit/test_values
tests_unit_test_values_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_values_LDADD = $(UNIT_LDADD)

run_tests = \
	tests/e2e/run_rotation.sh \
	tests/e2e/run_arms.sh \
	tests/e2e/run_config_keys.sh \
	tests/e2e/run_defaults.sh \
	tests/e2e/run_frontdoor.sh \
	tests/e2e/run_pinning.sh \
	tests/e2e/run_pu_locks.sh \
	tests/e2e/run_hooks.sh \
	tests/e2e/run_params.sh \
	tests/e2e/run_stdio.sh \
	tests/e2e/run_hyperfine.sh \
	tests/e2e/run_hyperfine_short.sh \
	tests/e2e/run_hyperfine_clash.sh \
	tests/e2e/run_ignore_failure.sh \
	tests/e2e/run_failures.sh \
	tests/e2e/run_variants.sh \
	tests/e2e/run_progress_tty.sh
TESTS += $(run_tests)
dist_noinst_SCRIPTS += $(run_tests)
