#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --shard I/N splits rows deterministically (every row in exactly one
# shard); --preserve-builds copies each arm's executable with its SHA-256
# before measuring and the artifact names the copies.
. "${top_srcdir}/tests/lib/test-lib.sh"

cat >cfg.json <<'CFG'
{ "arms": [ { "name": "base", "argv": ["/bin/true"] }, { "name": "head", "argv": ["/bin/true"] } ],
  "rows": [ { "name": "r0" }, { "name": "r1" }, { "name": "r2" }, { "name": "r3" }, { "name": "r4" } ],
  "reps": 2, "max_reps": 2 }
CFG
# Two reps a row: no interval yet, so INCONCLUSIVE (exit 3).
all=""
for i in 1 2 3; do
	expect_rc 3 "$PERFAB" run -q --config cfg.json --shard $i/3 --out s$i.json
	rows=$(jq -r '[.rows[].name] | join(" ")' s$i.json)
	[ "$(jq -r .run.shard s$i.json)" = "$i/3" ] || fail "shard not recorded"
	all="$all $rows"
	expect_rc 3 "$PERFAB" run -q --config cfg.json --shard $i/3 --out t$i.json
	[ "$(jq -c '[.rows[].name]' t$i.json)" = "$(jq -c '[.rows[].name]' s$i.json)" ] || fail "shard split not deterministic"
done
[ "$(echo $all | tr ' ' '\n' | sort | tr '\n' ' ')" = "r0 r1 r2 r3 r4 " ] || fail "shards do not cover every row exactly once: $all"
expect_rc 2 "$PERFAB" run -q --config cfg.json --shard 6/6
grep_err "no rows"
expect_rc 2 "$PERFAB" run -q --config cfg.json --shard 0/3
expect_rc 2 "$PERFAB" run -q --config cfg.json --shard 4/3
expect_rc 2 "$PERFAB" run -q --config cfg.json --shard x

# (Two programs: an exact FAIL of the count where counts are exact.)
expect_rc "$(if_exact 1 3)" "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/echo --reps 2 --max-reps 2 --preserve-builds keep --out p.json
for arm in base head; do
	copy=$(jq -r --arg a $arm '.arms[] | select(.name == $a) | .preserved' p.json)
	sum=$(jq -r --arg a $arm '.arms[] | select(.name == $a) | .sha256' p.json)
	[ -x "$copy" ] || fail "no preserved copy for $arm ($copy)"
	[ "$(sha256sum "$copy" | cut -d' ' -f1)" = "$sum" ] || fail "preserved copy of $arm does not match its sha256"
done
[ "$(jq -r '.arms[0].sha256' p.json)" = "$(sha256sum /bin/true | cut -d' ' -f1)" ] || fail "sha256 of base"
exit 0
