// The packed tarball (npm pack inside pkg/): what it contains, its package.json, and
// @arethetypeswrong/cli's verdict (ESM only: the node10 and node16-from-CJS modes are ignored).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { transformSync } from "esbuild";
import { pkgDir, root, tarball } from "./lib.mjs";

const tgz = tarball();
const tar = (...args) => execFileSync("tar", [...args, tgz], { encoding: "utf8" });
const SHIPPED = ["estatekit.d.ts", "estatekit.js", "estatekit_bg.wasm", "estatekit_wasm.js", "package.json"];

test.it("contains only the shipped files (no tests, sources or internal declarations)", () => {
  const files = tar("-tzf").trim().split("\n").map((f) => f.replace(/^package\//, "")).sort();
  const snippet = (f) => /^snippets\/estatekit-[0-9a-f]+\/js\/check\.js$/.test(f);
  const extra = files.filter((f) => !SHIPPED.includes(f) && !snippet(f) && !/^(README|LICENSE)/i.test(f));
  assert.deepEqual(extra, []);
  assert.ok(files.some(snippet), "the shape checker the wasm imports is packed");
  for (const f of SHIPPED) assert.ok(files.includes(f), `${f} is packed`);
});

test.it("has complete npm metadata", () => {
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" }));
  const cargo = readFileSync(`${root}Cargo.toml`, "utf8");
  assert.equal(manifest.name, "estatekit");
  assert.equal(manifest.version, cargo.match(/^version = "(.*)"/m)[1]);
  for (const key of ["description", "license"]) assert.ok(manifest[key], key);
  assert.match(manifest.repository.url, /^git\+https:\/\/.+\.git$/);
  assert.ok(manifest.keywords.length > 0);
  assert.equal(manifest.type, "module");
  assert.deepEqual(manifest.exports["."], { types: "./estatekit.d.ts", default: "./estatekit.js" });
  assert.equal(manifest.exports["./estatekit_bg.wasm"], "./estatekit_bg.wasm");
  assert.equal(manifest.sideEffects, false);
  assert.deepEqual([...manifest.files].sort(), [...SHIPPED.filter((f) => f !== "package.json"), "snippets/"].sort());
});

test.it("has no top-level await and imports nothing from Node", () => {
  for (const file of ["estatekit.js", "estatekit_wasm.js"]) {
    const js = execFileSync("tar", ["-xzOf", tgz, `package/${file}`], { encoding: "utf8" });
    // esbuild refuses to turn a module with top-level await into CommonJS.
    assert.doesNotThrow(() => transformSync(js, { format: "cjs", logLevel: "silent" }), file);
    assert.doesNotMatch(js, /from ["']node:|import\(["']node:|require\(/, file);
  }
});

test.it("estatekit.js names its declarations for URL importers (@ts-self-types)", () => {
  const js = execFileSync("tar", ["-xzOf", tgz, "package/estatekit.js"], { encoding: "utf8" });
  assert.match(js, /^\/\* @ts-self-types="\.\/estatekit\.d\.ts" \*\/\n/);
});

test.it("passes @arethetypeswrong/cli --pack (profile esm-only)", () => {
  const out = execFileSync(
    `${root}node_modules/.bin/attw`,
    ["--pack", "pkg", "--profile", "esm-only", "--exclude-entrypoints", "./estatekit_bg.wasm", "--no-emoji", "--no-color"],
    { cwd: root, encoding: "utf8" },
  );
  assert.match(out, /node16 \(from ESM\)\s*│\s*OK \(ESM\)/);
});

test.it("the module exports exactly the values its declarations declare, and every Client member", async () => {
  const dts = readFileSync(`${pkgDir}/estatekit.d.ts`, "utf8");
  const declared = [...dts.matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]);
  if (/^export default /m.test(dts)) declared.push("default");
  const mod = await import(`${pkgDir}/estatekit.js`);
  assert.deepEqual(Object.keys(mod).sort(), [...new Set(declared)].sort());

  const members = [...dts.matchAll(/^export (?:class|interface) Client \{\n([\s\S]*?)\n\}/gm)]
    .flatMap((m) => [...m[1].matchAll(/^ {4}(?:readonly )?(\w+)[(:]/gm)].map((n) => n[1]))
    .filter((n) => n !== "constructor");
  assert.ok(members.includes("listWebhooks") && members.includes("documents") && members.includes("baseUrl"));
  for (const name of members) assert.ok(name in mod.Client.prototype, `Client.prototype.${name}`);
  assert.equal(typeof mod.Client.prototype[Symbol.dispose], "function");
  assert.equal(mod.Client.name, "Client", "the class keeps its name through minification");
});
