// Unpacks and compiles a module embedded in JavaScript (`*_embedded.js`, written by
// scripts/embed-wasm.mjs): the server entries' modules, and the browser entries' fallback copies
// (see ./loader.js). Only those files import this one, so a browser entry whose .wasm file loads
// never downloads it.

/**
 * A Node built-in module, if this runtime has `process.getBuiltinModule` (Node >= 20.16, Deno,
 * Bun); invisible to bundlers.
 * @param {string} id
 * @returns {any}
 */
function builtin(id) {
  const node = /** @type {{ process?: { getBuiltinModule?: (id: string) => unknown } }} */ (globalThis);
  return node.process?.getBuiltinModule?.(id);
}

/**
 * V8's words when the runtime refuses to compile WebAssembly from bytes: Cloudflare's workerd, to
 * a Worker bundled without the `workerd` export condition (whose entries import the module as a
 * compiled module instead).
 */
const REFUSED = /disallowed by embedder/;

/** What to do about REFUSED; ./loader.js puts it at the end of its message. */
const FIX =
  "this runtime (Cloudflare workerd?) compiles no WebAssembly from bytes or URLs: bundle with the `workerd` " +
  "export condition (wrangler sets it), .wasm imports kept as modules (Next.js on OpenNext, untested: list estatekit " +
  "in next.config's serverExternalPackages)";

/**
 * The bytes of a module embedded as gzip + base64: gunzipped by Node's zlib where there is one,
 * else by the platform's `DecompressionStream`.
 * @param {string} base64
 * @returns {Promise<BufferSource>}
 */
async function unpack(base64) {
  const zlib = builtin("node:zlib");
  const { Buffer } = builtin("node:buffer") ?? {};
  if (zlib && Buffer) return zlib.gunzipSync(Buffer.from(base64, "base64"));
  const gzip = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Response(gzip).body?.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A module embedded as gzip + base64, unpacked and compiled. Where the runtime refuses to compile
 * from bytes (REFUSED), the rejection is its CompileError with a `fix` that says what to do.
 * @param {string} base64
 * @returns {Promise<WebAssembly.Module>}
 */
export async function embedded(base64) {
  const bytes = await unpack(base64);
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw REFUSED.test(String(e)) ? Object.assign(/** @type {object} */ (e), { fix: FIX }) : e;
  }
}
