// The packed tarball (npm pack inside pkg/): what it contains, its package.json, and
// @arethetypeswrong/cli's verdict (ESM only: the node10 and node16-from-CJS modes are ignored).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { transformSync } from "esbuild";
import ts from "typescript";
import { pkgDir, root, tarball } from "./lib.mjs";

const tgz = tarball();
const tar = (...args) => execFileSync("tar", [...args, tgz], { encoding: "utf8" });
/** The wrapper's JavaScript, shipped exactly as it is in js/. */
const WRAPPER = [
  ...["paging.js", "client.js", "loader.js", "embedded.js", "estatekit.js", "estatekit.node.js", "estatekit.workerd.js"],
  ...["testing_service.js", "testing.js", "testing.node.js", "testing.workerd.js"],
  ...["webhooks_receiver.js", "webhooks.js", "webhooks.node.js", "webhooks.workerd.js"],
  ...["auth_tokens.js", "auth.js", "auth.node.js", "auth.workerd.js"],
  "store.js",
  "checked_client.js",
  // The raw-command sender of estatekit/store and estatekit/live; node:http's listener of
  // estatekit/webhooks and estatekit/live (internal files).
  "redis_send.js",
  "node_listener.js",
  // estatekit/live (servers) and estatekit/subscribe (pages), plain JavaScript (live.test.mjs).
  ...["live.js", "live_log.js", "live_stream.js", "subscribe.js", "subscribe_query.js"],
  "query.js",
  "token.js",
  ...["otel.js", "otel_client.js", "otel_auth.js", "otel_webhooks.js", "otel_telemetry.js", "otel_live.js"],
];
/** The documentation the README links (scripts/pack-docs.mjs): docs/*.md and CHANGELOG.md. */
const DOCS = [...readdirSync(`${root}docs`).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`), "CHANGELOG.md"];
const SHIPPED = [
  ...WRAPPER,
  ...DOCS,
  "estatekit.d.ts",
  "estatekit_wasm.d.ts",
  "estatekit_wasm.js",
  "estatekit_wasm_bg.wasm",
  // The server entry's module (`node` condition; built with the dom-emulation feature): its glue,
  // its .wasm (named by the glue; imported compiled by the `workerd` entries) and its bytes
  // embedded.
  "estatekit_wasm_node.js",
  "estatekit_wasm_node.d.ts",
  "estatekit_wasm_node_bg.wasm",
  "estatekit_wasm_embedded.js",
  // The browser entry's module, embedded too: imported lazily when its .wasm file gives none.
  "estatekit_wasm_fallback.js",
  "package.json",
  // The emulator's documentation (`npx estatekit-emulator`), linked from the README.
  "EMULATOR.md",
  // The service's interface: OpenAPI 3.1 and the messages query's GraphQL schema (docs/).
  "openapi.json",
  "messages.graphql",
  // The ApiError and WebhookEventError classes: wasm-bindgen's copies of js/api_error.js and
  // js/webhook_event_error.js beside the glues (their bindings import them), and the wrapper's
  // re-exports of those same files; js/request.js and js/events.js, the functions that send a
  // request and tell an event (one crossing each); js/base_url.js, the base URL rule (the
  // wrapper's base_url.js re-exports it).
  "snippets/js/api_error.js",
  "snippets/js/base_url.js",
  "snippets/js/events.js",
  "snippets/js/request.js",
  "snippets/js/webhook_event_error.js",
  "api_error.js",
  "base_url.js",
  "webhook_event_error.js",
  // EVENT_TYPES and DOCUMENT_TYPES, generated from their one definition (vocab/src/lib.rs).
  "vocab.js",
  // estatekit/testing: the emulator for an app's tests (testing.test.mjs, testing-pages.test.mjs),
  // and the bin serving it on a local port (emulator-bin.test.mjs).
  "testing.d.ts",
  "emulator-cli.mjs",
  "estatekit_testing_wasm.js",
  "estatekit_testing_wasm.d.ts",
  "estatekit_testing_wasm_bg.wasm",
  "estatekit_testing_wasm_embedded.js",
  // estatekit/webhooks: the receiver, with its own module (webhooks.test.mjs).
  "webhooks.d.ts",
  "estatekit_webhooks_wasm.js",
  "estatekit_webhooks_wasm.d.ts",
  "estatekit_webhooks_wasm_bg.wasm",
  "estatekit_webhooks_wasm_embedded.js",
  // estatekit/auth: servers only, in the server entry's module (auth.test.mjs, tests/node/auth.test.mjs).
  "auth.d.ts",
  // estatekit/store: plain JavaScript, no module (redis.test.mjs).
  "store.d.ts",
  // estatekit/query: TanStack Query option factories, plain JavaScript (query.test.mjs).
  "query.d.ts",
  // estatekit/token: the browser's side of the token route, plain JavaScript (portal.test.mjs).
  "token.d.ts",
  // estatekit/otel: OpenTelemetry, plain JavaScript (tests/node/otel.test.mjs); its table of the
  // client's requests generated from their one definition (vocab/src/operations.rs).
  "otel.d.ts",
  "otel_routes.js",
  ...["live.d.ts", "subscribe.d.ts", "subscribe_query.d.ts"],
];

test.it("contains only the shipped files (no tests, sources or internal declarations)", () => {
  const files = tar("-tzf").trim().split("\n").map((f) => f.replace(/^package\//, "")).sort();
  const extra = files.filter((f) => !SHIPPED.includes(f) && !/^(README|LICENSE)/i.test(f));
  assert.deepEqual(extra, []);
  for (const f of SHIPPED) assert.ok(files.includes(f), `${f} is packed`);
});

test.it("its README and EMULATOR.md link only to files the package ships or public URLs, and it installs from the tarball", () => {
  const files = tar("-tzf").trim().split("\n").map((f) => f.replace(/^package\//, ""));
  const readme = readFileSync(`${pkgDir}/README.md`, "utf8");
  assert.equal(readme, readFileSync(`${root}/js/README.md`, "utf8"), "the package's own README (js/README.md)");
  assert.equal(readFileSync(`${pkgDir}/EMULATOR.md`, "utf8"), readFileSync(`${root}/js/EMULATOR.md`, "utf8"));
  assert.match(readme, /\]\(\.\/EMULATOR\.md\)/, "the README links to the emulator's documentation");
  for (const doc of ["README.md", "EMULATOR.md"]) { // docs/*.md: tests/docs/links.mjs --packed
    const text = readFileSync(`${pkgDir}/${doc}`, "utf8").replace(/```[\s\S]*?```/g, "");
    const links = [...text.matchAll(/\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]);
    assert.ok(links.length > 0, doc);
    for (const link of links) {
      if (/^https:\/\//.test(link)) continue; // a public URL
      assert.doesNotMatch(link, /^[a-z]+:/i, `${doc} links to ${link}: neither a shipped file nor a public https URL`);
      const file = link.replace(/#.*$/, "").replace(/^\.\//, "");
      assert.ok(file === "" || files.includes(file), `${doc} links to ${link}, which the package does not ship`);
    }
  }
  assert.doesNotMatch(readme, /npm install estatekit\b(?!-)/, "estatekit is not on the registry: install the tarball");
  assert.match(readme, /npm install \.\/estatekit-[\d.]+\.tgz/);
});

test.it("its Markdown (README, EMULATOR.md, docs/*.md, CHANGELOG.md) links only inside the tarball or to https URLs", () => {
  // tests/docs/links.mjs --packed: every relative link a file of the tarball, every #anchor a heading.
  const out = execFileSync(process.execPath, [`${root}tests/docs/links.mjs`, "--packed"], { encoding: "utf8" });
  assert.match(out, /packed links: ok: \d+ Markdown files/);
  for (const doc of DOCS) assert.ok(out.includes(doc), `${doc} is packed and checked`);
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
  // Servers (`node`: Node, Deno, Bun, Next.js's server bundles) get the entry with the module's
  // bytes embedded; Cloudflare Workers (`workerd`, never `worker`: webpack resolves that for a
  // browser's Web Workers) the one importing the server module compiled; everything else the one
  // that loads the .wasm file next to it.
  const entries = (name) => ({ types: `./${name}.d.ts`, workerd: `./${name}.workerd.js`, node: `./${name}.node.js`, default: `./${name}.js` });
  assert.deepEqual(manifest.exports["."], entries("estatekit"));
  for (const [key, value] of Object.entries(manifest.exports)) {
    if (typeof value !== "object") continue;
    assert.equal("worker" in value, false, `${key} has no \`worker\` condition`);
    // A resolver takes the first condition it knows: `workerd` before `node` (a Worker's bundler
    // may know both).
    if ("workerd" in value) assert.deepEqual(Object.keys(value), ["types", "workerd", "node", "default"], key);
  }
  assert.equal(manifest.exports["./estatekit_wasm_bg.wasm"], "./estatekit_wasm_bg.wasm");
  assert.deepEqual(manifest.exports["./testing"], entries("testing"));
  assert.equal(manifest.exports["./estatekit_testing_wasm_bg.wasm"], "./estatekit_testing_wasm_bg.wasm");
  assert.deepEqual(manifest.exports["./webhooks"], entries("webhooks"));
  assert.equal(manifest.exports["./estatekit_webhooks_wasm_bg.wasm"], "./estatekit_webhooks_wasm_bg.wasm");
  assert.deepEqual(manifest.exports["./auth"], entries("auth"));
  assert.deepEqual(manifest.exports["./store"], { types: "./store.d.ts", default: "./store.js" });
  assert.equal(manifest.exports["./openapi.json"], "./openapi.json");
  assert.equal(manifest.exports["./messages.graphql"], "./messages.graphql");
  // No dependency: createRedisStore adapts the app's own client (duck typing). estatekit/otel's
  // OpenTelemetry API packages are optional peers: nothing installs them for an app that does not
  // use that entry, and nothing else imports them.
  for (const key of ["dependencies", "optionalDependencies"]) assert.equal(manifest[key], undefined, key);
  // bullmq is an optional peer of estatekit/webhooks' queued mode, which takes the app's own
  // Queue and Worker: no shipped file imports it (checked below).
  assert.deepEqual(Object.keys(manifest.peerDependencies).sort(), ["@opentelemetry/api", "@opentelemetry/core", "bullmq"]);
  assert.deepEqual(manifest.peerDependenciesMeta, { "@opentelemetry/api": { optional: true }, "@opentelemetry/core": { optional: true }, bullmq: { optional: true } });
  for (const file of manifest.files.filter((f) => f.endsWith(".js"))) {
    const js = execFileSync("tar", ["-xzOf", tgz, `package/${file}`], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    assert.doesNotMatch(js, /from\s*["']bullmq["']|import\(\s*["']bullmq["']/, `${file} imports bullmq`);
  }
  assert.deepEqual(manifest.exports["./query"], { types: "./query.d.ts", default: "./query.js" });
  assert.deepEqual(manifest.exports["./token"], { types: "./token.d.ts", default: "./token.js" });
  assert.deepEqual(manifest.exports["./otel"], { types: "./otel.d.ts", default: "./otel.js" });
  assert.deepEqual(manifest.exports["./live"], { types: "./live.d.ts", default: "./live.js" });
  assert.deepEqual(manifest.exports["./subscribe"], { types: "./subscribe.d.ts", default: "./subscribe.js" });
  assert.deepEqual(manifest.exports["./subscribe/query"], { types: "./subscribe_query.d.ts", default: "./subscribe_query.js" });
  assert.equal(manifest.engines.node, ">=20");
  // One bin, a Node program shipped as it is in js/ (its only import from the package is
  // estatekit/testing's server entry).
  assert.deepEqual(manifest.bin, { "estatekit-emulator": "./emulator-cli.mjs" });
  const bin = execFileSync("tar", ["-xzOf", tgz, "package/emulator-cli.mjs"], { encoding: "utf8" });
  assert.equal(bin, readFileSync(`${root}js/emulator-cli.mjs`, "utf8"));
  assert.ok(bin.startsWith("#!/usr/bin/env node\n"));
  assert.equal(manifest.sideEffects, false);
  const listed = SHIPPED.filter((f) => f !== "package.json" && !f.startsWith("docs/"));
  assert.deepEqual([...manifest.files].sort(), [...listed, "docs/*.md"].sort());
});

test.it("has no top-level await and imports nothing from Node", () => {
  const glue = ["estatekit_wasm.js", "estatekit_wasm_node.js", "estatekit_testing_wasm.js", "estatekit_webhooks_wasm.js"];
  const files = [...WRAPPER, ...glue, "estatekit_wasm_embedded.js", "estatekit_wasm_fallback.js", "estatekit_webhooks_wasm_embedded.js"];
  for (const file of files) {
    const js = execFileSync("tar", ["-xzOf", tgz, `package/${file}`], { encoding: "utf8" });
    // esbuild refuses to turn a module with top-level await into CommonJS.
    assert.doesNotThrow(() => transformSync(js, { format: "cjs", logLevel: "silent" }), file);
    assert.doesNotMatch(js, /from ["']node:|import\(["']node:|require\(/, file);
  }
});

test.it("the entries name their declarations for URL importers (@ts-self-types)", () => {
  for (const [file, types] of [
    ["estatekit.js", "estatekit.d.ts"],
    ["estatekit.node.js", "estatekit.d.ts"],
    ["estatekit.workerd.js", "estatekit.d.ts"],
    ["testing.js", "testing.d.ts"],
    ["testing.node.js", "testing.d.ts"],
    ["testing.workerd.js", "testing.d.ts"],
    ["webhooks.js", "webhooks.d.ts"],
    ["webhooks.node.js", "webhooks.d.ts"],
    ["webhooks.workerd.js", "webhooks.d.ts"],
    ["auth.js", "auth.d.ts"],
    ["auth.node.js", "auth.d.ts"],
    ["auth.workerd.js", "auth.d.ts"],
    ["store.js", "store.d.ts"],
    ["query.js", "query.d.ts"],
    ["token.js", "token.d.ts"],
    ["otel.js", "otel.d.ts"],
    ["live.js", "live.d.ts"],
    ["subscribe.js", "subscribe.d.ts"],
    ["subscribe_query.js", "subscribe_query.d.ts"],
  ]) {
    const js = execFileSync("tar", ["-xzOf", tgz, `package/${file}`], { encoding: "utf8" });
    assert.ok(js.startsWith(`/* @ts-self-types="./${types}" */\n`), file);
  }
});

test.it("passes @arethetypeswrong/cli --pack (profile esm-only)", () => {
  const out = execFileSync(
    `${root}node_modules/.bin/attw`,
    ["--pack", "pkg", "--profile", "esm-only", "--exclude-entrypoints", "./estatekit_wasm_bg.wasm", "./estatekit_testing_wasm_bg.wasm", "./estatekit_webhooks_wasm_bg.wasm", "./openapi.json", "./messages.graphql", "--no-emoji", "--no-color"],
    { cwd: root, encoding: "utf8" },
  );
  // attw prints one column per entry while the table fits its width, else one row per entry.
  const entries = ["estatekit", "estatekit/testing", "estatekit/webhooks", "estatekit/auth", "estatekit/store", "estatekit/query", "estatekit/token", "estatekit/otel"];
  const byRow = entries.every((e) => new RegExp(`│ "${e}"\\s*│ OK \\(ESM\\)\\s*│ OK\\s*│`).test(out));
  const byColumn = new RegExp(`node16 \\(from ESM\\)(\\s*│\\s*OK \\(ESM\\)){${entries.length}}\\s*│`).test(out);
  assert.ok(byRow || byColumn, `${entries.join(", ")}:\n${out}`);
});

test.it("ships readable JavaScript: the wrapper as in js/, the glue unminified", () => {
  for (const file of WRAPPER) {
    const js = execFileSync("tar", ["-xzOf", tgz, `package/${file}`], { encoding: "utf8" });
    assert.equal(js, readFileSync(`${root}js/${file}`, "utf8"), file);
  }
  const glue = execFileSync("tar", ["-xzOf", tgz, "package/estatekit_wasm.js"], { encoding: "utf8" });
  assert.match(glue, /^export class Client \{$/m);
  assert.ok(glue.split("\n").length > 100, "the glue keeps its lines");
});

/** The exports of pkg/estatekit.d.ts as TypeScript sees them (its own and those it re-exports). */
function declaredExports() {
  const file = `${pkgDir}/estatekit.d.ts`;
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    types: [],
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
  });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  assert.deepEqual(errors, [], "the declarations compile");
  const checker = program.getTypeChecker();
  const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)));
  const resolved = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const values = symbols.filter((s) => resolved(s).flags & ts.SymbolFlags.Value).map((s) => s.name);
  const client = resolved(symbols.find((s) => s.name === "Client"));
  const members = checker
    .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(client))
    .map((m) => m.name)
    .filter((n) => !n.startsWith("__@")); // symbol-named (Symbol.dispose), checked below
  return { values, members };
}

test.it("both entries export exactly the values the declarations declare, and every Client member", async () => {
  const { values, members } = declaredExports();
  const node = await import(`${pkgDir}/estatekit.node.js`);
  assert.deepEqual(Object.keys(node).sort(), [...values].sort());
  const mod = await import(`${pkgDir}/estatekit.js`);
  assert.deepEqual(Object.keys(mod).sort(), [...values].sort());
  // One wrapper per realm: the first entry imported decides the module (here the server one's).
  assert.equal(mod.Client, node.Client);

  for (const name of ["listWebhooks", "listDocuments", "listMessages", "deleteWebhook", "baseUrl", "free"]) {
    assert.ok(members.includes(name), `Client declares ${name}`);
  }
  for (const name of members) assert.ok(name in mod.Client.prototype, `Client.prototype.${name}`);
  assert.equal(typeof mod.Client.prototype[Symbol.dispose], "function");
  assert.equal(mod.Client.name, "Client");
});
