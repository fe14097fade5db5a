# SPDX-License-Identifier: GPL-3.0-or-later
# tests/json_in.mk — the checked JSON reader (src/model/json_in) and the
# readers built on it (artifact loader, config reader), on small texts.
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_json_in
TESTS += tests/unit/test_json_in
endif
tests_unit_test_json_in_SOURCES = tests/unit/test_json_in.c
tests_unit_test_json_in_CPPFLAGS = $(src_libperfab_a_CPPFLAGS) $(CHECK_CFLAGS)
tests_unit_test_json_in_LDADD = $(PERFAB_LIBS) $(CHECK_LIBS)
