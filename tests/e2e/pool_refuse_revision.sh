#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses artifacts whose arm revisions differ.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.arms[1].revision = "deadbeef"' b.json >rev.json
expect_refused "arm 'head': revision differs" a.json rev.json
grep_err "deadbeef"
exit 0
