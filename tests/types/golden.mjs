// Compares the public declarations with their committed golden copies: a change of the API must
// be accepted on purpose. They are two files: pkg/estatekit.d.ts (the wrapper's, js/estatekit.d.ts)
// re-exports pkg/estatekit_wasm.d.ts (wasm-bindgen's, from the Rust code); the golden copies are
// tests/types/estatekit.d.ts and tests/types/estatekit_wasm.d.ts.
// Usage: node tests/types/golden.mjs [--update]    (make test-golden / make golden)
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FILES = ["estatekit.d.ts", "estatekit_wasm.d.ts"];
const built = (name) => fileURLToPath(new URL(`../../pkg/${name}`, import.meta.url));
const golden = (name) => fileURLToPath(new URL(name, import.meta.url));

/**
 * wasm-bindgen's `InitOutput` lists the module's raw exports (with hashed closure names that change
 * on most Rust changes); it is internal (the wrapper declares its own), so it is left out of the
 * comparison, and the golden copy does not hold it.
 */
const RAW_EXPORTS = /^export interface InitOutput \{\n[\s\S]*?\n\}\n/m;
const compared = (path) => readFileSync(path, "utf8").replace(RAW_EXPORTS, "");

/**
 * Public declarations must be precise: no `any` outside comments. wasm-bindgen's `InitOutput` (its
 * list of the module's raw exports) is the exception: the wrapper declares its own `InitOutput`,
 * which hides that one.
 */
function anyIn(name) {
  let code = readFileSync(built(name), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  if (name === "estatekit_wasm.d.ts") code = code.replace(/^export interface InitOutput \{\n[\s\S]*?\n\}$/m, "");
  return /\bany\b/.test(code);
}

if (process.argv.includes("--update")) {
  for (const name of FILES) writeFileSync(golden(name), compared(built(name)));
  console.log(`golden: tests/types/{${FILES.join(",")}} updated from pkg/; review and commit them`);
  process.exit(0);
}

let failed = 0;
for (const name of FILES) {
  const same = existsSync(golden(name)) && compared(golden(name)) === compared(built(name));
  if (!same) {
    failed += 1;
    spawnSync(
      "diff",
      ["-u", "--label", `tests/types/${name} (golden)`, "--label", `pkg/${name} (built)`, existsSync(golden(name)) ? golden(name) : "/dev/null", "-"],
      { stdio: ["pipe", "inherit", "inherit"], input: compared(built(name)) },
    );
  }
  if (anyIn(name)) {
    failed += 1;
    console.log(`golden: pkg/${name} declares \`any\``);
  }
}
console.log(`golden: ${FILES.length * 2 - failed} passed, ${failed} failed (${FILES.map((f) => `pkg/${f}`).join(", ")})`);
if (failed) {
  console.log("If a change of the declarations is intended, run `make golden` and commit tests/types/*.d.ts.");
  process.exit(1);
}
