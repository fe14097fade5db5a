# SPDX-License-Identifier: GPL-3.0-or-later
# tests/ledger.mk — fragment of the top-level Makefile.am: unit tests of
# the ledger (judge/ledger.h) and the metric table it reads, on small
# experiments built in memory (no runs). ci/sanitize.sh also runs them
# under valgrind, where a leak is an error.
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_ledger
TESTS += tests/unit/test_ledger
endif

tests_unit_test_ledger_SOURCES = tests/unit/test_ledger.c
tests_unit_test_ledger_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
tests_unit_test_ledger_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)
