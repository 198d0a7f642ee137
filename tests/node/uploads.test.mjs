// Uploads in Node alike to browsers (`make test-node`, against pkg/): an over-size upload gets
// the service's 413 from both emulators (the package's bin, the native server), a connection
// reset mid-upload says what happened, and progress never reports bytes that were not sent.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const pkg = new URL("../../pkg/", import.meta.url);
const { Client } = await import(new URL("estatekit.node.js", pkg).href);
const native = fileURLToPath(new URL("../../target/debug/estatekit-emulator", import.meta.url));

const MiB = 1024 * 1024;
const upload = (size) => ({ file: new Blob([new Uint8Array(size)]), resourcePath: "tenants/t-1", name: "big.pdf" });

/** Starts an emulator (`command args...`) with a 1 MiB upload limit; its base URL and a stop. */
async function emulator(command, args) {
  const child = spawn(command, [...args, "--port", "0", "--max-upload-mb", "1"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
  };
  try {
    const base = await new Promise((resolve, reject) => {
      const seen = () => {
        const url = out.match(/listening on (http\S+)/)?.[1];
        if (url) resolve(url);
      };
      child.stdout.on("data", seen);
      child.stderr.on("data", seen);
      child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before listening:\n${out}`)));
    });
    return { base, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

const emulators = [["the package's bin (node pkg/emulator-cli.mjs)", process.execPath, [fileURLToPath(new URL("emulator-cli.mjs", pkg))]]];
if (existsSync(native)) emulators.push(["the native server (target/debug/estatekit-emulator)", native, []]);

for (const [name, command, args] of emulators) {
  test(`an over-size upload gets the service's 413 in Node, from ${name}, and reports no progress`, async () => {
    const { base, stop } = await emulator(command, args);
    try {
      const progress = [];
      const client = new Client({ baseUrl: base, token: "dev-token" });
      // 1.5 MiB over a 1 MiB limit (as 101 MiB over the default 100 MiB).
      const e = await client.uploadDocument(upload(MiB + MiB / 2), { onProgress: (p) => progress.push(p) }).catch((error) => error);
      assert.equal(e.kind, "http", e.message);
      assert.equal(e.status, 413);
      assert.match(e.message, /^upload document failed: the service answered HTTP 413/);
      assert.deepEqual(progress, [], "a refused upload reports no byte as sent");
      console.log(`over-size upload (${name}): ${e.kind} ${e.status}: ${e.message}`);
      // The connection is still good for the next call.
      assert.ok(Array.isArray(await client.listWebhooks()));
    } finally {
      await stop();
    }
  });
}

test("a connection reset mid-upload says what happened", async () => {
  // A server that resets every connection once the upload's first bytes come.
  const server = createServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const client = new Client({ baseUrl: `http://127.0.0.1:${server.address().port}`, token: "t" });
    const e = await client.uploadDocument(upload(8 * MiB)).catch((error) => error);
    assert.equal(e.kind, "network", e.message);
    assert.match(e.message, /the service closed the connection before the whole upload was sent, as a server does to refuse a body \(most often one over its size limit\)/);
    assert.match(e.message, /the document may have been uploaded/, "a reset proves nothing: the outcome stays unknown");
    console.log(`reset mid-upload: ${e.message}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("an upload aborted after 30 ms never reported loaded === total", async () => {
  // A service that reads the upload and never answers.
  const sockets = new Set();
  const server = createHttpServer((req) => req.resume());
  server.on("connection", (s) => sockets.add(s));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const client = new Client({ baseUrl: `http://127.0.0.1:${server.address().port}`, token: "t" });
    const progress = [];
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30);
    const e = await client
      .uploadDocument(upload(4 * MiB), { signal: controller.signal, onProgress: (p) => progress.push(p) })
      .catch((error) => error);
    clearTimeout(timer);
    assert.equal(e.kind, "aborted", e.message);
    assert.ok(!progress.some((p) => p.loaded === p.total), JSON.stringify(progress));
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});
