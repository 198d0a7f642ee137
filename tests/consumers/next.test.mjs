// A Next.js 16 App Router admin portal (tests/consumers/next/) using the packed estatekit with
// the default next.config: on the server (a route handler, a server component, a server action,
// and estatekit/testing in a route handler; estatekit/auth's token provider in a route handler
// that hands the browser its token and in a server component) and in the browser (a client
// component uploading a file with progress, and one whose Client gets its token from that route). Built once with Turbopack (next build's default) and once with webpack
// (next build --webpack), one after the other into the same .next, each served by `next start`
// on a free loopback port with the emulator's address in ESTATEKIT_BASE_URL (read at request
// time); then with `output: "standalone"`, by each bundler (ESTATEKIT_NEXT_OUTPUT=standalone, the only
// thing next.config.mjs reads), served by .next/standalone's server.js. next and react are
// pinned by the project's own package-lock.json; estatekit is the packed tarball (its lock entry
// has no integrity). What each route and page answered is printed (console.log).
// ESTATEKIT_NEXT_VARIANTS (e.g. "turbopack webpack") picks the builds; the browser checks run in
// Chromium only, and only when ESTATEKIT_BROWSERS includes it.
// On the first build, the staff sign-in (next-auth: /me, /api/me, /api/auth/*): two servers of
// that build, Chromium signing in, the refresh race with and without estatekit/auth's
// createUserTokens (next-auth.mjs, which says how; next-app.mjs holds what both files share).
// Each build's server is traced (instrumentation.ts: @vercel/otel, its exporter writing the spans
// to a file of target/consumers/): a route handler's call through a Client instrumented by
// estatekit/otel is a child of the route's span, with one CLIENT span for its request (ours:
// neither Next.js's fetch span nor @vercel/otel's is made for it), which a call through a plain
// Client shows they would otherwise make.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { assertLocked, checkUpload, enginesToRun, installLocked, registerWebhook, root, runPage, startEmulator } from "./lib.mjs";
import { baseEnv, buildApp, dir, get, json, preResult, startApp } from "./next-app.mjs";
import { describeSignedInStaff } from "./next-auth.mjs";
import { KIND, SECRETS, ancestors, childrenOf, readSpanFile, spanTree, waitForSpans } from "./otel-spans.mjs";

const VARIANTS = [
  { key: "turbopack", name: "next build (Turbopack)", buildArgs: [] },
  { key: "webpack", name: "next build --webpack", buildArgs: ["--webpack"] },
  { key: "standalone", name: 'next build (Turbopack), output: "standalone"', buildArgs: [], standalone: true },
  { key: "standalone-webpack", name: 'next build --webpack, output: "standalone"', buildArgs: ["--webpack"], standalone: true },
];
const asked = (process.env.ESTATEKIT_NEXT_VARIANTS ?? "").split(/[\s,]+/).filter(Boolean);
for (const k of asked) {
  if (!VARIANTS.some((v) => v.key === k)) throw new Error(`ESTATEKIT_NEXT_VARIANTS: unknown variant ${k}`);
}
const variants = asked.length ? VARIANTS.filter((v) => asked.includes(v.key)) : VARIANTS;
const chromium = enginesToRun().includes("chromium");

test.describe("Next.js 16 App Router portal", () => {
  // (No install script is needed: next's compiler is the optional @next/swc-* package.)
  test.before(() => installLocked(dir));

  test.it("locks next, next-auth, react, redis, @vercel/otel and the OpenTelemetry packages exactly, and estatekit as the packed tarball with no integrity", () => {
    const manifest = assertLocked(assert, dir, {
      next: "dependencies",
      "next-auth": "dependencies",
      react: "dependencies",
      "react-dom": "dependencies",
      redis: "dependencies",
      "@vercel/otel": "dependencies",
      "@opentelemetry/api": "dependencies",
      "@opentelemetry/core": "dependencies",
      "@opentelemetry/api-logs": "dependencies",
      "@opentelemetry/instrumentation": "dependencies",
      "@opentelemetry/resources": "dependencies",
      "@opentelemetry/sdk-logs": "dependencies",
      "@opentelemetry/sdk-metrics": "dependencies",
      "@opentelemetry/sdk-trace-base": "dependencies",
    });
    assert.match(manifest.dependencies.next, /^16\./);
    assert.match(manifest.dependencies["next-auth"], /^4\.24\./);
    // next.config.mjs evaluates to {} (the default) unless ESTATEKIT_NEXT_OUTPUT=standalone.
    const config = (output) =>
      execFileSync(process.execPath, ["--input-type=module", "-e", `import c from "./next.config.mjs"; console.log(JSON.stringify(c))`], {
        cwd: dir,
        env: output ? { ...baseEnv, ESTATEKIT_NEXT_OUTPUT: output } : baseEnv,
        encoding: "utf8",
      }).trim();
    assert.equal(config(), "{}");
    assert.equal(config("standalone"), '{"output":"standalone"}');
    assert.ok(existsSync(`${dir}/node_modules/@next/swc-linux-x64-gnu/package.json`), "next's compiler is installed");
  });

  for (const variant of variants) {
    test.describe(variant.name, () => {
      let emulator;
      let app;
      let hookId;
      const hook = { type: "UNIT_CREATED", url: `http://127.0.0.1:9/next-${variant.key}` };
      // Where the server's exporter writes its spans (instrumentation.ts), one JSON line each.
      const spansFile = `${root}target/consumers/next-spans-${variant.key}.jsonl`;
      const show = (what, value) => console.log(`[next ${variant.key}] ${what}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

      test.before(async () => {
        show("build", `${buildApp(variant).toFixed(1)} s`);
        emulator = await startEmulator();
        hookId = await registerWebhook(emulator.url, hook);
        mkdirSync(`${root}target/consumers`, { recursive: true });
        rmSync(spansFile, { force: true });
        // OTEL_BSP_SCHEDULE_DELAY: the batch processor of @vercel/otel exports every 100 ms
        // rather than every 5 s, so that the test does not wait for it.
        app = await startApp(variant, emulator.url, { ESTATEKIT_OTEL_SPANS_FILE: spansFile, OTEL_BSP_SCHEDULE_DELAY: "100" });
      });
      test.after(async () => {
        await app?.stop();
        await emulator?.stop();
      });

      test.it("a route handler lists the webhooks on the server", async () => {
        const res = await get(app, "/api/webhooks");
        const body = json(app, "/api/webhooks", res);
        show("GET /api/webhooks", `HTTP ${res.status} ${JSON.stringify(body)}`);
        assert.equal(body.ok, true, `${body.kind}: ${body.message}\n  server log:\n    ${app.log()}`);
        assert.equal(res.status, 200);
        assert.deepEqual(body.ids, [hookId]);
        assert.equal(body.count, 1);
      });

      test.it("a route handler's call is traced under the route's span, with one CLIENT span for its request (estatekit/otel, @vercel/otel)", async () => {
        // The control first: a plain Client's request gets the app's own fetch span (Next.js's,
        // or @vercel/otel's), which the instrumented call below must not get.
        const plainRes = await get(app, "/api/otel?instrumented=0");
        const plain = json(app, "/api/otel?instrumented=0", plainRes);
        assert.equal(plain.ok, true, `${plain.kind}: ${plain.message}\n  server log:\n    ${app.log()}`);
        assert.match(plain.traceId ?? "", /^[0-9a-f]{32}$/, "the route runs inside a span (instrumentation.ts registered the SDK)");
        const ofTrace = (traceId) => () => readSpanFile(spansFile).filter((s) => s.traceId === traceId);
        const serverEnded = (spans) => spans.some((s) => s.kind === KIND.SERVER && !s.parentSpanId);
        const plainSpans = await waitForSpans(ofTrace(plain.traceId), (spans) => serverEnded(spans) && spans.some((s) => s.kind === KIND.CLIENT), "the plain call's trace");
        show("GET /api/otel?instrumented=0: its trace", `\n${spanTree(plainSpans)}`);
        assert.ok(plainSpans.some((s) => s.kind === KIND.CLIENT && s.scope !== "estatekit"), "the app's fetch instrumentation makes a CLIENT span for a plain call");
        assert.deepEqual(plainSpans.filter((s) => s.scope === "estatekit"), [], "a plain Client makes no span");

        const res = await get(app, "/api/otel");
        const body = json(app, "/api/otel", res);
        assert.equal(body.ok, true, `${body.kind}: ${body.message}\n  server log:\n    ${app.log()}`);
        assert.equal(body.instrumented, true);
        assert.equal(typeof body.count, "number");
        const spans = await waitForSpans(
          ofTrace(body.traceId),
          (all) => serverEnded(all) && all.some((s) => s.name === "estatekit listWebhooks"),
          "the instrumented call's trace",
        );
        show("GET /api/otel: its trace", `\n${spanTree(spans)}`);
        const route = spans.find((s) => s.kind === KIND.SERVER && !s.parentSpanId);
        assert.ok(route, "Next.js's server span is the trace's root");
        assert.notEqual(route.scope, "estatekit");
        const operations = spans.filter((s) => s.name === "estatekit listWebhooks");
        assert.equal(operations.length, 1, "one operation span");
        const [operation] = operations;
        assert.equal(operation.kind, KIND.INTERNAL);
        assert.equal(operation.scope, "estatekit");
        assert.ok(ancestors(operation, spans).includes(route), "the operation's span is a descendant of the route's span");
        assert.notEqual(operation.parentSpanId, undefined);
        // Exactly one CLIENT span in the trace, ours, the operation's child: Next.js's fetch span
        // and @vercel/otel's were suppressed for the request.
        const clients = spans.filter((s) => s.kind === KIND.CLIENT);
        assert.equal(clients.length, 1, `one CLIENT span:\n${spanTree(spans)}`);
        const [request] = clients;
        assert.equal(request.scope, "estatekit");
        assert.equal(request.parentSpanId, operation.spanId);
        assert.equal(request.name, "GET /api/external-integrations/webhooks");
        const url = new URL(emulator.url);
        assert.equal(request.attributes["http.request.method"], "GET");
        assert.equal(request.attributes["url.full"], `${emulator.url}/api/external-integrations/webhooks`);
        assert.equal(request.attributes["url.template"], "/api/external-integrations/webhooks");
        assert.equal(request.attributes["server.address"], url.hostname);
        assert.equal(request.attributes["server.port"], Number(url.port));
        assert.equal(request.attributes["http.response.status_code"], 200);
        assert.deepEqual(childrenOf(request, spans), [], "no span under ours");
        // Nothing else of any trace hangs under the call's spans (a fetch span in a trace of its own would be a root).
        const all = readSpanFile(spansFile);
        assert.deepEqual(all.filter((s) => s.parentSpanId === request.spanId), []);
        assert.deepEqual(all.filter((s) => s.parentSpanId === operation.spanId).map((s) => s.spanId), [request.spanId]);
        for (const secret of SECRETS) assert.ok(!JSON.stringify(all).includes(secret), `no span holds ${secret}`);
      });

      test.it("a server component renders the webhooks", async () => {
        const res = await get(app, "/server");
        const text = preResult(res.text);
        show("GET /server <pre id=result>", `HTTP ${res.status} ${text ?? res.text.slice(0, 300)}`);
        assert.equal(res.status, 200, `/server: HTTP ${res.status}\n  server log:\n    ${app.log()}`);
        assert.ok(text, "the page has a <pre id=\"result\">");
        const body = JSON.parse(text);
        assert.equal(body.ok, true, `${body.kind}: ${body.message}\n  server log:\n    ${app.log()}`);
        assert.deepEqual(body.ids, [hookId]);
      });

      test.it("a route handler runs estatekit/testing in process", async () => {
        const res = await get(app, "/api/testing");
        const body = json(app, "/api/testing", res);
        show("GET /api/testing", `HTTP ${res.status} ${JSON.stringify(body)}`);
        assert.equal(body.ok, true, `${body.kind}: ${body.message}\n  server log:\n    ${app.log()}`);
        assert.equal(body.eventTypes, 28);
        assert.equal(body.seeded.length, 1);
        assert.deepEqual(
          body.webhooks.map((w) => w.id).sort(),
          [body.seeded[0], body.registered].sort(),
        );
        assert.deepEqual(
          body.requests.filter((r) => r.includes("/webhooks")),
          ["POST /api/external-integrations/webhooks", "GET /api/external-integrations/webhooks"],
        );
      });

      test.it("a client component lists and uploads from the browser (Chromium)", { skip: !chromium && "Chromium not in ESTATEKIT_BROWSERS" }, async () => {
        const run = await runPage("chromium", `${app.url}/upload`);
        show("/upload in Chromium", { result: run.result, wasm: run.wasm, pageErrors: run.pageErrors, failed: run.failed });
        assert.deepEqual(run.pageErrors, []);
        assert.deepEqual(run.failed, []);
        assert.deepEqual(run.consoleMessages.filter((m) => /^(error|warning)/.test(m)), []);
        assert.equal(run.result.ok, true, run.result.message);
        assert.equal(run.result.baseUrl, emulator.url);
        assert.equal(run.result.eventTypes, 28);
        assert.ok(run.result.webhooks.some((w) => w.id === hookId), JSON.stringify(run.result.webhooks));
        await checkUpload(assert, emulator.url, run.result.upload);
        assert.equal(run.wasm.length, 1, "the page fetched one .wasm file");
        assert.ok(run.wasm[0].startsWith(`${app.url}/_next/static/`), run.wasm[0]);
      });

      test.it("the browser gets an ApiError of kind unauthorized for a wrong token (Chromium)", { skip: !chromium && "Chromium not in ESTATEKIT_BROWSERS" }, async () => {
        const run = await runPage("chromium", `${app.url}/upload?token=wrong-token`);
        show("/upload?token=wrong-token in Chromium", run.result);
        assert.deepEqual(run.pageErrors, []);
        assert.equal(run.result.ok, false);
        assert.equal(run.result.apiError, true);
        assert.equal(run.result.kind, "unauthorized");
      });

      test.it("a route handler hands out the provider's token behind the session check", async () => {
        const refused = await get(app, "/api/token");
        assert.equal(refused.status, 401);
        const res = await fetch(`${app.url}/api/token`, {
          headers: { cookie: "portal-session=signed-in" },
          signal: AbortSignal.timeout(30_000),
        });
        const body = json(app, "/api/token", { status: res.status, text: await res.text() });
        show("GET /api/token", `HTTP ${res.status} keys ${Object.keys(body).sort().join(",")}, expires in ${Math.round((body.expiresAt - Date.now()) / 1000)} s`);
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.deepEqual(Object.keys(body).sort(), ["expiresAt", "token"]);
        assert.equal(typeof body.token, "string");
        assert.ok(body.expiresAt > Date.now() + 60_000, String(body.expiresAt));
        assert.ok(!JSON.stringify(body).includes("dev-secret") && !JSON.stringify(body).includes("dev-password"));
      });

      test.it("a server component calls the service with the token provider", async () => {
        const res = await get(app, "/provider");
        const text = preResult(res.text);
        show("GET /provider <pre id=result>", `HTTP ${res.status} ${text ?? res.text.slice(0, 300)}`);
        assert.equal(res.status, 200, `/provider: HTTP ${res.status}\n  server log:\n    ${app.log()}`);
        const body = JSON.parse(text);
        assert.equal(body.ok, true, `${body.kind}: ${body.message}\n  server log:\n    ${app.log()}`);
        assert.deepEqual(body.ids, [hookId]);
      });

      test.it("a client page's Client gets its token from the portal's route (Chromium)", { skip: !chromium && "Chromium not in ESTATEKIT_BROWSERS" }, async () => {
        const run = await runPage("chromium", `${app.url}/token`);
        const oauth = await (await fetch(`${emulator.url}/_emulator/oauth`)).json();
        show("/token in Chromium", { result: run.result, grants: oauth.grants });
        assert.deepEqual(run.pageErrors, []);
        assert.equal(run.result.ok, true, run.result.message);
        assert.deepEqual(run.result.ids, [hookId]);
        assert.equal(run.result.again, 1);
        assert.deepEqual(run.result.asked, ["initial"]);
        // One provider per server process: one sign-in for the route, the page and the component.
        assert.equal(oauth.grants.password, 1);
      });

      test.it("a server action registers a webhook (called from the page in Chromium)", { skip: !chromium && "Chromium not in ESTATEKIT_BROWSERS" }, async () => {
        const url = `http://127.0.0.1:9/next-action-${variant.key}`;
        const run = await runPage("chromium", `${app.url}/action?type=OWNER_CREATED&url=${encodeURIComponent(url)}`);
        show("/action in Chromium (server action)", run.result);
        assert.deepEqual(run.pageErrors, []);
        assert.equal(run.result.ok, true, `${run.result.kind}: ${run.result.message}\n  server log:\n    ${app.log()}`);
        const res = await fetch(`${emulator.url}/api/external-integrations/webhooks`, {
          headers: { authorization: "Bearer dev-token" },
        });
        const hooks = await res.json();
        assert.ok(
          hooks.some((w) => w.id === run.result.id && w.url === url && w.type === "OWNER_CREATED"),
          JSON.stringify(hooks),
        );
      });

      if (variant === variants[0]) describeSignedInStaff(variant, !chromium && "Chromium not in ESTATEKIT_BROWSERS");
    });
  }
});
