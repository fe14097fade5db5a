# SPDX-License-Identifier: GPL-3.0-or-later
# doc/local.mk — fragment of the top-level Makefile.am: the man page and the
# reference documents. doc/method.md ships with stats/local.mk and
# doc/workload-protocol.md with workloads/local.mk, beside the code they
# describe. tests/docs.mk checks that the man page agrees with the code and
# runs its examples.
dist_man_MANS += doc/perfab.1
dist_doc_DATA += doc/artifact-schema.md doc/ledger-json.md \
	doc/artifact.schema.json doc/ledger.schema.json doc/calibration.schema.json \
	doc/calibration.md doc/env.md doc/ci.md doc/memgate.md doc/attribution.md \
	doc/hacking.md doc/release.md
