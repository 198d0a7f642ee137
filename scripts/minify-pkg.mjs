// Shrinks the shipped JavaScript of pkg/ after scripts/finish-pkg.mjs
// (usage: node scripts/minify-pkg.mjs <names.json> [pkg-dir]).
//
// 1. Short wasm names in the glue. build-pkg.sh runs wasm-opt with
//    --minify-imports-and-exports-and-modules, which renames every import of the module (all of
//    them into one module) and every export, and prints the old -> new mapping (<names.json>).
//    This applies the same mapping to estatekit_wasm.js: the keys of its import object, the
//    `wasm.<export>` uses, and `init()`'s result, which keeps `memory` under its public name.
// 2. Minifies estatekit.js, estatekit_wasm.js and the snippets with esbuild. Local names are
//    not kept (that would cost ~900 bytes gzipped); the public names that matter are set
//    explicitly (`Client.name` by the wrapper, `error.name` = "ApiError" by the module).
// Then it instantiates the module in Node with the rewritten glue: a missing or misnamed import
// fails the build here, not in a user's browser.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { transformSync } from "esbuild";

const [namesFile, pkgArg] = process.argv.slice(2);
if (!namesFile) throw new Error("usage: node scripts/minify-pkg.mjs <names.json> [pkg-dir]");
const pkg = pkgArg ? pathToFileURL(pkgArg.replace(/\/?$/, "/")) : new URL("../pkg/", import.meta.url);
const GLUE = "estatekit_wasm.js";
const BG_MODULE = "./estatekit_bg.js";

const fail = (message) => {
  throw new Error(`minify-pkg: ${message}`);
};
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Replaces exactly `count` matches of `pattern` (or at least one when count is undefined). */
function replaceCounted(text, pattern, replacement, what, count) {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  const seen = [...text.matchAll(global)].length;
  if (count === undefined ? seen === 0 : seen !== count) fail(`${what}: ${seen} matches`);
  return text.replace(pattern, replacement);
}

const names = JSON.parse(readFileSync(namesFile, "utf8"));
const wasmBytes = readFileSync(new URL("estatekit_bg.wasm", pkg));
const wasmImports = WebAssembly.Module.imports(new WebAssembly.Module(wasmBytes));
const modules = [...new Set(wasmImports.map((i) => i.module))];
if (modules.length !== 1) fail(`expected the imports in one minified module, got ${modules.join(", ")}`);
const [newModule] = modules;

let glue = readFileSync(new URL(GLUE, pkg), "utf8");
if (!glue.includes(`"${BG_MODULE}": import0`)) fail(`${GLUE} is not wasm-bindgen's glue (already minified?)`);

// Imports of the bindgen module: rename the keys of `import0`. Imports of other modules (the
// snippets, imported as namespaces `importN`) become entries of `import0` too.
const namespaces = new Map(
  [...glue.matchAll(/^\s+"([^"]+)": (import\d+),$/gm)].map((m) => [m[1], m[2]]),
);
const extra = [];
for (const [module, name, short] of names.imports) {
  if (module === BG_MODULE) {
    glue = replaceCounted(glue, new RegExp(`^(\\s+)${escape(name)}: function`, "m"), `$1${short}: function`, name, 1);
  } else {
    const ns = namespaces.get(module) ?? fail(`no namespace import for ${module}`);
    extra.push(`        ${short}: ${ns}.${name},`);
  }
}
glue = replaceCounted(glue, /(const import0 = \{\n\s+__proto__: null,\n)/, `$1${extra.join("\n")}\n`, "import0", 1);
glue = replaceCounted(
  glue,
  /return \{\n\s+__proto__: null,\n(\s+"[^"]+": import\d+,\n)+\s+\};/,
  `return { __proto__: null, ${JSON.stringify(newModule)}: import0 };`,
  "the import object",
  1,
);

// Exports: every `wasm.<name>` use, and init()'s result (`InitOutput` declares only `memory`).
const exportsMap = new Map(names.exports);
glue = replaceCounted(glue, /\bwasm\.([A-Za-z_$][\w$]*)/g, (_, name) => {
  const short = exportsMap.get(name) ?? fail(`the glue uses wasm.${name}, which the module does not export`);
  return `wasm.${short}`;
}, "wasm.<export>");
glue = replaceCounted(glue, /return wasm;/g, `return { memory: wasm.${exportsMap.get("memory")} };`, "return wasm");
const leftover = glue.match(/\b__wbg_\w+_[0-9a-f]{16}\b|\b__wbindgen_generic_\d+\b/);
if (leftover) fail(`${leftover[0]} was not renamed`);

// Minify every shipped JavaScript file.
function minify(file) {
  const url = new URL(file, pkg);
  const source = file === GLUE ? glue : readFileSync(url, "utf8");
  // esbuild drops every comment; the wrapper's `@ts-self-types` pragma (how Deno and other
  // URL importers find the declarations) is put back in front.
  const pragma = source.match(/^\/\* @ts-self-types="[^"]*" \*\/\n/)?.[0] ?? "";
  const { code } = transformSync(source, {
    format: "esm",
    minify: true,
    legalComments: "none",
    sourcefile: file,
  });
  writeFileSync(url, pragma + code);
}
const snippets = readdirSync(new URL("snippets/", pkg), { recursive: true })
  .filter((f) => f.endsWith(".js"))
  .map((f) => `snippets/${f}`);
for (const file of [GLUE, "estatekit.js", ...snippets]) minify(file);

// Link check: the rewritten glue must satisfy every import of the module.
const { initSync } = await import(new URL(`${GLUE}?check=${Date.now()}`, pkg));
const out = initSync({ module: wasmBytes });
if (!(out.memory instanceof WebAssembly.Memory)) fail("init() no longer returns { memory }");
