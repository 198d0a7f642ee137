#!/usr/bin/env bash
# Writes the generated files: from the error model (core/src/error.rs), the declarations
# web/src/api_error.d.ts and js/api_error.js's block between its GENERATED markers; from the
# operation table (vocab/src/operations.rs, vocab/src/query.rs), the blocks between the GENERATED
# markers of js/query.js and js/query.d.ts (estatekit/query's factories); from `ClientEvent`
# (core/src/model/events.rs), js/events.js's block (each event's keys in declared order); from the
# operation table and the model, docs/openapi.json, and docs/messages.graphql from the emulator.
# core/tests/generated.rs, core/tests/openapi.rs and emulator/tests/graphql_sdl.rs (in `make
# test`) fail when one is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
gen() { cargo run -q -p estatekit-core --bin error-model -- "$1"; }
gen --ts > web/src/api_error.d.ts
# block FILE MARKER TEXT: FILE's text between `// BEGIN GENERATED (MARKER)` and `// END ...` is TEXT.
block() {
  BLOCK="$3" node -e '
const fs = require("fs");
const [file, marker] = process.argv.slice(1);
const text = fs.readFileSync(file, "utf8");
const begin = `// BEGIN GENERATED (${marker})\n`;
const end = `// END GENERATED (${marker})`;
const i = text.indexOf(begin), j = text.indexOf(end);
if (i < 0 || j < i) { console.error(`${file}: its GENERATED markers are missing`); process.exit(1); }
fs.writeFileSync(file, text.slice(0, i + begin.length) + process.env.BLOCK + text.slice(j));
' "$1" "$2"
}
block js/api_error.js "error model" "$(gen --js)
"
query() { cargo run -q -p estatekit-vocab --bin query-js -- "$1"; }
# Assigned first, so that a generator's failure (an operation of no factory shape) stops here
# rather than emptying the block. (Command substitution drops the final newline: the marker line
# follows the text's own.)
QUERY_JS="$(query --js)"
QUERY_TS="$(query --ts)"
block js/query.js "operation table" "$QUERY_JS
"
block js/query.d.ts "operation table" "$QUERY_TS
"
# From ClientEvent (core/src/model/events.rs): each event's keys in js/events.js.
block js/events.js "client events" "$(cargo run -q -p estatekit-core --bin events-js)
"
# The docs' operation list, from the operation table.
cargo run -q -p estatekit-vocab --bin operations-md > docs/operations.md
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
# From the operation table and the model's JSON Schemas (estatekit-core's `schema` feature): the
# OpenAPI 3.1 description; from the emulator's async-graphql schema, the messages query's SDL.
cargo run -q -p estatekit-core --features schema --bin openapi > docs/openapi.json
cargo run -q -p estatekit-emulator --bin graphql-sdl > docs/messages.graphql
echo "generate: docs/operations.md, docs/openapi.json from vocab/src/operations.rs and core/src/model; docs/messages.graphql from emulator/src/graphql.rs; web/src/api_error.d.ts, js/api_error.js and the documents' retry rule written from core/src/error.rs; js/query.js and js/query.d.ts from vocab/src/operations.rs; js/events.js from core/src/model/events.rs"
