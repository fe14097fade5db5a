# SPDX-License-Identifier: GPL-3.0-or-later
# tests/report.mk — the ledger's reports: JUnit, Markdown, the disposition
# line and the HTML report, which report_html.sh renders in headless
# Chromium (Debian package `chromium`; skipped, 77, without it); the files
# a user names for a report, written by the safe writer
# (report_output_atomic.sh); the text ledger read at a glance and in 100
# columns; `perfab export --stats`; and unit tests of what the renderers
# share (report/format.c).

report_tests = \
	tests/e2e/report_junit.sh \
	tests/e2e/report_markdown.sh \
	tests/e2e/report_disposition.sh \
	tests/e2e/report_html.sh \
	tests/e2e/report_output_atomic.sh \
	tests/e2e/report_readable.sh \
	tests/e2e/report_width.sh \
	tests/e2e/report_export_stats.sh

TESTS += $(report_tests)
dist_noinst_SCRIPTS += $(report_tests)
EXTRA_DIST += tests/e2e/report_chromium.py

unit_tests += tests/unit/test_format
tests_unit_test_format_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_format_LDADD = $(UNIT_LDADD)

# Artifacts the readable-output test renders: the README demo's run and a
# run with five head variants (--head-env) of a tiny command.
EXTRA_DIST += tests/data/demo-run.json tests/data/variants5.json
