# SPDX-License-Identifier: GPL-3.0-or-later
# tests/pool.mk — pooling and sharding (`perfab pool`, and ledger/gate of
# several files). The end-to-end tests drive the real binary on the
# calibration workload; pool_refuse.sh checks how the commands refuse.

pool_tests = \
	tests/e2e/pool_blocks.sh \
	tests/e2e/pool_shards.sh \
	tests/e2e/pool_cpu_shards.sh \
	tests/e2e/pool_refuse.sh \
	tests/e2e/pool_shard_rows.sh

TESTS += $(pool_tests)
dist_noinst_SCRIPTS += $(pool_tests)

# The pooling rules on one table of cases: real artifacts of tiny runs
# (tests/data/pool/), one field edited in memory per case.
unit_tests += tests/unit/test_pool
tests_unit_test_pool_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_pool_LDADD = $(UNIT_LDADD)
EXTRA_DIST += tests/data/pool/README.md tests/data/pool/a.json tests/data/pool/b.json \
	tests/data/pool/two-arms.json tests/data/pool/two-rows.json \
	tests/data/pool/shard1.json tests/data/pool/gated.json
