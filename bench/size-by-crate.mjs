#!/usr/bin/env node
// Where the module's bytes are, by crate (`make size-top`): reads `twiggy top -f csv` of the
// names-kept build (target/pkg-named, the shipped module plus its function names) and adds up the
// shallow size of every function and data segment by the crate its name starts with (for a trait
// impl `<A as B>::f`, the crate of A). The name section itself is left out: the shipped module has
// none. Sizes are raw bytes of code and data after wasm-opt -Oz, before gzip.
import { execFileSync } from "node:child_process";

const wasm = process.argv[2] ?? "target/pkg-named/estatekit_wasm_bg.wasm";
const csv = execFileSync("twiggy", ["top", "-n", "100000", "-f", "csv", wasm], { encoding: "utf8", maxBuffer: 64 << 20 });
const [, ...rows] = csv.trim().split("\n");

/** The crate (or kind) an item's name belongs to. */
function owner(name) {
  if (name.startsWith("data segment")) return "data (strings, tables)";
  if (/shim|^import |^__wbg|^__wbindgen|^__externref|^export /.test(name)) return "wasm-bindgen glue (shims, imports, exports)";
  const trait = name.match(/^<+&?(?:mut )?([A-Za-z_][A-Za-z0-9_]*)/);
  const plain = name.match(/^([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/);
  const crate = (trait ?? plain)?.[1];
  if (!crate) return "other";
  if (["f64", "f32", "u8", "u16", "u32", "u64", "usize", "i32", "i64", "char", "str", "T"].includes(crate)) return "core (primitive types)";
  return crate;
}

/** For estatekit's own items (its crates estatekit, estatekit_core, estatekit_web): the module,
 * by the path it has in the `estatekit` crate (`web::client`, `api::response`, `model::messages`). */
function ownModule(name) {
  const m = name.match(/^<*&?(?:mut )?estatekit(_core|_web)?::([a-z_]+)(?:::([a-z_]+))?/);
  if (!m) return null;
  // estatekit_web's modules are estatekit's former `web::*`; estatekit_core's keep their paths.
  const [first, second] = m[1] === "_web" ? ["web", m[2]] : [m[2], m[3]];
  return second && !/^[A-Z_]/.test(second) ? `${first}::${second}` : first;
}

const totals = new Map();
const modules = new Map();
let all = 0;
for (const row of rows) {
  // A CSV row: the name (quoted when it holds a comma or a quote), then the shallow size.
  const match = row.match(/^(?:"((?:[^"]|"")*)"|([^,]*)),(\d+),/);
  if (!match) continue;
  const name = match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2];
  if (name.startsWith('"function names"')) continue;
  const bytes = Number(match[3]);
  const key = owner(name);
  totals.set(key, (totals.get(key) ?? 0) + bytes);
  const own = ownModule(name);
  if (own) modules.set(own, (modules.get(own) ?? 0) + bytes);
  all += bytes;
}
console.log(`${"crate".padEnd(46)} ${"bytes".padStart(8)}  share`);
for (const [crate, bytes] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`${crate.padEnd(46)} ${String(bytes).padStart(8)}  ${((100 * bytes) / all).toFixed(1).padStart(5)} %`);
}
console.log(`${"total (code and data, raw)".padEnd(46)} ${String(all).padStart(8)}`);

console.log(`\n${"estatekit, by module".padEnd(46)} ${"bytes".padStart(8)}`);
for (const [module, bytes] of [...modules].sort((a, b) => b[1] - a[1])) {
  console.log(`${module.padEnd(46)} ${String(bytes).padStart(8)}`);
}
