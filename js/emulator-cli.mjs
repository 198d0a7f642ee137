#!/usr/bin/env node
// `npx estatekit-emulator`: the service's emulator as a local HTTP server, from npm, with no Rust
// toolchain. The emulator is estatekit/testing's (the same Rust core as the native server,
// compiled to WebAssembly); this file only puts it on a socket with node:http, as the native
// server does with hyper:
// - flags: the native server's, flag for flag (FLAGS below; parsed by node's util.parseArgs);
// - each request becomes a fetch `Request` given to `service.fetch`, its `Response` is written
//   back; a request a `drop` fault closes gets its socket closed unanswered;
// - webhook deliveries: POSTed with Node's fetch, to loopback hosts only (as natively);
// - `--static [PREFIX=]DIR`: files for GET/HEAD requests no route answers (as natively);
// - the native start-up line on stdout; per-request log lines on stderr unless --quiet;
//   SIGINT/SIGTERM stop it with status 0.
import { execFileSync } from "node:child_process";
import http from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTestService } from "./testing.node.js";

const NAME = "estatekit-emulator";

/** A bad flag or value (exit status 2, as the native server's). */
class UsageError extends Error {}

/** The native server's usage line (emulator/src/config.rs), flag for flag. */
const USAGE = `usage: ${NAME} [--host 127.0.0.1] [--port 8787] [--token T]... [--seed N]
  [--seed-messages N] [--seed-documents N] [--rate-limit 300] [--max-upload-mb 100]
  [--static [PREFIX=]DIR]... [--second-origin] [--delivery-backoff-ms 500] [--quiet]
  [--rate-limit-window-ms 60000] [--oauth-client ID:SECRET]...
  [--oauth-redirect-uri CLIENT_ID=URI]...
  [--user EMAIL:PASSWORD[:ACCOUNT_TOKEN]]... [--access-token-ttl 3600] [--rotate-refresh-tokens]
  [--sign-in-page] [--code-ttl-ms 60000]

Defaults: token dev-token (readonly-token is accepted too, refused on webhook routes); OAuth
client dev-client:dev-secret; user admin@acme.test:dev-password (the password grant; its tokens
reach dev-token's account). Seeded: the messages of candidates cand-1 to cand-5, and 3 documents
on propertyId prop-bulk (--seed-documents 0: none). Event uuids are random unless --seed is given.
Admin routes, without a token: POST /_emulator/emit {"type":"UNIT_CREATED"} (a webhook
delivery), GET /_emulator/settled, POST|GET|DELETE /_emulator/faults, POST /_emulator/reset,
POST /_emulator/accounts, POST /_emulator/seed, GET /_emulator/requests, GET /_emulator/info.
All of it is in EMULATOR.md, in the estatekit package.

The emulator of estatekit/testing (WebAssembly, in this Node process) on a loopback port: the
native server's flags and behaviour, without Rust. Every flag of the native server is here.
It stops on SIGINT or SIGTERM, and when the process that started it (npx) ends.`;

/** The documents of each account when no `--seed-documents` is given (as natively). */
const DEFAULT_SEED_DOCUMENTS = 3;

/** A whole number from `min` to `max` (the value of `flag`). */
function whole(flag, min, max) {
  return (v) => {
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new UsageError(`${flag}: invalid number \`${v}\` (a whole number from ${min} to ${max})`);
    }
    return n;
  };
}

const U32 = 2 ** 32 - 1;

/** `--oauth-client ID:SECRET` (the secret may hold `:`). */
function oauthClient(v) {
  const at = v.indexOf(":");
  if (at < 0) throw new UsageError("--oauth-client: expected ID:SECRET");
  return { clientId: v.slice(0, at), clientSecret: v.slice(at + 1) };
}

/**
 * `--oauth-redirect-uri CLIENT_ID=URI`: split at the first `=` (the URI may hold `=` and `:`),
 * checked as the native server checks it (emulator/src/config.rs), in its words.
 */
function redirectUri(v) {
  const at = v.indexOf("=");
  const [id, uri] = at < 0 ? ["", ""] : [v.slice(0, at), v.slice(at + 1)];
  if (!id || !uri) throw new UsageError("--oauth-redirect-uri: expected CLIENT_ID=URI");
  let url;
  try {
    url = new URL(uri);
  } catch {
    url = undefined;
  }
  const ok = uri.length <= 2048 && !/[\s\p{Cc}]/u.test(uri) && !uri.includes("#") && (url?.protocol === "http:" || url?.protocol === "https:") && !!url.host;
  if (!ok) {
    throw new UsageError(
      "--oauth-redirect-uri: a redirect URI must be an absolute http or https URL without a fragment (RFC 6749 3.1.2), at most 2048 characters",
    );
  }
  return [id, uri];
}

/** The native server's default client, which `--oauth-redirect-uri` may name without `--oauth-client`. */
const DEFAULT_CLIENT = { clientId: "dev-client", clientSecret: "dev-secret" };

/** The native server's default user of the password grant. */
const DEFAULT_USER = { username: "admin@acme.test", password: "dev-password" };

/** `--user EMAIL:PASSWORD[:ACCOUNT_TOKEN]` (the password cannot hold `:`). */
function user(v) {
  const [username, password, ...rest] = v.split(":");
  if (password === undefined) throw new UsageError("--user: expected EMAIL:PASSWORD[:ACCOUNT_TOKEN]");
  return rest.length ? { username, password, token: rest.join(":") } : { username, password };
}

/** `--static [PREFIX=]DIR`, as the native server reads it. */
function mount(v) {
  const at = v.indexOf("=");
  const [prefix, dir] = at < 0 ? ["/", v] : [v.slice(0, at), v.slice(at + 1)];
  if (!dir) throw new UsageError("--static: empty directory");
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  return { prefix: trimmed ? `/${trimmed}/` : "/", dir: path.resolve(dir) };
}

/**
 * The flags: [flag, parseArgs type, short, multiple, what it sets]. `option` rows set that
 * createTestService option to `parse(value)`; `local` rows are this server's (the socket,
 * static files, the log). A flag the native server gains is one row here.
 */
const FLAGS = [
  { flag: "host", local: "host", parse: String },
  { flag: "port", local: "port", parse: whole("--port", 0, 65535) },
  { flag: "token", option: "tokens", multiple: true, parse: String },
  { flag: "seed", option: "seed", parse: whole("--seed", 0, U32) },
  { flag: "seed-messages", option: "seedMessages", parse: whole("--seed-messages", 0, U32) },
  { flag: "seed-documents", option: "seedDocuments", parse: whole("--seed-documents", 0, U32) },
  { flag: "rate-limit", option: "rateLimit", parse: whole("--rate-limit", 0, U32) },
  { flag: "max-upload-mb", option: "maxUploadMb", parse: whole("--max-upload-mb", 0, 4095) },
  { flag: "static", local: "statics", multiple: true, parse: mount },
  { flag: "second-origin", local: "secondOrigin", boolean: true },
  { flag: "delivery-backoff-ms", option: "deliveryBackoffMs", parse: whole("--delivery-backoff-ms", 0, U32) },
  { flag: "quiet", short: "q", local: "quiet", boolean: true },
  { flag: "rate-limit-window-ms", option: "rateLimitWindowMs", parse: whole("--rate-limit-window-ms", 1, U32) },
  { flag: "oauth-client", option: "oauthClients", multiple: true, parse: oauthClient },
  // Joined to its client's `redirectUris` (createTestService's oauthClients) by `parse`.
  { flag: "oauth-redirect-uri", local: "redirectUris", multiple: true, parse: redirectUri },
  { flag: "user", option: "users", multiple: true, parse: user },
  {
    flag: "access-token-ttl",
    option: "accessTokenTtlMs",
    parse: (v) => whole("--access-token-ttl", 1, Math.floor(U32 / 1000))(v) * 1000,
  },
  { flag: "rotate-refresh-tokens", option: "rotateRefreshTokens", boolean: true },
  { flag: "sign-in-page", option: "signInPage", boolean: true },
  { flag: "code-ttl-ms", option: "codeTtlMs", parse: whole("--code-ttl-ms", 1, U32) },
  { flag: "help", short: "h", local: "help", boolean: true },
];

/**
 * Reads the command line: `{ local, options }` (this server's settings and createTestService's
 * options). A bad flag or value throws an Error whose message names the flag.
 * @param {string[]} args
 */
function parse(args) {
  const spec = Object.fromEntries(
    FLAGS.map((f) => [
      f.flag,
      { type: f.boolean ? "boolean" : "string", multiple: !!f.multiple, ...(f.short ? { short: f.short } : {}) },
    ])
  );
  let values;
  try {
    ({ values } = parseArgs({ args, options: spec, strict: true, allowPositionals: false }));
  } catch (e) {
    // As the native server words it: "unknown argument `--x`".
    const unknown = e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && /'([^']*)'/.exec(e.message)?.[1];
    throw new UsageError(`${unknown ? `unknown argument \`${unknown}\`` : e.message}\n${USAGE}`);
  }
  const local = { host: "127.0.0.1", port: 8787, statics: [], secondOrigin: false, quiet: false, help: false, redirectUris: [] };
  const options = {};
  for (const f of FLAGS) {
    const v = values[f.flag];
    if (v === undefined) continue;
    const value = f.boolean ? v : f.multiple ? v.map(f.parse) : f.parse(v);
    if (f.local) local[f.local] = value;
    else options[f.option] = value;
  }
  if (options.tokens) {
    for (const t of options.tokens) {
      if (!t || /[\s,]/.test(t)) throw new UsageError(`--token: invalid token \`${t}\``);
    }
  }
  if (local.redirectUris.length) {
    options.oauthClients ??= [{ ...DEFAULT_CLIENT }];
    for (const [id, uri] of local.redirectUris) {
      const client = options.oauthClients.find((c) => c.clientId === id);
      if (!client) throw new UsageError(`--oauth-redirect-uri: no OAuth client \`${id}\` to register a redirect URI for`);
      client.redirectUris ??= [];
      if (!client.redirectUris.includes(uri)) client.redirectUris.push(uri);
    }
  }
  options.seedDocuments ??= DEFAULT_SEED_DOCUMENTS;
  // The request body limit of the service (its `maxUploadMb`, 100 MiB by default).
  local.maxBody = (options.maxUploadMb ?? 100) * 1024 * 1024;
  return { local, options };
}

/**
 * The line printed on stderr after the start-up line (unless --quiet), as natively
 * (emulator/src/config.rs, `start_hint`): the default client and user in use (never a secret: the
 * log holds none), the seeded data, where to read more. A client or user given is not named.
 */
function startHint(options) {
  const parts = [];
  const clients = options.oauthClients ?? [DEFAULT_CLIENT];
  if (clients.some((c) => c.clientId === DEFAULT_CLIENT.clientId && c.clientSecret === DEFAULT_CLIENT.clientSecret)) {
    parts.push(`OAuth client ${DEFAULT_CLIENT.clientId}`);
  }
  const users = options.users ?? [DEFAULT_USER];
  if (users.some((u) => u.username === DEFAULT_USER.username && u.password === DEFAULT_USER.password)) {
    parts.push(`user ${DEFAULT_USER.username}`);
  }
  let seeded = "messages of cand-1 to cand-5";
  if (options.seedMessages) seeded += ` and ${options.seedMessages} of cand-bulk`;
  if (options.seedDocuments) seeded += `, ${options.seedDocuments} documents on propertyId prop-bulk`;
  parts.push(seeded);
  return `${NAME}: ${parts.join("; ")}; admin routes under /_emulator/ (emit, settled, faults, reset, accounts, seed, requests); the default secret and password, and the rest: --help, or EMULATOR.md in the estatekit package`;
}

/** An error of createTestService in the flags' words (`options.users[0]` → `--user #1`). */
function inFlagWords(message) {
  return message
    .replace(/^createTestService: /, "")
    .replace(/options\.(\w+)(?:\[(\d+)\])?/g, (whole, key, i) => {
      const f = FLAGS.find((f) => f.option === key);
      if (!f) return whole;
      return i === undefined ? `--${f.flag}` : `--${f.flag} #${Number(i) + 1}`;
    });
}

/** The content types of static files (the native server's table). */
const TYPES = {
  wasm: "application/wasm",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  map: "application/json",
  txt: "text/plain; charset=utf-8",
  md: "text/plain; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  pdf: "application/pdf",
  ts: "text/plain; charset=utf-8",
  woff2: "font/woff2",
};

/** The file under `dir` named by the URL path `rest`, or undefined (never outside `dir`). */
function resolveIn(dir, rest) {
  let decoded;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  const segments = [];
  for (const seg of decoded.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." || /[\\\0:]/.test(seg)) return undefined;
    segments.push(seg);
  }
  return path.join(dir, ...segments);
}

/**
 * The static file for `pathname` from the mounts (longest prefix first): `{ bytes, type }`, or
 * undefined.
 */
async function staticFile(mounts, pathname) {
  for (const m of [...mounts].sort((a, b) => b.prefix.length - a.prefix.length)) {
    const bare = m.prefix.replace(/\/$/, "");
    const rest = pathname.startsWith(m.prefix) ? pathname.slice(m.prefix.length) : pathname === bare ? "" : undefined;
    if (rest === undefined) continue;
    let file = resolveIn(m.dir, rest);
    if (file === undefined) continue;
    if ((await stat(file).catch(() => undefined))?.isDirectory()) file = path.join(file, "index.html");
    const bytes = await readFile(file).catch(() => undefined);
    if (!bytes) continue;
    const ext = path.extname(file).slice(1).toLowerCase();
    return { bytes, type: TYPES[ext] ?? "application/octet-stream" };
  }
  return undefined;
}

/** Whether a path is outside the service's areas (where static files are served). */
function isOther(pathname) {
  return !["/api", "/accounts", "/_emulator"].some((a) => pathname === a || pathname.startsWith(`${a}/`));
}

/** Hop-by-hop and framing headers: the socket's business, not the service's. */
const SKIPPED = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "expect", "upgrade"]);
/** An answer's framing headers: this server sets them for the bytes it sends. */
const FRAMING = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

/** Sends a webhook delivery (the native server's: no redirects followed, 10 s at most). */
async function deliver(url, init) {
  const response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel();
  return response;
}

/**
 * Answers one request through the service (and the static files): `[status, headers, body]`,
 * or undefined when the service drops the connection (a `drop` fault).
 */
async function answer(service, local, method, target, headers, body) {
  let response;
  try {
    response = await service.fetch(new Request(target, { method, headers, body }));
  } catch {
    return undefined;
  }
  const out = [];
  for (const [name, value] of response.headers) if (!FRAMING.has(name)) out.push(name, value);
  const bytes = Buffer.from(await response.arrayBuffer());
  const pathname = new URL(target).pathname;
  if (response.status === 404 && (method === "GET" || method === "HEAD") && local.statics.length && isOther(pathname)) {
    const file = await staticFile(local.statics, pathname);
    if (file) {
      // The file, with the CORS headers the service gave its answer.
      const cors = [];
      for (const [name, value] of response.headers) {
        if (name.startsWith("access-control-") || name === "vary") cors.push(name, value);
      }
      return [200, [...cors, "content-type", file.type, "cache-control", "no-cache"], file.bytes];
    }
  }
  return [response.status, out, bytes];
}

/**
 * The request handler of one listener, answering as `origin`. A body over the service's limit is
 * never kept, as natively: the service answers at once (its 413, with CORS; it sees the length,
 * not the bytes: a `Content-Length` over the limit, or what came when a chunked body passed it),
 * and the body is read and dropped to its end, so that a client still sending it reads the 413
 * rather than a reset connection; past twice the limit the connection is closed once the answer
 * is out (with `Connection: close` where the declared length already says so).
 */
function handler(ready, origin, local) {
  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const log = (what) => {
      if (!local.quiet) console.error(`${method} ${url.split("?")[0]} -> ${what}`);
    };
    /**
     * Answers with `body`, or, `tooLarge` (a length over the limit), without one; `close`: the
     * body was not read to its end, and the connection is closed after the answer.
     */
    const respond = async (body, tooLarge, close) => {
      try {
        if (!url.startsWith("/")) {
          log(400);
          res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
          res.end("the request target must be a path\n");
          return;
        }
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          const name = req.rawHeaders[i];
          if (!SKIPPED.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]);
        }
        if (tooLarge !== undefined) headers.set("content-length", String(tooLarge));
        const answered = await answer(await ready, local, method, origin + url, headers, body);
        if (!answered) {
          log("dropped");
          req.socket.destroy();
          return;
        }
        const [status, out, bytes] = answered;
        if (status >= 200 && status !== 204 && status !== 304 && (method !== "HEAD" || bytes.length)) {
          out.push("content-length", String(bytes.length));
        }
        log(`${status} (${Math.round(performance.now() - started)} ms)`);
        if (close) out.push("connection", "close");
        res.writeHead(status, out);
        const data = method === "HEAD" ? undefined : bytes;
        // The rest of a body left unread is not drained: the socket closes once the answer is out.
        if (close) res.end(data, () => req.socket.destroy());
        else res.end(data);
      } catch (e) {
        // The error's name only: a message may quote a header's value (a token).
        console.error(`${NAME}: ${method} ${url.split("?")[0]}: failed (${e instanceof Error ? e.name : typeof e})`);
        req.socket.destroy();
      }
    };
    const declared = Number(req.headers["content-length"]);
    /** The length the service is told of a body over the limit (declared, else what came). */
    let tooLarge =
      req.headers["content-length"] !== undefined && Number.isFinite(declared) && declared > local.maxBody ? declared : undefined;
    const chunks = [];
    let size = 0;
    const onData = (c) => {
      size += c.length;
      if (size > local.maxBody && tooLarge === undefined) {
        tooLarge = size;
        respond(undefined, tooLarge, false);
      }
      if (tooLarge === undefined) chunks.push(c);
      else chunks.length = 0;
      if (size > 2 * local.maxBody) {
        req.off("data", onData);
        // Closed once the 413 is out (the emulator may still be making it): a client still
        // sending reads the answer, never a connection closed before it.
        if (res.writableFinished) req.socket.destroy();
        else res.once("finish", () => req.socket.destroy());
      }
    };
    // A declared length past twice the limit will not be read to its end: its answer says
    // `Connection: close` (a client still sending then takes the answer, not the closing).
    if (tooLarge !== undefined) respond(undefined, tooLarge, tooLarge > 2 * local.maxBody);
    req.on("data", onData);
    req.on("end", () => {
      if (tooLarge === undefined) {
        respond(method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks), undefined, false);
      }
    });
  };
}

/** The base URL of a bound server, e.g. `http://127.0.0.1:8787` or `http://[::1]:8787`. */
function baseOf(server) {
  const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
}

/** Binds `server` to host:port; rejects with the listen error. */
function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(baseOf(server));
    });
  });
}

/**
 * Starts the emulator; resolves with `{ line, close }` once it listens.
 * @param {string[]} args
 */
async function main(args) {
  const { local, options } = parse(args);
  if (local.help) {
    console.log(USAGE);
    return undefined;
  }
  /** @type {(s: import("./testing.js").TestService) => void} */
  let started = () => {};
  const ready = new Promise((resolve) => (started = resolve));
  const servers = [];
  const close = () => {
    for (const s of servers) {
      s.close();
      s.closeAllConnections();
    }
  };
  try {
    const main = http.createServer();
    servers.push(main);
    const base = await listen(main, local.port, local.host);
    main.on("request", handler(ready, base, local));
    let second;
    if (local.secondOrigin) {
      const other = http.createServer();
      servers.push(other);
      second = await listen(other, 0, local.host);
      other.on("request", handler(ready, second, local));
    }
    let service;
    try {
      service = await createTestService({
        ...options,
        baseUrl: base,
        ...(second ? { secondOrigin: second } : {}),
        loopbackOnly: true,
        deliver,
      });
    } catch (e) {
      // A refused option (the one rule: an ApiError of kind invalid_input) is a usage error.
      const refused = e instanceof Error && e.name === "ApiError" && /** @type {{ kind?: unknown }} */ (e).kind === "invalid_input";
      throw refused || e instanceof TypeError ? new UsageError(inFlagWords(e.message)) : e;
    }
    started(service);
    const tokens = [...service.tokens, "readonly-token"].join(",");
    // As natively: ` second-origin=` (with --second-origin), then the default account's subdomain.
    const line = `${NAME} listening on ${base} tokens=${tokens}${second ? ` second-origin=${second}` : ""} subdomain=${service.subdomain}`;
    return {
      line,
      hint: local.quiet ? undefined : startHint(options),
      close() {
        close();
        service.close();
      },
    };
  } catch (e) {
    close();
    throw e;
  }
}

/** The parent of process `pid` (`ps`; undefined where there is none, e.g. on Windows). */
function grandparent(pid) {
  try {
    return Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    return undefined;
  }
}

/** Whether process `pid` has ended (a signal 0 finds no such process). */
function ended(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return /** @type {{ code?: unknown }} */ (e).code === "ESRCH";
  }
}

let running;
try {
  running = await main(process.argv.slice(2));
} catch (e) {
  const listening = e && typeof e === "object" && "syscall" in e && e.syscall === "listen";
  const text = e instanceof Error ? e.message : String(e);
  console.error(`${NAME}: ${listening ? `cannot listen: ${text}` : text}`);
  process.exit(e instanceof UsageError ? 2 : 1);
}
if (running) {
  // `on`, not `once`: a Ctrl-C reaches both npx and this process, and npx passes it on too; a
  // second signal must not find the default handler (which would end it with no status).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close();
    console.error(`${NAME}: shutting down`);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // `npx estatekit-emulator` runs this file under a shell that npx starts, and a signal to npx's
  // PID alone reaches neither: when npx (the grandparent) or the shell (the parent) ends, this
  // process stops as on SIGTERM. Checked each second; the timer keeps nothing alive.
  const parent = process.ppid;
  const watched = [parent, grandparent(parent)].filter((pid) => Number.isSafeInteger(pid) && pid > 1);
  setInterval(() => {
    if (process.ppid !== parent || watched.some(ended)) stop();
  }, 1000).unref();
  process.stdout.write(`${running.line}\n`);
  if (running.hint) process.stderr.write(`${running.hint}\n`);
}
