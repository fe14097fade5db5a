# SPDX-License-Identifier: GPL-3.0-or-later
# tests/pool.mk — pooling and sharding (`perfab pool`, and ledger/gate of
# several files). The end-to-end tests drive the real binary on the
# calibration workload; pool_refuse.sh checks how the commands refuse.

pool_tests = \
	tests/e2e/pool_blocks.sh \
	tests/e2e/pool_shards.sh \
	tests/e2e/pool_cpu_shards.sh \
	tests/e2e/pool_refuse_cpu.sh \
	tests/e2e/pool_refuse_arms.sh \
	tests/e2e/pool_refuse_revision.sh \
	tests/e2e/pool_refuse_sha256.sh \
	tests/e2e/pool_refuse_protocol.sh \
	tests/e2e/pool_refuse_params.sh \
	tests/e2e/pool_refuse_control.sh \
	tests/e2e/pool_refuse_metrics.sh \
	tests/e2e/pool_refuse_incomplete.sh \
	tests/e2e/pool_refuse_unbalanced.sh \
	tests/e2e/pool_refuse_sanity.sh \
	tests/e2e/pool_refuse_overlap.sh

TESTS += $(pool_tests)
dist_noinst_SCRIPTS += $(pool_tests)
