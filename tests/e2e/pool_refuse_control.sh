#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses a shared row that is a control in one artifact only.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.rows[0].control = true' b.json >ctl.json
expect_refused "row 'command': a control in 'ctl.json' but not in 'a.json'" a.json ctl.json
exit 0
