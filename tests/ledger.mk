# SPDX-License-Identifier: GPL-3.0-or-later
# tests/ledger.mk — judging: unit tests of
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

# End to end: verdicts on real processes, the sanity gate, who decides a
# row, refused input, and the ledger corpus (every format of every stored
# artifact; its list is written by tests/data/ledger/regen.sh and checked
# by the test).
ledger_tests = \
	tests/e2e/ledger_verdicts.sh \
	tests/e2e/ledger_sanity_gate.sh \
	tests/e2e/ledger_gate_decides.sh \
	tests/e2e/ledger_no_verdict.sh \
	tests/e2e/ledger_input.sh \
	tests/e2e/ledger_fixes.sh \
	tests/e2e/ledger_controls.sh \
	tests/e2e/ledger_corpus.sh
TESTS += $(ledger_tests)
dist_noinst_SCRIPTS += $(ledger_tests)
include tests/data/ledger/files.mk
EXTRA_DIST += $(ledger_corpus_files)
# Artifacts of the gate's rules (tests/data/gate/README).
EXTRA_DIST += tests/data/gate/aa-under-load.json tests/data/gate/cpu5-equal-counts.json \
	tests/data/gate/README
