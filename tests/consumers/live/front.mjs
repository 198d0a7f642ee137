// The one port in front of the app servers of tests/consumers/live.test.mjs (its browser run), as a
// load balancer would be: each request goes to a server alive (round robin; a server that refuses
// the connection is skipped), so that a page and the emulator know one origin only. It serves:
// - `/?engine=E`: a page of two frames, `/a/` and `/b/`, each signed in as staff of one account
//   (the session cookie `staff=<account>`, its Path the frame's folder: each frame's requests carry
//   its own account's session), each following `live` with estatekit/subscribe (a handler for
//   every event type), recording what it got in `window.got`, `window.resets`, `window.errors`;
// - `/pkg/subscribe.js` and what it imports (`/pkg/api_error.js`, `/pkg/snippets/js/api_error.js`):
//   the packed package's files;
// - `/a/live`, `/b/live`: the stream route of a server (`/live`), forwarded as it streams; the
//   test can cut a frame's streams and refuse them (503) until it restores them; a server killed
//   mid-stream cuts its streams here too (the page's connection drops, as through a real balancer);
// - `/hooks/<account>`: the receivers, each answer recorded (the event's uuid, whether the URL
//   carried the secret, the status, when the receiver answered).
// Times are `performance.timeOrigin + performance.now()` here and in the pages: one clock.
import { createServer, request } from "node:http";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const now = () => performance.timeOrigin + performance.now();
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade", "te", "trailer"]);
/** @param {import("node:http").IncomingHttpHeaders} headers */
const forwarded = (headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));

/** The page of one engine: two frames, one per account. */
const top = (engine) => `<!doctype html><meta charset="utf-8"><title>live ${engine}</title>
<iframe id="a" src="/a/?page=${engine}-a"></iframe><iframe id="b" src="/b/?page=${engine}-b"></iframe>`;

/** A frame: staff of one account, following its events with estatekit/subscribe. */
const frame = (types) => `<!doctype html><meta charset="utf-8"><title>live</title><script type="module">
import { subscribe } from "/pkg/subscribe.js";
const page = new URLSearchParams(location.search).get("page");
window.got = [];
window.resets = [];
window.errors = [];
const at = () => performance.timeOrigin + performance.now();
const on = {};
for (const type of ${JSON.stringify(types)}) {
  on[type] = (event, info) => window.got.push({ handler: type, type: event.operation, uuid: event.uuid, subdomain: event.subdomain, id: info.id, at: at() });
}
subscribe("live?page=" + page, { on, onReset: (reset) => window.resets.push(reset.position), onError: (e) => window.errors.push(e.name + ": " + e.message) });
window.ready = true;
</script>`;

/**
 * Starts the front on a free loopback port.
 * @param {{ servers: { url: string, alive: boolean }[], accounts: { a: string, b: string }, secret: string, subscribeFile: string, types: readonly string[] }} options
 */
export async function startFront({ servers, accounts, secret, subscribeFile, types }) {
  /** @typedef {{ name: string, frame: string, open: Set<Stream>, streams: Stream[], refused: number }} Page */
  /** @typedef {{ res: import("node:http").ServerResponse, server: { url: string }, since: number, until: number, resumed: "header" | "query" | undefined }} Stream */
  /** @type {Map<string, Page>} */
  const pages = new Map();
  /** @type {{ uuid: string | undefined, withSecret: boolean, status: number, at: number }[]} */
  const answers = [];
  /** When the receiver first answered 2xx for each uuid. */
  const answeredAt = new Map();
  /** The frames (a, b) whose streams are refused for now. */
  const down = new Set();
  let turn = 0;

  /**
   * Sends a request on to a server alive (the next one when one refuses the connection); resolves
   * its answer, headers read.
   * @param {import("node:http").IncomingMessage} req @param {string} path @param {Buffer} [body]
   * @returns {Promise<{ answer: import("node:http").IncomingMessage, upstream: import("node:http").ClientRequest, server: { url: string } }>}
   */
  const forward = (req, path, body) =>
    new Promise((resolve, reject) => {
      let tries = 0;
      const attempt = () => {
        const alive = servers.filter((s) => s.alive);
        if (!alive.length) return reject(new Error("no server alive"));
        const server = alive[turn++ % alive.length];
        const upstream = request(`${server.url}${path}`, { method: req.method, headers: forwarded(req.headers), agent: false }, (answer) =>
          resolve({ answer, upstream, server }),
        );
        upstream.on("error", (e) => {
          if (/** @type {NodeJS.ErrnoException} */ (e).code === "ECONNREFUSED" && tries++ < servers.length) attempt();
          else reject(e);
        });
        upstream.end(body);
      };
      attempt();
    });

  /** @param {string} name @param {string} frameName */
  const pageOf = (name, frameName) => {
    let page = pages.get(name);
    if (!page) pages.set(name, (page = { name, frame: frameName, open: new Set(), streams: [], refused: 0 }));
    return page;
  };

  /** @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res @param {string} frameName @param {URL} url */
  async function stream(req, res, frameName, url) {
    const page = pageOf(url.searchParams.get("page") ?? frameName, frameName);
    if (down.has(frameName)) {
      page.refused++;
      res.writeHead(503, { "retry-after": "1" });
      return res.end();
    }
    let got;
    try {
      got = await forward(req, `/live${url.search}`);
    } catch {
      res.writeHead(502);
      return res.end();
    }
    const { answer, upstream, server } = got;
    if (down.has(frameName)) {
      // Cut while this request was on its way: refused as well.
      upstream.destroy();
      page.refused++;
      res.writeHead(503, { "retry-after": "1" });
      return res.end();
    }
    res.on("close", () => upstream.destroy());
    // The server went away mid-stream (killed): the page's connection drops.
    answer.on("error", () => res.destroy());
    answer.on("close", () => {
      if (!answer.complete) res.destroy();
    });
    res.writeHead(/** @type {number} */ (answer.statusCode), forwarded(answer.headers));
    res.flushHeaders();
    if (answer.statusCode === 200) {
      /** @type {Stream} */
      const resumed = req.headers["last-event-id"] ? "header" : url.searchParams.has("lastEventId") ? "query" : undefined;
      const open = { res, server, since: now(), until: Infinity, resumed };
      page.open.add(open);
      page.streams.push(open);
      res.on("close", () => {
        page.open.delete(open);
        open.until = now();
      });
    }
    answer.pipe(res);
  }

  /** @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res @param {URL} url */
  async function hook(req, res, url) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    /** @type {string | undefined} */
    let uuid;
    try {
      uuid = JSON.parse(body.toString()).uuid;
    } catch {
      // Not JSON: the receiver says so.
    }
    try {
      const { answer } = await forward(req, `${url.pathname}${url.search}`, body);
      const at = now();
      const status = /** @type {number} */ (answer.statusCode);
      const text = [];
      for await (const chunk of answer) text.push(chunk);
      answers.push({ uuid, withSecret: url.searchParams.get("secret") === secret, status, at });
      if (status >= 200 && status < 300 && uuid !== undefined && !answeredAt.has(uuid)) answeredAt.set(uuid, at);
      res.writeHead(status, forwarded(answer.headers));
      res.end(Buffer.concat(text));
    } catch {
      // The server was killed mid-request: the sender tries again (the append is deduplicated).
      res.writeHead(502);
      res.end();
    }
  }

  // estatekit/subscribe and what it imports (the ApiError class: api_error.js, which is
  // snippets/js/api_error.js), from the packed package's folder.
  const packed = new Map(
    ["subscribe.js", "api_error.js", "snippets/js/api_error.js"].map((file) => [`/pkg/${file}`, readFileSync(new URL(file, pathToFileURL(subscribeFile)))]),
  );
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://front");
    const path = url.pathname;
    const at = /^\/([ab])\/(live)?$/.exec(path);
    if (path === "/") {
      res.setHeader("content-type", "text/html");
      return res.end(top(url.searchParams.get("engine") ?? ""));
    }
    if (packed.has(path)) {
      res.setHeader("content-type", "text/javascript");
      return res.end(packed.get(path));
    }
    if (at && at[2]) return void stream(req, res, at[1], url);
    if (at) {
      // Signed in: the frame's session, for its folder only.
      const account = accounts[/** @type {"a" | "b"} */ (at[1])];
      res.setHeader("set-cookie", `staff=${encodeURIComponent(account)}; Path=/${at[1]}; SameSite=Strict; HttpOnly`);
      res.setHeader("content-type", "text/html");
      return res.end(frame(types));
    }
    if (req.method === "POST" && path.startsWith("/hooks/")) return void hook(req, res, url);
    res.statusCode = 404;
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    pages,
    answers,
    answeredAt,
    /** Cuts the open streams of `frames` and refuses their new ones (503) until `restore`. @param {string[]} frames */
    cut(frames) {
      for (const f of frames) down.add(f);
      for (const page of pages.values()) if (frames.includes(page.frame)) for (const open of page.open) open.res.destroy();
    },
    /** @param {string[]} frames */
    restore(frames) {
      for (const f of frames) down.delete(f);
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
