#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The ledger's output does not move by accident: every case of
# tests/data/ledger/cases (committed artifacts of real runs — verdicts of
# every kind, every rule set, pools, failed rows, refusals, hostile names)
# rendered in every format it names must equal, byte for byte, its goldens
# in tests/data/ledger/expected: standard output, exit status and standard
# error. Rendering is tests/data/ledger/render.sh's, shared with regen.sh;
# its one normalisation (JUnit's report time and host name) is described
# there. When a change of the output is intended, regen.sh rewrites the
# goldens and the diff is reviewed with the change. Also checked: every
# artifact has a case, no golden is left without one, and files.mk (what
# the tarball carries) is current.
. "${top_srcdir}/tests/lib/test-lib.sh"
data=${top_srcdir}/tests/data
corpus=$data/ledger
. "$corpus/render.sh"
regen="tests/data/ledger/regen.sh"

# Every artifact of the corpus is some case's input.
ledger_corpus_each "$data" >cases.list
for a in "$corpus"/*.json; do echo "ledger/${a##*/}"; done >artifacts.list
awk 'NR == FNR { for (i = 3; i <= NF; i++) used[$i] = 1; next }
	!($0 in used) { print; bad = 1 } END { exit bad }' cases.list artifacts.list >unused.list ||
	fail "$(sed -n 1p unused.list) is in the corpus but no line of tests/data/ledger/cases renders it"

mkdir actual
ledger_corpus_render "$PERFAB" "$data" "$T/actual" || fail "tests/data/ledger/cases names an unknown format"
(cd "$corpus/expected" && ls) >want.list
(cd actual && ls) >got.list
diff -u want.list got.list >list.diff ||
	{ cat list.diff >&2; fail "goldens (-) and cases (+) differ in which files exist: run $regen PERFAB"; }

# Compare (one diff over the two trees), and say which case, format and
# command a difference is in.
bad=0
diff -r -q "$corpus/expected" actual >/dev/null 2>&1 ||
	while read -r name f args; do
		for s in out err; do
			g=$corpus/expected/$name.$f.$s
			cmp -s "$g" "actual/$name.$f.$s" && continue
			what=$([ "$s" = out ] && echo "standard output" || echo "exit status or standard error")
			echo "--- $name, format $f: $what differs from tests/data/ledger/expected/$name.$f.$s" >&2
			echo "    (perfab ledger $args --format $f, in tests/data; - golden, + now)" >&2
			diff -u "$g" "actual/$name.$f.$s" | head -n 60 >&2
			bad=$((bad + 1))
		done
	done <cases.list
[ "$bad" = 0 ] || fail "$bad golden files of the ledger corpus differ; if the change is intended, run $regen PERFAB and commit the goldens"

ledger_corpus_filesmk "$data" >files.mk
cmp -s files.mk "$corpus/files.mk" ||
	{ diff -u "$corpus/files.mk" files.mk >&2; fail "tests/data/ledger/files.mk is stale: run $regen PERFAB"; }
exit 0
