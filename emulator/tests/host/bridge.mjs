// The emulator's WebAssembly host (estatekit/testing, from pkg/) served on a loopback port, so
// that the emulator's integration tests (emulator/tests/*.rs, reqwest over HTTP) run unchanged
// against it: the parity run (EMULATOR_HOST=wasm, `make test-parity`). It is a test harness only:
// each request read from the socket becomes a fetch `Request` given to `service.fetch`, and the
// `Response` is written back; a rejected fetch (a `drop` fault) closes the socket unanswered, as
// the native server does.
//
// usage: node emulator/tests/host/bridge.mjs [--token T]... [--seed N] [--seed-messages N]
//   [--seed-documents N] [--rate-limit N] [--max-upload-mb N] [--delivery-backoff-ms N]
//   [--rate-limit-window-ms N] [--access-token-ttl-ms N] [--rotate-refresh-tokens]
//   [--oauth-client ID:SECRET]... [--user EMAIL:PASSWORD[:TOKEN]]... [--sign-in-page]
//   [--code-ttl-ms N]
// Prints `estatekit-testing bridge listening on http://127.0.0.1:PORT` when ready; stops on
// SIGTERM or when stdin closes (its parent test process ended).
import http from "node:http";
import { createTestService } from "../../../pkg/testing.js";

const numbers = {
  "--seed": "seed",
  "--seed-messages": "seedMessages",
  "--seed-documents": "seedDocuments",
  "--rate-limit": "rateLimit",
  "--max-upload-mb": "maxUploadMb",
  "--delivery-backoff-ms": "deliveryBackoffMs",
  "--rate-limit-window-ms": "rateLimitWindowMs",
  "--access-token-ttl-ms": "accessTokenTtlMs",
  "--code-ttl-ms": "codeTtlMs",
};
const options = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const flag = args[i];
  if (flag === "--token") (options.tokens ??= []).push(args[++i]);
  else if (flag === "--rotate-refresh-tokens") options.rotateRefreshTokens = true;
  else if (flag === "--sign-in-page") options.signInPage = true;
  else if (flag === "--oauth-client") {
    const [clientId, ...secret] = args[++i].split(":");
    (options.oauthClients ??= []).push({ clientId, clientSecret: secret.join(":") });
  } else if (flag === "--user") {
    const [username, password, token] = args[++i].split(":");
    (options.users ??= []).push(token === undefined ? { username, password } : { username, password, token });
  }
  else if (flag in numbers) options[numbers[flag]] = Number(args[++i]);
  else throw new Error(`bridge: unknown argument ${flag}`);
}

/** Hop-by-hop and framing headers: the socket's business, not the service's. */
const skipped = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "expect"]);

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i];
      if (!skipped.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]);
    }
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
    let response;
    try {
      response = await service.fetch(new Request(service.baseUrl + req.url, { method: req.method, headers, body }));
    } catch {
      req.socket.destroy();
      return;
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const out = [];
    for (const [name, value] of response.headers) out.push(name, value);
    res.writeHead(response.status, response.statusText, out);
    res.end(req.method === "HEAD" ? undefined : bytes);
  });
});

let service;
server.listen(0, "127.0.0.1", async () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  service = await createTestService({
    ...options,
    baseUrl: base,
    // Deliveries go where the native emulator's go: only to loopback receivers.
    deliver: (url, init) => fetch(url, init),
  });
  process.stdout.write(`estatekit-testing bridge listening on ${base}\n`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
