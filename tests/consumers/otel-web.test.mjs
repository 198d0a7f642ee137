// estatekit/otel in a browser page with OpenTelemetry's web SDK (tests/consumers/otel-web/): the
// packed estatekit and @opentelemetry/sdk-trace-web (locked by the project's package-lock.json),
// bundled by esbuild as an app's build would, served by the emulator and run in Chromium
// (playwright-core). The page calls the service on the emulator's second origin, so every call
// goes after a CORS preflight (the Authorization header), and hands its finished spans over
// (an in-memory exporter): the operation's span under the page's own span, one CLIENT span per
// request under it, with the HTTP conventions' attributes. What Chromium sends is watched over
// the DevTools protocol: without `propagate` neither the preflight nor the request names
// `traceparent`; with `propagate: true` both do (what a service whose CORS does not allow the
// header would refuse, failing every call: the reason propagation is off by default).
import test from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { buildSync } from "esbuild";
import { launchChromium } from "../../scripts/local.mjs";
import { assertLocked, enginesToRun, installLocked, registerWebhook, root, startEmulator } from "./lib.mjs";
import { KIND, SECRETS, ancestors, spanTree } from "./otel-spans.mjs";

const dir = `${root}tests/consumers/otel-web`;
const out = `${dir}/dist`;
const chromium = enginesToRun().includes("chromium");
const WEBHOOKS = "/api/external-integrations/webhooks";

/**
 * Opens the page at `url` in Chromium and waits for its result (30 s at most). Returns it with
 * the requests Chromium sent to `apiOrigin` (method, path, headers as sent) and its CORS
 * preflights there (the headers they asked for), as the DevTools protocol reports them.
 */
async function runTracedPage(url, apiOrigin) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    const sent = [];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    cdp.on("Network.requestWillBeSent", ({ request, type }) => {
      if (!request.url.startsWith(`${apiOrigin}/`)) return;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
      sent.push({ preflight: type === "Preflight" || request.method === "OPTIONS", method: request.method, path: new URL(request.url).pathname, headers });
    });
    await page.goto(url);
    try {
      await page.waitForFunction(() => document.body.dataset.result, null, { timeout: 30_000 });
    } catch (e) {
      throw new Error(`${url}: no result (${e.message}); page errors: ${pageErrors.join("; ")}`);
    }
    const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    return { result, pageErrors, sent };
  } finally {
    await browser.close();
  }
}

test.describe("estatekit/otel in a page with @opentelemetry/sdk-trace-web (Chromium)", { skip: !chromium && "Chromium is not in ESTATEKIT_BROWSERS" }, () => {
  let emulator;
  let api;
  let hookId;

  test.before(async () => {
    assertLocked(assert, dir, {
      "@opentelemetry/api": "dependencies",
      "@opentelemetry/core": "dependencies",
      "@opentelemetry/sdk-trace-base": "dependencies",
      "@opentelemetry/sdk-trace-web": "dependencies",
    });
    installLocked(dir);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    // esbuild --bundle --format=esm --splitting: no .wasm asset, so the entry loads its
    // embedded copy (a lazy chunk), as in tests/consumers/bundlers.
    buildSync({ entryPoints: [`${dir}/src/main.js`], absWorkingDir: dir, bundle: true, format: "esm", splitting: true, outdir: out, logLevel: "warning" });
    copyFileSync(`${dir}/index.html`, `${out}/index.html`);
    emulator = await startEmulator(["--second-origin", "--static", out]);
    api = (await (await fetch(`${emulator.url}/_emulator/info`)).json()).secondOrigin;
    assert.match(api ?? "", /^http:\/\/127\.0\.0\.1:\d+$/, "the emulator names its second origin");
    assert.notEqual(api, emulator.url);
    hookId = await registerWebhook(emulator.url, { type: "UNIT_CREATED", url: "http://127.0.0.1:9/otel-web" });
  });
  test.after(() => emulator?.stop());

  test.it("a call gives the operation's span under the page's span and one CLIENT span per request, with their attributes; no traceparent is sent", async () => {
    const { result, pageErrors, sent } = await runTracedPage(`${emulator.url}/?api=${encodeURIComponent(api)}`, api);
    const { spans } = result;
    console.log(`# the page's spans:\n${spanTree(spans ?? [])}`);
    assert.deepEqual(pageErrors, []);
    assert.equal(result.ok, true, result.message);
    assert.equal(result.instrumentedIsClient, true, "instrument(client) gives the Client back");
    assert.deepEqual(result.webhooks, [hookId]);
    assert.equal(result.missing, "not_found");

    const pageSpan = spans.find((s) => s.name === "show webhooks");
    assert.ok(pageSpan, "the page's own span");
    const url = new URL(api);
    const check = (operationName, path, template, status, { errorKind } = {}) => {
      const operations = spans.filter((s) => s.name === `estatekit ${operationName}`);
      assert.equal(operations.length, 1, `one span for ${operationName}`);
      const [operation] = operations;
      assert.equal(operation.kind, KIND.INTERNAL);
      assert.equal(operation.scope, "estatekit");
      assert.equal(operation.traceId, pageSpan.traceId);
      assert.equal(operation.parentSpanId, pageSpan.spanId, `${operationName}'s span is the page span's child`);
      const requests = spans.filter((s) => s.parentSpanId === operation.spanId);
      assert.equal(requests.length, 1, `one request span under ${operationName}`);
      const [request] = requests;
      assert.equal(request.kind, KIND.CLIENT);
      assert.equal(request.scope, "estatekit");
      assert.equal(request.name, `GET ${template}`);
      assert.equal(request.attributes["http.request.method"], "GET");
      assert.equal(request.attributes["url.full"], `${api}${path}`);
      assert.equal(request.attributes["url.template"], template);
      assert.equal(request.attributes["server.address"], url.hostname);
      assert.equal(request.attributes["server.port"], Number(url.port));
      assert.equal(request.attributes["http.response.status_code"], status);
      assert.equal(request.attributes["http.request.resend_count"], undefined, "a first attempt has no resend count");
      if (errorKind) {
        assert.equal(request.attributes["error.type"], String(status));
        assert.equal(operation.attributes["error.type"], errorKind);
        assert.equal(operation.status.code, 2, "the operation's span ends in error");
      } else {
        assert.equal(request.attributes["error.type"], undefined);
        assert.equal(operation.attributes["error.type"], undefined);
      }
      assert.ok(ancestors(request, spans).includes(pageSpan));
      return request;
    };
    check("listWebhooks", WEBHOOKS, WEBHOOKS, 200);
    check("getDocument", "/api/file-storage/company/documents/no-such-document/metadata", "/api/file-storage/company/documents/{documentId}/metadata", 404, { errorKind: "not_found" });
    assert.equal(spans.filter((s) => s.kind === KIND.CLIENT).length, 2, "one CLIENT span per request, nothing else");
    for (const secret of SECRETS) assert.ok(!JSON.stringify(spans).includes(secret), `no span holds ${secret}`);

    // What Chromium sent: a preflight before each call, asking for Authorization only; no
    // traceparent on the calls themselves.
    console.log(`# sent to ${api}: ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}${r.preflight ? ` (preflight, asks ${r.headers["access-control-request-headers"]})` : ""}`))}`);
    const preflights = sent.filter((r) => r.preflight);
    const calls = sent.filter((r) => !r.preflight);
    assert.equal(calls.length, 2, "two calls");
    assert.ok(preflights.length >= 1, "the calls went after a CORS preflight");
    for (const p of preflights) assert.equal(p.headers["access-control-request-headers"], "authorization");
    for (const c of calls) assert.equal(c.headers.traceparent, undefined, `${c.method} ${c.path} sent no traceparent`);
  });

  test.it("with propagate: true, each request carries its CLIENT span's traceparent, which the preflight asks to send", async () => {
    const { result, pageErrors, sent } = await runTracedPage(`${emulator.url}/?propagate=1&api=${encodeURIComponent(api)}`, api);
    assert.deepEqual(pageErrors, []);
    assert.equal(result.ok, true, result.message);
    assert.equal(result.propagate, true);
    const calls = sent.filter((r) => !r.preflight);
    const preflights = sent.filter((r) => r.preflight);
    console.log(`# sent to ${api} with propagate: ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}${r.preflight ? ` (preflight, asks ${r.headers["access-control-request-headers"]})` : ` traceparent ${r.headers.traceparent}`}`))}`);
    const clients = result.spans.filter((s) => s.kind === KIND.CLIENT);
    assert.equal(calls.length, 2);
    assert.deepEqual(
      calls.map((c) => c.headers.traceparent).sort(),
      clients.map((s) => `00-${s.traceId}-${s.spanId}-01`).sort(),
      "each request's traceparent names its CLIENT span",
    );
    assert.ok(preflights.length >= 1);
    for (const p of preflights) assert.match(p.headers["access-control-request-headers"], /(^|,)traceparent(,|$)/);
  });
});
