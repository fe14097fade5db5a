#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses artifacts whose executables differ (SHA-256), and arms
# whose arguments differ; the executable's path alone may differ (another
# runner's checkout) when the digests match.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.arms[1].sha256 = "0000000000000000000000000000000000000000000000000000000000000000"' \
	b.json >sha.json
expect_refused "arm 'head': executable differs: sha256" a.json sha.json
jq '.arms[1].argv += ["slowdown_pct=5"]' b.json >argv.json
expect_refused "arm 'head': command differs" a.json argv.json
jq '.arms[1].env = {"MALLOC_ARENA_MAX": "1"}' b.json >env.json
expect_refused "arm 'head': environment additions differ" a.json env.json
jq '.arms[].argv[0] = "/elsewhere/perfab-spin"' b.json >moved.json
expect_pools a.json moved.json
exit 0
