#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The workload report at $PERFAB_REPORT is the child's to write, so perfab
# reads it safely: a FIFO left there does not hang perfab, a symlink or an
# oversized file is refused, a number no artifact can carry (throughput
# 1e302) is refused at read time with the reason recorded — so perfab never
# writes an artifact it cannot read back — and a giant checksum is kept as
# its SHA-256. `timeout` only guards against a hang; no duration is judged.
. "${top_srcdir}/tests/lib/test-lib.sh"

cat >rep.sh <<'SH'
#!/bin/sh
p='{"protocol":"perfab-workload/1"'
case $1 in
fifo) mkfifo "$PERFAB_REPORT" ;;
link) echo "$p,\"ops\":1,\"elapsed_s\":1}" >real.json; ln -s "$PWD/real.json" "$PERFAB_REPORT" ;;
big) truncate -s 70M "$PERFAB_REPORT" ;;
huge) echo "$p,\"ops\":1e302,\"elapsed_s\":1,\"drain_rss_bytes\":5}" >"$PERFAB_REPORT" ;;
dup) echo "$p,\"ops\":1,\"ops\":2,\"elapsed_s\":1}" >"$PERFAB_REPORT" ;;
sum) { printf '%s,"ops":1,"elapsed_s":1,"checksum":"' "$p"; head -c 1000000 /dev/zero | tr '\0' a
       printf '"}\n'; } >"$PERFAB_REPORT" ;;
esac
SH
chmod +x rep.sh
# reason CASE: run both arms with rep.sh CASE; print base's drain_rss reason.
run_case() {
	timeout 300 "$PERFAB" run -q --arm "base=./rep.sh $1" --arm "head=./rep.sh $1" --reps 2 --max-reps 2 --no-null-arm \
		--out "$1.json" >"$T/out" 2>"$T/err"
	rc=$?
	# Two reps a row: no interval yet, so INCONCLUSIVE (exit 3).
	[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "$1: perfab exited $rc, not 3"; }
	expect_rc 3 "$PERFAB" ledger "$1.json"  # what perfab wrote, it reads back
}
reason() { jq -r ".rows[0].reps[0].null_reasons.base.$2" "$1.json"; }

run_case fifo
[ "$(reason fifo drain_rss)" = "the workload report is a FIFO, not a regular file: refused" ] ||
	fail "fifo: reason '$(reason fifo drain_rss)'"
run_case link
[ "$(reason link drain_rss)" = "the workload report is a symbolic link: refused" ] ||
	fail "link: reason '$(reason link drain_rss)'"
run_case big
reason big drain_rss | grep -q "more than perfab reads (67108864)" || fail "big: reason '$(reason big drain_rss)'"
run_case huge
jq -e '.rows[0].reps[0].results.base.throughput == null' huge.json >/dev/null ||
	fail "huge: throughput 1e302 reached the artifact"
reason huge throughput | grep -q "throughput = 1e+302: beyond what an artifact holds" ||
	fail "huge: reason '$(reason huge throughput)'"
[ "$(jq '.rows[0].reps[0].results.base.drain_rss' huge.json)" = 5 ] ||
	fail "huge: the report's other numbers were lost"
run_case dup
reason dup drain_rss | grep -q "holds the key 'ops' twice" || fail "dup: reason '$(reason dup drain_rss)'"
run_case sum
jq -e '.rows[0].reps[0].checksums.base | test("^sha256:[0-9a-f]{64}$")' sum.json >/dev/null ||
	fail "sum: the 1 MB checksum was not kept as its digest"
[ "$(wc -c <sum.json)" -lt 200000 ] || fail "sum: the artifact holds the giant checksum"
exit 0
