// TEMPORARY (branch `webhooks`): a minimal stand-in for the shared loader the lead is adding on
// main with the same interface; the merge keeps main's version.
// instantiate(init, { entry, file, source }): instantiates a wasm-bindgen module (init: the
// glue's default export) from what `source()` gives (its URL, or a promise of its bytes).
/**
 * @template T
 * @param {(input: { module_or_path: URL | Uint8Array | Promise<Uint8Array> }) => Promise<T>} init
 * @param {{ entry: string, file: string, source: () => URL | Promise<Uint8Array> }} options
 * @returns {Promise<T>}
 */
export async function instantiate(init, { entry, file, source }) {
  try {
    return await init({ module_or_path: await source() });
  } catch (cause) {
    const reason = String(/** @type {{ message?: unknown }} */ (cause)?.message ?? cause);
    const e = new Error(`${entry}: could not load its WebAssembly module ${file} (${reason})`, { cause });
    throw Object.assign(e, { name: "ApiError", kind: "network", attempts: 0, details: reason });
  }
}
