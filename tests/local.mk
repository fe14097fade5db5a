# SPDX-License-Identifier: GPL-3.0-or-later
# tests/local.mk — the tests, in folders by kind:
#
#   unit/    Check programs, one module each, linked from libperfab.a
#   sim/     the seeded statistical simulations (and sim_verdicts)
#   e2e/     shell tests of the built programs on real child processes
#   static/  checks of the source tree that run nothing perfab built
#   fuzz/    libFuzzer harnesses, seed corpora, the fuzz smoke test
#   data/    inputs and reference tables the tests read
#   lib/     test-lib.sh, the one library every shell test sources
#
# and in fragments by subject: each names every kind of test of it.
#
# A unit test of libperfab is tests/unit/test_NAME.c (Check, its own
# main(); tests/unit/unit.h has what they share); register it in its
# subject's fragment with three lines:
#   unit_tests += tests/unit/test_NAME
#   tests_unit_test_NAME_CPPFLAGS = $(UNIT_CPPFLAGS)
#   tests_unit_test_NAME_LDADD = $(UNIT_LDADD)
UNIT_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
UNIT_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)
unit_tests =

dist_noinst_DATA += tests/lib/test-lib.sh tests/lib/scratch-repo.sh
dist_noinst_SCRIPTS += tests/lib/timed.sh
EXTRA_DIST += tests/unit/unit.h

include tests/stats.mk
include tests/workloads.mk
include tests/ledger.mk
include tests/run.mk
include tests/reliability.mk
include tests/calibrate.mk
include tests/probes.mk
include tests/counts.mk
include tests/attribution.mk
include tests/counts_spare.mk
include tests/pool.mk
include tests/memgate.mk
include tests/report.mk
include tests/action.mk
include tests/docs.mk
include tests/layering.mk
include tests/comments.mk
include tests/fuzz.mk
include tests/json_in.mk
include tests/history.mk
include tests/bisect.mk
include tests/package.mk

if HAVE_CHECK
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
endif

# make check-fast: the loop a developer runs before a commit — every Check
# program (tests/unit/, tests/sim/), the checks of the source tree
# (tests/static/) and the ledger corpus (every format of every stored
# artifact). None starts a measured run, so none depends on the machine's
# load; the rest of the suite is `make check` (doc/hacking.md, "Building
# and testing").
# make list-fast prints that list (ci/mutate-hand.sh runs it).
check-fast:
	@$(MAKE) $(AM_MAKEFLAGS) check TESTS="`$(MAKE) -s $(AM_MAKEFLAGS) list-fast`"
list-fast:
	@fast=; for t in $(TESTS); do \
		case $$t in tests/unit/* | tests/sim/* | tests/static/* | tests/e2e/ledger_corpus.sh) \
			fast="$$fast $$t" ;; esac; \
	done; \
	echo $$fast
.PHONY: check-fast list-fast
