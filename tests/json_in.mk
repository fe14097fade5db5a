# SPDX-License-Identifier: GPL-3.0-or-later
# tests/json_in.mk — the checked JSON reader (src/store/json_in) and the
# readers built on it (artifact loader, config reader), on small texts.
unit_tests += tests/unit/test_json_in
tests_unit_test_json_in_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_json_in_LDADD = $(UNIT_LDADD)
