# SPDX-License-Identifier: GPL-3.0-or-later
# tests/package.mk — the installable perfab: its bash completion, a
# release built by ci/release.sh from a clean clone (its Debian package
# unpacked and run from a scratch root), the tags the docs name, the
# licence notices.
package_tests = \
	tests/e2e/completion.sh \
	tests/e2e/release.sh \
	tests/e2e/doc_tags.sh \
	tests/e2e/licence.sh

TESTS += $(package_tests)
dist_noinst_SCRIPTS += $(package_tests)

EXTRA_DIST += LICENSE ci/spdx.sh debian/changelog debian/control debian/copyright \
	debian/rules debian/source/format debian/perfab.docs debian/perfab.examples
