#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses a shared row whose parameters or arguments differ.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.rows[0].params = {"work": "2000"}' b.json >params.json
expect_refused "row 'command': parameters differ between 'a.json' and 'params.json'" a.json params.json
jq '.rows[0].argv = ["--extra"]' b.json >rowargv.json
expect_refused "row 'command': its workload or arguments differ" a.json rowargv.json
exit 0
