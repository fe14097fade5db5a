# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# ci/scratch-tree.sh — sourced by ci/mutate.sh and ci/mutate-hand.sh: the
# scratch copy of the tree a mutant is applied to.
#
# scratch_tree TOP SRC BLD: SRC holds the files git tracks in TOP's working
# tree (so an uncommitted test is used) and BLD is configured from it
# (PERFAB_CONFIGURE_FLAGS are passed on). A tree already built (BLD has
# src/perfab: a kept MUTATE_DIR, KEEP=1) is brought to the working tree's
# content instead: a file whose content differs is copied anew (so make
# sees it newer), the rest left as built. Building is the caller's.

scratch_tree() {
	if [ ! -f "$3/src/perfab" ]; then
		rm -rf "$2" "$3"
		mkdir -p "$2" "$3"
		(cd "$1" && git ls-files -z | xargs -0 cp --parents -t "$2")
		(cd "$2" && autoreconf -fi >/dev/null 2>&1)
		(cd "$3" && "$2/configure" ${PERFAB_CONFIGURE_FLAGS:-} >/dev/null)
	else
		(cd "$1" && git ls-files) | while IFS= read -r f; do
			cmp -s "$1/$f" "$2/$f" || { mkdir -p "$(dirname "$2/$f")"; cp "$1/$f" "$2/$f"; }
		done
	fi
}
