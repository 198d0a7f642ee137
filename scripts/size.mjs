// Size of the built package as an app would serve it, against the 80,000-byte budget of issue 12: gzip -9 of
// pkg/estatekit_wasm_bg.wasm plus, for every JavaScript file of pkg/ (the wrapper estatekit.js,
// wasm-bindgen's glue estatekit_wasm.js and any other .js file there), gzip -9 of
// that file minified in memory by esbuild (pinned in package.json; `minify: true`, format esm),
// as an app's bundler would ship it. pkg/ itself ships readable, unminified modules; declarations
// (.d.ts) are not counted. `node scripts/size.mjs` (make size) prints raw, minified and gzip per
// file and the sum; with `--check` (make size-check) it exits 1 when the sum is over CEILING
// (sizes are deterministic for a given toolchain, so this can gate CI).
//
// The budget is not met by ordinary means (README, Performance): the stack as specified comes to
// about 146 KB (150 KB with request events). Until the budget is revisited, CI guards against
// growth: the ceiling is the size measured with request events plus about 3%, and every run
// prints how far the budget is.
// Also importable: `import { measure } from "./size.mjs"` (used by bench/run.mjs).
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync, constants } from "node:zlib";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

export const BUDGET = 80_000;
/** Fails `--check`: the re-based package with request events (150,216 bytes) plus about 3%. */
export const CEILING = 155_000;
export const WASM = "estatekit_wasm_bg.wasm";

/** The measured files: the .wasm, then every .js file of pkg/ (recursively), sorted. */
function filesOf(pkgDir) {
  const scripts = readdirSync(pkgDir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".js"))
    .sort();
  return [WASM, ...scripts];
}

const gzip = (bytes) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;

export function measure(pkgDir = new URL("../pkg/", import.meta.url)) {
  const files = filesOf(pkgDir).map((name) => {
    const bytes = readFileSync(new URL(name, pkgDir));
    if (name === WASM) return { name, raw: bytes.length, minified: bytes.length, gzip: gzip(bytes) };
    const { code } = transformSync(bytes.toString("utf8"), { format: "esm", minify: true, sourcefile: name });
    const minified = Buffer.from(code);
    return { name, raw: bytes.length, minified: minified.length, gzip: gzip(minified) };
  });
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  return { files, total, budget: BUDGET, ceiling: CEILING, pass: total <= BUDGET, guarded: total <= CEILING };
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
  const width = Math.max(...result.files.map((f) => f.name.length), 3);
  console.log(`${"file".padEnd(width)} ${"raw".padStart(9)} ${"minified".padStart(9)} ${"gzip -9".padStart(9)}`);
  for (const f of result.files) {
    const minified = f.name === WASM ? "-".padStart(9) : n(f.minified);
    console.log(`${f.name.padEnd(width)} ${n(f.raw)} ${minified} ${n(f.gzip)}`);
  }
  const verdict = result.pass
    ? `ok, ${(result.budget - result.total).toLocaleString("en-US")} bytes under`
    : `OVER by ${(result.total - result.budget).toLocaleString("en-US")} bytes`;
  console.log(
    `${"sum".padEnd(width)} ${"".padStart(9)} ${"".padStart(9)} ${n(result.total)}  budget ${result.budget.toLocaleString("en-US")}: ${verdict}`,
  );
  const guard = result.guarded
    ? `ok, ${(result.ceiling - result.total).toLocaleString("en-US")} bytes under`
    : `OVER by ${(result.total - result.ceiling).toLocaleString("en-US")} bytes: the package grew`;
  console.log(`${"".padEnd(width)} ${"".padStart(9)} ${"".padStart(9)} ${"".padStart(9)}  ceiling ${result.ceiling.toLocaleString("en-US")} (CI): ${guard}`);
  if (check && !result.guarded) process.exit(1);
}
