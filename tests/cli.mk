# SPDX-License-Identifier: GPL-3.0-or-later
# tests/cli.mk — end-to-end tests of the perfab binary on real child
# processes, and unit tests of the CLI modules (linked from libperfab.a).
cli_tests = \
	tests/cli_rotation.sh \
	tests/cli_arms.sh \
	tests/cli_peak_rss.sh \
	tests/cli_kill9.sh \
	tests/cli_verdicts.sh \
	tests/cli_sanity_gate.sh \
	tests/cli_failures.sh \
	tests/cli_ledger_input.sh \
	tests/cli_probes.sh \
	tests/cli_tree_sample.sh \
	tests/cli_resume.sh \
	tests/cli_variants.sh \
	tests/cli_shard_preserve.sh \
	tests/cli_hostile_children.sh \
	tests/crash_matrix.sh \
	tests/cli_journal.sh \
	tests/cli_window.sh \
	tests/cli_disk_full.sh \
	tests/cli_workloads.sh \
	tests/cli_readable.sh \
	tests/cli_frontdoor.sh \
	tests/cli_defaults.sh \
	tests/cli_ledger_fixes.sh \
	tests/cli_safe_write.sh \
	tests/cli_lock.sh \
	tests/cli_orphans.sh \
	tests/cli_resume_trust.sh \
	tests/cli_tamper.sh \
	tests/cli_term_safe.sh \
	tests/cli_report_reader.sh \
	tests/cli_small_hardening.sh \
	tests/ledger_corpus.sh

TESTS += $(cli_tests)
dist_noinst_SCRIPTS += $(cli_tests)

if HAVE_CHECK
check_PROGRAMS += tests/test_cli_units
TESTS += tests/test_cli_units
endif
tests_test_cli_units_SOURCES = tests/test_cli_units.c
tests_test_cli_units_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
tests_test_cli_units_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)

# Artifacts the readable-output test renders: the README demo's run and a
# run with five head variants (--head-env) of a tiny command.
EXTRA_DIST += tests/data/demo-run.json tests/data/variants5.json

# The ledger corpus (tests/ledger_corpus.sh): artifacts, their goldens in
# every format and the scripts that render them; the list is written by
# tests/data/ledger/regen.sh and checked by the test.
include tests/data/ledger/files.mk
EXTRA_DIST += $(ledger_corpus_files)
