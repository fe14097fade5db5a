# SPDX-License-Identifier: GPL-3.0-or-later
# ci/local.mk — the scripts CI and people run, shipped in the tarball.
dist_noinst_SCRIPTS += ci/setup-debian.sh ci/build.sh ci/test.sh ci/demo.sh \
	ci/setup-runtime.sh ci/setup-build.sh ci/setup-test.sh ci/action.sh ci/release.sh
dist_noinst_DATA += ci/setup-lib.sh ci/test-lists.sh
dist_noinst_DATA += ci/demo.json
dist_noinst_SCRIPTS += ci/bench-overhead.sh ci/bench-ledger.sh ci/bench-verdicts.sh \
	ci/bench-history.sh \
	ci/bench-journal.sh
EXTRA_DIST += ci/gen-artifact.py
# Benchmarks' helpers: built by `make bench`, not by default.
EXTRA_PROGRAMS = ci/spawnloop ci/bench-history
ci_spawnloop_SOURCES = ci/spawnloop.c
ci_bench_history_SOURCES = ci/bench-history.c
ci_bench_history_CPPFLAGS = $(src_libperfab_a_CPPFLAGS)
ci_bench_history_LDADD = $(PERFAB_LIBS)
CLEANFILES += ci/spawnloop ci/bench-history
bench: src/perfab ci/spawnloop ci/bench-history
	$(top_srcdir)/ci/bench-overhead.sh $(top_builddir)
	$(top_srcdir)/ci/bench-ledger.sh $(top_builddir)
	$(top_srcdir)/ci/bench-verdicts.sh $(top_builddir)
	$(top_srcdir)/ci/bench-history.sh $(top_builddir)
	$(top_srcdir)/ci/bench-journal.sh $(top_builddir)
.PHONY: bench
# make mutate [FILES=... MAX=N JOBS=2]: the mutation run over the code that
# decides verdicts (ci/mutate.sh, doc/hacking.md "Mutation run"); slow, so
# not part of make check.
dist_noinst_SCRIPTS += ci/mutate.sh ci/mutate-gen.py
dist_noinst_DATA += ci/mutate-equivalent.txt ci/scratch-tree.sh
mutate:
	$(SHELL) $(top_srcdir)/ci/mutate.sh
# make mutate-hand: the hand-made mistakes of ci/mutate-hand.txt in the
# verdict, store and report code, against make check-fast's tests.
dist_noinst_SCRIPTS += ci/mutate-hand.sh
dist_noinst_DATA += ci/mutate-hand.txt
mutate-hand:
	$(SHELL) $(top_srcdir)/ci/mutate-hand.sh
.PHONY: mutate mutate-hand
