# SPDX-License-Identifier: GPL-3.0-or-later
# tests/team.mk — end-to-end tests of pooling and sharding (pool_*), the
# reports and the CI workflow (report_*) and the memory gate (memgate_*).
# They drive the real binary on the calibration workload; refusal cases
# are jq edits of real artifacts. report_html.sh renders the HTML report in
# headless Chromium (Debian package `chromium`) and skips (77) without it.

pool_tests = \
	tests/pool_blocks.sh \
	tests/pool_shards.sh \
	tests/pool_refuse_cpu.sh \
	tests/pool_cpu_shards.sh \
	tests/pool_refuse_arms.sh \
	tests/pool_refuse_revision.sh \
	tests/pool_refuse_sha256.sh \
	tests/pool_refuse_protocol.sh \
	tests/pool_refuse_params.sh \
	tests/pool_refuse_control.sh \
	tests/pool_refuse_metrics.sh \
	tests/pool_refuse_incomplete.sh \
	tests/pool_refuse_unbalanced.sh \
	tests/pool_refuse_sanity.sh \
	tests/pool_refuse_overlap.sh

TESTS += $(pool_tests)
dist_noinst_SCRIPTS += $(pool_tests)
dist_noinst_DATA += tests/pool_lib.sh

memgate_tests = \
	tests/memgate_pass.sh \
	tests/memgate_leak.sh \
	tests/memgate_filtered.sh \
	tests/memgate_input.sh

TESTS += $(memgate_tests)
dist_noinst_SCRIPTS += $(memgate_tests)
dist_noinst_DATA += tests/memgate_lib.sh

report_tests = \
	tests/report_junit.sh \
	tests/report_markdown.sh \
	tests/report_disposition.sh \
	tests/report_html.sh \
	tests/report_workflow.sh \
	tests/action_emulated.sh

TESTS += $(report_tests)
dist_noinst_SCRIPTS += $(report_tests)
EXTRA_DIST += tests/report_chromium.py tests/check_workflow.py tests/gh_emulator.py
# The GitHub Action and the example workflows report_workflow.sh checks and
# action_emulated.sh runs.
EXTRA_DIST += action.yml examples/hashbench/README examples/hashbench/Makefile \
	examples/hashbench/hashbench.c examples/hashbench/table.c \
	examples/hashbench/table.h examples/hashbench/perfab.json \
	examples/hashbench/perfab.yml examples/hashbench/slowdown.patch \
	examples/sharded.yml examples/perfab-self.yml
