# SPDX-License-Identifier: GPL-3.0-or-later
# tests/stats.mk — the statistics library: its unit tests (Check), the
# seeded calibration simulations, and the program that prints the tables
# of doc/method.md. Reference data is read at run time from
# $top_srcdir/tests/data.
STATS_TEST_LIBS = stats/libpabstats.a $(GSL_LIBS) -lm

if HAVE_CHECK
check_PROGRAMS += tests/unit/test_stats tests/sim/test_stats_sim
TESTS += tests/unit/test_stats tests/sim/test_stats_sim
endif

tests_unit_test_stats_SOURCES = tests/unit/test_stats.c
tests_unit_test_stats_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_unit_test_stats_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)

tests_sim_test_stats_sim_SOURCES = tests/sim/test_stats_sim.c \
	tests/sim/sim_model.c tests/sim/sim_model.h
tests_sim_test_stats_sim_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_sim_test_stats_sim_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)

# Standalone: tests/sim/sim_verdicts --experiments N --seed S
#   [--rep-sigma X] [--arm-sigma X] [--no-null] [--check] [--looks]
#   (doc/method.md §8, §10).
check_PROGRAMS += tests/sim/sim_verdicts
tests_sim_sim_verdicts_SOURCES = tests/sim/sim_verdicts.c \
	tests/sim/sim_model.c tests/sim/sim_model.h
tests_sim_sim_verdicts_LDADD = $(STATS_TEST_LIBS)

# The slow full table of the repeated looks (doc/method.md §8): not part of
# make check, which runs a fast seeded version in tests/sim/test_stats_sim.
sim-looks: tests/sim/sim_verdicts
	tests/sim/sim_verdicts --looks --check --experiments 4000 --seed 8
.PHONY: sim-looks

EXTRA_DIST += \
	tests/data/signtest_ref.tsv \
	tests/data/gen_signtest_ref.py
