#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# history_identity.sh — `perfab history record` identifies a run as
# `perfab pool` does, by its journal id and seed, not by the bytes of the
# file (store/history_db.h, "Identity"): a copy of a recorded artifact,
# reformatted (jq ., jq -S -c) or not, is the merge already recorded
# (exit 0, nothing changed, the note names the run) and drift chains the
# change once; a pooled artifact and one of its sources share runs, so
# whichever comes second is refused (exit 4) and the database is
# unchanged; a copy of the pooled artifact is the pooled merge. An
# artifact that names no run (a pool of old artifacts) is identified by
# its measurements, whatever the layout of its file.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
merges() { # DB: merges, cells and runs recorded
	python3 - "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(*(c.execute("select count(*) from " + t).fetchone()[0] for t in ("merges", "cells", "runs")))
PY
}

# The same run three times: the file, and two copies jq rewrote.
expect_rc 0 "$PERFAB" history record --db h.db "$D/p2-pass.json" --commit c1
grep_out "recorded merge #1: 4 cells"
jq . "$D/p2-pass.json" >pretty.json
jq -S -c . "$D/p2-pass.json" >sorted.json
id=$(jq -r .journal.id pretty.json)
for copy in pretty sorted; do
	cmp -s "$copy.json" "$D/p2-pass.json" && hard_error "$copy.json is the same file"
	expect_rc 0 "$PERFAB" history record --db h.db "$copy.json" --commit "c-$copy"
	grep_out "'$copy.json' is already recorded as merge #1; nothing changed (the same run: journal id $id, seed 3)"
done
[ "$(merges h.db)" = "1 4 1" ] || fail "a copy of a recorded run was recorded again: $(merges h.db)"
# Drift chains the change once: one merge, and the merge's own change.
expect_rc 0 "$PERFAB" history drift --db h.db --row command --metric cpu --format json
jq -e '.merges == 1 and .series[0].merges == 1 and (.series[0].change_pct + 0.97395 | fabs) < 0.001' \
	"$T/out" >/dev/null || fail "drift of one run recorded once: $(cat "$T/out")"
pass "a copy of a recorded run, reformatted, is the merge already recorded"

# A pooled artifact and its sources: two tiny runs of their own (a journal
# id each), pooled.
for i in 1 2; do
	expect_rc 3 "$PERFAB" run -q --counts off --reps 2 --max-reps 2 --no-null-arm \
		--out "a$i.json" /bin/true /bin/true
done
expect_rc 0 "$PERFAB" pool a1.json a2.json -o pooled.json
expect_rc 0 "$PERFAB" history record --db p.db a1.json
expect_rc 4 "$PERFAB" history record --db p.db pooled.json
grep_err "not recorded: 'pooled.json' shares runs with merge #1 but is not that merge's artifact"
[ "$(merges p.db)" = "1 4 1" ] || fail "a pool of a recorded run changed the database: $(merges p.db)"
expect_rc 0 "$PERFAB" history record --db q.db pooled.json
grep_out "recorded merge #1"
expect_rc 4 "$PERFAB" history record --db q.db a2.json
grep_err "not recorded: 'a2.json' shares runs with merge #1"
jq . pooled.json >pooled-copy.json
expect_rc 0 "$PERFAB" history record --db q.db pooled-copy.json
grep_out "'pooled-copy.json' is already recorded as merge #1; nothing changed (the same 2 runs)"
[ "$(merges q.db)" = "1 4 2" ] || fail "the pool's source or copy changed the database: $(merges q.db)"
pass "a pooled artifact and one of its sources: the second is refused"

# No run named (an old pool): its measurements are its identity.
jq -r '.journal, .run.pool.runs' "$D/pool-shards.json" | grep -qv null &&
	hard_error "pool-shards.json names its runs"
expect_rc 0 "$PERFAB" history record --db m.db "$D/pool-shards.json"
jq . "$D/pool-shards.json" >shards-copy.json
expect_rc 0 "$PERFAB" history record --db m.db shards-copy.json
grep_out "already recorded as merge #1; nothing changed (the same measurements)"
jq '.rows[0].reps[0].results.head.cpu *= 2' "$D/pool-shards.json" >shards-other.json
expect_rc 0 "$PERFAB" history record --db m.db shards-other.json
grep_out "recorded merge #2"
pass "an artifact that names no run is identified by its measurements"
exit 0
