# SPDX-License-Identifier: GPL-3.0-or-later
# tests/lib/scratch-repo.sh — a scratch git repository for the bisect
# tests, sourced after tests/lib/test-lib.sh. The caller defines
#   program I   prints prog.c as commit I has it
#   subject I   prints commit I's subject
# make_repo DIR N: commits 1..N of prog.c in a new repository DIR (branch
# main), commit I dated 2026-01-I at noon UTC; a hard error if git fails.
make_repo() {
	mkdir "$1" && (
		cd "$1" && git init -q -b main . && git config user.email test@example.com &&
		git config user.name 'perfab test' &&
		i=1 && while [ "$i" -le "$2" ]; do
			program "$i" >prog.c && git add prog.c &&
			d=$(printf '2026-01-%02dT12:00:00Z' "$i") &&
			GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q -m "$(subject "$i")" ||
			exit 1
			i=$((i + 1))
		done
	) || hard_error "cannot make the scratch repository"
}
