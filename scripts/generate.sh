#!/usr/bin/env bash
# Writes the files generated from the error model (core/src/error.rs): the declarations
# web/src/api_error.d.ts and js/api_error.js's block between its GENERATED markers.
# core/tests/generated.rs (cargo test, in `make test`) fails when either is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
gen() { cargo run -q -p estatekit-core --bin error-model -- "$1"; }
gen --ts > web/src/api_error.d.ts
block=$(gen --js)
BLOCK="$block" node -e '
const fs = require("fs");
const file = "js/api_error.js";
const text = fs.readFileSync(file, "utf8");
const begin = "// BEGIN GENERATED (error model)\n";
const end = "// END GENERATED (error model)";
const i = text.indexOf(begin), j = text.indexOf(end);
if (i < 0 || j < i) { console.error(`${file}: its GENERATED markers are missing`); process.exit(1); }
fs.writeFileSync(file, text.slice(0, i + begin.length) + process.env.BLOCK + "\n" + text.slice(j));
'
# The retry rule in words behind every <!-- rule:retry --> marker of the Markdown files.
RULE="$(gen --rule)" node -e '
const fs = require("fs");
const { execFileSync } = require("child_process");
const files = execFileSync("git", ["ls-files", "*.md"], { encoding: "utf8" }).split("\n").filter(Boolean);
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const next = text.replace(/<!-- rule:retry -->[\s\S]*?<!-- \/rule -->/g, `<!-- rule:retry -->${process.env.RULE}<!-- /rule -->`);
  if (next !== text) fs.writeFileSync(file, next);
}
'
echo "generate: web/src/api_error.d.ts, js/api_error.js and the documents' retry rule written from core/src/error.rs"
