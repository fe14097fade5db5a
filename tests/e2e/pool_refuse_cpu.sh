#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses artifacts from another CPU model (and one recording none).
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
expect_pools a.json b.json
jq '.host.cpu_model = "Imaginary CPU 9000"' b.json >cpu.json
expect_refused "CPU model differs" a.json cpu.json
grep_err "Imaginary CPU 9000"
jq 'del(.host.cpu_model)' b.json >nocpu.json
expect_refused "records no CPU model" a.json nocpu.json
exit 0
