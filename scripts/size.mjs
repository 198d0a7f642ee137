// Gzip (level 9) sizes of the built package: pkg/estatekit_bg.wasm + pkg/estatekit.js (plus any
// other .js module of pkg/ that estatekit.js imports, e.g. a separate wasm-bindgen glue file, so
// that splitting the JavaScript cannot hide bytes) against the 60,000-byte budget of issue 6. `node scripts/size.mjs` prints them; with `--check` it
// exits 1 when the sum is over budget (sizes are deterministic, so this can gate CI).
// Also importable: `import { measure } from "./size.mjs"` (used by bench/run.mjs).
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync, constants } from "node:zlib";
import { fileURLToPath } from "node:url";

export const BUDGET = 60_000;
export const FILES = ["estatekit_bg.wasm", "estatekit.js"];

/** The measured files: FILES, then the other .js files of pkg/ (not .d.ts), sorted. */
function filesOf(pkgDir) {
  const extra = readdirSync(pkgDir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".js") && !FILES.includes(name))
    .sort();
  return [...FILES, ...extra];
}

export function measure(pkgDir = new URL("../pkg/", import.meta.url)) {
  const files = filesOf(pkgDir).map((name) => {
    const bytes = readFileSync(new URL(name, pkgDir));
    const gzip = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;
    return { name, raw: bytes.length, gzip };
  });
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  return { files, total, budget: BUDGET, pass: total <= BUDGET };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  let result;
  try {
    result = measure();
  } catch (e) {
    console.error(`size: ${e.message} (run \`make pkg\` first)`);
    process.exit(2);
  }
  const n = (v) => v.toLocaleString("en-US").padStart(9);
  console.log(`${"file".padEnd(20)} ${"raw".padStart(9)} ${"gzip -9".padStart(9)}`);
  for (const f of result.files) console.log(`${f.name.padEnd(20)} ${n(f.raw)} ${n(f.gzip)}`);
  const verdict = result.pass
    ? `ok, ${(result.budget - result.total).toLocaleString("en-US")} bytes under`
    : `OVER by ${(result.total - result.budget).toLocaleString("en-US")} bytes`;
  console.log(`${"sum".padEnd(20)} ${"".padStart(9)} ${n(result.total)}  budget ${result.budget.toLocaleString("en-US")}: ${verdict}`);
  if (check && !result.pass) process.exit(1);
}
