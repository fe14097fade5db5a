# SPDX-License-Identifier: GPL-3.0-or-later
# tests/ledger.mk — fragment of the top-level Makefile.am: unit tests of
# the ledger (judge/ledger.h) and the metric table it reads, on small
# experiments built in memory (no runs). ci/sanitize.sh also runs them
# under valgrind, where a leak is an error.
unit_tests += tests/unit/test_ledger
tests_unit_test_ledger_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_ledger_LDADD = $(UNIT_LDADD)

# The promises of the gate's rules on seeded gates judged by the ledger at
# the runner's looks (doc/method.md §8a, §8b): fast, machine-independent.
if HAVE_CHECK
check_PROGRAMS += tests/sim/test_gate_sim
TESTS += tests/sim/test_gate_sim
endif
tests_sim_test_gate_sim_SOURCES = tests/sim/test_gate_sim.c tests/sim/gate_model.c \
	tests/sim/gate_model.h tests/sim/sim_model.c tests/sim/sim_model.h
tests_sim_test_gate_sim_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_sim_test_gate_sim_LDADD = $(UNIT_LDADD)
