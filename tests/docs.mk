# SPDX-License-Identifier: GPL-3.0-or-later
# tests/docs.mk — the documentation is tested: doc/perfab.1 against the
# code (options, usage lines, metric table, exit codes) and its EXAMPLES
# run against the built perfab; the README's demo ends with the next step.
docs_tests = \
	tests/e2e/doc_sync.sh \
	tests/e2e/man_examples.sh \
	tests/e2e/doc_schemas.sh \
	tests/e2e/demo_next.sh

TESTS += $(docs_tests)
dist_noinst_SCRIPTS += $(docs_tests)
