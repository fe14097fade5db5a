#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The licence: LICENSE is the GNU GPL version 3 (perfab is
# GPL-3.0-or-later, compatible with GSL's licence), every source file
# carries the SPDX line (ci/spdx.sh --check, itself checked on a copy
# with one line removed), and `perfab --version` prints the licence notice
# as GNU tools do.
. "${top_srcdir}/tests/lib/test-lib.sh"
lic=${top_srcdir}/LICENSE
[ -f "$lic" ] || fail "no LICENSE"
head -n 3 "$lic" | grep -q 'GNU GENERAL PUBLIC LICENSE' || fail "LICENSE is not the GNU GPL"
head -n 3 "$lic" | grep -q 'Version 3, 29 June 2007' || fail "LICENSE is not version 3"
[ "$(wc -l <"$lic")" -gt 600 ] || fail "LICENSE is not the full text"
if [ -r /usr/share/common-licenses/GPL-3 ]; then
	cmp -s "$lic" /usr/share/common-licenses/GPL-3 || fail "LICENSE differs from the GPL-3 text"
fi

expect_rc 0 sh "${top_srcdir}/ci/spdx.sh" --check "$top_srcdir"

# The checker finds a file without the line.
mkdir tree
printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-3.0-or-later\necho ok\n' >tree/good.sh
printf '/* SPDX-License-Identifier: GPL-3.0-or-later */\nint x;\n' >tree/good.c
printf '#!/bin/sh\necho no licence\n' >tree/bad.sh
printf 'int y;\n' >tree/bad.h
printf '{"data": 1}\n' >tree/data.json
expect_rc 1 sh "${top_srcdir}/ci/spdx.sh" --check tree
grep_out '^bad.sh: '
grep_out '^bad.h: '
if grep -q 'good\|data' "$T/out"; then fail "the checker flagged a good or a data file: $(cat "$T/out")"; fi
# ... and the sweep adds it, after the #! line, in the file's syntax.
expect_rc 0 sh "${top_srcdir}/ci/spdx.sh" tree
[ "$(sed -n 1p tree/bad.sh)" = '#!/bin/sh' ] || fail "the sweep moved the #! line"
[ "$(sed -n 2p tree/bad.sh)" = '# SPDX-License-Identifier: GPL-3.0-or-later' ] || fail "sh: $(sed -n 2p tree/bad.sh)"
[ "$(sed -n 1p tree/bad.h)" = '/* SPDX-License-Identifier: GPL-3.0-or-later */' ] || fail "h: $(sed -n 1p tree/bad.h)"
expect_rc 0 sh "${top_srcdir}/ci/spdx.sh" --check tree

expect_rc 0 "$PERFAB" --version
grep_out '^License GPL-3.0-or-later: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>\.$'
grep_out '^There is NO WARRANTY, to the extent permitted by law\.$'
exit 0
