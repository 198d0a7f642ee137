#!/usr/bin/env node
// The client's own work per call from warm and from cold caches, in the page (every `fetch`
// answered in the page, as `make compare --in-page` does): blocks of calls of js/request.js's
// `sendRequest` + `JSON.parse` (the client without its WebAssembly half) and of the client, each
// call alone (hot) or after 16 MB written (cold: what other processes do to the caches between
// two calls against a real server); the time of a block that only writes is subtracted. The
// difference between the client and `send` is the module's half.
//
//   node bench/cold.mjs [rounds]      (default 80; pkg/ must be built)
//
// Prints microseconds per call. Figures are printed, never asserted.
import { openWebhooksPage } from "./webhooks-page.mjs";

const rounds = Number(process.argv[2] ?? 80);
const { page, close } = await openWebhooksPage();
try {
  const line = await page.evaluate(async (rounds) => {
    const { client, send, WEBHOOKS: url } = /** @type {any} */ (globalThis);
    const text = await (await fetch(url, { headers: { Authorization: "Bearer dev-token" } })).text();
    // Every fetch answered in the page, its `Request` made as a real fetch makes it.
    globalThis.fetch = async (input, init) => {
      void new Request(input, init);
      return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
    };
    const big = new Uint8Array(16 << 20);
    const thrash = () => {
      for (let i = 0; i < big.length; i += 64) big[i]++;
    };
    /** @type {Record<string, () => Promise<unknown>>} */
    const one = {
      thrash: async () => thrash(),
      sendCold: async () => (thrash(), send()),
      clientCold: async () => (thrash(), client.listWebhooks()),
      sendHot: send,
      clientHot: () => client.listWebhooks(),
    };
    const names = Object.keys(one);
    /** @type {Record<string, number[]>} */
    const rows = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(r + k) % names.length];
        const t0 = performance.now();
        for (let b = 0; b < 50; b++) await one[name]();
        if (r >= 10) rows[name].push(((performance.now() - t0) / 50) * 1000);
      }
    }
    // The mean of the middle three quarters (performance.now is coarse in a page).
    const mean = (/** @type {number[]} */ a) => {
      const s = [...a].sort((x, y) => x - y).slice(a.length >> 3, a.length - (a.length >> 3));
      return s.reduce((x, y) => x + y, 0) / s.length;
    };
    const t = Object.fromEntries(names.map((n) => [n, mean(rows[n])]));
    const us = (/** @type {number} */ v) => `${v.toFixed(0)} us`;
    return (
      `hot: send ${us(t.sendHot)}, client ${us(t.clientHot)}, the module's half ${us(t.clientHot - t.sendHot)} | ` +
      `cold (16 MB written before each call, ${us(t.thrash)} subtracted): send ${us(t.sendCold - t.thrash)}, ` +
      `client ${us(t.clientCold - t.thrash)}, the module's half ${us(t.clientCold - t.sendCold)}`
    );
  }, rounds);
  console.log(`listWebhooks in the page, ${rounds - 10} rounds x 50 calls: ${line}`);
} finally {
  await close();
}
