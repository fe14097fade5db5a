#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ledger --format junit: well-formed JUnit XML (parsed with python3), a
# testcase per row x head arm, <failure> on FAIL; INCONCLUSIVE with its
# reason as <failure type="perfab.INCONCLUSIVE"> (as the gate fails it) or,
# with --junit-inconclusive skipped, as <skipped>; timestamp and hostname
# on the testsuite, classnames without '/', properties for rules and n;
# hostile names stay text.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

spin="$WL/perfab-spin drain_ms=10 release_bound_ms=20"
expect_rc 1 "$PERFAB" run -q --null-arm --reps 12 --max-reps 12 --scale 0.05 --no-sanity-gate \
	--arm "base=$spin slowdown_pct=0" --arm "head=$spin slowdown_pct=100" --out slow.json
cat >cfg.json <<JSON
{"rows": [{"name": "r1", "argv": ["extra_mib=0"]}, {"name": "r2", "argv": ["extra_mib=1"]}]}
JSON
expect_rc 3 "$PERFAB" run -q --config cfg.json --no-null-arm --reps 3 --max-reps 3 --arm "base=$spin work=1000" \
	--arm "head=$spin work=1000" --arm "cand=$spin work=1000" --out few.json
jq '.rows[0].name = "<r&\"1\u0001>"' few.json >hostile.json

cat >check.py <<'PY'
import sys, xml.etree.ElementTree as ET
path, want_cases, want_fail, want_skip = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
root = ET.parse(path).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1, len(suites)
s = suites[0]
cases = s.findall("testcase")
assert len(cases) == want_cases == int(s.get("tests")), (len(cases), s.get("tests"))
fails = [c for c in cases if c.find("failure") is not None]
skips = [c for c in cases if c.find("skipped") is not None]
assert len(fails) == want_fail == int(s.get("failures")), (len(fails), s.get("failures"))
import datetime, re
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", s.get("timestamp")), s.get("timestamp")
datetime.datetime.strptime(s.get("timestamp"), "%Y-%m-%dT%H:%M:%S")
assert s.get("hostname"), s.attrib
assert len(skips) == want_skip == int(s.get("skipped")), (len(skips), s.get("skipped"))
props = {p.get("name"): p.get("value") for p in s.find("properties")}
assert props["rules"] == "perfab/2" and props["overall"] in ("PASS", "FAIL", "INCONCLUSIVE"), props
assert props["disposition"], props
for c in cases:
    assert c.get("classname").startswith("perfab.") and "/" not in c.get("classname"), c.get("classname")
    cp = {p.get("name"): p.get("value") for p in c.find("properties")}
    assert cp["rules"] == "perfab/2" and int(cp["n"]) > 0 and cp["verdict"], cp
    float(c.get("time"))
for c in skips:
    assert c.find("skipped").get("message").startswith("INCONCLUSIVE"), c.find("skipped").get("message")
for c in fails:
    f = c.find("failure")
    if f.get("type") == "perfab.INCONCLUSIVE":
        assert f.get("message").startswith("INCONCLUSIVE (not a pass): "), f.get("message")
    else:
        assert f.get("type") == "perfab.FAIL" and f.get("message").startswith("FAIL"), f.attrib
print("\n".join(c.get("name") for c in cases))
PY

expect_rc 1 "$PERFAB" ledger --format junit slow.json
mv "$T/out" slow.xml
python3 check.py slow.xml 1 1 0 >names || fail "slow.xml: $(cat slow.xml)"
# The failing cell named with its change: cpu as a ratio, or instructions
# where exact counts FAILed the row in its first block.
if first_block_fail slow.json; then
	grep -q 'instructions: +[0-9.]* [kMG]* (+[0-9.]*% \[' slow.xml ||
		fail "the failure does not name the failing count with its change"
else
	grep -q 'cpu: [0-9.]*× slower \[' slow.xml || fail "the failure does not name the failing cell as a ratio"
fi

# Two rows x two head arms, n = 3: INCONCLUSIVE, a failure with the reason
# by default (the gate fails it too), skipped when asked.
expect_rc 3 "$PERFAB" ledger --format junit few.json
mv "$T/out" few.xml
python3 check.py few.xml 4 4 0 >names || fail "few.xml: $(cat few.xml)"
grep -q '<failure type="perfab.INCONCLUSIVE" message="INCONCLUSIVE (not a pass): only 3 paired reps' few.xml ||
	fail "INCONCLUSIVE is not a failure with the reason"
grep -q 'no 95% interval exists below 6 paired reps (n=3); about 3 more reps' few.xml || fail "no reason with an estimate"
grep -q '^r2 · cand vs base$' names || fail "testcase names: $(cat names)"
expect_rc 3 "$PERFAB" ledger --format junit --junit-inconclusive skipped few.json
mv "$T/out" skip.xml
python3 check.py skip.xml 4 0 4 >names || fail "skip.xml: $(cat skip.xml)"
grep -q '<skipped message="INCONCLUSIVE (not a pass): only 3 paired reps' skip.xml || fail "skipped without the reason"
expect_rc 2 "$PERFAB" ledger --format junit --junit-inconclusive maybe few.json
grep_err '--junit-inconclusive takes failure or skipped'
expect_rc 2 "$PERFAB" ledger --junit-inconclusive skipped few.json
grep_err 'applies to --format junit only'

expect_rc 3 "$PERFAB" ledger --format junit --junit-inconclusive skipped hostile.json
mv "$T/out" hostile.xml
python3 check.py hostile.xml 4 0 4 >names || fail "hostile names broke the XML: $(head -c 2000 hostile.xml)"
grep -q '^<r&"1.>' names || fail "row name not preserved as text: $(cat names)"
exit 0
