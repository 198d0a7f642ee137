// The packed estatekit as a backend in Node, Bun and Deno (tests/consumers/runtimes: Bun 1.4.5
// and Deno 2.9.6 from npm, locked with OpenTelemetry's SDK). tour.mjs runs in each: every
// operation through estatekit/auth's tokens inside an app's span, a refused call, a webhook event
// delivered twice by estatekit/testing to estatekit/webhooks' handler, all instrumented by
// estatekit/otel; the three print the same answers, span tree and metrics, and no secret in
// what was exported. dynamic-import.cjs: a CommonJS file loads the package with import() in each.
// fleet.mjs: one process of each runtime at once, sharing estatekit/store on a real Redis
// (node-redis): one password grant for the three, a webhook delivery given to all three handled
// once. Then deno-otel.mjs: Deno's own OpenTelemetry (OTEL_DENO=true, no SDK) gets
// estatekit's spans through the global providers, exported over OTLP/HTTP to a receiver here.
import test from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { createRequire } from "node:module";
import { assertLocked, bunBinary, installLocked, root, startEmulator, startRedis } from "./lib.mjs";

const dir = `${root}tests/consumers/runtimes`;
const { platform, arch } = process;
const bin = {
  bun: () => bunBinary(dir),
  // As Bun's: Deno's platform package's own binary (the `deno` package's launcher needs its
  // install script); Deno's Linux packages are the glibc ones.
  deno: () => `${dir}/node_modules/@deno/${platform}-${arch}${platform === "linux" ? "-glibc" : ""}/deno`,
};
/**
 * The children's environment: this one without proxies (which Bun and Deno honour: the grants
 * would leave the machine) and without OpenTelemetry's settings (an exporter's endpoint or
 * headers, a sampler, propagators would change what is exported and where), plus no update
 * check or prompt of Deno's and no telemetry of the runtimes themselves.
 */
const childEnv = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?_proxy|all_proxy|no_proxy|otel_.*)$/i.test(name))),
  DENO_NO_UPDATE_CHECK: "1",
  DENO_NO_PROMPT: "1",
  DO_NOT_TRACK: "1",
});
// Network to loopback only; the environment for the scripts' settings (estatekit itself needs
// only the network); node_modules as installed (never Deno's own npm resolution). Bun runs with
// --no-install (never its auto-install).
const DENO_RUN = ["run", "--allow-net=127.0.0.1", "--allow-env", "--node-modules-dir=manual"];
/** Deno's cache of this run (its own, removed at the end). */
let denoDir;

/** Runs `script` (in this project) with a runtime; returns its last stdout line, parsed. */
async function run(runtime, script, env) {
  const [file, args] = {
    node: [process.execPath, [script]],
    bun: [bin.bun(), ["--no-install", script]],
    deno: [bin.deno(), [...DENO_RUN, script]],
  }[runtime];
  const { stdout } = await promisify(execFile)(file, args, {
    cwd: dir,
    env: { ...childEnv(), DENO_DIR: denoDir, ...env },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1));
}

/** What every runtime must print (the span tree sorted; `<` names the parent). */
const TREE = [
  "DELETE /api/external-integrations/webhooks/{webhookId} [CLIENT] < estatekit deleteWebhook",
  "DELETE /api/file-storage/company/documents/{documentId} [CLIENT] < estatekit deleteDocument",
  "GET /api/external-integrations/webhooks [CLIENT] < estatekit ensureWebhook",
  "GET /api/external-integrations/webhooks [CLIENT] < estatekit listWebhooks",
  "GET /api/file-storage/company/documents/metadata [CLIENT] < estatekit listDocuments",
  "GET /api/file-storage/company/documents/{documentId}/metadata [CLIENT] < estatekit getDocument",
  "GET /api/file-storage/company/documents/{documentId}/metadata [CLIENT] < estatekit getDocument",
  "GET /app/route [INTERNAL] < -",
  "POST /api/external-integrations/webhooks [CLIENT] < estatekit registerWebhook",
  "POST /api/file-storage/company/documents [CLIENT] < estatekit uploadDocument",
  "POST /api/reporting/graphql [CLIENT] < estatekit listMessages",
  "app: unit created [INTERNAL] < estatekit webhook receive",
  "estatekit deleteDocument [INTERNAL] < GET /app/route",
  "estatekit deleteWebhook [INTERNAL] < GET /app/route",
  "estatekit ensureWebhook [INTERNAL] < GET /app/route",
  "estatekit getDocument [INTERNAL] < GET /app/route",
  "estatekit getDocument [INTERNAL] < GET /app/route",
  "estatekit listDocuments [INTERNAL] < GET /app/route",
  "estatekit listMessages [INTERNAL] < GET /app/route",
  "estatekit listWebhooks [INTERNAL] < GET /app/route",
  "estatekit registerWebhook [INTERNAL] < GET /app/route",
  "estatekit token password [CLIENT] < estatekit registerWebhook",
  "estatekit uploadDocument [INTERNAL] < GET /app/route",
  "estatekit webhook receive [SERVER] < -",
  "estatekit webhook receive [SERVER] < -",
];

test.describe("Node, Bun and Deno as a backend (tests/consumers/runtimes)", () => {
  let emulator;
  test.before(async () => {
    assertLocked(assert, dir, { bun: "devDependencies", deno: "devDependencies", "@opentelemetry/sdk-trace-base": "dependencies", redis: "dependencies" });
    installLocked(dir);
    denoDir = mkdtempSync(`${tmpdir()}/estatekit-deno-`);
    emulator = await startEmulator(["--seed-messages", "25"]);
  });
  test.after(() => {
    emulator?.stop();
    if (denoDir) rmSync(denoDir, { recursive: true, force: true });
  });

  for (const runtime of ["node", "bun", "deno"]) {
    test.it(`${runtime}: every operation, tokens, a webhook delivered twice, and their spans (tour.mjs)`, async () => {
      const out = await run(runtime, "tour.mjs", { ESTATEKIT_EMULATOR_URL: emulator.url });
      assert.equal(out.runtime, runtime);
      assert.deepEqual(out.answers, {
        registered: true,
        listed: true,
        uploaded: { title: `${runtime}.txt`, size: 1000, listed: true, got: true },
        messages: 25,
        refused: { isApiError: true, kind: "not_found", status: 404 },
      });
      assert.deepEqual(out.deliveries, { statuses: [200, 200], handledOnce: true });
      assert.deepEqual(out.tree, TREE);
      assert.deepEqual(out.metrics, ["estatekit.token.grants", "estatekit.webhook.deliveries", "http.client.request.duration"]);
      assert.equal(out.tokensGiven, 1);
      assert.equal(out.tokensIssued, 2, "one grant: an access token and a refresh token");
      assert.equal(out.givenWereIssued, true);
      assert.equal(out.secretsChecked, 5, "the client secret, the password, the body's marker, both tokens");
      assert.equal(out.secretHits, 0, "no secret in any exported span or metric point");
      assert.equal(out.rootContext, true);
    });
  }

  test.it("a CommonJS file loads the ES module package with import() in Node, Bun and Deno: a grant, a call, a refused call (dynamic-import.cjs)", async () => {
    for (const runtime of ["node", "bun", "deno"]) {
      const out = await run(runtime, "dynamic-import.cjs", { ESTATEKIT_EMULATOR_URL: emulator.url });
      assert.deepEqual(out, {
        runtime,
        commonJs: true,
        listed: true,
        refused: { isApiError: true, kind: "not_found", status: 404 },
        notEvent: [400, 400],
      });
    }
  });

  test.it("a fleet of one Node, one Bun and one Deno process on one Redis: one password grant, a delivery handled once (fleet.mjs)", async (t) => {
    const redis = await startRedis();
    t.after(() => redis.stop());
    const { createTestService } = await import(`${dir}/node_modules/estatekit/testing.node.js`);
    const bodies = [];
    const service = await createTestService({ deliver: async (url, init) => (bodies.push(String(init.body)), new Response(null, { status: 200 })) });
    t.after(() => service.close());
    await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: "https://hooks.example/fleet" }] });
    const { uuid } = await service.emit("UNIT_CREATED", { data: { unitId: "unit-fleet" } });
    await service.settled();
    assert.equal(bodies.length, 1);

    const before = await (await fetch(`${emulator.url}/_emulator/oauth`)).json();
    const env = { ESTATEKIT_EMULATOR_URL: emulator.url, REDIS_PORT: String(redis.port), ENVELOPE: bodies[0], FLEET_SIZE: "3" };
    // Every process runs to its end (none is left behind while Redis stops), then any failure.
    const settled = await Promise.allSettled(["node", "bun", "deno"].map((runtime) => run(runtime, "fleet.mjs", env)));
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    const fleet = settled.map((s) => /** @type {PromiseFulfilledResult<any>} */ (s).value);
    const after = await (await fetch(`${emulator.url}/_emulator/oauth`)).json();
    console.log(JSON.stringify(fleet));

    assert.deepEqual(fleet.map((p) => [p.runtime, p.webhooks, p.statuses.at(-1)]), [["node", true, 200], ["bun", true, 200], ["deno", true, 200]]);
    const handlers = fleet.filter((p) => p.handledHere > 0);
    assert.equal(handlers.length, 1, "the handler ran in one process");
    assert.deepEqual([handlers[0].handledHere, handlers[0].statuses, handlers[0].othersRefused], [1, [200], true], "it ran once, while the others were refused");
    for (const other of fleet.filter((p) => p.handledHere === 0)) {
      assert.ok(other.statuses.length >= 2 && other.statuses.slice(0, -1).every((s) => s === 503), `${other.runtime}: 503 while another handled it, then 200`);
    }
    assert.equal(after.grants.password - before.grants.password, 1, "one password grant for the three processes");
    const { createClient } = await import(createRequire(`${dir}/package.json`).resolve("redis"));
    const check = createClient({ socket: { host: "127.0.0.1", port: redis.port } });
    await check.connect();
    try {
      assert.equal(await check.get(`fleet:handled:${uuid}`), "1", "counted once in Redis");
    } finally {
      await check.quit();
    }
  });

  test.it("deno with OTEL_DENO=true: estatekit's spans reach Deno's own providers; Deno adds its fetch span under each request's", async (t) => {
    // The OTLP receiver, and a recorder of the `traceparent` each API request carries.
    const bodies = [];
    const traceparents = [];
    const server = http.createServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      if (req.url.startsWith("/v1/")) {
        bodies.push({ path: req.url, body });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        traceparents.push(req.headers.traceparent ?? null);
        res.writeHead(200, { "content-type": "application/json", "x-request-id": "req-recorder" }).end("[]");
      }
    });
    await new Promise((resolve, reject) => server.listen(0, "127.0.0.1", resolve).on("error", reject));
    t.after(() => {
      server.closeAllConnections();
      server.close();
    });
    const local = `http://127.0.0.1:${server.address().port}`;

    const out = await run("deno", "deno-otel.mjs", {
      ESTATEKIT_EMULATOR_URL: emulator.url,
      RECORDER_URL: local,
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: local,
      OTEL_SERVICE_NAME: "estatekit-deno-test",
    });
    assert.equal(typeof out.webhooks, "number");

    const spans = bodies
      .filter((b) => b.path === "/v1/traces")
      .flatMap((b) => JSON.parse(b.body).resourceSpans)
      .flatMap((r) => r.scopeSpans)
      .flatMap((s) => s.spans.map((span) => ({ ...span, scope: s.scope.name })));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const attribute = (span, key) => {
      const value = span.attributes?.find((a) => a.key === key)?.value;
      // Deno writes every number as a double (the SDK's exporter writes integers as intValue).
      return value && (value.stringValue ?? value.intValue ?? value.doubleValue);
    };
    const route = spans.find((s) => s.name === "GET /app/route");
    assert.ok(route, `Deno exported the app's span (exports: ${bodies.map((b) => b.path).join(", ") || "none"})`);
    const tree = spans
      .filter((s) => s.traceId === route.traceId)
      .map((s) => `${s.scope}: ${s.name} (kind ${s.kind}) < ${byId.get(s.parentSpanId)?.name ?? "-"}`)
      .sort();
    console.log(`Deno's OTLP export of the route's trace, decoded:\n${tree.join("\n")}`);
    assert.deepEqual(tree, [
      "app: GET /app/route (kind 1) < -",
      "deno: GET (kind 3) < GET /api/external-integrations/webhooks",
      "estatekit: GET /api/external-integrations/webhooks (kind 3) < estatekit listWebhooks",
      "estatekit: estatekit listWebhooks (kind 1) < GET /app/route",
    ]);
    const client = spans.find((s) => s.traceId === route.traceId && s.scope === "estatekit" && s.kind === 3);
    assert.equal(attribute(client, "url.template"), "/api/external-integrations/webhooks");
    assert.equal(Number(attribute(client, "http.response.status_code")), 200);
    assert.equal(Number(attribute(client, "server.port")), Number(new URL(emulator.url).port));
    const doubles = ["server.port", "http.response.status_code"].map((key) => Object.keys(client.attributes.find((a) => a.key === key).value));
    assert.deepEqual(doubles, [["doubleValue"], ["doubleValue"]], "Deno writes these numbers as doubles (docs/observability.md)");
    assert.ok(bodies.some((b) => b.path === "/v1/metrics" && b.body.includes("http.client.request.duration")), "the duration metric exported");
    assert.ok(bodies.every((b) => !b.body.includes("dev-token")), "the token in no export");

    // With `propagate: true`, one traceparent: estatekit's CLIENT span's (Deno adds none of its
    // own without OTEL_PROPAGATORS); without, none.
    assert.equal(traceparents.length, 2);
    assert.equal(traceparents[1], null);
    const [, traceId, spanId] = traceparents[0].match(/^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/) ?? [];
    const sent = byId.get(spanId);
    assert.ok(sent, `the traceparent names an exported span: ${traceparents[0]}`);
    assert.equal(sent.traceId, traceId);
    assert.deepEqual([sent.scope, sent.name, sent.kind], ["estatekit", "GET /api/external-integrations/webhooks", 3]);
  });
});
