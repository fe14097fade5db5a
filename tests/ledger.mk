# SPDX-License-Identifier: GPL-3.0-or-later
# tests/ledger.mk — fragment of the top-level Makefile.am: unit tests of
# the ledger (judge/ledger.h) and the metric table it reads, on small
# experiments built in memory (no runs). ci/sanitize.sh also runs them
# under valgrind, where a leak is an error.
unit_tests += tests/unit/test_ledger
tests_unit_test_ledger_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_ledger_LDADD = $(UNIT_LDADD)
