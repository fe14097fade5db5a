# SPDX-License-Identifier: GPL-3.0-or-later
# tests/history.mk — perfab history: the chained change and the change
# points (unit), the drift interval's coverage (a seeded simulation), and
# the command on the database end to end: record, show, drift, a kill -9
# in a record, two writers at once, an old schema, a run recorded once
# (its journal id and seed), readers that cannot write, another program's
# database, the trend page in headless Chromium (skipped, 77, without it).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_history_stats tests/sim/test_drift_sim
TESTS += tests/unit/test_history_stats tests/sim/test_drift_sim
endif
tests_unit_test_history_stats_SOURCES = tests/unit/test_history_stats.c
tests_unit_test_history_stats_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_unit_test_history_stats_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)
tests_sim_test_drift_sim_SOURCES = tests/sim/test_drift_sim.c
tests_sim_test_drift_sim_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS)
tests_sim_test_drift_sim_LDADD = $(STATS_TEST_LIBS) $(CHECK_LIBS)

history_tests = \
	tests/e2e/history_record.sh \
	tests/e2e/history_drift_summary.sh \
	tests/e2e/history_kill.sh \
	tests/e2e/history_concurrent.sh \
	tests/e2e/history_migrate.sh \
	tests/e2e/history_html.sh \
	tests/e2e/history_show.sh \
	tests/e2e/history_identity.sh \
	tests/e2e/history_readonly.sh \
	tests/e2e/history_foreign.sh

TESTS += $(history_tests)
dist_noinst_SCRIPTS += $(history_tests)
EXTRA_DIST += tests/e2e/history_chromium.py examples/history-workflow.yml

unit_tests += tests/unit/test_history_db
tests_unit_test_history_db_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_history_db_LDADD = $(UNIT_LDADD)

# The history's output: the ledger's scale and the ledger's escapers.
unit_tests += tests/unit/test_history_report
tests_unit_test_history_report_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_history_report_LDADD = $(UNIT_LDADD)
