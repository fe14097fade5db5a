#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ci/action.sh — the shell logic of perfab's GitHub Action (action.yml at
# the repository root; doc/ci.md). Each composite step calls one
# subcommand; every input arrives in the environment (PAB_*), never
# interpolated into a script, and results leave through $GITHUB_OUTPUT,
# $GITHUB_STEP_SUMMARY and $GITHUB_PATH.
#
#   key            check the inputs (refs, numbers, tolerances), then the
#                  cache key of perfab's build: OS release, machine, and a
#                  digest of the action's own sources (its revision)
#   install        run-time packages; on a cache miss also the build
#                  packages and a build of perfab into $PAB_TOOL
#   prepare        resolve base (default: the merge-base of the pull
#                  request with its base branch; a merge group's base) and
#                  add it as a worktree beside the head checkout:
#                  .perfab/base and .perfab/head, paths of equal length
#   build          run the build command in each checkout
#   arms OUT       the config perfab runs (ci/action-arms.py): the config
#                  (from base unless config-from is head) and bench's arms,
#                  each run in its own checkout
#   measure        one perfab run (or, with PAB_ARTIFACTS, perfab pool of
#                  downloaded artifacts); never fails on a verdict
#   report         the ledger in Markdown, HTML, JSON and JUnit, the step
#                  summary, and the outputs verdict, exit-code, artifact,
#                  report
#   comment-body   write the pull-request comment (marker, ledger, links),
#                  truncated under GitHub's 65,536-character limit
#   comment        create or update this token's one marked comment (gh api)
#   gate           exit with the exit code the verdict calls for
#
# Exit codes of the gate: perfab's (0 PASS, 1 FAIL, 3 INCONCLUSIVE unless
# inconclusive=pass, 2 bad input, 4 refused data, 5 sanity gate, 7 system
# error). A shard (shards set) exits 0 on any verdict: the gate job judges
# the pooled experiment.
#
# Test hook: PAB_TEST_INSTALL_FROM=BUILDDIR makes a cache miss install
# perfab with `make -C BUILDDIR install` instead of building the action's
# sources from scratch (tests/e2e/action_emulated.sh: minutes saved, the
# cache-miss path, the save and the restore still taken).
set -euo pipefail

die() {
	echo "::error::perfab action: $*" >&2
	exit 2
}

out() { # out KEY VALUE: a step output
	printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
}

ws=${GITHUB_WORKSPACE:-$PWD}
work=$ws/.perfab
outdir=$work/out
action=${PAB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
tool=${PAB_TOOL:-${RUNNER_TEMP:-/tmp}/perfab-tool}

perfab() {
	if [ -x "$tool/bin/perfab" ]; then
		"$tool/bin/perfab" "$@"
	else
		command perfab "$@"
	fi
}

# The shard's artifact name: perfab.json, or perfab-shard-I.json.
artifact_file() {
	if [ -n "${PAB_SHARDS:-}" ]; then
		echo "$outdir/perfab-shard-${PAB_SHARD}.json"
	else
		echo "$outdir/perfab.json"
	fi
}

# A revision as git will read it: never an option (a ref of
# "--upload-pack=..." would run a command through git fetch).
check_ref() { # check_ref WHAT VALUE
	case $2 in
	-*) die "$1 '$2' starts with '-': not a revision (refused: git would read it as an option)" ;;
	*[[:cntrl:]]*) die "$1 holds a control character: not a revision" ;;
	esac
}

# split_list VALUE: the comma-separated items of VALUE, one a line, with
# blanks around them dropped; no globbing, no other expansion.
split_list() {
	local -a items
	local IFS=,
	read -r -a items <<<"$1" || true
	local i
	for i in "${items[@]}"; do
		i=${i#"${i%%[![:space:]]*}"}
		i=${i%"${i##*[![:space:]]}"}
		printf '%s\n' "$i"
	done
}

check_inputs() {
	local v
	for v in "${PAB_REPS:-}" "${PAB_MAX_REPS:-}"; do
		case $v in '' | *[!0-9]*) [ -z "$v" ] || die "reps and max-reps take a whole number, not '$v'" ;; esac
	done
	case ${PAB_INCONCLUSIVE:-fail} in pass | fail) ;; *) die "inconclusive takes pass or fail, not '${PAB_INCONCLUSIVE}'" ;; esac
	case ${PAB_COUNT_CACHE:-false} in true | false) ;; *) die "count-cache takes true or false, not '${PAB_COUNT_CACHE}'" ;; esac
	case ${PAB_CONFIG_FROM:-base} in base | head) ;; *) die "config-from takes base or head, not '${PAB_CONFIG_FROM}'" ;; esac
	[ -z "${PAB_BASE_REF:-}" ] || check_ref base-ref "$PAB_BASE_REF"
	[ -z "${PAB_HEAD_REF:-}" ] || check_ref head-ref "$PAB_HEAD_REF"
	case ${PAB_PR_NUMBER:-} in *[!0-9]*) die "pr-number takes a whole number, not '$PAB_PR_NUMBER'" ;; esac
	# Each tolerance is PCT or METRIC=PCT, taken literally: 'cpu=*' is
	# refused, never matched against file names.
	while IFS= read -r v; do
		[ -n "$v" ] || continue
		[[ $v =~ ^([a-z][a-z0-9_]*=)?[0-9]+(\.[0-9]+)?%?$ ]] ||
			die "tolerance '$v' is not PCT or METRIC=PCT (e.g. 2 or cpu=5)"
	done < <(split_list "${PAB_TOLERANCE:-}")
	if [ -n "${PAB_ARTIFACTS:-}" ]; then
		case ${PAB_SHARDS:-} in *[!0-9]*) die "shards takes a whole number, not '$PAB_SHARDS'" ;; esac
	elif [ -n "${PAB_SHARDS:-}" ] || [ -n "${PAB_SHARD:-}" ]; then
		case ${PAB_SHARD:-}/${PAB_SHARDS:-} in
		[1-9]*/[1-9]*) ;;
		*) die "shard and shards go together: shard I of shards N (1 <= I <= N), not '${PAB_SHARD:-}' of '${PAB_SHARDS:-}'" ;;
		esac
		case ${PAB_SHARD}${PAB_SHARDS} in *[!0-9]*) die "shard and shards take whole numbers" ;; esac
		[ "$PAB_SHARD" -le "$PAB_SHARDS" ] 2>/dev/null || die "shard ${PAB_SHARD} is not one of shards 1..${PAB_SHARDS}"
	fi
}

cmd_key() {
	local id=unknown ver=unknown digest
	check_inputs
	command -v python3 >/dev/null 2>&1 || die "python3 is not installed: the action needs it to set up the arms (GitHub's runner images have it)"
	if [ -r /etc/os-release ]; then
		# shellcheck disable=SC1091
		id=$(. /etc/os-release && echo "${ID:-unknown}")
		# shellcheck disable=SC1091
		ver=$(. /etc/os-release && echo "${VERSION_ID:-unknown}")
	fi
	# The revision of the action is what its build is made of: hash the
	# sources, so a moved tag (v1) rebuilds and an unchanged one does not.
	digest=$(cd "$action" && find configure.ac Makefile.am m4 src stats workloads doc ci \
		-type f ! -name '*.o' -print 2>/dev/null | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-20)
	out key "perfab-$id-$ver-$(uname -m)-$digest"
	out tool "$tool"
}

cmd_install() {
	"$action/ci/setup-runtime.sh"
	if [ "${PAB_CACHE_HIT:-}" = true ] && [ -x "$tool/bin/perfab" ]; then
		echo "perfab from the cache: $("$tool/bin/perfab" --version | head -1)"
		out built false
	elif [ -n "${PAB_TEST_INSTALL_FROM:-}" ]; then
		echo "perfab: a cache miss; installing from the build in $PAB_TEST_INSTALL_FROM (test hook)"
		make -s -C "$PAB_TEST_INSTALL_FROM" install prefix="$tool" >"${RUNNER_TEMP:-/tmp}/perfab-build.log" 2>&1 ||
			{ tail -50 "${RUNNER_TEMP:-/tmp}/perfab-build.log" >&2; die "installing perfab failed"; }
	else
		"$action/ci/setup-build.sh"
		# Build from a copy: the action's checkout stays as it came.
		local src=${RUNNER_TEMP:-/tmp}/perfab-src
		rm -rf "$src" && mkdir -p "$src"
		(cd "$action" && tar cf - --exclude=_build --exclude=.git --exclude=.perfab .) | (cd "$src" && tar xf -)
		(cd "$src" && autoreconf -fi && ./configure -q --prefix="$tool" &&
			make -j"$(nproc)" && make install) >"${RUNNER_TEMP:-/tmp}/perfab-build.log" 2>&1 ||
			{ tail -50 "${RUNNER_TEMP:-/tmp}/perfab-build.log" >&2; die "building perfab failed"; }
	fi
	if [ "${PAB_CACHE_HIT:-}" != true ] || [ ! -x "$tool/bin/perfab" ]; then out built true; fi
	"$tool/bin/perfab" --version | head -1
	echo "$tool/bin" >>"${GITHUB_PATH:-/dev/null}"
}

# fetch REF: git fetch of REF from origin with the token's credentials
# (a private repository; the checkouts keep none), never in argv; git's
# own message on failure.
fetch() {
	local r=$1 err=${RUNNER_TEMP:-/tmp}/perfab-fetch.err auth
	local -a cfg=()
	if [ -n "${PAB_TOKEN:-}" ]; then
		auth=$(printf 'x-access-token:%s' "$PAB_TOKEN" | base64 -w0)
		cfg=(GIT_CONFIG_COUNT=1
			"GIT_CONFIG_KEY_0=http.${GITHUB_SERVER_URL:-https://github.com}/.extraheader"
			"GIT_CONFIG_VALUE_0=AUTHORIZATION: basic $auth")
	fi
	if ! env "${cfg[@]}" git fetch -q origin --end-of-options "$r" 2>"$err"; then
		echo "::error::perfab action: cannot fetch '$r' from origin: $(tr '\n' ' ' <"$err")" >&2
		echo "::error::perfab action: (a private repository needs the token input with contents: read; a commit must be reachable from a branch or tag)" >&2
		return 1
	fi
	git rev-parse -q --verify --end-of-options "FETCH_HEAD^{commit}"
}

# The commit a ref names in the head checkout, fetching it when missing.
resolve() {
	local r=$1 c
	check_ref revision "$r"
	for c in "$r" "origin/$r"; do
		if git rev-parse -q --verify --end-of-options "$c^{commit}" 2>/dev/null; then return 0; fi
	done
	fetch "$r"
}

cmd_prepare() {
	local base head mb
	check_inputs
	[ -d "$work/head/.git" ] || [ -f "$work/head/.git" ] || die "no head checkout at $work/head"
	cd "$work/head"
	head=$(git rev-parse HEAD)
	if [ -n "${PAB_BASE_REF:-}" ]; then
		base=$(resolve "$PAB_BASE_REF") || die "base-ref '$PAB_BASE_REF' names no commit of this repository"
		echo "base: $PAB_BASE_REF = $base"
	elif [ -n "${PAB_PR_BASE_SHA:-}" ]; then
		# The pull request's change is what it adds since it branched:
		# commits that landed on the base branch since are not its own.
		tip=$(resolve "$PAB_PR_BASE_SHA") || die "the base branch's commit $PAB_PR_BASE_SHA cannot be fetched"
		mb=$(git merge-base "$tip" "$head") || die "the pull request shares no history with its base branch"
		base=$mb
		echo "base: merge-base of $head and the base branch ($tip) = $base"
	elif [ -n "${PAB_MG_BASE_SHA:-}" ]; then
		# A merge group is its base plus the queued pull requests: what
		# it adds is everything since that base.
		base=$(resolve "$PAB_MG_BASE_SHA") || die "the merge group's base $PAB_MG_BASE_SHA cannot be fetched"
		echo "base: the merge group's base = $base"
	elif [ -n "${PAB_BEFORE:-}" ] && [ "${PAB_BEFORE}" != 0000000000000000000000000000000000000000 ]; then
		base=$(resolve "$PAB_BEFORE") || die "the push's previous commit $PAB_BEFORE cannot be fetched"
		echo "base: the commit before the push = $base"
	else
		base=$(git rev-parse -q --verify "HEAD~1^{commit}") || die "no base: set base-ref"
		echo "base: the parent of head = $base"
	fi
	rm -rf "$work/base"
	git worktree prune
	git worktree add -q --detach "$work/base" "$base"
	out base-sha "$base"
	out head-sha "$head"
}

cmd_build() {
	local side
	[ -n "${PAB_BUILD:-}" ] || die "the build input is empty: say how to build a checkout (e.g. make)"
	for side in base head; do
		echo "::group::build $side"
		(cd "$work/$side" && bash -c "$PAB_BUILD") || die "the build command failed in the $side checkout"
		echo "::endgroup::"
	done
	# The benchmark must be there in both, before anything is measured.
	cmd_arms "$work/arms.json"
}

# config_file: the config's path, in the base checkout unless config-from
# is head (doc/ci.md "Security": a pull request does not judge itself).
config_file() {
	[ -n "${PAB_CONFIG:-}" ] || return 0
	local from=${PAB_CONFIG_FROM:-base} why=
	case $PAB_CONFIG in /* | ../* | */../* | ..) die "config '$PAB_CONFIG' is not a path inside the repository" ;; esac
	[ "$from" = head ] || why=" (a config that the pull request adds is used once it is merged)"
	[ -f "$work/$from/$PAB_CONFIG" ] || die "config '$PAB_CONFIG' is not in the $from checkout$why"
	echo "$work/$from/$PAB_CONFIG"
}

# arms OUT: the config perfab runs (ci/action-arms.py): the config's rows
# and settings, and bench's arms, each run in its own checkout.
cmd_arms() {
	local cfg
	cfg=$(config_file) || exit 2
	[ -z "$cfg" ] || echo "config: $cfg (from the ${PAB_CONFIG_FROM:-base} checkout)"
	WORK=$work PAB_CFG_FILE=$cfg python3 "$action/ci/action-arms.py" "$1" || exit 2
}

cmd_measure() {
	local art rc=0 t
	local -a args extra
	check_inputs
	mkdir -p "$outdir"
	art=$(artifact_file)
	rm -f "$art"
	if [ -n "${PAB_ARTIFACTS:-}" ]; then
		# Judge what measure jobs uploaded: pool them into one experiment.
		local -a files
		mapfile -t files < <(find "$ws" -path "$work" -prune -o -type f -name '*.json' -print |
			LC_ALL=C sort | while read -r f; do
				# shellcheck disable=SC2254
				case ${f#"$ws"/} in $PAB_ARTIFACTS) echo "$f" ;; esac
			done)
		[ "${#files[@]}" -gt 0 ] || die "no artifact matches '$PAB_ARTIFACTS'"
		if [ -n "${PAB_SHARDS:-}" ] && [ "${#files[@]}" != "$PAB_SHARDS" ]; then
			echo "::error::${#files[@]} of $PAB_SHARDS shards arrived: no verdict on a partial experiment"
			out run-rc 4
			return 0
		fi
		GITHUB_STEP_SUMMARY='' perfab pool "${files[@]}" -o "$outdir/perfab.json" \
			2> >(tee "$outdir/run.log" >&2) || rc=$?
		out run-rc "$rc"
		return 0
	fi
	cmd_arms "$work/arms.json"
	args+=(--config "$work/arms.json")
	args+=(--null-arm --reps "${PAB_REPS:-12}")
	[ -z "${PAB_MAX_REPS:-}" ] || args+=(--max-reps "$PAB_MAX_REPS")
	[ -z "${PAB_BUDGET:-}" ] || args+=(--budget "$PAB_BUDGET")
	[ -z "${PAB_METRICS:-}" ] || args+=(--metrics "$PAB_METRICS")
	[ -z "${PAB_REQUIRE:-}" ] || args+=(--require "$PAB_REQUIRE")
	[ -z "${PAB_COUNTS:-}" ] || args+=(--counts "$PAB_COUNTS")
	if [ -n "${PAB_CALIBRATION:-}" ]; then
		# From the base checkout: the pull request cannot choose its own.
		case $PAB_CALIBRATION in
		/* | *..*) die "calibration '$PAB_CALIBRATION': give a path inside the base checkout" ;;
		esac
		[ -f "$work/base/$PAB_CALIBRATION" ] ||
			die "calibration '$PAB_CALIBRATION' is not a file of the base checkout"
		args+=(--calibration "$work/base/$PAB_CALIBRATION")
	fi
	while IFS= read -r t; do
		[ -z "$t" ] || args+=(--tolerance "$t")
	done < <(split_list "${PAB_TOLERANCE:-}")
	[ -z "${PAB_SHARDS:-}" ] || args+=(--shard "$PAB_SHARD/$PAB_SHARDS")
	# The count cache the action restored (action.yml, count-cache).
	if [ -n "${PAB_COUNT_CACHE_DIR:-}" ]; then
		mkdir -p "$PAB_COUNT_CACHE_DIR"
		args+=(--count-cache "$PAB_COUNT_CACHE_DIR/counts.json")
	fi
	# perfab-args: split on blanks, no globbing, no other expansion.
	set -f
	# shellcheck disable=SC2206
	extra=(${PAB_ARGS:-})
	set +f
	echo "perfab run ${args[*]} ${extra[*]} --out $art"
	# stderr also into the out directory: a run that ends without a
	# verdict is reported with its own words (cmd_report).
	(cd "$ws" && GITHUB_STEP_SUMMARY='' perfab run "${args[@]}" "${extra[@]}" --out "$art") \
		2> >(tee "$outdir/run.log" >&2) || rc=$?
	echo "perfab run exited $rc"
	out run-rc "$rc"
}

# history_context LEDGER.json: with the history input, one line per row of
# this run — the base branch's chained cpu change over its last 30 merges
# (perfab history drift) — for the summary and the comment; nothing
# without a database or a row it has.
history_context() {
	local db=${PAB_HISTORY:-} row line n=0
	[ -n "$db" ] || return 0
	case $db in /*) ;; *) db=$ws/$db ;; esac
	[ -f "$db" ] || { echo "::notice::history '$PAB_HISTORY' is not a file yet: no drift line" >&2; return 0; }
	while IFS= read -r row; do
		# Markdown: the names escaped as the ledger's comment escapes them (no
		# live link, mention or reference from a row's name).
		line=$(perfab history drift --db "$db" --last 30 --row "$row" --metric cpu \
			--format markdown 2>/dev/null |
			head -n 1) || true
		[ -n "$line" ] || continue
		[ "$n" -gt 0 ] || printf '\n**On the base branch** (perfab history drift, last 30 merges):\n\n'
		printf -- '- %s\n' "$line"
		n=$((n + 1))
	done < <(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1])).get("rows", []): print(r["row"])' "$1" 2>/dev/null | LC_ALL=C sort -u)
}

# exit_meaning RC: perfab help exit-codes' words for RC.
exit_meaning() {
	perfab help exit-codes 2>/dev/null | sed -n "s/^  $1  *//p" | head -n 1 | cut -c1-160
}

cmd_report() {
	local art rc=${PAB_RUN_RC:-7} verdict code summary=${GITHUB_STEP_SUMMARY:-/dev/null}
	art=$(artifact_file)
	[ -z "${PAB_ARTIFACTS:-}" ] || art=$outdir/perfab.json
	case $rc in
	0 | 1 | 3) ;;
	*)
		# No verdict: the summary, the comment and the upload still say
		# why, in perfab's own words (the end of its stderr).
		verdict=ERROR
		case $rc in 4) verdict=REFUSED ;; 5) verdict=SANITY-GATE ;; 8) verdict=NO-VERDICT ;; esac
		mkdir -p "$outdir"
		{
			echo "### perfab: $verdict (exit $rc)"
			echo
			echo "No verdict: perfab exited $rc ($(exit_meaning "$rc")). What it said:"
			echo
			echo '```'
			if [ -s "$outdir/run.log" ]; then
				grep -v '^row [0-9]*/[0-9]* ' "$outdir/run.log" | tail -n 20
			else
				echo "(nothing: see the step's log)"
			fi
			echo '```'
		} >"$outdir/ledger.md"
		cat "$outdir/ledger.md" >>"$summary"
		out verdict "$verdict"
		out exit-code "$rc"
		out ledger "$outdir/ledger.md"
		[ -s "$art" ] && out artifact "$art"
		out upload-name "${PAB_NAME:-perfab}${PAB_SHARDS:+-shard-${PAB_SHARD:-}}"
		return 0
	esac
	export GITHUB_STEP_SUMMARY=''
	code=0
	perfab ledger --format markdown "$art" >"$outdir/ledger.md" || true
	perfab ledger --format html "$art" >"$outdir/report.html" || true
	perfab ledger --format json "$art" >"$outdir/ledger.json" || true
	perfab ledger --format junit "$art" >"$outdir/junit.xml" || true
	perfab ledger "$art" >"$outdir/ledger.txt" || true
	perfab gate "$art" || code=$?
	case $code in
	0) verdict=PASS ;;
	1) verdict=FAIL ;;
	3) verdict=INCONCLUSIVE ;;
	*) verdict=ERROR ;;
	esac
	if [ "$code" = 3 ] && [ "${PAB_INCONCLUSIVE:-fail}" = pass ]; then code=0; fi
	if [ -n "${PAB_SHARDS:-}" ] && [ -z "${PAB_ARTIFACTS:-}" ]; then
		# A shard's verdict is on part of the rows: the gate job judges.
		case $code in 0 | 1 | 3) code=0 ;; esac
		echo "#### shard ${PAB_SHARD}/${PAB_SHARDS} (its rows only; the gate job judges the pool)" >>"$summary"
		echo >>"$summary"
	fi
	history_context "$outdir/ledger.json" >>"$outdir/ledger.md"
	cat "$outdir/ledger.md" >>"$summary"
	out verdict "$verdict"
	out exit-code "$code"
	out artifact "$art"
	out report "$outdir/report.html"
	out ledger "$outdir/ledger.md"
	if [ -n "${PAB_ARTIFACTS:-}" ]; then
		out upload-name "${PAB_NAME:-perfab}-pooled"
	else
		out upload-name "${PAB_NAME:-perfab}${PAB_SHARDS:+-shard-${PAB_SHARD:-}}"
	fi
	# The pull request measured, for a workflow_run judge (doc/ci.md
	# "Forks"), which checks it against the measured commit.
	[ -z "${PAB_PR_NUMBER:-}" ] || printf '%s\n' "$PAB_PR_NUMBER" >"$outdir/pr-number"
}

# comment-body LEDGER.md OUT: the comment: marker, the ledger, links; cut
# under PAB_COMMENT_LIMIT bytes (default 65536: GitHub's limit is in
# characters, and a character is at least a byte) — first the folded
# details, then table rows from the end, each cut said so.
cmd_comment_body() {
	local ledger=$1 body=$2 limit=${PAB_COMMENT_LIMIT:-65536} links
	local run_url=${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/${GITHUB_RUN_ID:-}
	links="[The workflow run]($run_url) (its summary page shows this ledger) · [full report](${PAB_REPORT_URL:-$run_url}) (HTML, with the flame graphs of what moved, in the run's artifact, a zip; signed-in users)"
	LC_ALL=C awk -v limit="$limit" -v links="$links" '
	# build(fold, keep): the body; fold drops the <details> block, keep >= 0
	# keeps that many rows of the main table and says how many were cut.
	function build(fold, keep,   s, i, l, rows, indet) {
		s = "<!-- perfab-ledger -->\n"
		rows = 0
		indet = 0
		for (i = 1; i <= n; i++) {
			l = line[i]
			if (fold && l ~ /^<details>/) {
				indet = 1
				if (l ~ /<summary>Intervals/)
					s = s "_The intervals, noise and allowances did not fit in a comment: see the full report._\n"
				else
					s = s "_The list did not fit in a comment: see the full report._\n"
				continue
			}
			if (indet) {
				if (l ~ /^<\/details>/)
					indet = 0
				continue
			}
			if (fold && l ~ /^\| / && l !~ /^\| row \|/) {
				rows++
				if (keep >= 0 && rows > keep)
					continue
			}
			if (fold && keep >= 0 && l !~ /^\|/ && rows > keep && !noted[keep]) {
				s = s "\n_" (rows - keep) " of " rows " rows did not fit in a comment: see the full report._\n"
				noted[keep] = 1
			}
			s = s l "\n"
		}
		total = rows
		return s "\n" links "\n"
	}
	{ line[++n] = $0 }
	END {
		s = build(0, -1)
		if (length(s) >= limit)
			s = build(1, -1)
		for (keep = total; length(s) >= limit && keep > 0; ) {
			keep = int(keep * 0.9)
			s = build(1, keep)
		}
		printf "%s", s
	}' "$ledger" >"$body"
	[ "$(wc -c <"$body")" -lt "$limit" ] || die "the comment is still $(wc -c <"$body") bytes after truncation"
}

# comment_login: the login the token comments as: the user API's answer
# (a personal or app user token), else GitHub Actions' own bot, which is
# who a GITHUB_TOKEN writes as (its /user answers 403).
comment_login() {
	local login
	login=$(gh api user --jq .login 2>/dev/null) || login=
	[ -n "$login" ] || login='github-actions[bot]'
	[[ $login =~ ^[A-Za-z0-9][A-Za-z0-9-]*(\[bot\])?$ ]] || die "odd login '$login' from the API"
	echo "$login"
}

cmd_comment() {
	local body=$outdir/comment.md id login marker='<!-- perfab-ledger -->'
	[ -s "${PAB_LEDGER:-}" ] || { echo "no ledger to comment"; return 0; }
	cmd_comment_body "$PAB_LEDGER" "$body"
	[ -n "${PAB_PR_NUMBER:-}" ] || { echo "not a pull request: no comment"; return 0; }
	case $PAB_PR_NUMBER in *[!0-9]*) die "pr-number takes a whole number, not '$PAB_PR_NUMBER'" ;; esac
	login=$(comment_login)
	# One comment per pull request: this token's own, found by its marker
	# and its author, edited in place. A comment by anyone else that starts
	# with the marker is left alone.
	if ! id=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PAB_PR_NUMBER/comments" \
		--jq ".[] | select((.body | startswith(\"$marker\")) and .user.login == \"$login\") | .id" | tail -n 1); then
		echo "::warning::cannot read the pull request's comments (a fork's token cannot write): no comment"
		return 0
	fi
	if [ -n "$id" ]; then
		echo "updating comment $id of $login"
		gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$body" >/dev/null ||
			echo "::warning::cannot update comment $id"
	else
		echo "commenting as $login"
		gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$PAB_PR_NUMBER/comments" -F "body=@$body" >/dev/null ||
			echo "::warning::cannot comment on the pull request (a fork's token cannot write: see doc/ci.md \"Forks\")"
	fi
}

cmd_gate() {
	local code=${PAB_EXIT_CODE:-7}
	echo "perfab: ${PAB_VERDICT:-no verdict} (exit $code)"
	exit "$code"
}

case ${1:-} in
key) cmd_key ;;
install) cmd_install ;;
prepare) cmd_prepare ;;
build) cmd_build ;;
arms) shift; [ $# = 1 ] || die "usage: ci/action.sh arms OUT.json"; cmd_arms "$1" ;;
measure) cmd_measure ;;
report) cmd_report ;;
comment-body) shift; [ $# = 2 ] || die "usage: ci/action.sh comment-body LEDGER.md OUT"; cmd_comment_body "$@" ;;
comment) cmd_comment ;;
gate) cmd_gate ;;
*) echo "usage: ci/action.sh key|install|prepare|build|arms|measure|report|comment-body|comment|gate" >&2; exit 2 ;;
esac
