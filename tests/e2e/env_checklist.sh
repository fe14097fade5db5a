#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# env_checklist.sh — `perfab env`: the fingerprint and the noise checklist.
#
# 1. On this machine: exit 0; text and JSON name governor, smt, load and
#    thp, each OK / WARNING / UNKNOWN with a detail (UNKNOWN: why it could
#    not be read) and a fix for every WARNING; the statuses agree with what
#    this script reads from the same kernel files itself; without a PMU,
#    the pmu item says whether valgrind counts instructions.
# 2. On made-up machines (--fingerprint): the rules themselves — a
#    powersave governor, SMT on, THP always, a loaded machine, ASLR off,
#    no PMU must all warn with their exact fixes; a tuned machine must not.
# 3. It changes nothing: the tunables read are identical afterwards.
. "${top_srcdir}/tests/lib/test-lib.sh"

status_of() { # FILE ITEM
	jq -r --arg i "$2" '.checklist[] | select(.item == $i) | .status' "$1"
}
fix_of() {
	jq -r --arg i "$2" '.checklist[] | select(.item == $i) | .fix // ""' "$1"
}

gov=/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
thp=/sys/kernel/mm/transparent_hugepage/enabled
smt=/sys/devices/system/cpu/smt/control
before=$(cat "$gov" "$thp" "$smt" /proc/sys/kernel/randomize_va_space 2>/dev/null)

# --- 1. this machine -------------------------------------------------
expect_rc 0 "$PERFAB" env
for item in governor smt load thp; do
	grep -Eq "^  (OK|WARNING|UNKNOWN) +$item +[^ ]" "$T/out" ||
		{ cat "$T/out" >&2; fail "text checklist lacks a judged '$item' line"; }
done
grep -q '^host$' "$T/out" || fail "text output lacks the host section"
grep -Eq '^  cpu_model +[^ ]' "$T/out" || fail "text output lacks cpu_model"

expect_rc 0 "$PERFAB" env --format json
jq -e . "$T/out" >/dev/null || fail "--format json does not parse"
cp "$T/out" "$T/env.json"
for item in governor smt load thp; do
	st=$(status_of "$T/env.json" "$item")
	case $st in
	OK|WARNING|UNKNOWN) ;;
	*) fail "'$item' has status '$st'" ;;
	esac
	jq -e --arg i "$item" '.checklist[] | select(.item == $i) | .detail | length > 0' \
		"$T/env.json" >/dev/null || fail "'$item' has no detail"
done
# Every WARNING carries a fix; every UNKNOWN a reason; nothing else.
jq -e '[.checklist[] | select(.status == "WARNING" and (.fix | type) != "string")] | length == 0' \
	"$T/env.json" >/dev/null || fail "a WARNING without a fix"
jq -e '[.checklist[] | select(.status | IN("OK","WARNING","UNKNOWN") | not)] | length == 0' \
	"$T/env.json" >/dev/null || fail "a status outside OK/WARNING/UNKNOWN"
# Every null in the fingerprint has its reason.
jq -e '.host as $h | [$h | to_entries[] | select(.value == null) | .key
	| select($h.unreadable[.] | type != "string")] | length == 0' \
	"$T/env.json" >/dev/null || fail "a null fingerprint item without a reason"

# The statuses agree with the kernel files read here.
if [ -r "$gov" ]; then
	want=WARNING
	[ "$(cat "$gov")" = performance ] && want=OK
	[ "$(status_of "$T/env.json" governor)" = "$want" ] ||
		fail "governor is '$(cat "$gov")' but status $(status_of "$T/env.json" governor)"
else
	[ "$(status_of "$T/env.json" governor)" = UNKNOWN ] ||
		fail "no $gov, yet governor is not UNKNOWN"
	jq -e '.host.unreadable.governor | test("cpufreq")' "$T/env.json" >/dev/null ||
		fail "governor UNKNOWN without the cpufreq reason"
fi
if [ -r "$thp" ]; then
	want=OK
	grep -q '\[always\]' "$thp" && want=WARNING
	[ "$(status_of "$T/env.json" thp)" = "$want" ] || fail "thp status disagrees with $thp"
fi
if [ -r "$smt" ] && [ "$(cat "$smt")" = on ] &&
   [ "$(cat /sys/devices/system/cpu/smt/active)" = 1 ]; then
	[ "$(status_of "$T/env.json" smt)" = WARNING ] || fail "SMT on but not flagged"
fi
jq -e '.host.load_1min >= 0 and .host.pus >= 1' "$T/env.json" >/dev/null ||
	fail "no load or PU count in the fingerprint"

# What counts instructions without a PMU, as it is here: the valgrind
# perfab would run (PERFAB_VALGRIND), or none; the pmu item says which.
PERFAB_VALGRIND=/bin/true expect_rc 0 "$PERFAB" env --format json
jq -e '.host.valgrind == "/bin/true"' "$T/out" >/dev/null ||
	fail "host.valgrind is $(jq -c .host.valgrind "$T/out"), not /bin/true"
if [ "$(jq -r .host.pmu "$T/out")" = false ]; then
	jq -e '.checklist[] | select(.item == "pmu") | .detail |
		startswith("cycles will be null; instructions are counted by valgrind (/bin/true")' \
		"$T/out" >/dev/null || fail "pmu with valgrind: $(jq -c '.checklist[] | select(.item == "pmu")' "$T/out")"
fi
PERFAB_VALGRIND=/nonexistent/valgrind expect_rc 0 "$PERFAB" env --format json
jq -e '.host.valgrind == null and (.host.unreadable.valgrind | test("not available"))' \
	"$T/out" >/dev/null || fail "a missing valgrind: $(jq -c '[.host.valgrind, .host.unreadable.valgrind]' "$T/out")"
if [ "$(jq -r .host.pmu "$T/out")" = false ]; then
	jq -e '.checklist[] | select(.item == "pmu") | .detail |
		startswith("instructions and cycles will be null")' "$T/out" >/dev/null ||
		fail "pmu without valgrind: $(jq -c '.checklist[] | select(.item == "pmu")' "$T/out")"
fi

# --- 2. made-up machines -----------------------------------------------
cat >"$T/noisy.json" <<'EOF'
{ "cpu_model": "Test CPU", "kernel": "Linux 6.1 x86_64", "pus": 8, "cores": 4,
  "smt_siblings": true, "smt_control": "on", "smt_active": 1,
  "governor": "powersave", "intel_no_turbo": "0", "turbo": "on",
  "thp": "always", "aslr": 0, "isolated_cpus": "", "load_1min": 6.5,
  "procs_running": 7, "mem_total_bytes": 8589934592,
  "mem_available_bytes": 536870912, "nmi_watchdog": 1, "pmu": true,
  "counters_build": "libpfm4", "perf_event_paranoid": 2, "root": false,
  "cgroup_memory": null, "hypervisor": false,
  "unreadable": { "cgroup_memory": "cannot create cgroups under 'x'" } }
EOF
expect_rc 0 "$PERFAB" env --fingerprint "$T/noisy.json" --format json
cp "$T/out" "$T/noisy.out"
for pair in \
	"governor|cpupower frequency-set -g performance" \
	"turbo|echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo" \
	"smt|echo off > /sys/devices/system/cpu/smt/control" \
	"thp|echo never > /sys/kernel/mm/transparent_hugepage/enabled" \
	"aslr|echo 2 > /proc/sys/kernel/randomize_va_space" \
	"isolated_cpus|isolcpus=7" \
	"load|" "memory|" "nmi_watchdog|sysctl -w kernel.nmi_watchdog=0" \
	"perf_event_paranoid|sysctl -w kernel.perf_event_paranoid=1" "cgroup|"; do
	item=${pair%%|*}
	want=${pair#*|}
	[ "$(status_of "$T/noisy.out" "$item")" = WARNING ] ||
		fail "noisy machine: '$item' is $(status_of "$T/noisy.out" "$item"), not WARNING"
	fix_of "$T/noisy.out" "$item" | grep -qF -- "$want" ||
		fail "noisy machine: '$item' fix '$(fix_of "$T/noisy.out" "$item")' lacks '$want'"
done

cat >"$T/quiet.json" <<'EOF'
{ "cpu_model": "Test CPU", "kernel": "Linux 6.1 x86_64", "pus": 8, "cores": 8,
  "smt_siblings": false, "smt_control": "off", "smt_active": 0,
  "governor": "performance", "cpufreq_boost": "0", "turbo": "off",
  "thp": "never", "aslr": 2, "isolated_cpus": "6-7", "load_1min": 0.3,
  "procs_running": 1, "mem_total_bytes": 8589934592,
  "mem_available_bytes": 7516192768, "nmi_watchdog": 0, "pmu": true,
  "counters_build": "libpfm4", "perf_event_paranoid": 1, "root": false,
  "cgroup_memory": "v2", "cgroup_parent": "/sys/fs/cgroup/bench",
  "hypervisor": false, "unreadable": {} }
EOF
expect_rc 0 "$PERFAB" env --fingerprint "$T/quiet.json" --format json
jq -e '[.checklist[] | select(.status != "OK")] | length == 0' "$T/out" >/dev/null ||
	{ jq -c '.checklist[] | select(.status != "OK")' "$T/out" >&2; fail "tuned machine not all OK"; }

# An item that could not be read is UNKNOWN with the recorded reason.
cat >"$T/blind.json" <<'EOF'
{ "cpu_model": "Test CPU", "kernel": "Linux 6.1 x86_64", "governor": null,
  "thp": null, "smt_control": null, "smt_siblings": null, "load_1min": null,
  "unreadable": { "governor": "no cpufreq here", "thp": "no THP here",
                  "smt_control": "no SMT control", "smt_siblings": "no hwloc",
                  "load_1min": "cannot read /proc/loadavg" } }
EOF
expect_rc 0 "$PERFAB" env --fingerprint "$T/blind.json"
grep -Eq '^  UNKNOWN +governor +no cpufreq here' "$T/out" || { cat "$T/out" >&2; fail "governor reason lost"; }
grep -Eq '^  UNKNOWN +thp +no THP here' "$T/out" || fail "thp reason lost"
grep -Eq '^  UNKNOWN +smt +no SMT control' "$T/out" || fail "smt reason lost"
grep -Eq '^  UNKNOWN +load +cannot read' "$T/out" || fail "load reason lost"
grep -Eq '^  governor +unknown \(no cpufreq here\)' "$T/out" || fail "null shown without reason"

# Misuse.
expect_rc 2 "$PERFAB" env --format yaml
grep_err "unknown --format 'yaml'"
expect_rc 2 "$PERFAB" env --fingerprint "$T/nope.json"
grep_err "cannot read fingerprint"
expect_rc 0 "$PERFAB" env --help
grep_out "usage: perfab env"

# --- 3. nothing changed ------------------------------------------------
after=$(cat "$gov" "$thp" "$smt" /proc/sys/kernel/randomize_va_space 2>/dev/null)
[ "$before" = "$after" ] || fail "perfab env changed a tunable"
exit 0
