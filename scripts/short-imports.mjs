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
// Each renamed import must be found exactly once in the glue, as a key (`name:`), and each renamed
// export only as `wasm.<name>`, or nothing is written and the script exits 1. The names are
// given in the sections' order, so a build is deterministic.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const [wasmPath, gluePath] = process.argv.slice(2);
if (!wasmPath || !gluePath) {
  console.error("usage: node scripts/short-imports.mjs MODULE.wasm GLUE.js");
  process.exit(2);
}
const fail = (why) => {
  console.error(`short-imports: ${wasmPath}: ${why}`);
  process.exit(1);
};

const wasm = readFileSync(wasmPath);
let glue = readFileSync(gluePath, "utf8");

/** An unsigned LEB128 at `at`: [value, the offset after it]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) fail("truncated module");
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}
/** `n` as an unsigned LEB128. */
function uleb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
}
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

if (wasm.readUInt32LE(0) !== 0x6d736100) fail("not a WebAssembly module");
const parts = [wasm.subarray(0, 8)];
const names = shortNames();
const renamed = new Map();
/** The glue's import module (`./estatekit_wasm_bg.js`, written before each import), renamed. */
const MODULE = "wbg";
let glueModule;
const exported = new Map();
let at = 8;
while (at < wasm.length) {
  const id = wasm[at];
  const [size, start] = leb(wasm, at + 1);
  const end = start + size;
  if (id === 7) {
    // The export section: the exports the glue calls (`wasm.<name>`), but `memory`, which the
    // wrapper's `InitOutput` declares, renamed `a`, `b`, ...: the client's methods
    // (`client_listMessages`), wasm-bindgen's own (`__wbindgen_malloc`) and the closures' entry
    // points, named after their Rust path with its crates' hashes (up to 329 characters).
    const body = [];
    const names = shortNames();
    let [count, p] = leb(wasm, start);
    body.push(uleb(count));
    while (count-- > 0) {
      const [length, nameAt] = leb(wasm, p);
      const name = wasm.subarray(nameAt, nameAt + length).toString("utf8");
      let q = nameAt + length + 1; // the kind
      [, q] = leb(wasm, q); // the index
      const rest = wasm.subarray(nameAt + length, q);
      if (name !== "memory" && /^\w+$/.test(name) && new RegExp(`\\bwasm\\.${name}\\b`).test(glue)) {
        let short = names.next().value;
        while (short === "memory") short = names.next().value;
        exported.set(name, short);
        body.push(uleb(short.length), Buffer.from(short), rest);
      } else {
        body.push(wasm.subarray(p, q));
      }
      p = q;
    }
    if (p !== end) fail("the export section's size does not match its entries");
    const section = Buffer.concat(body);
    parts.push(Buffer.from([id]), uleb(section.length), section);
    at = end;
    continue;
  }
  if (id !== 2) {
    parts.push(wasm.subarray(at, end));
    at = end;
    continue;
  }
  // The import section: each entry's module name, field name and description.
  const body = [];
  let [count, p] = leb(wasm, start);
  body.push(uleb(count));
  while (count-- > 0) {
    const moduleStart = p;
    const [moduleLength, moduleAt] = leb(wasm, p);
    const module = wasm.subarray(moduleAt, moduleAt + moduleLength).toString("utf8");
    const [fieldLength, fieldAt] = leb(wasm, moduleAt + moduleLength);
    const field = wasm.subarray(fieldAt, fieldAt + fieldLength).toString("utf8");
    let q = fieldAt + fieldLength;
    const kind = wasm[q++];
    if (kind === 0) [, q] = leb(wasm, q); // a function: its type index
    else if (kind === 1 || kind === 2) {
      if (kind === 1) q++; // a table: its element type
      const flags = wasm[q++];
      [, q] = leb(wasm, q);
      if (flags & 1) [, q] = leb(wasm, q);
    } else if (kind === 3) q += 2; // a global: its type and mutability
    else fail(`import ${module}.${field} of an unknown kind ${kind}`);
    const description = wasm.subarray(fieldAt + fieldLength, q);
    // The glue's own imports (`__wbg_*`, `__wbindgen_*`) under the glue's module.
    if (glue.includes(`\n        ${JSON.stringify(module)}: import0,\n`)) {
      if (glueModule !== undefined && glueModule !== module) fail(`imports from ${glueModule} and ${module}`);
      glueModule = module;
      let short = field;
      if (/^__wb(g|indgen)_\w+$/.test(field)) {
        if (renamed.has(field)) fail(`import ${field} twice`);
        short = names.next().value;
        renamed.set(field, short);
      }
      body.push(uleb(MODULE.length), Buffer.from(MODULE), uleb(Buffer.byteLength(short)), Buffer.from(short), description);
    } else {
      body.push(wasm.subarray(moduleStart, q));
    }
    p = q;
  }
  if (p !== end) fail("the import section's size does not match its entries");
  const section = Buffer.concat(body);
  parts.push(Buffer.from([id]), uleb(section.length), section);
  at = end;
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
writeFileSync(wasmPath, Buffer.concat(parts));
writeFileSync(gluePath, glue);
if (declarations !== undefined) writeFileSync(declarationsPath, declarations);
if (raw !== undefined) writeFileSync(rawPath, raw);
