#!/usr/bin/env node
// `make demo`: the demo admin console (www/) with its live events, at one address.
//
//   node scripts/demo.mjs [--host 127.0.0.1] [--port 8787] [-- EMULATOR FLAGS...]
//
// - The emulator (target/debug/estatekit-emulator, or ESTATEKIT_EMULATOR_BIN) on a free loopback
//   port behind this server: the service's API, its admin routes (/_emulator/...) and the page's
//   files (www/ and pkg/, its --static). Every request but /demo/... is passed to it as is.
// - The demo's backend, /demo/..., made of the packed modules (pkg/) as an app makes it:
//   POST /demo/live/follow   the page's token (Authorization: Bearer): `ensureWebhook` of every
//                            event type to this server's receiver, its URL carrying the secret;
//                            answers a session cookie (the "sign-in" the stream route reads);
//   POST /demo/hooks/ACCOUNT estatekit/webhooks' createWebhookHandler({ log, secret, subdomain }):
//                            each event with the secret appended once to the memory log;
//   GET  /demo/live          estatekit/live's createEventStream (authorize: the session cookie,
//                            401 without one) through toNodeListener: the page's subscribe().
//   GET  /demo/live/info     `{ live: true }`: tells the page it is served by `make demo`.
// The secret is made at start (random) and stays in this process: never printed (the emulator's
// log lines are masked), never sent to the page. The first line on stdout is
// `estatekit demo listening on <url>` (the end-to-end tests read it); SIGINT/SIGTERM stop both.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const { createMemoryEventLog, createEventStream, toNodeListener } = await import(`${root}pkg/live.js`);
const { createWebhookHandler } = await import(`${root}pkg/webhooks.node.js`);
const { Client, EVENT_TYPES, isApiError } = await import(`${root}pkg/estatekit.node.js`);

const { values, positionals } = parseArgs({
  options: { host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "8787" } },
  allowPositionals: true,
});
const bin = process.env.ESTATEKIT_EMULATOR_BIN ?? `${root}target/debug/estatekit-emulator`;
if (!existsSync(bin)) {
  console.error(`demo: ${bin} is missing: run \`make emulator\` first`);
  process.exit(1);
}

const SECRET = randomBytes(24).toString("base64url");
const COOKIE = "estatekit-demo-live";
/** `secret=...` of a URL in a line, masked (the emulator's log lines name delivery URLs). */
const mask = (text) => text.replace(/secret=[^&\s"']*/g, "secret=***");

// ---- The emulator, behind this server ----
const emulator = spawn(bin, ["--port", "0", "--static", "www", "--static", "/pkg=pkg", ...positionals], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
});
emulator.stderr.on("data", (chunk) => process.stderr.write(mask(String(chunk))));
const emulatorUrl = await new Promise((resolve, reject) => {
  let out = "";
  const onData = (chunk) => {
    out += chunk;
    const match = out.match(/listening on (http:\/\/\S+)/);
    if (!match) return;
    emulator.stdout.off("data", onData);
    emulator.stdout.on("data", (more) => process.stderr.write(mask(String(more))));
    resolve(match[1]);
  };
  emulator.stdout.on("data", onData);
  emulator.once("exit", (code) => reject(new Error(`demo: the emulator exited (${code}) before listening`)));
}).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
const upstream = new URL(emulatorUrl);

/** Passes `req` to the emulator and its answer back, as they come (uploads, a dropped socket). */
function proxy(req, res) {
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    },
  );
  // The emulator closed the connection unanswered (a `drop` fault): so does this server.
  forward.on("error", () => res.destroy());
  req.on("error", () => forward.destroy());
  req.pipe(forward);
}

// ---- The demo's backend ----
const log = createMemoryEventLog({ maxLength: 1000 });
/** Session id -> account (subdomain): the demo's stand-in for an app's sign-in. */
const sessions = new Map();
const stream = createEventStream({
  log,
  authorize(request) {
    const cookie = request.headers.get("cookie") ?? "";
    const id = cookie.split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1);
    const account = id && sessions.get(id);
    return account ? { account } : null;
  },
});
const streamListener = toNodeListener(stream);
/** Account -> its receiver (a receiver per account, as docs/live.md says). */
const receivers = new Map();
function receiverOf(account) {
  let receiver = receivers.get(account);
  if (!receiver) {
    const handler = createWebhookHandler({
      on: {},
      log,
      secret: SECRET,
      subdomain: account,
      // Never the secret: its name and reason only.
      onError: (error) => console.error(`demo: a delivery to ${account} was refused: ${error?.name ?? "error"} (${error?.reason ?? error?.kind ?? "?"})`),
    });
    receivers.set(account, (receiver = toNodeListener(handler)));
  }
  return receiver;
}

/** A JSON answer. */
function answer(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/** The account of `token` on the emulator (its /_emulator/info), or undefined. */
async function accountOf(token) {
  const info = await (await fetch(`${emulatorUrl}/_emulator/info`)).json();
  return info.accounts?.find((a) => a.token === token)?.subdomain;
}

let frontUrl = "";
/** POST /demo/live/follow: registers the receiver for every event type with the page's token. */
async function follow(req, res) {
  req.resume();
  if (req.method !== "POST") return answer(res, 405, { kind: "http", message: "POST only" }, { allow: "POST" });
  // A page of this origin only (a form of another site cannot make the demo register webhooks).
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin") return answer(res, 403, { kind: "forbidden", message: "same-origin requests only" });
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const account = token && (await accountOf(token));
  if (!account) return answer(res, 401, { kind: "unauthorized", status: 401, message: "the emulator has no account of this token" });
  receiverOf(account);
  const client = new Client({ baseUrl: emulatorUrl, token });
  try {
    // The URL carries the secret: only deliveries to it reach the log.
    const url = `${frontUrl}/demo/hooks/${encodeURIComponent(account)}?secret=${SECRET}`;
    for (const type of EVENT_TYPES) await client.ensureWebhook({ type, url });
  } catch (error) {
    const kind = isApiError(error) ? error.kind : "http";
    const status = isApiError(error) && typeof error.status === "number" ? error.status : 502;
    return answer(res, status >= 400 ? status : 502, { kind, status, message: mask(String(error?.message ?? error)) });
  } finally {
    client.free?.();
  }
  const id = randomBytes(18).toString("base64url");
  sessions.set(id, account);
  answer(res, 200, { account, types: EVENT_TYPES.length, stream: "/demo/live" }, { "set-cookie": `${COOKIE}=${id}; Path=/demo/; HttpOnly; SameSite=Strict` });
}

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://demo").pathname;
  if (!path.startsWith("/demo/")) return proxy(req, res);
  if (path === "/demo/live") return streamListener(req, res);
  if (path === "/demo/live/info") return answer(res, 200, { live: true });
  if (path === "/demo/live/follow") {
    follow(req, res).catch((error) => answer(res, 500, { kind: "http", message: mask(String(error?.message ?? error)) }));
    return;
  }
  // The receiver of an account a page followed (made by /demo/live/follow).
  const receiver = receivers.get(/^\/demo\/hooks\/([\w.-]+)$/.exec(path)?.[1] ?? "");
  if (receiver) return receiver(req, res);
  answer(res, 404, { kind: "not_found", message: "no such demo route" });
});
server.listen(Number(values.port), values.host);
await once(server, "listening");
const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
frontUrl = `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
console.log(`estatekit demo listening on ${frontUrl} (emulator behind it on ${emulatorUrl})`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  stream.close();
  server.closeAllConnections();
  server.close();
  emulator.kill("SIGTERM");
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
emulator.on("exit", (code, signal) => {
  if (!stopping) {
    console.error(`demo: the emulator stopped (${code ?? signal})`);
    process.exitCode = 1;
  }
  stop();
});
