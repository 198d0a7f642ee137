// The package's bin, `npx estatekit-emulator` (issue 40): the packed tarball installed in a fresh
// project, the emulator started with no Rust toolchain on its PATH, and the native server's
// behaviour over real HTTP: a REST call, GraphQL, the OAuth authorize redirect and its code
// exchange, a webhook delivered to a receiver of this test, /_emulator/*, a CORS preflight,
// `--static`, the second origin, the log, and Ctrl-C (SIGINT) ending it with status 0. Its start-up
// time (spawn to the listening line) and memory (RSS) are printed, never asserted.
import test from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, installPacked, root, tarballPath } from "./lib.mjs";

const project = mkdtempSync(path.join(tmpdir(), "estatekit-bin-"));
const site = path.join(project, "site");

/**
 * PATH without cargo or any Rust directory: a folder of its own holding only what npx runs (this
 * node, npm, npx, sh). Node's directory cannot be on it whole: where node is /usr/bin/node, so is
 * Debian's cargo (the lean build's toolchain, scripts/lean-toolchain.sh).
 */
const tools = path.join(project, "tools");
mkdirSync(tools);
for (const [name, target] of [
  ["node", process.execPath],
  ["npm", path.join(path.dirname(process.execPath), "npm")],
  ["npx", path.join(path.dirname(process.execPath), "npx")],
  ["sh", "/bin/sh"],
]) symlinkSync(realpathSync(target), path.join(tools, name));
const bare = tools;
const env = { ...process.env, PATH: bare, npm_config_yes: "false", npm_config_update_notifier: "false" };
for (const key of Object.keys(env)) if (/^(CARGO|RUSTUP|RUSTC)/.test(key)) delete env[key];
const npx = path.join(path.dirname(process.execPath), "npx");

/** `npx estatekit-emulator ...args` in the project (npm_config_yes=false: never installs). */
const npxArgs = (args) => ["estatekit-emulator", ...args];
const run = (args) => promisify(execFile)(npx, npxArgs(args), { cwd: project, env, timeout: 60_000 });

/** The flags of the native server's usage line (emulator/src/config.rs). */
function nativeFlags() {
  const source = readFileSync(`${root}emulator/src/config.rs`, "utf8");
  const usage = source.match(/pub const USAGE: &str =\s*"([^"]*)"/)[1];
  return [...new Set(usage.match(/--[a-z][a-z-]*/g))].sort();
}

/** The bin's node process: the last process of the tree under `pid` (npx, then sh, then it). */
function binProcess(pid) {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/))
    .filter(Boolean)
    .map(([, p, pp, rss, args]) => ({ pid: Number(p), ppid: Number(pp), rssKb: Number(rss), args }));
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) if (tree.has(r.ppid) && !tree.has(r.pid)) (tree.add(r.pid), (grew = true));
  }
  const under = rows.filter((r) => tree.has(r.pid));
  return under.find((r) => !under.some((c) => c.ppid === r.pid) && /estatekit-emulator|emulator-cli/.test(r.args));
}

test.describe("npx estatekit-emulator (the packed package, no Rust toolchain)", () => {
  let child;
  let url;
  let line;
  let stderr = "";
  let receiver;
  const received = [];

  test.before(async () => {
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "bin-consumer", private: true, type: "module", dependencies: { estatekit: `file:${tarballPath}` } }),
    );
    installPacked(project);
    mkdirSync(path.join(site, "js"), { recursive: true });
    writeFileSync(path.join(site, "index.html"), "<h1>portal</h1>");
    writeFileSync(path.join(site, "js", "app.js"), "export const app = 1;");
    writeFileSync(path.join(project, "secret.txt"), "not served");

    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ path: req.url, headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

    const port = await freePort();
    const started = performance.now();
    child = spawn(npx, npxArgs(["--port", String(port), "--static", site, "--second-origin", "--token", "dev-token", "--token", "other", "--delivery-backoff-ms", "50"]), {
      cwd: project,
      env,
      detached: true, // its own process group, as a terminal's foreground job
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr.on("data", (d) => (stderr += d));
    line = await new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no listening line in 60 s\n${stderr}`)), 60_000);
      child.once("exit", (code) => reject(new Error(`exited (${code}) before listening\n${stderr}`)));
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve(out.split("\n")[0]);
        }
      });
    });
    const ms = performance.now() - started;
    url = line.match(/listening on (\S+)/)?.[1];
    const bin = binProcess(child.pid);
    console.log(
      `npx estatekit-emulator: listening ${Math.round(ms)} ms after spawn (npx included); ` +
        `RSS ${bin ? `${(bin.rssKb / 1024).toFixed(1)} MiB` : "unknown"} (the bin's node process)`,
    );
  });

  test.after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, "SIGKILL");
      await once(child, "exit");
    }
    receiver?.close();
    rmSync(project, { recursive: true, force: true });
  });

  test.it("runs with no cargo on its PATH", async () => {
    const found = await promisify(execFile)("sh", ["-c", "command -v cargo || echo none"], { env });
    assert.equal(found.stdout.trim(), "none");
    assert.doesNotMatch(env.PATH, /cargo|rust/i);
  });

  test.it("prints the native server's start-up line on the port asked for", () => {
    assert.match(line, /^estatekit-emulator listening on http:\/\/127\.0\.0\.1:\d+ tokens=dev-token,other,readonly-token second-origin=http:\/\/127\.0\.0\.1:\d+ subdomain=emu-[0-9a-f]{8}$/);
    assert.ok(url);
  });

  test.it("--help names every flag of the native server's usage line", async () => {
    const { stdout } = await run(["--help"]);
    const flags = [...new Set(stdout.match(/--[a-z][a-z-]*/g))].sort();
    assert.deepEqual(flags, nativeFlags());
  });

  test.it("a bad flag or value exits with status 2 and says which, never echoing a password", async () => {
    for (const [args, message] of [
      [["--nope"], /--nope/],
      [["--port", "x"], /--port: invalid number `x`/],
      [["--access-token-ttl", "1.5"], /--access-token-ttl: invalid number/],
      [["--user", "a@x.test:"], /--user #1: the password must be/],
      [["--oauth-client", "a:pw1", "--oauth-client", "a:pw2"], /--oauth-client #2: client `a` is given twice/],
      [["--user", "a@x.test:pw:bad,token"], /--user #1: the account token/],
      [["--oauth-redirect-uri", "dev-client=https://a.test/cb#pw"], /--oauth-redirect-uri: a redirect URI must be/],
      [["--oauth-client", "a:pw1", "--oauth-redirect-uri", "dev-client=https://a.test/cb"], /--oauth-redirect-uri: no OAuth client `dev-client`/],
    ]) {
      const e = await run(args).then(() => assert.fail(`${args} accepted`), (e) => e);
      assert.equal(e.code, 2, `${args}: ${e.stderr}`);
      assert.match(e.stderr, message);
      assert.doesNotMatch(e.stderr, /pw\b|pw1|pw2/, e.stderr);
    }
  });

  test.it("answers a REST call with the token, and 401 without it", async () => {
    const r = await fetch(`${url}/api/external-integrations/webhooks`, { headers: { authorization: "Bearer dev-token" } });
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(await r.json()));
    assert.ok(r.headers.get("x-request-id"));
    assert.equal((await fetch(`${url}/api/external-integrations/webhooks`)).status, 401);
  });

  test.it("answers the GraphQL messages query", async () => {
    const r = await fetch(`${url}/api/reporting/graphql`, {
      method: "POST",
      headers: { authorization: "Bearer dev-token", "content-type": "application/json" },
      body: JSON.stringify({
        query: "query($c:String){messages(input:{filter:{candidateId:$c},paging:{skip:0,take:5}}){id sentBy text}}",
        variables: { c: "cand-1" },
      }),
    });
    assert.equal(r.status, 200);
    const { data, errors } = await r.json();
    assert.equal(errors, undefined);
    assert.ok(data.messages.length > 0 && data.messages.length <= 5);
    assert.equal(typeof data.messages[0].text, "string");
  });

  test.it("redirects from the authorize endpoint and exchanges the code for tokens", async () => {
    const redirect = "http://127.0.0.1:9/callback";
    const authorize = new URL(`${url}/accounts/dialog/authorize`);
    for (const [k, v] of Object.entries({ client_id: "dev-client", redirect_uri: redirect, state: "s 1", response_type: "code" })) {
      authorize.searchParams.set(k, v);
    }
    const r = await fetch(authorize, { redirect: "manual" });
    assert.equal(r.status, 302);
    const location = new URL(r.headers.get("location"));
    assert.equal(`${location.origin}${location.pathname}`, redirect);
    assert.equal(location.searchParams.get("state"), "s 1");
    const code = location.searchParams.get("code");
    assert.ok(code);
    const grant = await fetch(`${url}/accounts/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: redirect, client_id: "dev-client", client_secret: "dev-secret" }),
    });
    assert.equal(grant.status, 200);
    const tokens = await grant.json();
    assert.equal(tokens.token_type, "Bearer");
    const me = await fetch(`${url}/accounts/api/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal((await me.json()).email, "admin@acme.test");
    assert.ok(!stderr.includes(tokens.access_token) && !stderr.includes(code), "no secret in the log");
  });

  test.it("refuses authorize redirects to URIs not registered, and redirects its errors", async () => {
    const authorize = (params) => {
      const u = new URL(`${url}/accounts/dialog/authorize`);
      for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v);
      return fetch(u, { redirect: "manual" });
    };
    const off = await authorize({ client_id: "dev-client", redirect_uri: "https://app.example/cb", response_type: "code" });
    assert.equal(off.status, 400);
    assert.equal((await off.json()).error, "invalid_request");
    const bad = await authorize({ client_id: "dev-client", redirect_uri: "http://localhost:9/cb", response_type: "token", state: "s" });
    assert.equal(bad.status, 302);
    const location = new URL(bad.headers.get("location"));
    assert.equal(location.searchParams.get("error"), "unsupported_response_type");
    assert.equal(location.searchParams.get("state"), "s");
  });

  test.it("answers 413 to a Content-Length over the limit before the body is sent, as natively", async () => {
    const { hostname, port } = new URL(url);
    const net = await import("node:net");
    const socket = net.connect(Number(port), hostname);
    await once(socket, "connect");
    socket.write(`POST /api/external-integrations/webhooks HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer dev-token\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n`);
    let head = "";
    for await (const chunk of socket) {
      head += chunk;
      if (head.includes("\r\n\r\n")) break;
    }
    socket.destroy();
    assert.match(head, /^HTTP\/1\.1 413 /);
  });

  test.it("delivers a webhook to a receiver over HTTP", async () => {
    const hook = `http://127.0.0.1:${receiver.address().port}/hooks/estatekit`;
    const reg = await fetch(`${url}/api/external-integrations/webhooks`, {
      method: "POST",
      headers: { authorization: "Bearer dev-token", "content-type": "application/json" },
      body: JSON.stringify({ type: "LISTING_CANDIDATE_APPLIED", url: hook }),
    });
    assert.equal(reg.status, 200);
    const emitted = await (
      await fetch(`${url}/_emulator/emit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "LISTING_CANDIDATE_APPLIED", token: "dev-token" }),
      })
    ).json();
    assert.equal(emitted.webhooks, 1);
    for (let i = 0; i < 200 && !received.some((d) => JSON.parse(d.body).uuid === emitted.uuid); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delivery = received.find((d) => JSON.parse(d.body).uuid === emitted.uuid);
    assert.ok(delivery, "the receiver got the event");
    assert.equal(delivery.path, "/hooks/estatekit");
    assert.equal(delivery.headers["user-agent"], "estatekit-emulator");
    assert.equal(JSON.parse(delivery.body).operation, "LISTING_CANDIDATE_APPLIED");
    const records = await (await fetch(`${url}/_emulator/deliveries`)).json();
    assert.ok(records.some((d) => d.eventUuid === emitted.uuid && d.status === 204));
  });

  test.it("refuses deliveries to hosts that are not loopback, as the native server does", async () => {
    await fetch(`${url}/api/external-integrations/webhooks`, {
      method: "POST",
      headers: { authorization: "Bearer other", "content-type": "application/json" },
      body: JSON.stringify({ type: "OWNER_CREATED", url: "http://example.com/hook" }),
    });
    const { uuid } = await (
      await fetch(`${url}/_emulator/emit`, { method: "POST", body: JSON.stringify({ type: "OWNER_CREATED", token: "other" }), headers: { "content-type": "application/json" } })
    ).json();
    let refused;
    for (let i = 0; i < 200 && !refused; i++) {
      refused = (await (await fetch(`${url}/_emulator/deliveries`)).json()).find((d) => d.eventUuid === uuid);
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(refused.error, /only delivers to loopback hosts/);
    assert.equal(refused.status, null);
  });

  test.it("serves /_emulator/* (info, faults, requests) on both origins", async () => {
    const info = await (await fetch(`${url}/_emulator/info`)).json();
    const second = line.match(/second-origin=(\S+)/)[1];
    assert.equal(info.baseUrl, url);
    assert.equal(info.secondOrigin, second);
    assert.deepEqual([...info.tokens].sort(), ["dev-token", "other", "readonly-token"]);
    // The default account's webhook subdomain, as on the start-up line.
    assert.equal(info.subdomain, line.match(/ subdomain=(\S+)$/)[1]);
    assert.deepEqual(info.accounts.find((a) => a.token === "dev-token"), { token: "dev-token", subdomain: info.subdomain });
    const fault = await fetch(`${second}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/api/file-storage/company/documents/metadata", status: 503 }),
    });
    assert.equal(fault.status, 200);
    const r = await fetch(`${url}/api/file-storage/company/documents/metadata`, { headers: { authorization: "Bearer dev-token" } });
    assert.equal(r.status, 503);
    const requests = await (await fetch(`${url}/_emulator/requests`)).json();
    assert.ok(requests.some((q) => q.path === "/api/file-storage/company/documents/metadata" && q.hasAuthorization));
  });

  test.it("answers a CORS preflight, and CORS headers on answers", async () => {
    const r = await fetch(`${url}/api/reporting/graphql`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers.get("access-control-allow-origin"), "http://localhost:3000");
    assert.match(r.headers.get("access-control-allow-methods"), /POST/);
    assert.match(r.headers.get("access-control-allow-headers").toLowerCase(), /authorization/);
    const get = await fetch(`${url}/api/external-integrations/webhooks`, { headers: { authorization: "Bearer dev-token", origin: "http://localhost:3000" } });
    assert.equal(get.headers.get("access-control-allow-origin"), "http://localhost:3000");
  });

  test.it("serves --static files, never one outside the directory", async () => {
    const index = await fetch(`${url}/`);
    assert.equal(index.status, 200);
    assert.match(index.headers.get("content-type"), /^text\/html/);
    assert.equal(await index.text(), "<h1>portal</h1>");
    const js = await fetch(`${url}/js/app.js`);
    assert.match(js.headers.get("content-type"), /^text\/javascript/);
    assert.equal(js.headers.get("access-control-allow-origin"), "*");
    for (const p of ["/..%2Fsecret.txt", "/js/..%2F..%2Fsecret.txt", "/%2e%2e/secret.txt", "/missing.js"]) {
      const r = await fetch(`${url}${p}`);
      assert.equal(r.status, 404, p);
      assert.equal((await r.json()).statusCode, 404, p);
    }
  });

  test.it("logs each request on stderr (method, path, status), without the Authorization value", () => {
    assert.match(stderr, /^GET \/api\/external-integrations\/webhooks -> 200 \(\d+ ms\)$/m);
    assert.match(stderr, /^OPTIONS \/api\/reporting\/graphql -> 204 /m);
    assert.doesNotMatch(stderr, /Bearer|dev-secret/);
  });

  test.it("stops on Ctrl-C (SIGINT to npx's process group, as a terminal sends it)", async () => {
    const bin = binProcess(child.pid);
    console.log(`npx estatekit-emulator: RSS ${bin ? `${(bin.rssKb / 1024).toFixed(1)} MiB` : "unknown"} after the requests above`);
    const exited = once(child, "exit");
    process.kill(-child.pid, "SIGINT");
    const [code, signal] = await exited;
    // npx's own status is npm's: its `sh -c` ends itself by the Ctrl-C it saw, and npm passes that
    // on (as for any npx command); the bin's own status is checked below, without npx.
    assert.ok(code === 0 || signal === "SIGINT", `npx ended: ${code} ${signal}`);
    assert.match(stderr, /estatekit-emulator: shutting down/);
    await assert.rejects(fetch(`${url}/_emulator/info`));
  });

  for (const signal of ["SIGINT", "SIGTERM"]) {
    test.it(`the bin (node_modules/.bin/estatekit-emulator) exits with status 0 on ${signal}`, async () => {
      const started = performance.now();
      const bin = spawn(process.execPath, [path.join(project, "node_modules", ".bin", "estatekit-emulator"), "--port", "0", "--quiet"], {
        cwd: project,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const [first] = await Promise.race([
          once(bin.stdout, "data"),
          once(bin, "exit").then(([c]) => assert.fail(`exited (${c}) before listening`)),
        ]);
        const ms = performance.now() - started;
        const base = String(first).match(/listening on (\S+)/)[1];
        assert.equal((await fetch(`${base}/_emulator/info`)).status, 200);
        if (signal === "SIGINT") console.log(`node node_modules/.bin/estatekit-emulator: listening ${Math.round(ms)} ms after spawn`);
        const exited = once(bin, "exit");
        bin.kill(signal);
        assert.deepEqual(await exited, [0, null]);
      } finally {
        if (bin.exitCode === null && bin.signalCode === null) bin.kill("SIGKILL");
      }
    });
  }
});
