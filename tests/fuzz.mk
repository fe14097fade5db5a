# SPDX-License-Identifier: GPL-3.0-or-later
# tests/fuzz.mk — a short libFuzzer run of each parser harness (tests/fuzz/, built by ci/fuzz.sh;
# doc/fuzzing.md). FUZZ_SECONDS sets the fuzz run per harness (default 20,
# 0 skips it).
fuzz_tests = tests/fuzz/smoke.sh

TESTS += $(fuzz_tests)
dist_noinst_SCRIPTS += $(fuzz_tests) ci/fuzz.sh ci/sanitize.sh
EXTRA_DIST += \
	tests/fuzz/README.md \
	tests/fuzz/fuzz_artifact.c tests/fuzz/fuzz_config.c \
	tests/fuzz/fuzz_argv_split.c \
	tests/fuzz/fuzz_report.c tests/fuzz/fuzz_resume_settings.c \
	tests/fuzz/fuzz_journal.c tests/fuzz/journal.dict \
	tests/fuzz/fuzz_calibration.c tests/fuzz/calibration.dict \
	tests/fuzz/fuzz_history_db.c \
	tests/fuzz/artifact.dict tests/fuzz/config.dict \
	tests/fuzz/argv_split.dict tests/fuzz/report.dict \
	tests/fuzz/resume_settings.dict \
	tests/fuzz/corpus \
	doc/fuzzing.md

# make fuzz [FUZZ_SECONDS=600]: a longer run, keeping the grown corpus in
# _fuzz/corpus. make sanitize: ASan/UBSan check and valgrind pass.
fuzz:
	FUZZ_BUILD='$(abs_top_builddir)/_fuzz' FUZZ_CONFIG_DIR='$(abs_top_builddir)' \
		$(SHELL) $(top_srcdir)/ci/fuzz.sh "$${FUZZ_SECONDS:-60}"
sanitize:
	$(SHELL) $(top_srcdir)/ci/sanitize.sh
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf _fuzz
.PHONY: fuzz sanitize clean-fuzz
