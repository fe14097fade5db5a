# SPDX-License-Identifier: GPL-3.0-or-later
# tests/memgate_lib.sh — helpers for the memgate_*.sh tests, sourced after
# lib.sh: a three-scenario battery of the calibration workload holding 4,
# 16 and 24 MiB, and runs of it kept short (2 reps, 1000 iterations).

# battery FILE [ROW_ARGS_FOR_large]: a config whose "large" row gets the
# extra arguments (a leak, more memory) as a JSON array body, e.g.
# '"leak_mib=16"'.
battery() {
	extra=${2:+, $2}
	cat >"$1" <<JSON
{"arms": [{"name": "base", "argv": ["$WL/perfab-spin", "work=1000", "drain_ms=10", "release_bound_ms=20"]},
          {"name": "head", "argv": ["$WL/perfab-spin", "work=1000", "drain_ms=10", "release_bound_ms=20"]}],
 "rows": [{"name": "small", "argv": ["extra_mib=4"]},
          {"name": "medium", "argv": ["extra_mib=16"]},
          {"name": "large", "argv": ["extra_mib=24"$extra]}]}
JSON
}

# runs CONFIG PREFIX COUNT [ARGS...]: COUNT runs, PREFIX1.json ...
runs() {
	cfg=$1 prefix=$2 count=$3
	shift 3
	i=1
	while [ "$i" -le "$count" ]; do
		expect_verdict "$PERFAB" run -q --config "$cfg" --reps 2 --max-reps 2 --no-sanity-gate "$@" \
			--out "$prefix$i.json"
		i=$((i + 1))
	done
}

# A baseline from three runs of the plain battery: baseline.json.
make_baseline() {
	battery plain.json
	runs plain.json base 3
	expect_rc 0 "$PERFAB" memgate record base1.json base2.json base3.json -o baseline.json
	grep_err "only 3 runs"
	jq -e '.schema == "perfab-memgate/1" and .arm == "head" and .runs == 3 and
	       (.scenarios | keys_unsorted) == ["small", "medium", "large"] and
	       (.scenarios | all(. > 1048576))' baseline.json >/dev/null ||
		fail "baseline: $(cat baseline.json)"
}
