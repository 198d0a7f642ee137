// Completes pkg/ after wasm-pack: exports EVENT_TYPES and DOCUMENT_TYPES (taken from the
// string-literal unions of the declarations, which a Rust test keeps equal to the Rust lists)
// and writes the package metadata.
import { readFileSync, writeFileSync } from "node:fs";

const pkg = new URL("../pkg/", import.meta.url);
const read = (name) => readFileSync(new URL(name, pkg), "utf8");
const write = (name, text) => writeFileSync(new URL(name, pkg), text);

let dts = read("estatekit.d.ts");
let js = read("estatekit.js");

function union(name) {
  const match = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  if (!match) throw new Error(`finish-pkg: no union ${name} in estatekit.d.ts`);
  return [...match[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

// The raw wasm exports are internal: keep only `memory` public, so no `any` leaks out.
dts = dts.replace(
  /export interface InitOutput \{[^}]*\}/,
  "export interface InitOutput {\n    readonly memory: WebAssembly.Memory;\n}",
);

const marker = "// estatekit constants";
if (!js.includes(marker)) {
  const constants = { EVENT_TYPES: union("EventType"), DOCUMENT_TYPES: union("DocumentType") };
  js += `\n${marker}\n`;
  for (const [name, values] of Object.entries(constants)) {
    js += `export const ${name} = Object.freeze(${JSON.stringify(values)});\n`;
  }
  dts +=
    `\n${marker}\n` +
    "/** Every event type a webhook can subscribe to, in the interface's order. */\n" +
    "export declare const EVENT_TYPES: readonly EventType[];\n" +
    "/** Every document type, in the interface's order. */\n" +
    "export declare const DOCUMENT_TYPES: readonly DocumentType[];\n";
  write("estatekit.js", js);
}
write("estatekit.d.ts", dts);
if (/\bany\b/.test(dts.replace(/\/\*[\s\S]*?\*\//g, ""))) {
  throw new Error("finish-pkg: `any` in pkg/estatekit.d.ts");
}

const cargo = readFileSync(new URL("../Cargo.toml", import.meta.url), "utf8");
const field = (key) => cargo.match(new RegExp(`^${key} = "([^"]*)"`, "m"))?.[1];
const manifest = {
  name: "estatekit",
  version: field("version"),
  description: field("description"),
  license: field("license"),
  repository: { type: "git", url: `git+${field("repository")}.git` },
  keywords: ["property-management", "webassembly", "wasm", "graphql", "webhooks", "documents"],
  type: "module",
  main: "./estatekit.js",
  module: "./estatekit.js",
  types: "./estatekit.d.ts",
  exports: {
    ".": { types: "./estatekit.d.ts", default: "./estatekit.js" },
    "./estatekit_bg.wasm": "./estatekit_bg.wasm",
    "./package.json": "./package.json",
  },
  files: ["estatekit.js", "estatekit.d.ts", "estatekit_bg.wasm", "estatekit_bg.wasm.d.ts", "README.md"],
  sideEffects: false,
};
write("package.json", JSON.stringify(manifest, null, 2) + "\n");
