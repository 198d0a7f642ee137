// estatekit, estatekit/auth and estatekit/testing in a Cloudflare Worker, from the packed tarball
// (installed in tests/consumers/webhooks, whose workerd this shares). The Worker
// (webhooks/api-worker.js) is built as wrangler builds one: esbuild, one file, the conditions
// workerd, worker and browser, `.wasm` imports kept as modules; and run by workerd, Cloudflare's
// runtime (from npm), which compiles no WebAssembly from bytes or URLs, against the native
// emulator on a free loopback port. A second Worker (webhooks/plain-worker.js), bundled without
// the `workerd` condition (once with the browser's conditions, once with `node`), checks what the
// entries it gets say there. The first Worker also calls through Clients instrumented by
// estatekit/otel: with the OpenTelemetry API's no-op providers, and with the SDK's
// BasicTracerProvider (the spans it made come back in the answer).
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { freePort, installPackedOnce, registerWebhook, root, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/webhooks`;
const out = `${root}target/consumers/workers`;
const pkg = `${dir}/node_modules/estatekit`;
const OAUTH = { CLIENT_ID: "dev-client", CLIENT_SECRET: "dev-secret", USERNAME: "admin@acme.test", PASSWORD: "dev-password" };
const FILE = "lease terms, signed in a Worker\n";

/** Polls `probe` until it gives a value (or 20 s pass); `what()` says what for, on a timeout. */
async function waitFor(probe, what) {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what()}`);
}

/**
 * Bundles `entry` into `out/name` as wrangler does (or, with other `conditions`, as a hand-made
 * build would): the external .wasm imports (paths as the package wrote them) and the package's
 * files that went into the bundle.
 */
function bundle(entry, name, conditions, platform = "neutral") {
  const result = buildSync({
    entryPoints: [`${dir}/${entry}`],
    bundle: true,
    format: "esm",
    platform,
    conditions,
    external: ["*.wasm"],
    outfile: `${out}/${name}`,
    metafile: true,
    logLevel: "warning",
  });
  const [output] = Object.values(result.metafile.outputs);
  const wasm = output.imports.filter((i) => i.external && i.path.endsWith(".wasm")).map((i) => i.path);
  const files = Object.keys(output.inputs)
    .filter((p) => p.includes("node_modules/estatekit/"))
    .map((p) => p.replace(/^.*node_modules\/estatekit\//, ""));
  return { wasm: [...new Set(wasm)].sort(), files: files.sort(), bytes: statSync(`${out}/${name}`).size };
}

/** A multipart form with one file, as a page's form posts it. */
function form() {
  const body = new FormData();
  body.append("file", new File([FILE], "lease.txt", { type: "text/plain" }));
  return body;
}

test.describe("estatekit in a Cloudflare Worker (workerd, built as wrangler builds it)", () => {
  let emulator;
  let child;
  let api;
  /** The Workers bundled without `workerd`: their URLs and bundles, by the conditions they had. */
  const plain = {
    browser: { conditions: ["worker", "browser"] },
    node: { conditions: ["node"] },
  };
  let built;
  /** What workerd wrote to stderr (shown when a check fails). */
  let log = "";

  test.before(async () => {
    installPackedOnce(dir);
    emulator = await startEmulator();
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    // esbuild's default platform, `browser`, as wrangler leaves it: packages without `exports`
    // (@opentelemetry/core, @opentelemetry/sdk-trace-base) resolve by their `browser` fields.
    built = bundle("api-worker.js", "api-worker.js", ["workerd", "worker", "browser"], "browser");
    for (const [name, worker] of Object.entries(plain)) worker.built = bundle("plain-worker.js", `plain-${name}.js`, worker.conditions);
    // (capnp embeds files relative to the config.) Each .wasm the bundle imports, under the name
    // it imports it by, as wrangler uploads a module: a CompiledWasm module.
    for (const path of built.wasm) copyFileSync(`${pkg}/${path.replace(/^\.\//, "")}`, `${out}/${path.replace(/^\.\//, "")}`);
    const apiPort = await freePort();
    api = `http://127.0.0.1:${apiPort}`;
    for (const worker of Object.values(plain)) {
      worker.port = await freePort();
      worker.url = `http://127.0.0.1:${worker.port}`;
    }
    const names = Object.keys(plain);
    const text = (bindings) => Object.entries(bindings).map(([name, value]) => `(name = "${name}", text = "${value}")`);
    writeFileSync(
      `${out}/config.capnp`,
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "api", worker = .api),
${names.map((n) => `    (name = "plain-${n}", worker = .plain${n}),`).join("\n")}
    # The Workers' fetch reaches the emulator on this machine's loopback only.
    (name = "internet", network = (allow = ["local"])),
  ],
  sockets = [
    (name = "api", address = "127.0.0.1:${apiPort}", http = (), service = "api"),
${names.map((n) => `    (name = "plain-${n}", address = "127.0.0.1:${plain[n].port}", http = (), service = "plain-${n}"),`).join("\n")}
  ],
);
const api :Workerd.Worker = (
  modules = [
    (name = "api-worker.js", esModule = embed "api-worker.js"),
${built.wasm.map((p) => `    (name = "${p.replace(/^\.\//, "")}", wasm = embed "${p.replace(/^\.\//, "")}"),`).join("\n")}
  ],
  bindings = [${text({ BASE_URL: emulator.url, ...OAUTH }).join(", ")}],
  compatibilityDate = "2026-11-01",
);
${names
  .map(
    (n) => `const plain${n} :Workerd.Worker = (
  modules = [(name = "plain-${n}.js", esModule = embed "plain-${n}.js")],
  bindings = [${text({ BASE_URL: emulator.url }).join(", ")}],
  compatibilityDate = "2026-11-01",
);`,
  )
  .join("\n")}
`,
    );
    // The binary itself (node_modules/.bin/workerd is a Node wrapper that would leave it running
    // when killed).
    const binary = createRequire(`${dir}/package.json`)("workerd").default;
    child = spawn(binary, ["serve", `${out}/config.capnp`], { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (d) => (log += d));
    await waitFor(() => fetch(`${api}/none`).then((r) => r.status === 404, () => false), () => `workerd to listen\n${log}`);
  });
  test.after(async () => {
    child?.kill();
    await emulator?.stop();
  });

  const oauth = async () => (await fetch(`${emulator.url}/_emulator/oauth`)).json();

  test.it("the bundle imports the server module (with auth) and the emulator's, compiled; nothing embedded", () => {
    const size = (p) => {
      const bytes = readFileSync(`${pkg}/${p.replace(/^\.\//, "")}`);
      return `${p} (${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzip)`;
    };
    console.log(`# Worker bundle: ${built.bytes} bytes; its .wasm modules: ${built.wasm.map(size).join(", ")}`);
    console.log(`# package files bundled: ${built.files.join(", ")}`);
    assert.deepEqual(built.wasm, ["./estatekit_testing_wasm_bg.wasm", "./estatekit_wasm_node_bg.wasm"]);
    for (const entry of ["estatekit.workerd.js", "auth.workerd.js", "testing.workerd.js", "auth_tokens.js", "estatekit_wasm_node.js", "otel.js"]) {
      assert.ok(built.files.includes(entry), `${entry} is bundled`);
    }
    // No browser entry, no second glue, no embedded copy: one module instance for the client and auth.
    assert.deepEqual(built.files.filter((f) => /^(estatekit|auth|testing)\.js$|_embedded|_fallback|^estatekit_wasm\.js$/.test(f)), []);
  });

  test.it("a token from createTokenProvider (in-memory store); register, upload, list documents, list webhooks", async () => {
    const before = await oauth();
    const response = await fetch(`${api}/calls`, { method: "POST", body: form() });
    const result = await response.json();
    assert.equal(response.status, 200, `${JSON.stringify(result)}\n${log}`);
    console.log(`# Worker: ${JSON.stringify(result)}`);
    assert.equal(result.token.type, "string");
    assert.ok(result.token.length > 0);
    assert.ok(result.token.expiresAt > Date.now(), `expiresAt ${result.token.expiresAt}`);
    const after = await oauth();
    assert.equal(after.grants.password - before.grants.password, 1, "one sign-in");
    assert.match(result.webhookId, /\S/);
    assert.deepEqual(
      result.webhooks.filter((w) => w.id === result.webhookId),
      [{ id: result.webhookId, type: "UNIT_CREATED", url: "https://portal.example.com/hooks/worker" }],
    );
    assert.equal(result.uploaded.title, "worker.txt");
    assert.match(result.uploaded.resourcePath, /\/tenants\/worker\//);
    assert.deepEqual(
      result.documents.filter((d) => d.id === result.uploaded.id),
      [{ id: result.uploaded.id, title: "worker.txt" }],
    );
    // What the emulator stored: the form's file, byte for byte.
    const stored = await fetch(`${emulator.url}/api/file-storage/company/documents/${result.uploaded.id}`, {
      headers: { authorization: "Bearer dev-token" },
    });
    assert.equal(await stored.text(), FILE);
    // The webhook as the service has it.
    const hooks = await (await fetch(`${emulator.url}/api/external-integrations/webhooks`, { headers: { authorization: "Bearer dev-token" } })).json();
    assert.ok(JSON.stringify(hooks).includes(result.webhookId));
  });

  test.it("estatekit/otel: an instrumented Client calls as before with the API's no-op providers, and makes its spans with the SDK's", async () => {
    const hookId = await registerWebhook(emulator.url, { type: "UNIT_CREATED", url: "http://127.0.0.1:9/worker-otel" });
    const response = await fetch(`${api}/otel`);
    const result = await response.json();
    assert.equal(response.status, 200, `${JSON.stringify(result)}\n${log}`);
    console.log(`# Worker, estatekit/otel: ${JSON.stringify({ ...result, spans: result.spans.map((s) => `${s.name} (kind ${s.kind})`) })}`);
    assert.equal(result.sameClient, true, "instrument(client) gives the Client back");
    assert.ok(result.noop.includes(hookId), JSON.stringify(result.noop));
    assert.deepEqual(result.listed, result.noop);
    const operation = result.spans.find((s) => s.name === "estatekit listWebhooks");
    assert.ok(operation, JSON.stringify(result.spans));
    assert.equal(operation.kind, 0);
    const requests = result.spans.filter((s) => s.parentSpanId === operation.spanId);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].kind, 2);
    assert.equal(requests[0].name, "GET /api/external-integrations/webhooks");
    assert.equal(requests[0].attributes["url.full"], `${emulator.url}/api/external-integrations/webhooks`);
    assert.equal(requests[0].attributes["http.response.status_code"], 200);
    assert.equal(result.spans.length, 2, "the operation's span and its request's, nothing else");
    assert.ok(!JSON.stringify(result).includes("dev-token"), "no span holds the token");
  });

  test.it("a later request gets the cached token: no second sign-in", async () => {
    const before = await oauth();
    const response = await fetch(`${api}/token`);
    const token = await response.json();
    assert.equal(response.status, 200, JSON.stringify(token));
    assert.ok(token.expiresAt > Date.now());
    const after = await oauth();
    assert.deepEqual(after.grants, before.grants);
    console.log(`# Worker, second request: a ${token.type} of ${token.length} characters, no grant (${JSON.stringify(after.grants)})`);
  });

  test.it("estatekit and estatekit/auth share one ApiError; a refused sign-in names no secret", async () => {
    const result = await (await fetch(`${api}/errors`)).json();
    console.log(`# Worker, a wrong password: ${JSON.stringify(result)}`);
    assert.deepEqual(result, {
      name: "ApiError",
      kind: "forbidden",
      isApiError: true,
      instanceOfApiError: true,
      instanceOfAuthApiError: true,
      sameApiError: true,
      mentionsSecret: false,
    });
  });

  test.it("estatekit/testing in the Worker: the same calls against the emulator in process", async () => {
    const response = await fetch(`${api}/in-process`, { method: "POST", body: form() });
    const result = await response.json();
    assert.equal(response.status, 200, `${JSON.stringify(result)}\n${log}`);
    console.log(`# Worker, estatekit/testing: ${JSON.stringify({ ...result, documents: result.documents.length, webhooks: result.webhooks.length })}`);
    assert.equal(result.stored, FILE);
    assert.equal(result.uploaded.title, "in-process.txt");
    assert.ok(result.documents.some((d) => d.id === result.uploaded.id));
    assert.ok(result.webhooks.some((w) => w.id === result.webhookId && w.url === "https://portal.example.com/hooks/in-process"));
  });

  test.it("bundled without the `workerd` condition: each entry's error names the runtime and the fix", async () => {
    const fix =
      "this runtime (Cloudflare workerd?) compiles no WebAssembly from bytes or URLs: bundle with the `workerd` export condition (wrangler sets it), .wasm imports kept as modules (Next.js on OpenNext, untested: list estatekit in next.config's serverExternalPackages).";
    for (const [name, worker] of Object.entries(plain)) {
      console.log(`# Worker bundled with the conditions ${worker.conditions.join(", ")}: ${worker.built.bytes} bytes, .wasm imports: ${JSON.stringify(worker.built.wasm)}`);
      const response = await fetch(worker.url);
      const result = await response.json();
      assert.equal(response.status, 200, `${JSON.stringify(result)}\n${log}`);
      for (const [what, error] of Object.entries(result)) console.log(`#   ${what}: ${JSON.stringify(error)}`);
      // The browser entries try the file (no import.meta.url there), then the embedded copy; the
      // server entries their embedded copy at once. workerd refuses to compile either.
      const entries = [["estatekit", result.call], ["estatekit/testing", result.testing]];
      if (name === "node") entries.push(["estatekit", result.auth]); // auth loads the main entry's module
      for (const [entry, error] of entries) {
        assert.equal(error.name, "ApiError", JSON.stringify(error));
        assert.equal(error.kind, "network");
        assert.ok(error.message.startsWith(`${entry}: could not load its WebAssembly module (`), error.message);
        assert.match(error.message, /CompileError: WebAssembly\.compile\(\): Wasm code generation disallowed by embedder\); /);
        assert.ok(error.message.endsWith(`); ${fix}`), error.message);
      }
      if (name === "browser") {
        assert.match(result.auth.message, /^estatekit\/auth: this Cloudflare Worker was bundled without the `workerd` export condition/);
      }
    }
  });
});
