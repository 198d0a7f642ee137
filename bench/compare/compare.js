// The in-page half of bench/compare.mjs: builds of the package side by side in one page, each
// imported from its own URL (its own module instance), alternated with the peer and the plain
// samplers round by round. See bench/compare.mjs.

const TOKEN = "dev-token";
const base = location.origin;
const WEBHOOKS = `${base}/api/external-integrations/webhooks`;
const auth = { Authorization: `Bearer ${TOKEN}` };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** What a plain sampler sends: `fetch` and `response.json()`, or estatekit's request's shape. */
const PLAIN = {
  raw: async () => (await fetch(WEBHOOKS, { headers: auth })).json(),
  // The request as estatekit sends it, written in JavaScript: a Request object, an
  // AbortController with a 30 s timer, no redirect followed, no credentials, the body read as
  // bytes, decoded (fatal UTF-8) and parsed.
  shape: async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      const request = new Request(WEBHOOKS, { headers: auth, signal: controller.signal, redirect: "manual", credentials: "omit" });
      const response = await fetch(request);
      return JSON.parse(utf8.decode(await response.arrayBuffer()));
    } finally {
      clearTimeout(timer);
    }
  },
  // The first build's own request function (js/request.js's `sendRequest`, as the module calls
  // it: no option, no hook, the default 30 s timeout) and `JSON.parse` of its text: the client
  // without its WebAssembly half.
  send: async () => {
    const sent = await sendRequest(undefined, undefined, 0, "GET", WEBHOOKS, auth.Authorization, false, undefined, undefined, 30_000);
    return JSON.parse(sent.text);
  },
};

let sendRequest;

let peer;
/** @type {Record<string, any>} */
const clients = {};
let ids = [];

window.compare = {
  /** Imports the peer and each build, makes their clients, seeds 10 webhooks. */
  async setup(builds, { inPage }) {
    peer = (await import("/peer/peer.js")).peerClient({ baseUrl: base, token: TOKEN });
    for (const name of builds) {
      const m = await import(`/${name}/estatekit.js`);
      await m.default();
      clients[name] = new m.Client({ baseUrl: base, token: TOKEN });
    }
    ({ sendRequest } = await import(`/${builds[0]}/snippets/js/request.js`));
    const first = clients[builds[0]];
    for (const w of await first.listWebhooks()) await first.deleteWebhook(w.id);
    for (let i = 0; i < 10; i++) await first.registerWebhook({ type: "UNIT_CREATED", url: `${base}/_emulator/sink/compare-${i}` });
    ids = (await first.listDocuments({ propertyId: "prop-bulk", take: 1000 })).map((d) => d.id);
    if (inPage) {
      // Every fetch answered in the page with the same list: what remains is the client's own
      // work (the network and the emulator are out of the figures). The `Request` a real fetch
      // makes of its arguments is made here too (its cost differs with what it is given).
      const text = await (await fetch(WEBHOOKS, { headers: auth })).text();
      globalThis.fetch = async (input, init) => {
        void new Request(input, init);
        return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
      };
    }
    return { documents: ids.length };
  },

  /** `rounds` timed rounds (after `warmup`), each one sample per sampler, the order rotating. */
  async run(samplers, { scenario, rounds, warmup, batch }) {
    const one = (name) => {
      if (PLAIN[name]) return PLAIN[name]();
      const client = name === "peer" ? peer : clients[name];
      if (scenario === "getDocument") return Promise.all(ids.map((id) => client.getDocument(id)));
      return client.listWebhooks();
    };
    const expected = scenario === "getDocument" ? ids.length : 10;
    const out = Object.fromEntries(samplers.map((s) => [s, []]));
    for (let i = 0; i < warmup + rounds; i++) {
      for (const name of samplers.map((_, k) => samplers[(i + k) % samplers.length])) {
        globalThis.gc?.();
        await settle();
        const t0 = performance.now();
        for (let j = 0; j < batch; j++) {
          const value = await one(name);
          if (value.length !== expected) throw new Error(`${name}: ${value.length} results, expected ${expected}`);
        }
        if (i >= warmup) out[name].push((performance.now() - t0) / batch);
      }
    }
    return out;
  },
};
window.compareReady = true;
