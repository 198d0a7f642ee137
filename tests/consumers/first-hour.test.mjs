// The first hour with only the package: a fresh project installs the packed tarball and follows
// what the package itself documents, nothing from the repository.
// - EMULATOR.md's shell examples run as written (the port aside) against `npx estatekit-emulator`:
//   a webhook delivery to the emulator's sink, a fault, the seeded documents;
// - the README's backend example (token, list, upload, webhook route, errors) runs as written;
// - two emulator starts emit different event uuids, and `--seed` makes them equal;
// - the messages of a wrong client secret, a wrong password and a refused connection, and the
//   refused connection's `toJSON()`; a client secret `client` garbles no message;
// - stopping npx by its PID alone stops the emulator.
import test from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, installPacked, tarballPath } from "./lib.mjs";

const project = mkdtempSync(path.join(tmpdir(), "estatekit-first-hour-"));
const npx = path.join(path.dirname(process.execPath), "npx");
const env = { ...process.env, npm_config_yes: "false", npm_config_update_notifier: "false" };
const installed = (file) => readFileSync(path.join(project, "node_modules", "estatekit", file), "utf8");

/** Every running emulator of this file: stopped in `after`, whatever failed. */
const running = new Set();

/**
 * `npx estatekit-emulator --port <free> ...args` in the project: `{ url, port, child, hint, stop() }`
 * once its start-up line is out.
 */
async function startEmulator(args = []) {
  const port = await freePort();
  const child = spawn(npx, ["estatekit-emulator", "--port", String(port), ...args], {
    cwd: project,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const stop = async () => {
    running.delete(stop);
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await once(child, "exit");
  };
  running.add(stop);
  const line = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no start-up line in 60 s\n${stderr}`)), 60_000);
    child.once("exit", (code) => reject(new Error(`exited (${code}) before listening\n${stderr}`)));
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out.split("\n")[0]);
      }
    });
  });
  // The hint follows the start-up line on stderr.
  for (let i = 0; i < 100 && !stderr.includes("EMULATOR.md"); i++) await new Promise((r) => setTimeout(r, 50));
  return { url: line.match(/listening on (\S+)/)[1], port, child, line, hint: stderr.split("\n")[0], stop };
}

/** The fenced blocks of `lang` in a Markdown text. */
const blocks = (text, lang) => [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);

/** Runs a shell example of EMULATOR.md as written, against the emulator on `port`. */
const sh = (script, port) =>
  execFileSync("bash", ["-euo", "pipefail", "-c", script.replaceAll("8787", String(port))], { cwd: project, env, encoding: "utf8", timeout: 60_000 });

/** Runs a module in the project with `ESTATEKIT_URL` set; resolves with its stdout. */
async function node(file, source, baseUrl) {
  writeFileSync(path.join(project, file), source);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: project, env: { ...env, ESTATEKIT_URL: baseUrl }, timeout: 60_000 });
  return stdout;
}

test.describe("the first hour with only the package", () => {
  test.before(() => {
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "first-hour", private: true, type: "module", dependencies: { estatekit: `file:${tarballPath}` } }),
    );
    installPacked(project);
  });
  test.after(async () => {
    for (const stop of [...running]) await stop();
    rmSync(project, { recursive: true, force: true });
  });

  test.it("EMULATOR.md followed as written: start, a delivery, a fault, the seeded documents", async () => {
    const doc = installed("EMULATOR.md");
    const emulator = await startEmulator();
    try {
      console.log(`$ npx estatekit-emulator --port ${emulator.port}\n${emulator.line}\n${emulator.hint}`);
      for (const part of ["OAuth client dev-client", "user admin@acme.test", "3 documents on propertyId prop-bulk", "--help", "EMULATOR.md"]) {
        assert.ok(emulator.hint.includes(part), `${part}: ${emulator.hint}`);
      }
      assert.doesNotMatch(emulator.hint, /dev-secret|dev-password/, "no secret in the log");
      const help = execFileSync(npx, ["estatekit-emulator", "--help"], { cwd: project, env, encoding: "utf8" });
      for (const part of ["dev-client:dev-secret", "admin@acme.test:dev-password", "prop-bulk", "/_emulator/emit", "EMULATOR.md"]) assert.ok(help.includes(part), part);
      const shells = blocks(doc, "sh");
      const listing = shells.find((b) => b.includes("documents/metadata?propertyId=prop-bulk"));
      const delivery = shells.find((b) => b.includes("/emit"));
      const fault = shells.find((b) => b.includes("/faults"));
      assert.ok(listing && delivery && fault, "EMULATOR.md has the three examples");

      const listed = sh(listing, emulator.port);
      console.log(`$ (EMULATOR.md: the seeded documents)\n${listed}`);
      const docs = JSON.parse(listed);
      assert.deepEqual(docs.map((d) => d.title), ["bulk-1.pdf", "bulk-2.pdf", "bulk-3.pdf"]);
      assert.ok(docs.every((d) => d.propertyId === "prop-bulk"));

      const delivered = sh(delivery, emulator.port);
      console.log(`$ (EMULATOR.md: a webhook delivery)\n${delivered}`);
      const [emitted, settled, sink] = delivered.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      assert.equal(emitted.webhooks, 1);
      assert.equal(settled.pending, 0);
      assert.equal(settled.deliveries[0].status, 200);
      assert.equal(sink[0].name, "demo");
      assert.equal(sink[0].body.uuid, emitted.uuid);
      assert.equal(sink[0].body.operation, "UNIT_CREATED");

      // In the same terminal as the block before, which set B and E.
      const faulted = sh(`B=http://127.0.0.1:8787; E=$B/_emulator\n${fault}`, emulator.port);
      console.log(`$ (EMULATOR.md: a fault)\n${faulted}`);
      assert.equal(faulted.trim().split("\n").at(-1), "503");
    } finally {
      await emulator.stop();
    }
  });

  test.it("the README's backend example runs as written: token, list, upload, webhook route, errors", async () => {
    const example = blocks(installed("README.md"), "js").find((b) => b.includes("createTokenProvider"));
    assert.ok(example, "the README has the backend example");
    const emulator = await startEmulator();
    try {
      const out = await node("backend.mjs", example, emulator.url);
      console.log(`$ node backend.mjs\n${out}`);
      assert.deepEqual(out.trim().split("\n"), [
        "documents: 2 on the first page, 3 in all",
        "uploaded lease.pdf",
        "webhook UNIT_CREATED received",
        "not_found (HTTP 404)",
      ]);
    } finally {
      await emulator.stop();
    }
  });

  test.it("two emulator starts emit different event uuids; --seed makes them the same", async () => {
    const emit = async (args) => {
      const emulator = await startEmulator(args);
      try {
        const r = await fetch(`${emulator.url}/_emulator/emit`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"type":"UNIT_CREATED"}' });
        return (await r.json()).uuid;
      } finally {
        await emulator.stop();
      }
    };
    const [one, two] = [await emit([]), await emit([])];
    console.log(`first event's uuid, two starts: ${one} / ${two}`);
    assert.notEqual(one, two);
    assert.equal(await emit(["--seed", "7"]), await emit(["--seed", "7"]));
  });

  test.it("errors name the refused credential, a refused connection's reason, and a secret `client` garbles nothing", async () => {
    const emulator = await startEmulator(["--oauth-client", "dev-client:client"]);
    try {
      const closed = await freePort();
      const out = await node(
        "errors.mjs",
        `import { passwordGrant } from "estatekit/auth";
import { Client } from "estatekit";
const baseUrl = process.env.ESTATEKIT_URL;
const user = { username: "admin@acme.test", password: "dev-password" };
const wrongSecret = await passwordGrant({ baseUrl, clientId: "dev-client", clientSecret: "wrong-secret" }, user).catch((e) => e);
const wrongPassword = await passwordGrant({ baseUrl, clientId: "dev-client", clientSecret: "client" }, { ...user, password: "not-the-password" }).catch((e) => e);
const shortSecret = await passwordGrant({ baseUrl, clientId: "no-such-client", clientSecret: "client" }, user).catch((e) => e);
const refused = await new Client({ baseUrl: "http://127.0.0.1:${closed}", token: "dev-token", retry: { maxRetries: 0 } }).listWebhooks().catch((e) => e);
console.log(JSON.stringify({ wrongSecret: wrongSecret.message, wrongPassword: wrongPassword.message, shortSecret: [shortSecret.message, shortSecret.details], refused: refused.message, refusedJSON: refused }));
`,
        emulator.url,
      );
      const seen = JSON.parse(out);
      console.log(`wrong client secret: ${seen.wrongSecret}\nwrong password: ${seen.wrongPassword}\nsecret \`client\`: ${seen.shortSecret[0]}\nrefused connection: ${seen.refused}\nits toJSON(): ${JSON.stringify(seen.refusedJSON)}`);
      assert.match(seen.wrongSecret, /^password grant failed: the client id or secret was refused \(HTTP 401\) \[invalid_client.*\]: check clientId and clientSecret$/);
      assert.doesNotMatch(seen.wrongSecret, /token/);
      assert.match(seen.wrongPassword, /^password grant failed: the user name or password was refused \(HTTP 4\d\d\) \[invalid_grant.*\]: check username and password$/);
      // The client secret `client`: the service's `invalid_client` is kept as written.
      assert.match(seen.shortSecret[0], /\[invalid_client/);
      assert.doesNotMatch(JSON.stringify(seen.shortSecret), /invalid_\[redacted\]/);
      assert.equal(seen.shortSecret[1].error, "invalid_client");
      assert.equal(seen.refused, `list webhooks failed: network error reaching 127.0.0.1:${closed} (fetch failed: connect ECONNREFUSED 127.0.0.1:${closed})`);
      assert.equal(seen.refusedJSON.cause.message, "fetch failed");
      assert.equal(seen.refusedJSON.cause.cause.code, "ECONNREFUSED");
    } finally {
      await emulator.stop();
    }
  });

  test.it("the emulator stops when npx, signalled by its PID alone, ends", async () => {
    const emulator = await startEmulator();
    const { child } = emulator;
    const exited = once(child, "exit");
    process.kill(child.pid, "SIGTERM"); // npx only, not its process group
    await exited;
    // Within a few seconds (its parent check runs each second), no process of npx's group is left
    // and the emulator answers no more.
    const groupAlive = () => {
      try {
        process.kill(-child.pid, 0);
        return true;
      } catch (e) {
        if (e.code !== "ESRCH") throw e;
        return false;
      }
    };
    let left = true;
    for (let i = 0; i < 50 && left; i++) {
      await new Promise((r) => setTimeout(r, 200));
      left = groupAlive();
    }
    assert.equal(left, false, "a process of npx's group is still running 10 s after npx ended");
    assert.equal(await fetch(`${emulator.url}/_emulator/info`).then(() => true, () => false), false, "the emulator still answers");
    await emulator.stop();
  });
});
