// The in-page half of the estatekit benchmark; bench/run.mjs drives it through `window.bench`.
// Every scenario has three samplers doing the same work: `estatekit` (the package's Client),
// `baseline` (raw: hand-written fetch / FormData / response.json() with the same headers and an
// Array.isArray/ok check) and `peer` (the validated peer of bench/peer.js: fetch + response.json()
// + zod 4 schemas of the same shapes). Samples are interleaved, the order rotating every round
// (A B C, B C A, C A B, ...), with a forced GC (when Chromium runs with --js-flags=--expose-gc)
// before every sample, outside the timing.
// A scenario may have a fourth sampler, `floor` (listWebhooksFloor: the stack floor of bench/floor/,
// issue 63), alternated with the three the same way.
// Neither the package nor the peer is imported when this module loads: only `setup()` and
// `coldStart()` import them.

const TOKEN = "dev-token";
const PKG = "/pkg/estatekit.js";
const PEER = "/peer/peer.js";
// The package bundled as an app ships it (bench/run.mjs's bundleApp): the cold start's user path.
const APP = "/app/estatekit.js";
const OTEL = "/otel/otel.js";
// The stack floor's module (bench/floor/, built by scripts/build-floor.sh as the shipped module is).
const FLOOR = "/floor/estatekit_bench_floor.js";
const WEBHOOKS = "/api/external-integrations/webhooks";
const DOCUMENTS = "/api/file-storage/company/documents";
const GRAPHQL = "/api/reporting/graphql";

// The same query text estatekit builds for `messages({ candidateId })` with the default fields.
const MESSAGES_QUERY =
  "query Messages($candidateId: String) { messages(input: { filter: { candidateId: $candidateId } }) " +
  "{ id candidateId sentBy userId text replyToMessageId isRead attachments { id name resourcePath type size } } }";

const base = location.origin;
const auth = { Authorization: `Bearer ${TOKEN}` };

let pkg = null; // the imported module
let wasmMemory = null; // InitOutput.memory
let client = null;
let peer = null; // bench/peer.js's client
let observed = null; // the same client with a no-op onEvent (what request events cost)
let traced = null; // bench/otel.js's instrumented client and its exporters (made by listWebhooksOtel)
let floor = null; // bench/otel.js's hand-written SDK spans around a raw fetch (made by otelFloor)
let stackFloor = null; // bench/floor/'s Floor (made by listWebhooksFloor)

const log = (text) => {
  document.getElementById("log").textContent += `${text}\n`;
};

async function check(response, what) {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
  return response;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const collect = () => {
  if (typeof globalThis.gc === "function") globalThis.gc();
};

// Admin helpers (never timed).
async function deleteDocument(id) {
  await check(await fetch(`${base}${DOCUMENTS}/${encodeURIComponent(id)}`, { method: "DELETE", headers: auth }), "delete document");
}

// --- scenarios ------------------------------------------------------------------------------
// Each: prepare() once (untimed), baseline()/estatekit() per sample (timed; `batch` calls per
// sample, the time reported per call), verify(result) after the timing, after(result) cleanup.

const scenarios = {
  listWebhooks: {
    batch: 10,
    async prepare() {
      for (const w of await client.listWebhooks()) await client.deleteWebhook(w.id);
      for (let i = 0; i < 10; i++) {
        await client.registerWebhook({ type: "UNIT_CREATED", url: `${base}/_emulator/sink/bench-${i}` });
      }
      return { webhooks: (await client.listWebhooks()).length };
    },
    async baseline() {
      const r = await fetch(`${base}${WEBHOOKS}`, { headers: auth });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const v = await r.json();
      if (!Array.isArray(v)) throw new Error("not an array");
      return v;
    },
    peer: () => peer.listWebhooks(),
    estatekit: () => client.listWebhooks(),
    verify: (v) => v.length === 10 || `expected 10 webhooks, got ${v.length}`,
  },

  // listWebhooks again, estatekit with a no-op onEvent: the cost of building and passing the
  // request events (request, response, done) of every call.
  listWebhooksObserved: {
    batch: 10,
    prepare: () => scenarios.listWebhooks.prepare(),
    baseline: () => scenarios.listWebhooks.baseline(),
    peer: () => scenarios.listWebhooks.peer(),
    estatekit: () => observed.listWebhooks(),
    verify: (v) => scenarios.listWebhooks.verify(v),
  },

  // listWebhooks through a Client instrumented by estatekit/otel (bench/otel.js: the SDK's
  // BasicTracerProvider and MeterProvider, exporters that drop), against the same build's Client
  // uninstrumented in the `peer` slot: that is the reference of this row's budget.
  listWebhooksOtel: {
    batch: 10,
    async prepare() {
      traced ??= (await import(OTEL)).instrumentedClient(pkg.Client, { baseUrl: base, token: TOKEN });
      return scenarios.listWebhooks.prepare();
    },
    baseline: () => scenarios.listWebhooks.baseline(),
    peer: () => client.listWebhooks(),
    estatekit: () => traced.client.listWebhooks(),
    verify: (v) => scenarios.listWebhooks.verify(v),
    // The spans did reach the exporter (the batch processor sends them every 5 s and on flush).
    async extra() {
      await traced.tracerProvider.forceFlush();
      return { spansExported: traced.spans.exported };
    },
  },

  // The floor of listWebhooksOtel's budget: the SDK's own spans and point around a raw fetch,
  // written by hand (bench/otel.js's sdkFloor), against the same raw fetch in the peer's slot. No
  // instrumentation of a call with these providers can cost less than this row shows.
  otelFloor: {
    batch: 10,
    async prepare() {
      floor ??= (await import(OTEL)).sdkFloor(base, WEBHOOKS);
      return scenarios.listWebhooks.prepare();
    },
    baseline: () => scenarios.listWebhooks.baseline(),
    peer: () => scenarios.listWebhooks.baseline(),
    estatekit: () => floor.traced(() => scenarios.listWebhooks.baseline()),
    verify: (v) => scenarios.listWebhooks.verify(v),
    async extra() {
      await floor.tracerProvider.forceFlush();
      return { spansExported: floor.spans.exported };
    },
  },

  // listWebhooks against the stack floor (issue 63): the same request sent and read by the
  // stack's crates alone (bench/floor/: js/request.js's sendRequest awaited as a JsFuture, the
  // head through gloo-net, JSON.parse, serde_json into Vec<Webhook>, future_to_promise), none of
  // the client's own logic. Its budget is against the `floor` sampler; raw and the peer run beside.
  listWebhooksFloor: {
    batch: 10,
    async prepare() {
      if (!stackFloor) {
        const m = await import(FLOOR);
        await m.default();
        stackFloor = new m.Floor(base, TOKEN);
      }
      return scenarios.listWebhooks.prepare();
    },
    baseline: () => scenarios.listWebhooks.baseline(),
    peer: () => scenarios.listWebhooks.peer(),
    floor: () => stackFloor.listWebhooks(),
    estatekit: () => client.listWebhooks(),
    verify: (v) => scenarios.listWebhooks.verify(v),
  },

  listDocuments: {
    prepare() {
      this.memBefore = wasmMemory.buffer.byteLength;
      return { memoryBefore: this.memBefore };
    },
    async baseline() {
      const r = await fetch(`${base}${DOCUMENTS}/metadata?propertyId=prop-bulk&take=10000`, { headers: auth });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const v = await r.json();
      if (!Array.isArray(v)) throw new Error("not an array");
      return v;
    },
    peer: () => peer.listDocuments({ propertyId: "prop-bulk", take: 10000 }),
    estatekit: () => client.listDocuments({ propertyId: "prop-bulk", take: 10000 }),
    verify: (v) => v.length === 10000 || `expected 10000 documents, got ${v.length}`,
    // Untimed, after the samples: 100 more consecutive estatekit calls, then the module's memory
    // against where it was before the first call (each answer's bytes are copied into it to be
    // checked; the copy must be released or reused).
    async extra() {
      for (let i = 0; i < 100; i++) await this.estatekit();
      const r = await fetch(`${base}${DOCUMENTS}/metadata?propertyId=prop-bulk&take=10000`, { headers: auth });
      const bodyBytes = (await r.arrayBuffer()).byteLength;
      return { memoryBefore: this.memBefore, memoryAfter: wasmMemory.buffer.byteLength, bodyBytes };
    },
  },

  messages: {
    async baseline() {
      const r = await fetch(`${base}${GRAPHQL}`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ query: MESSAGES_QUERY, variables: { candidateId: "cand-bulk" } }),
      });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const v = await r.json();
      if (v.errors) throw new Error(`GraphQL: ${JSON.stringify(v.errors).slice(0, 200)}`);
      const messages = v.data?.messages;
      if (!Array.isArray(messages)) throw new Error("no data.messages array");
      return messages;
    },
    peer: () => peer.messages({ candidateId: "cand-bulk" }),
    estatekit: () => client.listMessages({ candidateId: "cand-bulk" }),
    verify: (v) =>
      (v.length >= 20000 && v.every((m) => Array.isArray(m.attachments))) ||
      `expected >= 20000 messages with attachments, got ${v.length}`,
  },

  uploadDocument: {
    async prepare() {
      // Zero-filled 64 MiB; created once, outside the timing.
      this.blob = new Blob([new Uint8Array(64 * 1024 * 1024)], { type: "application/pdf" });
      this.memBefore = wasmMemory.buffer.byteLength;
      this.memMax = this.memBefore;
      return { blobBytes: this.blob.size, memoryBefore: this.memBefore };
    },
    async baseline() {
      const form = new FormData();
      form.append("resourcePath", "properties/bench");
      form.append("metadata", "{}");
      form.append("file", this.blob, "upload");
      const r = await fetch(`${base}${DOCUMENTS}`, { method: "POST", headers: auth, body: form });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const v = await r.json();
      if (typeof v?.id !== "string") throw new Error("no id in the record");
      return v;
    },
    peer() {
      return peer.uploadDocument({ file: this.blob, resourcePath: "properties/bench" });
    },
    estatekit() {
      return client.uploadDocument({ file: this.blob, resourcePath: "properties/bench" });
    },
    verify: (v) => v.size === 64 * 1024 * 1024 || `stored size ${v.size}`,
    async after(v, mode) {
      if (mode === "estatekit") this.memMax = Math.max(this.memMax, wasmMemory.buffer.byteLength);
      await deleteDocument(v.id);
    },
    extra() {
      const memoryAfter = wasmMemory.buffer.byteLength;
      this.memMax = Math.max(this.memMax, memoryAfter);
      return { memoryBefore: this.memBefore, memoryAfter, memoryGrowth: this.memMax - this.memBefore };
    },
  },

  getDocument: {
    async prepare() {
      this.ids = (await client.listDocuments({ propertyId: "prop-bulk", take: 1000 })).map((d) => d.id);
      this.failures = { baseline: 0, peer: 0, estatekit: 0 };
      this.firstError = {};
      return { ids: this.ids.length };
    },
    async baseline() {
      const one = async (id) => {
        const r = await fetch(`${base}${DOCUMENTS}/${encodeURIComponent(id)}/metadata`, { headers: auth });
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        const v = await r.json();
        if (typeof v?.id !== "string") throw new Error("no id");
        return v;
      };
      return Promise.allSettled(this.ids.map(one));
    },
    peer() {
      return Promise.allSettled(this.ids.map((id) => peer.getDocument(id)));
    },
    estatekit() {
      return Promise.allSettled(this.ids.map((id) => client.getDocument(id)));
    },
    verify: (v) => v.length === 1000 || `expected 1000 results, got ${v.length}`,
    async after(v, mode) {
      for (const s of v) {
        if (s.status === "rejected") {
          this.failures[mode] += 1;
          this.firstError[mode] ??= String(s.reason?.message ?? s.reason);
        }
      }
    },
    extra() {
      return { failures: this.failures, firstError: this.firstError };
    },
  },
};

// --- API used by bench/run.mjs ------------------------------------------------------------

/** Imports and initialises the package and the peer, creates the clients. */
async function setup() {
  peer = (await import(PEER)).peerClient({ baseUrl: base, token: TOKEN });
  pkg = await import(PKG);
  const out = await pkg.default();
  wasmMemory = out.memory;
  client = new pkg.Client({ baseUrl: base, token: TOKEN });
  observed = new pkg.Client({ baseUrl: base, token: TOKEN, onEvent: () => {} });
  return { memory: wasmMemory.buffer.byteLength };
}

async function timeOne(scenario, mode) {
  const s = scenarios[scenario];
  const fn = s[mode];
  const batch = s.batch ?? 1;
  collect();
  await settle();
  let result;
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) result = await fn.call(s);
  const ms = (performance.now() - t0) / batch;
  const ok = s.verify(result);
  if (ok !== true) throw new Error(`${scenario}/${mode}: ${ok}`);
  if (s.after) await s.after(result, mode);
  return ms;
}

/** The samplers, in the order of the first round; later rounds rotate it. */
const MODES = ["baseline", "peer", "estatekit"];
/** A scenario's samplers: the three, and `floor` when it has one. */
const modesOf = (s) => (s.floor ? ["baseline", "peer", "floor", "estatekit"] : MODES);
const rotated = (modes, i) => modes.map((_, k) => modes[(i + k) % modes.length]);

/**
 * Runs `warmup` untimed rounds, then `runs` timed rounds of one sample per sampler, rotating
 * which goes first. Returns { baseline: [ms], peer: [ms], estatekit: [ms], prepared, extra }
 * (and `floor: [ms]` for a scenario with that sampler).
 */
async function run(scenario, { warmup = 2, runs = 10 } = {}) {
  const s = scenarios[scenario];
  if (!s) throw new Error(`unknown scenario ${scenario}`);
  const prepared = s.prepare ? await s.prepare() : {};
  const modes = modesOf(s);
  const out = { ...Object.fromEntries(modes.map((m) => [m, []])), prepared };
  for (let i = 0; i < warmup + runs; i++) {
    for (const mode of rotated(modes, i)) {
      const ms = await timeOne(scenario, mode);
      if (i >= warmup) out[mode].push(ms);
    }
  }
  out.extra = s.extra ? await s.extra() : {};
  log(`${scenario}: ${runs} rounds done`);
  return out;
}

/**
 * One cold-start sample in a fresh page.
 * - estatekit: the user's path, as an app meets it: import() of the package bundled as an app
 *   ships it (esbuild, as the peer is bundled), new Client, the
 *   first resolved listWebhooks (the package fetches, compiles and instantiates its module by
 *   itself, on the first call). The .wasm file's fetch is read from the page's resource timing.
 * - phases: the same work with the loading split apart (a report, not the budget's path):
 *   import() of the unbundled package, compileStreaming of the fetched .wasm, instantiation, new Client + listWebhooks.
 * - peer: import() of the peer's bundle (zod included) + its first listWebhooks.
 * - baseline: the first fetch + json() + Array.isArray.
 */
async function coldStart(mode) {
  if (mode === "peer") {
    const t0 = performance.now();
    const m = await import(PEER);
    const t1 = performance.now();
    const v = await m.peerClient({ baseUrl: base, token: TOKEN }).listWebhooks();
    const t2 = performance.now();
    return { total: t2 - t0, import: t1 - t0, firstCall: t2 - t1, count: v.length };
  }
  if (mode === "baseline") {
    const t0 = performance.now();
    const r = await fetch(`${base}${WEBHOOKS}`, { headers: auth });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const v = await r.json();
    if (!Array.isArray(v)) throw new Error("not an array");
    return { total: performance.now() - t0, count: v.length };
  }
  if (mode === "estatekit") {
    const t0 = performance.now();
    const m = await import(APP);
    const t1 = performance.now();
    const v = await new m.Client({ baseUrl: base, token: TOKEN }).listWebhooks();
    const t2 = performance.now();
    const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith(".wasm"));
    return {
      total: t2 - t0,
      import: t1 - t0,
      firstCall: t2 - t1,
      // From the first call to the .wasm file's last byte (its compiling overlaps the download).
      wasmFetched: wasm ? wasm.responseEnd - t1 : NaN,
      count: v.length,
    };
  }
  // phases: init() as the package does it (compileStreaming of the fetched .wasm, then
  // instantiate), in two steps so that compiling and instantiating are timed apart.
  const t0 = performance.now();
  const m = await import(PKG);
  const t1 = performance.now();
  const module = await WebAssembly.compileStreaming(fetch(new URL("/pkg/estatekit_wasm_bg.wasm", location.href)));
  const t2 = performance.now();
  await m.default({ module_or_path: module });
  const t3 = performance.now();
  const c = new m.Client({ baseUrl: base, token: TOKEN });
  const v = await c.listWebhooks();
  const t4 = performance.now();
  return { total: t4 - t0, import: t1 - t0, compile: t2 - t1, instantiate: t3 - t2, firstCall: t4 - t3, count: v.length };
}

/** One sampler of a scenario as a function (bench/profile.mjs calls it under the profiler). */
const sampler = (scenario, mode) => () => scenarios[scenario][mode].call(scenarios[scenario]);

window.bench = { setup, run, coldStart, sampler, modes: MODES, scenarios: Object.keys(scenarios), gc: typeof globalThis.gc === "function" };
window.benchReady = true;
