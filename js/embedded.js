// Unpacks a module embedded in JavaScript (`*_embedded.js`, written by scripts/embed-wasm.mjs):
// the server entries' modules, and the browser entries' fallback copies (see ./loader.js). Only
// those files import this one, so a browser entry whose .wasm file loads never downloads it.

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
 * The bytes of a module embedded as gzip + base64: gunzipped by Node's zlib where there is one,
 * else by the platform's `DecompressionStream`.
 * @param {string} base64
 * @returns {Promise<Uint8Array>}
 */
export async function embedded(base64) {
  const zlib = builtin("node:zlib");
  const { Buffer } = builtin("node:buffer") ?? {};
  if (zlib && Buffer) return zlib.gunzipSync(Buffer.from(base64, "base64"));
  const gzip = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Response(gzip).body?.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
