// estatekit/webhooks in a Node 20 consumer (tests/consumers/webhooks): a node:http server
// (toNodeListener) receives real deliveries from the native emulator and answers each bad input
// of issue 27 with its status, and keeps serving. Then the same entry in the browser engines
// (webhooks/index.html, no bundler: the module loaded from its .wasm file's URL).
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { buildSync } from "esbuild";
import { ENGINE_NAMES, enginesToRun, freePort, installPackedOnce, registerWebhook, root, runPage, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/webhooks`;
const SECRET = "hooks-3f9c1e7a"; // the unguessable path segment the README advises

const post = (url, body, headers = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

/** Polls `probe` until it gives a value (or 10 s pass). */
async function waitFor(probe, what) {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const valid = (over = {}) => ({
  uuid: "evt-direct-1",
  operation: "UNIT_UPDATED",
  subdomain: "acme",
  language: "en",
  createdAt: "2026-11-25T10:07:28.052Z",
  data: { id: "unit-1" },
  ...over,
});

test.describe("estatekit/webhooks in Node 20 (node:http + toNodeListener)", () => {
  let emulator;
  let app;
  let receiver;
  let hookUrl;
  /** Every event a handler was called with, in order. */
  const seen = [];
  let ownerFailures = 1; // OWNER_UPDATED's handler throws this many times first

  test.before(async () => {
    installPackedOnce(dir);
    emulator = await startEmulator(["--delivery-backoff-ms", "50"]);
    app = await import(`${dir}/receiver.mjs`);
    const handler = app.createWebhookHandler({
      dedupe: true,
      maxBytes: 1024 * 1024,
      on: {
        LISTING_CANDIDATE_APPLIED: (event) => {
          seen.push({ type: event.operation, unit: event.data.listing.unit.name, event });
        },
        OWNER_UPDATED: (event) => {
          seen.push({ type: event.operation, event });
          if (ownerFailures-- > 0) throw new Error("the app's database is down");
        },
        UNIT_UPDATED: (event) => {
          seen.push({ type: event.operation, event });
        },
      },
      onUnknown: (event) => {
        seen.push({ type: null, raw: event.rawOperation, event });
      },
      onError: () => {}, // the throwing handler above is expected
    });
    receiver = await app.serve(handler);
    hookUrl = `${receiver.url}/webhooks/${SECRET}`;
    for (const type of ["LISTING_CANDIDATE_APPLIED", "OWNER_UPDATED"]) {
      await registerWebhook(emulator.url, { type, url: hookUrl });
    }
  });
  test.after(async () => {
    await receiver?.close();
    await emulator?.stop();
  });

  const deliveries = async () => (await fetch(`${emulator.url}/_emulator/deliveries`)).json();
  const emit = async (body) => (await post(`${emulator.url}/_emulator/emit`, JSON.stringify(body))).json();

  test.it("receives a real delivery, typed, and answers 200", async () => {
    const { uuid, webhooks } = await emit({ type: "LISTING_CANDIDATE_APPLIED" });
    assert.equal(webhooks, 1);
    const got = await waitFor(() => seen.find((s) => s.event.uuid === uuid), "the delivery");
    assert.equal(got.type, "LISTING_CANDIDATE_APPLIED");
    assert.equal(got.unit, "WE 01");
    assert.equal(got.event.language, "en");
    assert.match(got.event.createdAt, /Z$/);
    const record = await waitFor(async () => (await deliveries()).find((d) => d.eventUuid === uuid), "the record");
    assert.equal(record.status, 200);
    console.log(`# delivered ${uuid}: unit ${got.unit}, subdomain ${got.event.subdomain}, answered ${record.status}`);
  });

  test.it("a handler that throws answers 500; the sender's retry runs it again; a redelivery is deduplicated", async () => {
    const { uuid } = await emit({ type: "OWNER_UPDATED" });
    const records = await waitFor(async () => {
      const list = (await deliveries()).filter((d) => d.eventUuid === uuid);
      return list.some((d) => d.status === 200) && list;
    }, "the retried delivery");
    assert.deepEqual(
      records.map((d) => [d.attempt, d.status]),
      [
        [1, 500],
        [2, 200],
      ],
    );
    assert.equal(seen.filter((s) => s.event.uuid === uuid).length, 2, "the handler ran for the retry");
    // The same delivery again (what a sender's retry after a lost 200 looks like).
    const again = await post(hookUrl, JSON.stringify(records[1].body));
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), { received: true, duplicate: true });
    assert.equal(seen.filter((s) => s.event.uuid === uuid).length, 2, "not handled a third time");
    console.log(`# ${uuid}: attempts ${records.map((d) => d.status).join(", ")}; redelivered: 200 duplicate`);
  });

  test.it("the docs' subdomain \"acme\" against the emulator: each delivery answered 403 and told to onError with the event's subdomain; the subdomain of /_emulator/info: 200", async () => {
    const info = await (await fetch(`${emulator.url}/_emulator/info`)).json();
    assert.match(info.subdomain, /^emu-[0-9a-f]{8}$/);
    const told = [];
    const handled = [];
    const receivers = [];
    try {
      for (const [subdomain, type] of [["acme", "UNIT_CREATED"], [info.subdomain, "UNIT_DELETED"]]) {
        const handler = app.createWebhookHandler({ subdomain, on: { [type]: (e) => void handled.push(e.uuid) }, onError: (error, event) => told.push({ error, event }) });
        const r = await app.serve(handler);
        receivers.push(r);
        await registerWebhook(emulator.url, { type, url: `${r.url}/webhooks/${SECRET}` });
      }
      const wrong = await emit({ type: "UNIT_CREATED" });
      const records = await waitFor(async () => {
        const list = (await deliveries()).filter((d) => d.eventUuid === wrong.uuid);
        // The emulator makes 3 attempts of a delivery answered other than 2xx.
        return list.length === 3 && told.length >= 3 && list;
      }, "the refused delivery's 3 attempts and their onError");
      assert.ok(records.every((d) => d.status === 403), JSON.stringify(records.map((d) => d.status)));
      assert.equal(told.length, records.length, "each refused attempt told to onError");
      for (const { error, event } of told) {
        assert.equal(error.name, "WebhookRefused");
        assert.equal(error.reason, "subdomain");
        assert.equal(event.uuid, wrong.uuid);
        assert.ok(error.message.includes(`"${info.subdomain}"`) && error.message.includes('"acme"'), error.message);
      }
      console.log(`# onError sees (${records.length} attempts, each 403): ${told[0].error.message}`);
      const right = await emit({ type: "UNIT_DELETED" });
      const record = await waitFor(async () => (await deliveries()).find((d) => d.eventUuid === right.uuid), "the accepted delivery");
      assert.equal(record.status, 200);
      assert.deepEqual(handled, [right.uuid]);
      assert.equal(told.length, records.length, "nothing more told");
    } finally {
      for (const r of receivers) await r.close();
    }
  });

  test.it("emitted data that violates the type's shape is delivered and answered 400", async () => {
    const { uuid } = await emit({ type: "LISTING_CANDIDATE_APPLIED", data: { id: "cand-x" } });
    const record = await waitFor(async () => (await deliveries()).find((d) => d.eventUuid === uuid), "the record");
    assert.equal(record.status, 400);
    assert.equal(seen.some((s) => s.event.uuid === uuid), false);
    await new Promise((r) => setTimeout(r, 300)); // the emulator's retries (backoff 50 ms), if any
    const attempts = (await deliveries()).filter((d) => d.eventUuid === uuid).map((d) => d.status);
    assert.ok(attempts.every((s) => s === 400));
    console.log(`# invalid data for LISTING_CANDIDATE_APPLIED delivered, answered ${attempts.join(", ")} (the emulator's attempts)`);
  });

  test.describe("bad input, each answered, the server still serving", () => {
    const te = new TextEncoder();
    const cases = [
      ["not JSON", "this is garbage", 400, /not JSON/],
      ["JSON that is not an object", "[1, 2, 3]", 400, /expected a JSON object/],
      ["a JSON string", '"hello"', 400, /expected a JSON object/],
      ["empty body", "", 400, /not JSON/],
      ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 400, /UTF-8/],
      ["an unknown operation", JSON.stringify(valid({ uuid: "evt-new", operation: "LISTING_TELEPORTED" })), 200],
      ["a known type with wrong data", JSON.stringify(valid({ operation: "LISTING_CANDIDATE_APPLIED", data: { id: 5 } })), 400, /at data: .*missing field|at data.id/],
      ["createdAt not ISO 8601", JSON.stringify(valid({ createdAt: "yesterday" })), 400, /at createdAt: .*ISO 8601/],
      ["a UTF-8 BOM", new Uint8Array([0xef, 0xbb, 0xbf, ...te.encode(JSON.stringify(valid({ uuid: "evt-bom" })))]), 200],
      [
        "duplicate keys (the last wins, as JSON.parse)",
        `{"uuid":5,"uuid":"evt-dup","operation":"UNIT_UPDATED","subdomain":"acme","language":"en","createdAt":"2026-11-25T10:07:28Z","data":1}`,
        200,
      ],
      [
        "deeply nested data (100,000 levels)",
        JSON.stringify(valid({ uuid: "evt-deep", data: null })).replace('"data":null', `"data":${"[".repeat(100_000)}${"]".repeat(100_000)}`),
        200,
      ],
      [
        "deeply nested unknown member of known data",
        JSON.stringify(valid({ uuid: "evt-deep-2", data: null })).replace('"data":null', `"data":{"x":${"{\"a\":".repeat(50_000)}1${"}".repeat(50_000)}}`),
        200,
      ],
      ["a 10 MB body", JSON.stringify(valid({ uuid: "evt-big", data: "x".repeat(10 * 1024 * 1024) })), 413, /larger than/],
    ];
    for (const member of ["uuid", "operation", "subdomain", "language", "createdAt", "data"]) {
      const missing = valid();
      delete missing[member];
      cases.push([`${member} missing`, JSON.stringify(missing), 400, new RegExp(`missing field \`${member}\``)]);
      if (member !== "data") {
        cases.push([`${member} a number`, JSON.stringify(valid({ [member]: 7 })), 400, new RegExp(`at ${member}: is the number \`7\`, expected a string`)]);
      }
    }
    for (const [name, body, status, message] of cases) {
      test.it(`${name}: ${status}`, async () => {
        const res = await post(hookUrl, body);
        const answer = await res.json();
        assert.equal(res.status, status, JSON.stringify(answer).slice(0, 300));
        if (message) assert.match(answer.error, message);
        if (answer.error) assert.ok(answer.error.length <= 300, "the message never repeats the whole body");
        console.log(`# ${name}: ${res.status}${answer.error ? ` ${answer.error.slice(0, 120)}` : ""}`);
      });
    }

    test.it("the unknown operation reached onUnknown with operation null and rawOperation", () => {
      const got = seen.find((s) => s.event.uuid === "evt-new");
      assert.equal(got?.type, null);
      assert.equal(got?.raw, "LISTING_TELEPORTED");
    });

    test.it("GET: 405; another subdomain: 403; a body over maxBytes without Content-Length: 413", async () => {
      const get = await fetch(hookUrl);
      assert.equal(get.status, 405);
      assert.equal(get.headers.get("allow"), "POST");
      const strict = await app.serve(app.createWebhookHandler({ subdomain: "acme", on: {} }));
      const tiny = await app.serve(app.createWebhookHandler({ maxBytes: 64, on: {} }));
      try {
        assert.equal((await post(strict.url, JSON.stringify(valid({ subdomain: "evil" })))).status, 403);
        assert.equal((await post(strict.url, JSON.stringify(valid({ uuid: "evt-acme" })))).status, 200);
        assert.equal((await post(tiny.url, JSON.stringify(valid()))).status, 413); // Content-Length
        // Streamed, no Content-Length, endless: read chunk by chunk and stopped past maxBytes.
        const stream = new ReadableStream({
          pull(controller) {
            controller.enqueue(new Uint8Array(1024).fill(0x20));
          },
        });
        const res = await fetch(tiny.url, { method: "POST", body: stream, duplex: "half" }).catch((e) => e);
        assert.equal(res.status, 413, String(res));
      } finally {
        await strict.close();
        await tiny.close();
      }
    });

    test.it("a 10 MB body under a larger maxBytes is read and parsed: 200", async () => {
      const roomy = await app.serve(app.createWebhookHandler({ maxBytes: 16 * 1024 * 1024, on: {} }));
      try {
        const big = JSON.stringify(valid({ uuid: "evt-big-ok", data: { blob: "x".repeat(10 * 1024 * 1024) } }));
        const res = await post(roomy.url, big);
        assert.equal(res.status, 200);
        console.log(`# a ${big.length}-byte body with maxBytes 16 MiB: ${res.status}`);
      } finally {
        await roomy.close();
      }
    });

    test.it("still serves after all of that", async () => {
      const { uuid } = await emit({ type: "LISTING_CANDIDATE_APPLIED" });
      await waitFor(() => seen.find((s) => s.event.uuid === uuid), "a last delivery");
    });
  });

  test.it("dedupe: copies of a delivery that arrive while it is handled run the handler once", async () => {
    let calls = 0;
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const handler = app.createWebhookHandler({
      dedupe: true,
      on: {
        UNIT_UPDATED: async () => {
          calls += 1;
          await gate;
        },
      },
    });
    const request = () => new Request("http://receiver/", { method: "POST", body: JSON.stringify(valid({ uuid: "evt-concurrent" })) });
    const answers = [handler(request()), handler(request()), handler(request())];
    await new Promise((r) => setTimeout(r, 50));
    release();
    const bodies = await Promise.all((await Promise.all(answers)).map(async (r) => [r.status, await r.json()]));
    assert.equal(calls, 1);
    assert.deepEqual(bodies, [
      [200, { received: true }],
      [200, { received: true, duplicate: true }],
      [200, { received: true, duplicate: true }],
    ]);
  });

  test.it("an unknown-type event is a copy with own members only (no __proto__ injection)", async () => {
    const body = `{"__proto__":{"isAdmin":true},"uuid":"u","operation":"NEW_TYPE","subdomain":"acme","language":"en","createdAt":"2026-11-25T10:07:28.052Z","data":{}}`;
    const event = await app.parseEvent(body);
    assert.equal(event.operation, null);
    assert.equal(event.rawOperation, "NEW_TYPE");
    assert.equal(event.isAdmin, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(event, "__proto__")?.value, { isAdmin: true });
    for (const [over, path] of [[{ uuid: "" }, "uuid"], [{ data: undefined }, "data"], [{ createdAt: "2026-02-29T00:00:00Z" }, "createdAt"]]) {
      const error = await app.parseEvent(valid(over)).catch((e) => e);
      assert.equal(error.kind, "invalid_event", JSON.stringify(over));
      assert.equal(error.path, path);
    }
  });

  test.it("parseEvent: the caller's own object, unknown members kept", async () => {
    const body = valid({ extra: { kept: true } });
    const event = await app.parseEvent(body);
    assert.equal(event, body);
    const fromText = await app.parseEvent(JSON.stringify(body));
    assert.deepEqual(fromText, body);
    const error = await app.parseEvent("{").catch((e) => e);
    assert.equal(error.name, "WebhookEventError");
    assert.equal(error.kind, "invalid_event");
    assert.ok(error instanceof app.WebhookEventError);
    assert.equal(app.isInvalidEvent(error), true);
  });
});

// A Cloudflare Worker (webhooks/worker.js) built as wrangler builds one (esbuild with the
// conditions workerd, worker and browser; a .wasm import kept as a module) and run by workerd,
// Cloudflare's runtime (from npm), which compiles no WebAssembly from bytes or URLs.
test.describe("estatekit/webhooks in a Cloudflare Worker (workerd)", () => {
  const out = `${root}target/consumers/worker`;
  let child;
  let url;
  test.before(async () => {
    installPackedOnce(dir);
    mkdirSync(out, { recursive: true });
    buildSync({
      entryPoints: [`${dir}/worker.js`],
      bundle: true,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      external: ["*.wasm"],
      outfile: `${out}/worker.js`,
      logLevel: "warning",
    });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // (capnp embeds files relative to the config.)
    copyFileSync(`${dir}/node_modules/estatekit/estatekit_webhooks_wasm_bg.wasm`, `${out}/estatekit_webhooks_wasm_bg.wasm`);
    writeFileSync(
      `${out}/config.capnp`,
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .receiver)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const receiver :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "estatekit_webhooks_wasm_bg.wasm", wasm = embed "estatekit_webhooks_wasm_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
`,
    );
    // The binary itself (node_modules/.bin/workerd is a Node wrapper that would leave it running,
    // holding this process's output open, when killed).
    const binary = createRequire(`${dir}/package.json`)("workerd").default;
    child = spawn(binary, ["serve", `${out}/config.capnp`], { stdio: ["ignore", "ignore", "inherit"] });
    await waitFor(() => fetch(`${url}/seen`).then((r) => r.ok, () => false), "workerd to listen");
  });
  test.after(() => child?.kill());

  test.it("checks deliveries and answers them: 200, a duplicate, 400, 403, 405", async () => {
    const body = JSON.stringify(valid({ uuid: "evt-worker-1" }));
    const statuses = [];
    for (const [init, what] of [
      [{ method: "POST", body }, "valid"],
      [{ method: "POST", body }, "again"],
      [{ method: "POST", body: "not json" }, "garbage"],
      [{ method: "POST", body: JSON.stringify(valid({ uuid: "evt-worker-2", subdomain: "other" })) }, "other subdomain"],
      [{ method: "GET" }, "GET"],
    ]) {
      const response = await fetch(url, init);
      statuses.push(`${what}: ${response.status} ${await response.text()}`);
    }
    console.log(`workerd: ${statuses.join("; ")}`);
    assert.deepEqual(
      statuses.map((s) => Number(s.split(": ")[1].slice(0, 3))),
      [200, 200, 400, 403, 405],
    );
    assert.match(statuses[1], /"duplicate":true/);
    assert.deepEqual(await (await fetch(`${url}/seen`)).json(), ["UNIT_UPDATED evt-worker-1"]);
  });
});

test.describe("estatekit/webhooks in browser pages", () => {
  for (const engine of enginesToRun()) {
    test.describe(`in ${ENGINE_NAMES[engine]}`, () => {
      let emulator;
      test.before(async () => {
        installPackedOnce(dir);
        emulator = await startEmulator(["--static", dir]);
      });
      test.after(() => emulator?.stop());

      test.it("parseEvent and a handler answering Requests (200, 400, 413, 405)", async () => {
        const run = await runPage(engine, `${emulator.url}/index.html`);
        if (engine !== "webkit") assert.deepEqual(run.pageErrors, []);
        assert.deepEqual(run.result, {
          unit: "WE 01",
          bad: { name: "WebhookEventError", kind: "invalid_event" },
          seen: ["cand-1@example.com"],
          statuses: [200, 400, 413, 405],
        });
        assert.equal(run.wasm.length, 1, `the page fetched the webhooks module only: ${run.wasm}`);
        assert.match(run.wasm[0], /estatekit_webhooks_wasm_bg\.wasm$/);
      });
    });
  }
});
