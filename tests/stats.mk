# SPDX-License-Identifier: GPL-3.0-or-later
# tests/stats.mk — fragment of the top-level Makefile.am
#
# Unit tests of the statistics library (Check), the seeded calibration
# simulations, and the program that prints the tables of doc/method.md.
# Reference data is read at run time from $top_srcdir/tests/data.
STATS_TEST_LIBS = stats/libpabstats.a $(GSL_LIBS) -lm

if HAVE_CHECK
check_PROGRAMS += tests/test_stats tests/test_stats_sim
TESTS += tests/test_stats tests/test_stats_sim
endif

tests_test_stats_SOURCES = tests/test_stats.c
tests_test_stats_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_test_stats_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)

tests_test_stats_sim_SOURCES = tests/test_stats_sim.c \
	tests/sim_model.c tests/sim_model.h
tests_test_stats_sim_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_test_stats_sim_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)

# Standalone: tests/sim_verdicts --experiments N --seed S
#   [--rep-sigma X] [--arm-sigma X] [--no-null] [--check] [--looks]
#   (doc/method.md §8, §10).
check_PROGRAMS += tests/sim_verdicts
tests_sim_verdicts_SOURCES = tests/sim_verdicts.c \
	tests/sim_model.c tests/sim_model.h
tests_sim_verdicts_LDADD = $(STATS_TEST_LIBS)

# The slow full table of the repeated looks (doc/method.md §8): not part of
# make check, which runs a fast seeded version in tests/test_stats_sim.
sim-looks: tests/sim_verdicts
	tests/sim_verdicts --looks --check --experiments 4000 --seed 8
.PHONY: sim-looks

EXTRA_DIST += \
	tests/data/signtest_ref.tsv \
	tests/data/gen_signtest_ref.py
