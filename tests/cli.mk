# SPDX-License-Identifier: GPL-3.0-or-later
# tests/cli.mk — end-to-end tests of the perfab binary on real child
# processes, and unit tests of the modules behind them (rotation, argv
# splitting, the artifact and journal, formatting).
cli_tests = \
	tests/e2e/cli_rotation.sh \
	tests/e2e/cli_arms.sh \
	tests/e2e/cli_config_keys.sh \
	tests/e2e/cli_peak_rss.sh \
	tests/e2e/cli_kill9.sh \
	tests/e2e/cli_verdicts.sh \
	tests/e2e/cli_sanity_gate.sh \
	tests/e2e/cli_gate_decides.sh \
	tests/e2e/cli_pinning.sh \
	tests/e2e/cli_pu_locks.sh \
	tests/e2e/cli_failures.sh \
	tests/e2e/cli_no_verdict.sh \
	tests/e2e/cli_ignore_failure.sh \
	tests/e2e/cli_hyperfine.sh \
	tests/e2e/cli_hyperfine_short.sh \
	tests/e2e/cli_hyperfine_clash.sh \
	tests/e2e/cli_export_stats.sh \
	tests/e2e/cli_habits_hooks.sh \
	tests/e2e/cli_habits_params.sh \
	tests/e2e/cli_habits_stdio.sh \
	tests/e2e/cli_ledger_input.sh \
	tests/e2e/cli_probes.sh \
	tests/e2e/cli_tree_sample.sh \
	tests/e2e/cli_resume.sh \
	tests/e2e/cli_variants.sh \
	tests/e2e/cli_shard_preserve.sh \
	tests/e2e/cli_hostile_children.sh \
	tests/e2e/crash_matrix.sh \
	tests/e2e/cli_journal.sh \
	tests/e2e/cli_window.sh \
	tests/e2e/cli_disk_full.sh \
	tests/e2e/cli_workloads.sh \
	tests/e2e/cli_readable.sh \
	tests/e2e/cli_width.sh \
	tests/e2e/cli_frontdoor.sh \
	tests/e2e/cli_defaults.sh \
	tests/e2e/cli_ledger_fixes.sh \
	tests/e2e/cli_safe_write.sh \
	tests/e2e/cli_lock.sh \
	tests/e2e/cli_orphans.sh \
	tests/e2e/cli_resume_trust.sh \
	tests/e2e/cli_tamper.sh \
	tests/e2e/cli_term_safe.sh \
	tests/e2e/cli_report_reader.sh \
	tests/e2e/cli_small_hardening.sh \
	tests/e2e/cli_exec_window.sh \
	tests/e2e/cli_ledger_controls.sh \
	tests/e2e/ledger_corpus.sh

TESTS += $(cli_tests)
dist_noinst_SCRIPTS += $(cli_tests)

unit_tests += tests/unit/test_cli_units
tests_unit_test_cli_units_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_cli_units_LDADD = $(UNIT_LDADD)

# Artifacts the readable-output test renders: the README demo's run and a
# run with five head variants (--head-env) of a tiny command.
EXTRA_DIST += tests/data/demo-run.json tests/data/variants5.json \
	tests/data/gate/aa-under-load.json tests/data/gate/cpu5-equal-counts.json \
	tests/data/gate/README

unit_tests += tests/unit/test_runconf
tests_unit_test_runconf_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_runconf_LDADD = $(UNIT_LDADD)

unit_tests += tests/unit/test_options
tests_unit_test_options_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_options_LDADD = $(UNIT_LDADD)

# The ledger corpus (tests/e2e/ledger_corpus.sh): artifacts, their goldens in
# every format and the scripts that render them; the list is written by
# tests/data/ledger/regen.sh and checked by the test.
include tests/data/ledger/files.mk
EXTRA_DIST += $(ledger_corpus_files)
