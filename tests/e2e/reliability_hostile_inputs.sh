#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile inputs: malformed JSON, wrong types, absurd
# numbers, NaN/Inf spellings, missing fields, unknown schema versions, a
# very large artifact, deep nesting, an empty file, a directory and binary
# garbage, given to `perfab ledger` (artifacts) and `perfab run --config`
# (configs). Each must end in a clear "perfab: error: ..." naming the
# problem and exit 2 (bad input) — never a crash: an exit of 128 or more
# or a sanitizer report fails the test whatever the exit code. The same
# parsers are fuzzed by tests/fuzz/ (ci/fuzz.sh).
. "${top_srcdir}/tests/lib/test-lib.sh"

# no_crash: the last command's exit code and stderr show no crash.
no_crash() {
	[ "$rc" -lt 128 ] || { cat "$T/err" >&2; fail "crashed (exit $rc)"; }
	if grep -q -E 'Sanitizer|runtime error:|==[0-9]+==' "$T/err"; then
		cat "$T/err" >&2
		fail "sanitizer report"
	fi
}

# bad_ledger FILE PATTERN: `perfab ledger FILE` exits 2 with a one-line
# "perfab: error:" message matching PATTERN.
n_bad=0
bad_ledger() {
	n_bad=$((n_bad + 1))
	"$PERFAB" ledger "$1" >"$T/out" 2>"$T/err"
	rc=$?
	no_crash
	if [ "$rc" != 2 ]; then
		cat "$T/err" >&2
		fail "ledger '$1' exited $rc, expected 2"
	fi
	grep -q '^perfab: error: ' "$T/err" || { cat "$T/err" >&2; fail "ledger '$1': no error line"; }
	grep_err "$2"
	[ ! -s "$T/out" ] || { cat "$T/out" >&2; fail "ledger '$1' printed results"; }
}

# bad_config FILE PATTERN: `perfab run --config FILE` exits 2 with an error
# matching PATTERN before running anything (no artifact is written).
bad_config() {
	n_bad=$((n_bad + 1))
	rm -f never.json
	"$PERFAB" run -q --config "$1" --out never.json >"$T/out" 2>"$T/err"
	rc=$?
	no_crash
	if [ "$rc" != 2 ]; then
		cat "$T/err" >&2
		fail "run --config '$1' exited $rc, expected 2"
	fi
	grep -q '^perfab: error: ' "$T/err" || { cat "$T/err" >&2; fail "config '$1': no error line"; }
	grep_err "$2"
	[ ! -e never.json ] || fail "run --config '$1' wrote an artifact"
}

# mutate IN OUT FILTER [TEXT]: OUT is IN with the jq FILTER applied; the
# string "@@" in the result is replaced by TEXT verbatim (for numbers and
# spellings jq cannot write, like 1e400 or NaN).
mutate() {
	jq -c "$3" "$1" >"$2.tmp" || exit 99
	if [ $# -ge 4 ]; then
		# sed's replacement treats & and \ specially; our texts have neither.
		sed "s/\"@@\"/$4/" "$2.tmp" >"$2" || exit 99
		rm -f "$2.tmp"
	else
		mv "$2.tmp" "$2"
	fi
}

# ------------------------------------------------------------------
# Artifacts: perfab ledger

# The artifact every mutation starts from: two blocks of base and head,
# 4 reps, fewer than 6 pairs: INCONCLUSIVE, in the run and its ledger.
expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 4 --max-reps 4 --no-null-arm --out ok.json
expect_rc 3 "$PERFAB" ledger ok.json # the base of every mutation loads

# Malformed JSON.
printf '{"schema": "perfab-artifact/1",' >trunc.json
bad_ledger trunc.json "not valid JSON"
head -c 3000 ok.json >cut.json
bad_ledger cut.json "not valid JSON"
printf '{,}' >comma.json
bad_ledger comma.json "not valid JSON"
printf '{"schema": "perfab-artifact/1} ' >unterminated.json
bad_ledger unterminated.json "not valid JSON"
{ cat ok.json; echo ' {"trailing": 1}'; } >trailing.json
bad_ledger trailing.json "data after the top-level value"
printf '{"schema": \x27perfab-artifact/1\x27}' >squote.json
bad_ledger squote.json "not valid JSON"
printf '[1, 2, 3]' >array.json
bad_ledger array.json "top level must be a JSON object"
printf '"perfab-artifact/1"' >string.json
bad_ledger string.json "top level must be a JSON object"
printf 'null' >null.json
bad_ledger null.json "top level must be a JSON object"

# Wrong types.
mutate ok.json t1.json '.schema = 1'
bad_ledger t1.json "'schema' must be a string"
mutate ok.json t2.json '.arms = {"base": {}}'
bad_ledger t2.json "'arms' must be a non-empty array"
mutate ok.json t3.json '.reps = "12"'
bad_ledger t3.json "'reps' must be a whole number"
mutate ok.json t4.json '.complete = "yes"'
bad_ledger t4.json "'complete' must be true or false"
mutate ok.json t5.json '.arms[0].argv = ["/bin/true", 1]'
bad_ledger t5.json "arms\[0\].argv\[1\] must be a string"
mutate ok.json t6.json '.arms[1].env = {"K": 1}'
bad_ledger t6.json "arms\[1\].env.K must be a string"
mutate ok.json t7.json '.rows[0].reps[0].order = "base,head"'
bad_ledger t7.json "order must list each"
mutate ok.json t8.json '.rows = {}'
bad_ledger t8.json "'rows' must be an array"
mutate ok.json t9.json '.rows[0].reps[2] = []'
bad_ledger t9.json "reps\[2\] must be an object"
mutate ok.json t10.json '.rows[0].reps[0].results.head.cpu = true'
bad_ledger t10.json "results.head.cpu must be a finite number"
mutate ok.json t11.json '.rows[0].control = "no"'
bad_ledger t11.json "'control' must be true or false"
mutate ok.json t12.json '.tolerance.cpu = "2%"'
bad_ledger t12.json "tolerance.cpu must be a number"
mutate ok.json t13.json '.rules = "perfab/9"'
bad_ledger t13.json "'rules' must be"
mutate ok.json t14.json '.rows[0].reps[0].order = ["base", "base"]'
bad_ledger t14.json "order must list each"
mutate ok.json t15.json '.arms[1].name = "base"'
bad_ledger t15.json "duplicate arm name"
# Found by fuzz_artifact: a non-string workload or program was taken as
# null (and its error message leaked).
mutate ok.json t17.json '.rows[0].workload = 5'
bad_ledger t17.json "field 'workload' must be a string"
mutate ok.json t18.json '.rows[0].program = []'
bad_ledger t18.json "field 'program' must be a string"
mutate ok.json t16.json '.arms = [range(65) as $i | .arms[0] | .name = "a\($i)"]'
bad_ledger t16.json "more than perfab handles"

# Absurd numbers, and spellings JSON does not have.
for n in 1e400 -1e400 -1 18446744073709551616 9007199254740992 0.5 1e-400x; do
	mutate ok.json seed.json '.seed = "@@"' "$n"
	case $n in
	*x) bad_ledger seed.json "not valid JSON" ;;
	*) bad_ledger seed.json "'seed' must be a whole number" ;;
	esac
done
for n in 1e400 -1 18446744073709551616 1e9999 1.5; do
	mutate ok.json reps.json '.reps = "@@"' "$n"
	bad_ledger reps.json "'reps' must be a whole number"
	mutate ok.json block.json '.rows[0].reps[1].block = "@@"' "$n"
	bad_ledger block.json "'block' must be a whole number"
done
for n in 1e400 -1e400 1e301 -1e301; do
	mutate ok.json wall.json '.rows[0].reps[3].results.base.wall = "@@"' "$n"
	bad_ledger wall.json "results.base.wall must be a finite number"
done
for n in 1e400 -1 1001; do
	mutate ok.json tol.json '.tolerance.throughput = "@@"' "$n"
	bad_ledger tol.json "tolerance.throughput must be a number in"
	mutate ok.json margin.json '.equivalence_margin = "@@"' "$n"
	bad_ledger margin.json "'equivalence_margin' must be a number in"
done
for s in NaN -NaN nan Infinity -Infinity inf -inf +1 0x10 .5 1e 1e+ -; do
	mutate ok.json nan.json '.rows[0].reps[0].results.head.wall = "@@"' "$s"
	bad_ledger nan.json "not valid JSON"
done

# Missing fields.
for f in schema perfab_version protocol complete seed reps max_reps arms rows; do
	mutate ok.json missing.json "del(.$f)"
	bad_ledger missing.json "missing field '$f'"
done
mutate ok.json m1.json 'del(.arms[1].name)'
bad_ledger m1.json "arms\[1\]: missing field 'name'"
mutate ok.json m2.json 'del(.arms[0].argv)'
bad_ledger m2.json "arms\[0\]: missing field 'argv'"
mutate ok.json m3.json 'del(.rows[0].reps[3].results)'
bad_ledger m3.json "reps\[3\]: missing field 'results'"
mutate ok.json m4.json 'del(.rows[0].reps[3].results.head)'
bad_ledger m4.json "missing object for arm 'head'"
mutate ok.json m5.json 'del(.rows[0].control)'
bad_ledger m5.json "missing field 'control'"
mutate ok.json m6.json 'del(.rows[0].reps[0].block)'
bad_ledger m6.json "missing field 'block'"
mutate ok.json m7.json '.arms = []'
bad_ledger m7.json "'arms' must be a non-empty array"

# Unknown schema versions and protocols.
for s in perfab-artifact/0 perfab-artifact perfab-artifact/1x perfab-artifact/-2 "" PERFAB-ARTIFACT/1; do
	mutate ok.json schema.json ".schema = \"$s\""
	bad_ledger schema.json "unknown schema"
done
# A newer version of the artifact's own schema: said so, with the cure.
for s in perfab-artifact/2 perfab-artifact/10; do
	mutate ok.json schema.json ".schema = \"$s\""
	bad_ledger schema.json "written by a newer perfab (schema $s); this perfab reads"
done
mutate ok.json schema-null.json '.schema = null'
bad_ledger schema-null.json "'schema' must be a string"
mutate ok.json proto.json '.protocol = "shuffle/9"'
bad_ledger proto.json "unknown protocol"

# Deep nesting: cJSON stops at 1000 levels; no stack overflow here.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >deep.json
bad_ledger deep.json "not valid JSON"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "{\"a\":"; }' >deepobj.json
bad_ledger deepobj.json "not valid JSON"
# ... also inside an otherwise valid artifact, where perfab copies "host".
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "["; for (i = 0; i < 5000; i++) printf "]"; }' >nest.txt
mutate ok.json deephost.json '.host = "@@"' "$(cat nest.txt)"
bad_ledger deephost.json "not valid JSON"
# 900 levels are legal JSON: the artifact loads and is judged.
awk 'BEGIN { for (i = 0; i < 900; i++) printf "["; for (i = 0; i < 900; i++) printf "]"; }' >nest.txt
mutate ok.json okdeep.json '.host.deep = "@@"' "$(cat nest.txt)"
expect_rc 3 "$PERFAB" ledger okdeep.json # judged as ok.json

# Empty file, a directory, /dev/null, binary garbage.
: >empty.json
bad_ledger empty.json "not valid JSON"
mkdir dir.json
bad_ledger dir.json "cannot read 'dir.json'"
bad_ledger /dev/null "not valid JSON"
head -c 65536 "$PERFAB" >elf.json
bad_ledger elf.json "not valid JSON"
awk 'BEGIN { srand(6); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 256); }' >rand.json
bad_ledger rand.json "not valid JSON"
printf '{"schema": "perfab-\377\376artifact/1"}' >utf8.json
bad_ledger utf8.json "unknown schema"

# A very large artifact (about 50 MB): valid, it is judged (it is not bad
# input); with one bad value at its very end, it is refused with the path
# of that value. Neither may crash (how long the ledger of a large
# artifact takes is ci/bench-ledger.sh's to print, not a test's to time).
# Two blocks copied 6000 times, renumbered: the protocol holds. Head's
# results are base's in every rep, so every change is exactly 0: PASS.
jq -c '.host.blob = ("x" * 30000000) |
	.rows[0].reps = [range(6000) as $i | .rows[0].reps[0:4][] | .block += 2 * $i |
	                 .results.head = .results.base]' \
	ok.json >big.json || exit 99
size=$(wc -c <big.json)
[ "$size" -gt 50000000 ] || fail "big.json is only $size bytes"
expect_rc 0 "$PERFAB" ledger big.json
grep_out "n=24000"
jq -c '.rows[0].reps[-1].results.head.wall = "slow"' big.json >bigbad.json || exit 99
bad_ledger bigbad.json "reps\[23999\].results.head.wall must be a finite number"
rm -f big.json bigbad.json

# ------------------------------------------------------------------
# Configs: perfab run --config (never runs anything when bad)

cat >good.json <<'EOF'
{ "arms": [ { "name": "base", "argv": ["/bin/true"] },
            { "name": "head", "argv": "/bin/true" } ],
  "rows": [ { "name": "r", "argv": [] } ],
  "reps": 2, "max_reps": 2, "seed": 1, "timeout": 10 }
EOF
expect_rc 3 "$PERFAB" run -q --config good.json --out good-run.json # 2 reps: INCONCLUSIVE

printf '{"arms": [' >c-trunc.json
bad_config c-trunc.json "not a JSON object"
{ cat good.json; echo '{"arms": []}'; } >c-trailing.json
bad_config c-trailing.json "data after the top-level value"
printf '[{"name": "base"}]' >c-array.json
bad_config c-array.json "not a JSON object"
: >c-empty.json
bad_config c-empty.json "c-empty.json"
mkdir c-dir.json
bad_config c-dir.json "cannot read config 'c-dir.json'"
bad_config /no/such/config.json "cannot read config"
bad_config /dev/null "not a JSON object"
head -c 65536 "$PERFAB" >c-elf.json
bad_config c-elf.json "not a JSON object"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >c-deep.json
bad_config c-deep.json "not a JSON object"

# Wrong types.
mutate good.json c1.json '.arms = {"base": "/bin/true"}'
bad_config c1.json "'arms' must be an array"
mutate good.json c2.json '.arms[0] = "base=/bin/true"'
bad_config c2.json "arms\[0\] must be an object"
mutate good.json c3.json '.arms[0].argv = 7'
bad_config c3.json "argv must be an array of strings"
mutate good.json c4.json '.arms[0].argv = ["/bin/true", null]'
bad_config c4.json "arms\[0\].argv\[1\] must be a string"
mutate good.json c5.json '.arms[1].env = {"K": [1]}'
bad_config c5.json "arms\[1\].env.K must be a string or a number"
mutate good.json c6.json '.reps = "2"'
bad_config c6.json "'reps' must be a number"
mutate good.json c7.json '.rows = {"r": {}}'
bad_config c7.json "'rows' must be an array"
mutate good.json c8.json '.rows[0].control = 1'
bad_config c8.json "control must be true or false"
mutate good.json c9.json '.tolerance = "2%"'
bad_config c9.json "'tolerance' must be a number or an object"
mutate good.json c10.json '.tolerance = {"cpu": "3"}'
bad_config c10.json "tolerance.cpu must be a number"
mutate good.json c11.json '.tolerance = {"speed": 3}'
bad_config c11.json "'tolerance': .*unknown metric 'speed'"
mutate good.json c12.json '.rules = 12'
bad_config c12.json "'rules' must be"
mutate good.json c13.json '.arms[1].revision = 2'
bad_config c13.json "revision must be a string"
mutate good.json c14.json '.arms[0].name = "base head"'
bad_config c14.json "name must be a name of letters"
mutate good.json c15.json '.arms[1].name = "base"'
bad_config c15.json "defined twice"
mutate good.json c16.json '.arms[1].argv = "/bin/true \"open"'
bad_config c16.json "unterminated double quote"
mutate good.json c17.json '.rows = [{"workload": "no-such-row"}]'
bad_config c17.json "is not a built-in row"
mutate good.json c18.json '.rows = [{"control": true}]'
bad_config c18.json "needs a name or a workload"
mutate good.json c19.json '.rows = [{"name": "r"}, {"name": "r"}]'
bad_config c19.json "row 'r' is defined twice"
mutate good.json c20.json '.rows = [{"workload": "large-class/8", "params": {"speed": "1"}}]'
bad_config c20.json "'speed' is not a parameter"

# Absurd numbers and spellings.
for n in 1e400 -1 0 18446744073709551616 1000001; do
	mutate good.json c-reps.json '.reps = "@@"' "$n"
	bad_config c-reps.json "'reps' must be a number in"
done
for n in 1e400 -1 18446744073709551616 9007199254740992; do
	mutate good.json c-seed.json '.seed = "@@"' "$n"
	bad_config c-seed.json "'seed' must be a number in"
done
for n in 1e400 -1 1e8; do
	mutate good.json c-timeout.json '.timeout = "@@"' "$n"
	bad_config c-timeout.json "'timeout' must be a number in"
done
for n in 1e400 -1e400 -1 1001; do
	mutate good.json c-tol.json '.tolerance = "@@"' "$n"
	bad_config c-tol.json "the percentage must be a number"
	mutate good.json c-tol2.json '.tolerance = {"cpu": "@@"}' "$n"
	bad_config c-tol2.json "the percentage must be a number"
done
mutate good.json c-env.json '.arms[1].env = {"K": "@@"}' 1e400
bad_config c-env.json "env.K must be a string or a number"
for s in NaN Infinity -Infinity nan inf; do
	mutate good.json c-nan.json '.scale = "@@"' "$s"
	bad_config c-nan.json "not a JSON object"
done

# Larger than perfab reads (16 MiB): refused with the reason.
jq -c '.pad = ("x" * 17000000)' good.json >c-big.json || exit 99
bad_config c-big.json "too large"
echo "ok: $n_bad hostile inputs refused with exit 2 and a clear message, no crash"
exit 0
