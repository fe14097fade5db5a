#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab history show and drift, as a reader and a pull-request comment
# see them: a recorded change reads on the ledger's scale (the demo's
# 16.3x throughput gain, never "-1.5e3%"), with its medians, in text and
# Markdown, and no "faster" or "slower" names an interval that reaches
# the other way; names from the database (a mention, an issue reference,
# bare and Markdown links, U+202E, ESC, BEL) leave the Markdown, the CSV,
# the text and the drift line inert, as the ledger's escapers leave them.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data
db=h.db
expect_rc 0 "$PERFAB" history record --db "$db" "$D/demo-run.json" --commit demo1 --branch main
expect_rc 0 "$PERFAB" history record --db "$db" "$D/ledger/tolerance-margin.json" --commit c3 \
	--branch main
# A merge whose names are hostile, as another tool or a forged database
# could hold them (the figures as a record writes them).
python3 - "$db" <<'PY' || hard_error "cannot add the hostile merge"
import sqlite3, sys
name = ("@octocat fixes #1, see https://e.x and www.e.x [c](https://e.y) "
        "\u202ecba\x1b[31m\x07")
c = sqlite3.connect(sys.argv[1])
cur = c.execute("insert into merges (artifact_sha256, commit_sha, branch, recorded_at)"
                " values ('hostile', ?, ?, 0)", (name, name))
c.execute("insert into cells values (?, ?, ?, 'cpu', 0.02, 0.026, 29.4, 24.9, 39.9, 2, 'FAIL',"
          " 6, 0.96875)", (cur.lastrowid, name, name))
c.commit()
PY

# The ledger's scale, text and Markdown: medians, then the change.
expect_rc 0 "$PERFAB" history show --db "$db" --metric throughput
grep_out "^  #1 *demo1 *PASS *2% *6  32.3 k -> 479 k ops/s  16.3x faster \[5.85, 25.3\]$"
grep_out "^ *unclear: 1.28x faster to 1.45x slower$"
grep -Eq '[0-9]{3,}\.[0-9]+%' "$T/out" && fail "a throughput change on a percent scale: $(cat "$T/out")"
awk 'length > 100 { exit 1 }' "$T/out" || fail "show text wider than 100 columns"
expect_rc 0 "$PERFAB" history show --db "$db" --format markdown --metric throughput
grep_out '| 1 | demo1 | large-class/8 | head | throughput | 32.3 k → 479 k ops/s | 16.3× faster \\\[5.85, 25.3\\\] | PASS | 6 |'
# No direction word on an interval that reaches the other way: each
# "Nx faster [a, b]" or "Nx slower [a, b]" has both ends on its side.
for fmt in text markdown; do
	expect_rc 0 "$PERFAB" history show --db "$db" --format "$fmt"
	python3 - "$T/out" <<'PY' || fail "$fmt: a direction across zero"
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
found = re.findall(r"([0-9.]+)(?:x|\u00d7) (faster|slower) \\?\[([0-9.]+), ([0-9.]+)", text)
assert found, text
bad = [f for f in found if float(f[2]) < 1 or float(f[3]) < 1]
assert not bad, bad
PY
done

# Names inert. Markdown: no mention, reference or live link, no raw
# U+202E; CSV and text: no raw U+202E, ESC or BEL.
rlo=$(printf '\342\200\256')
ctl=$(printf '[\033\007]')
expect_rc 0 "$PERFAB" history show --db "$db" --format markdown --metric cpu
for live in '@octocat' '#1' '://' 'www\.' '\[c\]('; do
	grep -q -- "$live" "$T/out" && fail "markdown: '$live' is live: $(grep -- "$live" "$T/out")"
done
grep -q '@&#8203;octocat' "$T/out" || fail "markdown: the mention is not broken"
for fmt in markdown csv text; do
	expect_rc 0 "$PERFAB" history show --db "$db" --format "$fmt" --metric cpu
	LC_ALL=C grep -q "$rlo" "$T/out" && fail "$fmt: a raw U+202E"
	LC_ALL=C grep -q "$ctl" "$T/out" && fail "$fmt: a raw ESC or BEL"
done
expect_rc 0 "$PERFAB" history show --db "$db" --format csv --metric cpu
grep_out 'xe2\\x80\\xaecba\\x1b\[31m\\x07'
# The drift line of a pull-request comment: the same escaper.
expect_rc 0 "$PERFAB" history drift --db "$db" --metric cpu --format markdown
grep -q 'cba' "$T/out" || fail "drift markdown: no line of the hostile row: $(cat "$T/out")"
for live in '@octocat' '#1' '://' 'www\.' '\[c\]('; do
	grep -q -- "$live" "$T/out" && fail "drift markdown: '$live' is live"
done
LC_ALL=C grep -q "$rlo" "$T/out" && fail "drift markdown: a raw U+202E"
grep_out "^cpu of 'large-class/8' \\\\\[head\\\\\] is -92.0% \[-94.9, -87.7\] over the last 1 merge"
exit 0
