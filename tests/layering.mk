# SPDX-License-Identifier: GPL-3.0-or-later
# tests/layering.mk — the shape of the source tree (doc/hacking.md): every
# include, and every call between the built objects, runs one way between
# the wings, and no file or function grows past its size limit or its
# listed exception.

layering_tests = tests/static/layering.sh tests/static/link_layering.sh \
	tests/static/sizes.sh
TESTS += $(layering_tests)
dist_noinst_SCRIPTS += $(layering_tests)
dist_noinst_DATA += tests/static/sizes-exceptions.txt
