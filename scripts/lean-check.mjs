// The shipped modules are built lean (scripts/build-pkg.sh, CONTRIBUTING.md "The lean build"): no
// panic message machinery. `node scripts/lean-check.mjs [pkg/]` (make lean-check, part of make
// test) reads every module the package ships — each .wasm file and the copies embedded in the
// *_embedded.js and *_fallback.js modules (gzip + base64, scripts/embed-wasm.mjs) — and exits 1
// naming each module that still carries a message of core's panic machinery: a module built with
// the ordinary toolchain (PANIC_MESSAGES=1) or by a build that lost its lean flags.
import { readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Messages that only core's panic machinery writes (formatted panics, `unwrap`, bounds and
 * arithmetic checks, allocation failure). A lean module has none: its panics are `unreachable`.
 */
export const PANIC_MESSAGES = [
  "panicked at",
  "index out of bounds",
  "capacity overflow",
  "called `Option::unwrap()` on a `None` value",
  "called `Result::unwrap()` on an `Err` value",
  "attempt to add with overflow",
  "range end index",
  "memory allocation of",
];

/** The modules of a package folder: [name, bytes] for each .wasm file and each embedded copy. */
export function shippedModules(dir) {
  const modules = [];
  for (const name of readdirSync(dir).sort()) {
    const path = new URL(name, dir);
    if (name.endsWith(".wasm")) modules.push([name, readFileSync(path)]);
    else if (/_(embedded|fallback)\.js$/.test(name)) {
      const base64 = /GZIP_BASE64 =\s*"([^"]*)"/.exec(readFileSync(path, "utf8"))?.[1];
      if (base64 === undefined) throw new Error(`${name}: no embedded module found (is it scripts/embed-wasm.mjs's output?)`);
      modules.push([`${name} (embedded copy)`, gunzipSync(Buffer.from(base64, "base64"))]);
    }
  }
  return modules;
}

/** The panic messages each module carries: [name, messages found] for every module with any. */
export function panicMachinery(dir) {
  return shippedModules(dir)
    .map(([name, bytes]) => [name, PANIC_MESSAGES.filter((m) => bytes.includes(m))])
    .filter(([, found]) => found.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = pathToFileURL(`${process.argv[2] ?? "pkg"}/`.replace(/\/+$/, "/"));
  const modules = shippedModules(dir);
  if (modules.length === 0) {
    console.error(`lean-check: no module in ${dir.pathname} (run \`make pkg\` first)`);
    process.exit(2);
  }
  const carrying = panicMachinery(dir);
  for (const [name, found] of carrying) console.error(`lean-check: ${name} carries panic messages: ${found.map((m) => JSON.stringify(m)).join(", ")}`);
  if (carrying.length) {
    console.error("lean-check: a shipped module was not built lean (scripts/build-pkg.sh without PANIC_MESSAGES=1; CONTRIBUTING.md, \"The lean build\")");
    process.exit(1);
  }
  console.log(`lean-check: ${modules.length} shipped modules, none carries panic messages`);
}
