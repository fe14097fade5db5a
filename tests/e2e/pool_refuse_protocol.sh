#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses an artifact of another (or no) arm-order protocol: exit 4,
# not "bad input", since the data is fine, just not the same experiment.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq '.protocol = "forward-backward/0"' b.json >proto.json
expect_refused "protocol differs" a.json proto.json
grep_err "forward-backward/0"
jq 'del(.protocol)' b.json >noproto.json
expect_refused "protocol differs: 'noproto.json' records (none)" a.json noproto.json
# Alone, an unknown protocol is unreadable input, as before.
expect_rc 2 "$PERFAB" ledger proto.json
exit 0
