#!/usr/bin/env node
// `node scripts/short-imports.mjs MODULE.wasm GLUE.js`: gives the module's imports and the exports
// its glue calls short names (`a`, `b`, ... `aa`, ...) in the .wasm, in wasm-bindgen's glue and in
// the declarations (GLUE.d.ts and MODULE.wasm.d.ts, where they are), in place (issue 63, "The next bytes";
// bench/README.md, "The lean build").
//
// wasm-bindgen names each import after its function and a hash (`__wbg_abort_968456626434218d`),
// and has no option to do otherwise (wasm-bindgen issues #3736 and #3909); the name is written
// twice, in the module's import section and as its key in the glue's imports object, and 16
// random hex digits compress poorly. It names the exports that call a Rust closure after the
// closure's Rust path with its crates' hashes (up to 329 characters), and the others after the
// Rust function (`client_listMessages`, `__wbindgen_malloc`), each written in the export section
// and in the glue's `wasm.<name>`. On the main entry, the names cost about 3.2 kB of the .wasm's
// gzip and 2.3 kB of its bundled JavaScript's. Emscripten renames its imports and exports the
// same way in every optimised build (binaryen's MinifyImportsAndExports pass, which renames only
// the imports of the modules it knows, `env` and `wasi_*`, hence this script).
//
// The glue's import module (`./estatekit_wasm_bg.js`, written before each of the imports' names)
// is renamed `wbg` too; `memory` keeps its name (the wrapper's `InitOutput` declares it), and so
// do the exports the glue does not use. Only names change, never the code.
//
// What reads and what writes: the module's imports (each with its module) and exports are read
// with the platform's own API (`WebAssembly.Module.imports` and `.exports`, in the sections'
// order); the new names are given to tools/wasm-names (the workspace's `wasm-names` binary: the
// Bytecode Alliance's wasmparser reads the module, wasm-encoder writes its import and export
// sections again, every other section copied byte for byte), whose path is $WASM_NAMES
// (scripts/wasm-build.sh's `short_imports` builds it; target/debug/wasm-names by default). The
// module it writes is compiled again here and its names checked. The glue and the declarations
// are text: each renamed import must be found exactly once in the glue, as a key (`name:`), and
// each renamed export only as `wasm.<name>`, or nothing is written and the script exits 1. The
// names are given in the sections' order, so a build is deterministic.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [wasmPath, gluePath] = process.argv.slice(2);
if (!wasmPath || !gluePath) {
  console.error("usage: [WASM_NAMES=target/debug/wasm-names] node scripts/short-imports.mjs MODULE.wasm GLUE.js");
  process.exit(2);
}
const fail = (why) => {
  console.error(`short-imports: ${wasmPath}: ${why}`);
  process.exit(1);
};
const tool = process.env.WASM_NAMES || fileURLToPath(new URL("../target/debug/wasm-names", import.meta.url));
if (!existsSync(tool)) fail(`no ${tool}: build it first (cargo build --workspace --bin wasm-names --examples)`);

const wasm = readFileSync(wasmPath);
let glue = readFileSync(gluePath, "utf8");

/** The `i`th short name: a..z, A..Z, then two letters, and so on (never a reserved word). */
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const RESERVED = new Set(["do", "if", "in"]);
function* shortNames() {
  for (let length = 1; ; length++) {
    const count = LETTERS.length ** length;
    for (let i = 0; i < count; i++) {
      let name = "";
      for (let n = i, k = 0; k < length; k++, n = Math.floor(n / LETTERS.length)) name = LETTERS[n % LETTERS.length] + name;
      if (!RESERVED.has(name)) yield name;
    }
  }
}

let compiled;
try {
  compiled = new WebAssembly.Module(wasm);
} catch (error) {
  fail(`not a module this platform compiles: ${error.message}`);
}
/** The glue's import module (`./estatekit_wasm_bg.js`, written before each import), renamed. */
const MODULE = "wbg";
let glueModule;
// The imports, in order, each with its new module and name: the glue's own (`__wbg_*`,
// `__wbindgen_*`) under the glue's module renamed `a`, `b`, ...; any other kept as it is.
const names = shortNames();
const renamed = new Map();
const imports = WebAssembly.Module.imports(compiled).map(({ module, name }) => {
  if (!glue.includes(`\n        ${JSON.stringify(module)}: import0,\n`)) return [module, name, module, name];
  if (glueModule !== undefined && glueModule !== module) fail(`imports from ${glueModule} and ${module}`);
  glueModule = module;
  let short = name;
  if (/^__wb(g|indgen)_\w+$/.test(name)) {
    if (renamed.has(name)) fail(`import ${name} twice`);
    short = names.next().value;
    renamed.set(name, short);
  }
  return [module, name, MODULE, short];
});
// The exports the glue calls (`wasm.<name>`), but `memory`, which the wrapper's `InitOutput`
// declares, renamed `a`, `b`, ...: the client's methods (`client_listMessages`), wasm-bindgen's
// own (`__wbindgen_malloc`) and the closures' entry points, named after their Rust path with its
// crates' hashes (up to 329 characters).
const exportNames = shortNames();
const exported = new Map();
for (const { name } of WebAssembly.Module.exports(compiled)) {
  if (name === "memory" || !/^\w+$/.test(name) || !new RegExp(`\\bwasm\\.${name}\\b`).test(glue)) continue;
  let short = exportNames.next().value;
  while (short === "memory") short = exportNames.next().value;
  exported.set(name, short);
}
if (renamed.size === 0) fail("no import of wasm-bindgen's glue found (already renamed?)");
if (glue.includes(`\n        ${JSON.stringify(MODULE)}: `)) fail(`the glue already has an import module ${MODULE}`);
glue = glue.replace(`\n        ${JSON.stringify(glueModule)}: import0,\n`, `\n        ${JSON.stringify(MODULE)}: import0,\n`);

for (const [field, short] of renamed) {
  const uses = glue.match(new RegExp(`\\b${field}\\b`, "g"))?.length ?? 0;
  const keys = glue.match(new RegExp(`^\\s+${field}: `, "gm"))?.length ?? 0;
  if (uses !== 1 || keys !== 1) fail(`${field} is in ${gluePath} ${uses} times (${keys} as a key), not once as a key`);
  glue = glue.replace(new RegExp(`^(\\s+)${field}: `, "m"), `$1${short}: `);
}
// The renamed exports: used by the glue only as `wasm.<name>`, and listed in its declarations'
// `InitOutput` (wasm-bindgen's list of the raw exports, internal: the wrapper declares its own,
// with `memory` alone, and tests/types/golden.mjs leaves it out).
const declarationsPath = gluePath.replace(/\.js$/, ".d.ts");
let declarations = existsSync(declarationsPath) ? readFileSync(declarationsPath, "utf8") : undefined;
// wasm-bindgen's declarations of the .wasm file itself (MODULE.wasm.d.ts: not in the package's
// files, but kept true where it is written).
const rawPath = `${wasmPath}.d.ts`;
let raw = existsSync(rawPath) ? readFileSync(rawPath, "utf8") : undefined;
for (const [name, short] of exported) {
  const uses = glue.match(new RegExp(`\\.${name}\\b`, "g"))?.length ?? 0;
  const calls = glue.match(new RegExp(`\\bwasm\\.${name}\\b`, "g"))?.length ?? 0;
  if (calls === 0 || calls !== uses) fail(`${name} is used in ${gluePath} otherwise than as wasm.${name}`);
  glue = glue.replace(new RegExp(`\\bwasm\\.${name}\\b`, "g"), `wasm.${short}`);
  if (declarations !== undefined) {
    const lines = declarations.match(new RegExp(`^\\s+readonly ${name}: `, "gm"))?.length ?? 0;
    if (lines !== 1) fail(`${name} is in ${declarationsPath}'s InitOutput ${lines} times, not once`);
    declarations = declarations.replace(new RegExp(`^(\\s+readonly )${name}: `, "m"), `$1${short}: `);
  }
  if (raw !== undefined) {
    const lines = raw.match(new RegExp(`^export const ${name}: `, "gm"))?.length ?? 0;
    if (lines !== 1) fail(`${name} is in ${rawPath} ${lines} times, not once`);
    raw = raw.replace(new RegExp(`^export const ${name}: `, "m"), `export const ${short}: `);
  }
}
// The module rewritten by tools/wasm-names, then read back: every import and export as named.
const written = spawnSync(tool, [wasmPath, "-"], {
  input: JSON.stringify({ imports, exports: Object.fromEntries(exported) }),
  maxBuffer: 64 * 1024 * 1024,
});
if (written.error) fail(`${tool}: ${written.error.message}`);
if (written.status !== 0) fail(`${tool} exited ${written.status}: ${written.stderr.toString().trim()}`);
const out = written.stdout;
let check;
try {
  check = new WebAssembly.Module(out);
} catch (error) {
  fail(`the renamed module does not compile: ${error.message}`);
}
const wanted = JSON.stringify([
  imports.map(([, , module, name]) => [module, name]),
  WebAssembly.Module.exports(compiled).map(({ name, kind }) => [exported.get(name) ?? name, kind]),
]);
const got = JSON.stringify([
  WebAssembly.Module.imports(check).map(({ module, name }) => [module, name]),
  WebAssembly.Module.exports(check).map(({ name, kind }) => [name, kind]),
]);
if (got !== wanted) fail("the renamed module's imports and exports are not the names given");
writeFileSync(wasmPath, out);
writeFileSync(gluePath, glue);
if (declarations !== undefined) writeFileSync(declarationsPath, declarations);
if (raw !== undefined) writeFileSync(rawPath, raw);
