// Gzip (level 9) sizes of the built package: pkg/estatekit_bg.wasm + pkg/estatekit.js against
// the 60,000-byte budget of issue 6. `node scripts/size.mjs` prints them; with `--check` it
// exits 1 when the sum is over budget (sizes are deterministic, so this can gate CI).
// Also importable: `import { measure } from "./size.mjs"` (used by bench/run.mjs).
import { readFileSync } from "node:fs";
import { gzipSync, constants } from "node:zlib";
import { fileURLToPath } from "node:url";

export const BUDGET = 60_000;
export const FILES = ["estatekit_bg.wasm", "estatekit.js"];

export function measure(pkgDir = new URL("../pkg/", import.meta.url)) {
  const files = FILES.map((name) => {
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
