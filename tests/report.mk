# SPDX-License-Identifier: GPL-3.0-or-later
# tests/report.mk — the ledger's reports: JUnit, Markdown, the disposition
# line and the HTML report, which report_html.sh renders in headless
# Chromium (Debian package `chromium`; skipped, 77, without it); the files
# a user names for a report, written by the safe writer
# (cli_output_atomic.sh).

report_tests = \
	tests/e2e/report_junit.sh \
	tests/e2e/report_markdown.sh \
	tests/e2e/report_disposition.sh \
	tests/e2e/report_html.sh \
	tests/e2e/cli_output_atomic.sh

TESTS += $(report_tests)
dist_noinst_SCRIPTS += $(report_tests)
EXTRA_DIST += tests/e2e/report_chromium.py
