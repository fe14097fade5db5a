#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Missing probes in the artifact: on a machine without a PMU, cycles (and
# instructions, unless valgrind counts them) are null WITH a reason in
# every rep and arm (never 0), while
# task_clock and page_faults are present; the cgroup peak is a number where
# a cgroup could be had and null with a reason where not (--no-cgroup and a
# cgroup root that does not exist, and a cgroup2 mount when one can be had).
. "${top_srcdir}/tests/lib/test-lib.sh"

expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --null-arm --reps 3 --max-reps 3 --out p.json
# A PMU, if this machine has one, must give real counts; if not, null+reason.
if perf_pmu=$(jq -r '.host.checklist[] | select(.item == "pmu") | .status' p.json) && [ "$perf_pmu" = OK ]; then
	jq -e '[.rows[0].reps[].results[] | .instructions > 0 and .cycles > 0] | all' p.json >/dev/null ||
		fail "a PMU is present but counters are missing"
else
	jq -e '[.rows[0].reps[] | .results as $r | .null_reasons as $w | ["base","head","null"][] as $a |
		($r[$a].cycles == null and ($w[$a].cycles | test("PMU")))] | all' p.json >/dev/null ||
		fail "cycles must be null with a PMU reason in every rep and arm"
	# Instructions: counted by valgrind where it counts (the default),
	# else null with the PMU's reason.
	if exact_counts; then
		jq -e '[.rows[0].reps[].results[] | .instructions > 0] | all' p.json >/dev/null ||
			fail "valgrind counts, but instructions are missing in a rep"
	else
		jq -e '[.rows[0].reps[] | .results as $r | .null_reasons as $w | ["base","head","null"][] as $a |
			($r[$a].instructions == null and ($w[$a].instructions | test("PMU")))] | all' p.json >/dev/null ||
			fail "instructions must be null with a PMU reason in every rep and arm"
	fi
	skips="no PMU here (real counts not checked)"
fi
jq -e '[.rows[0].reps[].results[] | .task_clock > 0 and .page_faults > 0] | all' p.json >/dev/null ||
	fail "software counters (task_clock, page_faults) missing"
# cgroup: either measured or null with a reason; never 0.
jq -e '[.rows[0].reps[] | .results as $r | .null_reasons as $w | ["base","head"][] as $a |
	(($r[$a].cgroup_peak // 0) > 0 or ($w[$a].cgroup_peak | length > 0))] | all' p.json >/dev/null ||
	fail "cgroup_peak neither measured nor explained"
jq -e '[.rows[0].reps[].results[] | .cgroup_peak > 0] | all' p.json >/dev/null ||
	skips="${skips:+$skips; }no usable cgroup here (a measured cgroup_peak not checked)"
expect_rc 3 "$PERFAB" run -q --no-cgroup --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --out nc.json
jq -e '.rows[0].reps[0] | .results.base.cgroup_peak == null and (.null_reasons.base.cgroup_peak | test("disabled"))' nc.json >/dev/null ||
	fail "--no-cgroup must leave cgroup_peak null with a reason"
PERFAB_CGROUP_ROOT=/nonexistent/cgroup expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --out nr.json
jq -e '.rows[0].reps[0] | .results.base.cgroup_peak == null and (.null_reasons.base.cgroup_peak | length > 0)' nr.json >/dev/null ||
	fail "an unusable cgroup root must leave cgroup_peak null with a reason"
# cgroup v2, when this machine lets us mount it (root, not in a locked-down
# container): measured if its root offers the memory controller, else null
# with the v2 reason. Here (cgroup v1 owns memory) it is the reason.
mkdir cg2
if [ "$(id -u)" = 0 ] && mount -t cgroup2 none "$T/cg2" 2>/dev/null; then
	trap 'umount "$T/cg2" 2>/dev/null; rm -rf "$T"' EXIT
	PERFAB_CGROUP_ROOT=$T/cg2 expect_rc 3 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --out v2.json
	if grep -qw memory "$T/cg2/cgroup.controllers"; then
		jq -e '[.rows[0].reps[].results[].cgroup_peak > 0] | all' v2.json >/dev/null ||
			fail "cgroup v2 with memory: cgroup_peak not measured: $(jq -c '.rows[0].reps[0].null_reasons' v2.json)"
		[ -z "$(find "$T/cg2" -mindepth 1 -maxdepth 1 -type d -name 'perfab*')" ] || fail "perfab left a v2 cgroup behind"
	else
		jq -e '[.rows[0].reps[] | .results.base.cgroup_peak == null and
			(.null_reasons.base.cgroup_peak | test("cgroup v2 without the memory controller"))] | all' v2.json >/dev/null ||
			fail "cgroup v2 without memory: want null with the v2 reason, got $(jq -c '.rows[0].reps[0].null_reasons.base' v2.json)"
	fi
	echo "cgroup v2 checked (root controllers: $(cat "$T/cg2/cgroup.controllers"))"
	umount "$T/cg2" || fail "cannot unmount the test's cgroup2"
else
	skips="${skips:+$skips; }cgroup v2 not mountable here (not root, or no CAP_SYS_ADMIN)"
fi
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --counters bogus
grep_err "bogus"
# What could not be checked makes the test a SKIP, with the reason.
[ -z "${skips:-}" ] || skip "$skips: those checks did not run (the others passed)"
exit 0
