# SPDX-License-Identifier: GPL-3.0-or-later
# tests/docs.mk — the documentation is tested: doc/perfab.1 against the
# code (options, usage lines, metric table, exit codes) and its EXAMPLES
# run against the built perfab. Included from tests/local.mk.
docs_tests = \
	tests/doc_sync.sh \
	tests/man_examples.sh \
	tests/doc_schemas.sh

TESTS += $(docs_tests)
dist_noinst_SCRIPTS += $(docs_tests)
