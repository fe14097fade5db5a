# SPDX-License-Identifier: GPL-3.0-or-later
# tests/reliability.mk — nothing lost, nothing trusted that cannot be
# checked: kill -9 at every point of a run, the checkpoint journal,
# --resume and what it refuses, tampered and hostile artifacts, a full
# disk, the safe writer, one writer per artifact, children that never
# outlive the run or flood it, names printed safely; and unit tests of the
# artifact on disk (store/).
unit_tests += tests/unit/test_artifact
tests_unit_test_artifact_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_artifact_LDADD = $(UNIT_LDADD)

reliability_tests = \
	tests/e2e/reliability_kill9.sh \
	tests/e2e/reliability_crash_matrix.sh \
	tests/e2e/reliability_journal.sh \
	tests/e2e/reliability_resume.sh \
	tests/e2e/reliability_resume_trust.sh \
	tests/e2e/reliability_tamper.sh \
	tests/e2e/reliability_disk_full.sh \
	tests/e2e/reliability_safe_write.sh \
	tests/e2e/reliability_lock.sh \
	tests/e2e/reliability_orphans.sh \
	tests/e2e/reliability_term_safe.sh \
	tests/e2e/reliability_small_hardening.sh \
	tests/e2e/reliability_hostile_children.sh \
	tests/e2e/reliability_report_reader.sh \
	tests/e2e/reliability_hostile_inputs.sh
TESTS += $(reliability_tests)
dist_noinst_SCRIPTS += $(reliability_tests)
