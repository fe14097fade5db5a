#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/data/ledger/regen.sh PERFAB — rewrite the ledger corpus's goldens
# (expected/) and its distribution list (files.mk) from the perfab binary
# PERFAB. Run it only when a change of the ledger's output is intended,
# and commit the new goldens with that change, so the diff shows every
# byte that moved; tests/e2e/ledger_corpus.sh then holds them. Rendering is
# render.sh's, shared with the test.
set -eu
perfab=${1:?usage: tests/data/ledger/regen.sh PERFAB}
[ -x "$perfab" ] || { echo "regen.sh: '$perfab' is not an executable" >&2; exit 2; }
perfab=$(cd "$(dirname "$perfab")" && pwd)/$(basename "$perfab")
here=$(cd "$(dirname "$0")" && pwd)
data=$(dirname "$here")
. "$here/render.sh"
new=$(mktemp -d "$here/expected.new.XXXXXX")
trap 'rm -rf "$new"' EXIT
ledger_corpus_render "$perfab" "$data" "$new"
rm -rf "$here/expected"
mv "$new" "$here/expected"
chmod 755 "$here/expected"
ledger_corpus_filesmk "$data" >"$here/files.mk"
echo "regen.sh: $(ls "$here/expected" | wc -l) goldens in $here/expected; review them with git diff"
