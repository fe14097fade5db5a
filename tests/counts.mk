# SPDX-License-Identifier: GPL-3.0-or-later
# tests/counts.mk — exact instruction counts (src/probe/simcount.c, the
# runner's counting pass, the count cache, the exact cells of
# stats/verdict.c) and `perfab calibrate`.

unit_tests += tests/unit/test_simcount
tests_unit_test_simcount_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_simcount_LDADD = $(UNIT_LDADD)
unit_tests += tests/unit/test_count_cache
tests_unit_test_count_cache_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_count_cache_LDADD = $(UNIT_LDADD)

counts_tests = tests/e2e/cli_counts.sh tests/e2e/cli_counts_child.sh \
	tests/e2e/cli_count_cache.sh tests/e2e/cli_progress_tty.sh tests/e2e/cli_calibrate.sh
TESTS += $(counts_tests)
dist_noinst_SCRIPTS += $(counts_tests)

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
