# SPDX-License-Identifier: GPL-3.0-or-later
# tests/comments.mk — the sources' comments: every file path they name
# exists, and every .c and .h names itself on its first comment line.

comments_tests = tests/static/comments.sh
TESTS += $(comments_tests)
dist_noinst_SCRIPTS += $(comments_tests)
