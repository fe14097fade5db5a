# SPDX-License-Identifier: GPL-3.0-or-later
# tests/calibrate.mk — `perfab calibrate` and `perfab run --calibration`
# (doc/calibration.md): the command end to end, a calibration file read
# as untrusted input, the plausible bound on its tolerances, and the
# calibration's promises on seeded data.
calibrate_tests = \
	tests/e2e/calibrate_run.sh \
	tests/e2e/calibrate_bound.sh \
	tests/e2e/calibrate_input.sh
TESTS += $(calibrate_tests)
dist_noinst_SCRIPTS += $(calibrate_tests)

# The formulas of the calibration on seeded synthetic data.
if HAVE_CHECK
check_PROGRAMS += tests/sim/test_calibrate_sim
TESTS += tests/sim/test_calibrate_sim
endif
tests_sim_test_calibrate_sim_SOURCES = tests/sim/test_calibrate_sim.c \
	tests/sim/sim_model.c tests/sim/sim_model.h
tests_sim_test_calibrate_sim_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_sim_test_calibrate_sim_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)

# What a calibration promises a gate, on seeded gates judged by the ledger.
if HAVE_CHECK
check_PROGRAMS += tests/sim/test_calibrate_gate_sim
TESTS += tests/sim/test_calibrate_gate_sim
endif
tests_sim_test_calibrate_gate_sim_SOURCES = tests/sim/test_calibrate_gate_sim.c \
	tests/sim/gate_model.c tests/sim/gate_model.h tests/sim/sim_model.c tests/sim/sim_model.h
tests_sim_test_calibrate_gate_sim_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_sim_test_calibrate_gate_sim_LDADD = $(UNIT_LDADD)
