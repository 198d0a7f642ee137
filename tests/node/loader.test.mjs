// How the browser entries find their module (pkg/loader.js): the .wasm file by URL, else the
// embedded copy (the `fallback` chunk), and the error when neither loads: the URL tried, what
// came back, and the fix. Against a loopback server answering as the hosts and bundlers do (a
// 404, an SPA's HTML page, a file that is not WebAssembly, the module itself), with a stand-in
// for the glue's `init` that instantiates what it is given.
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";

const { instantiate, loadOnce } = await import(new URL("../../pkg/loader.js", import.meta.url).href);

/** The smallest WebAssembly module: the magic number and version 1. */
const MODULE = Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0);

/** path -> [status, content-type, body] */
const ROUTES = {
  "/assets/estatekit_wasm_bg.wasm": [200, "application/wasm", MODULE],
  "/octet/estatekit_wasm_bg.wasm": [200, "application/octet-stream", MODULE],
  "/missing/estatekit_wasm_bg.wasm": [404, "text/plain", "Not Found"],
  "/spa/estatekit_wasm_bg.wasm": [200, "text/html; charset=utf-8", "<!doctype html><app-root></app-root>"],
  "/corrupt/estatekit_wasm_bg.wasm": [200, "application/wasm", "not a module"],
};

let server;
let origin;
test.before(async () => {
  server = createServer((req, res) => {
    const [status, type, body] = ROUTES[new URL(req.url, "http://x").pathname] ?? [404, "text/html", "<h1>404</h1>"];
    res.writeHead(status, { "content-type": type }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});
test.after(() => server?.close());

/** A glue `init` that instantiates what it gets, and the inputs it got ("response", "bytes"). */
function glue(refuse) {
  const got = [];
  const init = async ({ module_or_path: m }) => {
    got.push(m instanceof Response ? "response" : m instanceof Uint8Array || m instanceof ArrayBuffer ? "bytes" : typeof m);
    if (refuse) throw new WebAssembly.CompileError(refuse);
    const bytes = m instanceof Response ? await m.arrayBuffer() : m;
    await WebAssembly.instantiate(bytes);
  };
  return { init, got };
}

/** The main entry's `where`, its file at `path`; the fallback counts its calls. */
function main(path, { fallback = async () => MODULE, entry = "estatekit" } = {}) {
  const where = {
    entry,
    file: "estatekit_wasm_bg.wasm",
    source: () => new URL(path, origin),
    // As the entries give it: the embedded copy's module, whose default export gives the module
    // (here the bytes, which the stand-in `init` takes as well).
    fallback: async () => {
      where.fellBack += 1;
      return { default: fallback };
    },
    fellBack: 0,
  };
  return where;
}

const noCopy = async () => {
  throw new Error("Failed to fetch dynamically imported module: /assets/estatekit_wasm_fallback-x.js");
};

async function failure(init, where) {
  const error = await instantiate(init, where).then(() => assert.fail("loaded"), (e) => e);
  assert.equal(error.name, "ApiError");
  assert.equal(error.kind, "network");
  assert.equal(typeof error.details, "string");
  return error;
}

test.describe("the file loads: the embedded copy is never imported", () => {
  test.it("application/wasm: the response itself (compiled as it downloads)", async () => {
    const { init, got } = glue();
    const where = main("/assets/estatekit_wasm_bg.wasm");
    await instantiate(init, where);
    assert.deepEqual(got, ["response"]);
    assert.equal(where.fellBack, 0);
  });

  test.it("another content type: the bytes, once they are WebAssembly", async () => {
    const { init, got } = glue();
    const where = main("/octet/estatekit_wasm_bg.wasm");
    await instantiate(init, where);
    assert.deepEqual(got, ["bytes"]);
    assert.equal(where.fellBack, 0);
  });
});

test.describe("the file gives no module: the embedded copy", () => {
  for (const path of ["/missing/", "/spa/", "/corrupt/", "/nothing-here/"]) {
    test.it(`${path}estatekit_wasm_bg.wasm`, async () => {
      const { init, got } = glue();
      const where = main(`${path}estatekit_wasm_bg.wasm`);
      await instantiate(init, where);
      assert.equal(where.fellBack, 1);
      assert.equal(got.at(-1), "bytes");
    });
  }

  test.it("no import.meta.url (esbuild's iife): new URL throws, the copy loads", async () => {
    const { init, got } = glue();
    const where = { ...main("/"), source: () => new URL("estatekit_wasm_bg.wasm", undefined) };
    await instantiate(init, where);
    assert.deepEqual(got, ["bytes"]);
  });

  test.it("a connection refused", async () => {
    // A loopback port just freed: nothing listens there.
    const closed = createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const { init, got } = glue();
    const where = main(`http://127.0.0.1:${port}/estatekit_wasm_bg.wasm`);
    await instantiate(init, where);
    assert.equal(where.fellBack, 1);
    assert.deepEqual(got, ["bytes"]);
  });
});

test.describe("neither loads: the error says the URL, what came back and the fix", () => {
  test.it("a 404", async () => {
    const { init } = glue();
    const e = await failure(init, main("/missing/estatekit_wasm_bg.wasm", { fallback: noCopy }));
    const url = `${origin}/missing/estatekit_wasm_bg.wasm`;
    assert.equal(
      e.message,
      `estatekit: could not load its WebAssembly module from ${url} (HTTP 404, text/plain; ` +
        "fallback: Error: Failed to fetch dynamically imported module: /assets/estatekit_wasm_fallback-x.js); " +
        "copy node_modules/estatekit/estatekit_wasm_bg.wasm there, or call init({ module_or_path }) with its URL.",
    );
  });

  test.it("an SPA's HTML page instead of the module", async () => {
    const { init } = glue();
    const e = await failure(init, main("/spa/estatekit_wasm_bg.wasm", { fallback: noCopy }));
    assert.match(
      e.message,
      /\/spa\/estatekit_wasm_bg\.wasm \(HTTP 200, text\/html; charset=utf-8: CompileError: WebAssembly\.instantiate\(\): expected magic word 00 61 73 6d, found 3c 21 64 6f @\+0; fallback: /,
    );
    assert.match(e.message, /; copy node_modules\/estatekit\/estatekit_wasm_bg\.wasm there, or call init/);
  });

  test.it("estatekit/testing: the same, without init() (it has none)", async () => {
    const { init } = glue();
    const where = { ...main("/missing/estatekit_testing_wasm_bg.wasm", { fallback: noCopy, entry: "estatekit/testing" }), file: "estatekit_testing_wasm_bg.wasm" };
    const e = await failure(init, where);
    assert.match(e.message, /^estatekit\/testing: could not load its WebAssembly module from http:\S+ \(HTTP 404, text\/html; fallback: /);
    assert.match(e.message, /; copy node_modules\/estatekit\/estatekit_testing_wasm_bg\.wasm there\.$/);
    assert.doesNotMatch(e.message, /init\(/);
  });

  test.it("no import.meta.url: bundle as an ES module", async () => {
    const { init } = glue();
    const where = { ...main("/", { fallback: noCopy }), source: () => new URL("estatekit_wasm_bg.wasm", undefined) };
    const e = await failure(init, where);
    assert.match(e.message, /^estatekit: could not load its WebAssembly module \(TypeError: Invalid URL; fallback: /);
    assert.match(e.message, /; no import\.meta\.url: bundle as an ES module, or call init\(\{ module_or_path \}\) with its URL\.$/);
  });

  test.it("a wrong magic number served as application/wasm", async () => {
    const { init } = glue();
    const e = await failure(init, main("/corrupt/estatekit_wasm_bg.wasm", { fallback: noCopy }));
    assert.match(e.message, /\(HTTP 200, application\/wasm: CompileError: WebAssembly\.instantiate\(\): expected magic word/);
  });

  test.it("a Content-Security-Policy without 'wasm-unsafe-eval': no fallback (it would be refused too)", async () => {
    const csp =
      "WebAssembly.instantiateStreaming(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script";
    const { init, got } = glue(csp);
    const where = main("/assets/estatekit_wasm_bg.wasm");
    const e = await failure(init, where);
    assert.equal(where.fellBack, 0);
    assert.deepEqual(got, ["response"]);
    assert.match(e.message, /\(HTTP 200, application\/wasm: CompileError: WebAssembly\.instantiateStreaming\(\): Refused to compile/);
    assert.match(e.message, /; allow script-src 'wasm-unsafe-eval' in the page's CSP\.$/);
    assert.ok(e.cause instanceof WebAssembly.CompileError);
  });

  test.it("Next.js's edge runtime: no fallback, the Node.js runtime advised", async () => {
    const { init } = glue("WebAssembly.instantiate(): Wasm code generation disallowed by embedder");
    const where = main("/assets/estatekit_wasm_bg.wasm");
    globalThis.EdgeRuntime = "edge-runtime";
    try {
      const e = await failure(init, where);
      assert.equal(where.fellBack, 0);
      assert.match(e.message, /; use Next\.js's Node\.js runtime, not the edge runtime\.$/);
    } finally {
      delete globalThis.EdgeRuntime;
    }
  });

  test.it("a runtime that compiles no WebAssembly from bytes (workerd): the embedded copy's refusal says the fix", async () => {
    // The embedded copy as the entries have it (./embedded.js), in a runtime whose compiling from
    // bytes is refused with V8's words, as Cloudflare's workerd refuses a Worker bundled without
    // the `workerd` condition (tests/consumers/workers.test.mjs runs the real one).
    const { embedded } = await import(new URL("../../pkg/embedded.js", import.meta.url).href);
    const { gzipSync } = await import("node:zlib");
    const copy = () => embedded(gzipSync(MODULE).toString("base64"));
    assert.ok((await copy()) instanceof WebAssembly.Module, "elsewhere the copy is compiled");
    const compile = WebAssembly.compile;
    WebAssembly.compile = async () => {
      throw new WebAssembly.CompileError("WebAssembly.compile(): Wasm code generation disallowed by embedder");
    };
    try {
      const { init } = glue();
      const where = main("/", { fallback: copy });
      where.source = () => new URL("estatekit_wasm_bg.wasm", undefined);
      const e = await failure(init, where);
      assert.equal(where.fellBack, 1);
      assert.match(e.message, /^estatekit: could not load its WebAssembly module \(TypeError: Invalid URL; fallback: CompileError: .*disallowed by embedder\); /);
      assert.match(
        e.message,
        /\); this runtime \(Cloudflare workerd\?\) compiles no WebAssembly from bytes or URLs: bundle with the `workerd` export condition \(wrangler sets it\), \.wasm imports kept as modules \(Next\.js on OpenNext, untested: list estatekit in next\.config's serverExternalPackages\)\.$/,
      );
    } finally {
      WebAssembly.compile = compile;
    }
  });

  test.it("loadOnce: a failed load is tried again by the next call", async () => {
    let copies = 0;
    const { init } = glue();
    const load = loadOnce(init, main("/missing/estatekit_wasm_bg.wasm", {
      fallback: async () => {
        copies += 1;
        if (copies === 1) throw new Error("offline");
        return MODULE;
      },
    }));
    await assert.rejects(load(), /; fallback: Error: offline\)/);
    await load();
    assert.equal(copies, 2);
  });
});
