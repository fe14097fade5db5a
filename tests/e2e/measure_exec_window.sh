#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What runs is what was checked, through the exec: a program renamed over
# at the child's gate (PERFAB_TEST_GATE_SWAP) — after perfab checked it,
# before its exec, where a rival would strike — never runs. The child
# execs the descriptor opened on the checked file, so the checked program
# runs; the check before the next exec then stops the run, naming the
# program.
. "${top_srcdir}/tests/lib/test-lib.sh"

require sha256sum
cp /bin/true prog 2>/dev/null || skip "no /bin/true to copy"
./prog 2>/dev/null || skip "a copy of /bin/true does not run as ./prog"
printf '#!/bin/sh\ntouch ran-swapped\n' >prog.swap
chmod +x prog.swap
old=$(sha256sum prog | cut -d' ' -f1)
new=$(sha256sum prog.swap | cut -d' ' -f1)
PERFAB_TEST_GATE_SWAP=$T/prog expect_rc 4 "$PERFAB" run -q --arm base=./prog --arm head=./prog \
	--no-null-arm --reps 2 --max-reps 2 --out swap.json
[ ! -e prog.swap ] || fail "the swap at the gate never happened"
[ ! -e ran-swapped ] || fail "the program swapped in after its check ran"
grep_err "program './prog' is not the file checked when the run started (sha256 $old then, $new before its next exec): the run stops"
exit 0
