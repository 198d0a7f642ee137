// Finds and instantiates the WebAssembly module of one of the package's entries (estatekit,
// estatekit/testing, estatekit/webhooks). Internal, shared by the entries' wrappers.
//
// Where a module comes from is chosen by the package's `exports` conditions (package.json):
// - `node` (Node, Deno, Bun, and the server side of Next.js, Vite SSR and vitest): the
//   `*.node.js` entries, whose module bytes are embedded in a JavaScript module
//   (`*_embedded.js`, gzip + base64, decoded with the platform's own gunzip). Nothing is looked up
//   on disk or by URL, so no bundler can rewrite or leave the module behind (Next.js's server
//   chunks turn `new URL("x.wasm", import.meta.url)` into a `/_next/static/...` path that Node's
//   `fetch` cannot read);
// - `default` (browsers, workers): the `.wasm` file next to the entry, by
//   `new URL(file, import.meta.url)`, which bundlers emit as an asset;
// - `workerd` (estatekit/webhooks in Cloudflare Workers, which compile no WebAssembly from bytes
//   or URLs): the module imported as a compiled module.
// A failure names the fix that fits where the module was looked for (Vite's pre-bundling, a
// Content-Security-Policy, Next.js's edge runtime).

const PACKAGE = "estatekit";

/** @typedef {{ module_or_path: unknown }} InitArgument */
/** @typedef {(input: InitArgument) => Promise<unknown>} Init */
/** @typedef {URL | Promise<Uint8Array> | WebAssembly.Module} Source */
/**
 * @typedef {object} Where
 * @property {string} entry The entry's specifier (`estatekit`, `estatekit/testing`).
 * @property {string} file The module's file name in the package.
 * @property {() => Source} source Where the module comes from (see above; a compiled module
 *   where the runtime imports .wasm files so, as Workers do).
 */

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
 * The bytes of a module embedded as gzip + base64 (`*_embedded.js`): gunzipped by Node's zlib
 * where there is one, else by the platform's `DecompressionStream`.
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

/**
 * What to do about a module that could not be loaded from `url`, for `reason`.
 * @param {Where} where
 * @param {URL | undefined} url
 * @param {string} reason
 * @returns {string}
 */
function advice({ entry, file }, url, reason) {
  // Only the main entry has init(); the others load their module themselves.
  const init = entry === PACKAGE ? ", or call init({ module_or_path }) first" : "";
  if (/CSP|Content.Security|unsafe-eval/i.test(reason)) return "allow script-src 'wasm-unsafe-eval' in the page's CSP";
  // Next.js's edge runtime takes the browser entry, and compiles no WebAssembly from bytes or URLs.
  if (typeof (/** @type {{ EdgeRuntime?: unknown }} */ (globalThis).EdgeRuntime) === "string") {
    return `use Next.js's Node.js runtime, not the edge runtime${init}`;
  }
  if (url?.pathname.includes("/.vite/")) return `add optimizeDeps: { exclude: ["${PACKAGE}"] } to the Vite config`;
  return `serve ${file} next to the package's JavaScript${init}`;
}

/**
 * Instantiates an entry's module with its glue's `init`. Rejects with an `Error` whose message
 * says where the module was looked for, why it failed and what to do (see `advice`).
 * @param {Init} init
 * @param {Where} where
 * @returns {Promise<void>}
 */
export async function instantiate(init, where) {
  /** @type {URL | undefined} */
  let url;
  try {
    /** @type {unknown} */
    let input = where.source();
    if (input instanceof URL) {
      url = input;
      if (url.protocol === "file:") {
        // A runtime that took the browser entry but has files (Node's fetch reads no file: URL).
        input = builtin("node:fs")?.promises.readFile(url) ?? url;
      } else if (url.pathname.includes("/.vite/")) {
        // Vite's dev server moved the entry to node_modules/.vite/deps/ without its .wasm, and
        // serves the project's node_modules/ as is: the package's own copy is there.
        input = new URL(`/node_modules/${PACKAGE}/${where.file}`, url);
      }
    }
    await init({ module_or_path: input });
  } catch (cause) {
    const reason = String(/** @type {{ message?: unknown }} */ (cause)?.message ?? cause);
    const from = url ? ` from ${url.href}` : "";
    const error = new Error(
      `${where.entry}: could not load its WebAssembly module${from} (${reason}); ${advice(where, url, reason)}.`,
      { cause },
    );
    throw Object.assign(error, { details: reason });
  }
}

/**
 * `instantiate` made once: the returned function starts it on its first call, and every call
 * shares that attempt; a failed attempt is forgotten, so that the next call tries again.
 * @param {Init} init
 * @param {Where} where
 * @returns {() => Promise<void>}
 */
export function loadOnce(init, where) {
  /** @type {Promise<void> | undefined} */
  let loading;
  return () =>
    (loading ??= instantiate(init, where).catch((cause) => {
      loading = undefined;
      throw cause;
    }));
}
