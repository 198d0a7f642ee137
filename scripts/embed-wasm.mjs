// Writes the module of a server entry: `node scripts/embed-wasm.mjs pkg/x_bg.wasm pkg/x_embedded.js`
// makes a JavaScript module whose default export gives the .wasm file's module, embedded as
// gzip (level 9) + base64, decoded and compiled by ./embedded.js (Node's zlib, or the platform's
// DecompressionStream; a runtime's refusal to compile from bytes says what to do). Used by
// scripts/build-pkg.sh for the `node` condition's entries, and for the browser entries' fallback
// copies (imported lazily when their .wasm file gives no module).
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { gzipSync, constants } from "node:zlib";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node scripts/embed-wasm.mjs <module.wasm> <module_embedded.js>");
  process.exit(2);
}
const wasm = readFileSync(input);
const base64 = gzipSync(wasm, { level: constants.Z_BEST_COMPRESSION }).toString("base64");
writeFileSync(
  output,
  `// The bytes of ${basename(input)} (${wasm.length} bytes), gzip + base64, for the package's\n` +
    "// entries (written by scripts/embed-wasm.mjs at build time; see loader.js).\n" +
    'import { embedded } from "./embedded.js";\n\n' +
    `const GZIP_BASE64 =\n  "${base64}";\n\n` +
    "/** @returns {Promise<WebAssembly.Module>} */\n" +
    "export default () => embedded(GZIP_BASE64);\n",
);
