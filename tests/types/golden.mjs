// Compares the public declarations (pkg/estatekit.d.ts) with the committed golden copy
// (tests/types/estatekit.d.ts): a change of the API must be accepted on purpose.
// Usage: node tests/types/golden.mjs [--update]    (make test-golden / make golden)
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const actual = fileURLToPath(new URL("../../pkg/estatekit.d.ts", import.meta.url));
const golden = fileURLToPath(new URL("estatekit.d.ts", import.meta.url));

if (process.argv.includes("--update")) {
  copyFileSync(actual, golden);
  console.log("golden: tests/types/estatekit.d.ts updated from pkg/estatekit.d.ts; review and commit it");
  process.exit(0);
}
if (existsSync(golden) && readFileSync(golden, "utf8") === readFileSync(actual, "utf8")) {
  console.log("golden: 1 passed, 0 failed (pkg/estatekit.d.ts equals tests/types/estatekit.d.ts)");
  process.exit(0);
}
spawnSync("diff", ["-u", "--label", "tests/types/estatekit.d.ts (golden)", "--label", "pkg/estatekit.d.ts (built)", existsSync(golden) ? golden : "/dev/null", actual], {
  stdio: "inherit",
});
console.log("golden: 0 passed, 1 failed: the public declarations changed.");
console.log("If the change is intended, run `make golden` and commit tests/types/estatekit.d.ts.");
process.exit(1);
