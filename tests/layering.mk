# SPDX-License-Identifier: GPL-3.0-or-later
# tests/layering.mk — the layering of the source tree (doc/hacking.md):
# every include runs one way between the wings.

layering_tests = tests/static/layering.sh
TESTS += $(layering_tests)
dist_noinst_SCRIPTS += $(layering_tests)
