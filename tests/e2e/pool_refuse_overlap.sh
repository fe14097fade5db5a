#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses artifacts whose rows overlap only in part: neither more
# blocks of the same rows nor disjoint shards.
. "${top_srcdir}/tests/lib/test-lib.sh"

cat >cfg.json <<JSON
{"arms": [{"name": "base", "argv": ["$WL/perfab-spin", "work=1000", "drain_ms=10", "release_bound_ms=20"]},
          {"name": "head", "argv": ["$WL/perfab-spin", "work=1000", "drain_ms=10", "release_bound_ms=20"]}],
 "rows": [{"name": "r1", "argv": ["extra_mib=0"]}, {"name": "r2", "argv": ["extra_mib=1"]}]}
JSON
expect_verdict "$PERFAB" run -q --config cfg.json --null-arm --reps 3 --max-reps 3 --out full.json
expect_verdict "$PERFAB" run -q --config cfg.json --null-arm --reps 3 --max-reps 3 --shard 1/2 --out s1.json
expect_refused "rows overlap only in part: row 'r2' is in 'full.json' but not in 's1.json'" full.json s1.json
exit 0
