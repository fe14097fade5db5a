# SPDX-License-Identifier: GPL-3.0-or-later
# tests/action.mk — the GitHub Action and the example workflows (doc/ci.md):
# report_workflow.sh checks their shape and every run: script, and
# action_emulated.sh runs them offline through a small emulator of the
# runner (tests/e2e/gh_emulator.py).

action_tests = \
	tests/static/report_workflow.sh \
	tests/e2e/action_emulated.sh \
	tests/e2e/action_trust.sh

TESTS += $(action_tests)
dist_noinst_SCRIPTS += $(action_tests)
EXTRA_DIST += tests/static/check_workflow.py tests/static/actionlint.cjs tests/e2e/gh_emulator.py \
	tests/e2e/action_lib.sh
# The GitHub Action and the example workflows the tests check and run.
EXTRA_DIST += action.yml examples/hashbench/README examples/hashbench/Makefile \
	examples/hashbench/hashbench.c examples/hashbench/table.c \
	examples/hashbench/table.h examples/hashbench/perfab.json \
	examples/hashbench/perfab.yml examples/hashbench/slowdown.patch \
	examples/hashbench/data-bench.sh examples/hashbench/workload.txt \
	examples/fork/perfab-measure.yml examples/fork/perfab-comment.yml \
	examples/sharded.yml examples/perfab-self.yml examples/calibrate.yml ci/action-arms.py
