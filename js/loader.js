// Finds and instantiates the WebAssembly module of one of the package's entries (estatekit,
// estatekit/testing, estatekit/webhooks). Internal, shared by the entries' wrappers.
//
// Where a module comes from is chosen by the package's `exports` conditions (package.json):
// - `node` (Node, Deno, Bun, and the server side of Next.js, Vite SSR and vitest): the
//   `*.node.js` entries, whose module bytes are embedded in a JavaScript module
//   (`*_embedded.js`, gzip + base64, unpacked by ./embedded.js). Nothing is looked up on disk or
//   by URL, so no bundler can rewrite or leave the module behind (Next.js's server chunks turn
//   `new URL("x.wasm", import.meta.url)` into a `/_next/static/...` path that Node's `fetch`
//   cannot read);
// - `default` (browsers, workers): the `.wasm` file next to the entry, by
//   `new URL(file, import.meta.url)`, which most bundlers emit as an asset. Where the file cannot
//   be fetched or is not WebAssembly (a bundler that emits no asset: Angular's, esbuild, Rollup,
//   Bun; a dev server's pre-bundling folder; a 404 or an SPA's HTML page; no `import.meta.url` in
//   a non-module bundle), the entry's embedded copy of the same module, imported lazily: a
//   separate chunk, which a page whose file loads never downloads;
// - `workerd` (Cloudflare Workers, which compile no WebAssembly from bytes or URLs; wrangler sets
//   it): the module imported as a compiled module (`import compiled from "./x.wasm"`). The main
//   entry and estatekit/auth share the server entry's module there (a Worker is a server: it
//   holds the OAuth client secret).
// A failure says the URL tried, what came back, and the fix that fits (copy the file there,
// init({ module_or_path }), an ES module bundle, a Content-Security-Policy, Next.js's edge
// runtime, a Worker bundled without the `workerd` condition: the embedded copy's refusal says
// that one, see ./embedded.js). Dev servers need no case of their own: their pre-bundling folders
// (Vite's .vite/deps or another cacheDir, Nuxt's, Angular's .angular/cache) have no .wasm file,
// and the embedded copy loads, which is fewer bytes than the file there (dev servers do not
// compress).

import { apiError } from "./api_error.js";

const PACKAGE = "estatekit";

/** @typedef {{ module_or_path: unknown }} InitArgument */
/** @typedef {(input: InitArgument) => Promise<unknown>} Init */
/** @typedef {URL | Promise<WebAssembly.Module> | WebAssembly.Module} Source */
/**
 * @typedef {object} Where
 * @property {string} entry The entry's specifier (`estatekit`, `estatekit/testing`).
 * @property {string} file The module's file name in the package.
 * @property {() => Source} source Where the module comes from (see above; a compiled module
 *   where the runtime imports .wasm files so, as Workers do).
 * @property {() => Promise<{ default: () => Promise<WebAssembly.Module> }>} [fallback] The browser
 *   entries' embedded copy (`*_embedded.js`), for when `source`'s URL gives no module: imported
 *   dynamically, a chunk of its own. Its refusal in a runtime that compiles no WebAssembly from
 *   bytes carries the `fix` for it (./embedded.js), which the message gives.
 */

/** A refusal to compile from a page's Content-Security-Policy (without 'wasm-unsafe-eval'). */
const CSP = /CSP|unsafe-eval/;

/**
 * What to do about a module that could not be loaded from `url`, where compiling was not refused
 * (a refusal has its own fix: see `instantiate`).
 * @param {Where} where
 * @param {URL | undefined} url
 * @returns {string}
 */
function advice({ entry, file }, url) {
  // Only the main entry has init(); the others load their module themselves.
  const init = entry === PACKAGE ? ", or call init({ module_or_path }) with its URL" : "";
  if (!url) return `no import.meta.url: bundle as an ES module${init}`;
  return `copy node_modules/${PACKAGE}/${file} there${init}`;
}

/**
 * Instantiates an entry's module with its glue's `init`; a browser entry whose URL gives no module
 * (not fetched, not WebAssembly, no URL) falls back to its embedded copy. Rejects with an `Error`
 * of kind `network` whose message says the URL tried, what came back and what to do (`advice`).
 * @param {Init} init
 * @param {Where} where
 * @returns {Promise<void>}
 */
export async function instantiate(init, where) {
  /** @type {URL | undefined} */
  let url;
  /** @type {unknown} */
  let cause;
  /**
   * What to do where compiling is refused: in Next.js's edge runtime (which compiles no
   * WebAssembly from bytes or URLs, and has no copy tried), under a page's CSP (no copy tried
   * either), or what an embedded copy's refusal says (./embedded.js: a Worker bundled without the
   * `workerd` condition; the fallback's refusal here, a server entry's in `cause`).
   * @type {string | false | undefined}
   */
  // @ts-expect-error: Next.js's edge runtime's global, which TypeScript does not declare
  let fix = typeof EdgeRuntime === "string" && "use Next.js's Node.js runtime, not the edge runtime";
  /** Why no module came: what the URL answered ("HTTP 404, text/html"), and why. */
  let reason = "";
  try {
    // Throws without import.meta.url (esbuild's iife: new URL(file, undefined)).
    let input = where.source();
    if (input instanceof URL) {
      url = input;
      const response = await fetch(url);
      const type = response.headers.get("content-type");
      reason = `HTTP ${response.status}, ${type}`;
      if (!response.ok) throw reason;
      // application/wasm is compiled while it downloads; anything else as bytes (the glue would
      // warn about the content type first), which fail to compile unless they are WebAssembly.
      input = type === "application/wasm" ? response : await response.arrayBuffer();
    }
    return void (await init({ module_or_path: input }));
  } catch (e) {
    cause = e;
    if (e !== reason) reason += `${reason && ": "}${e}`;
  }
  if (CSP.test(reason)) fix = "allow script-src 'wasm-unsafe-eval' in the page's CSP";
  // No copy where compiling itself is refused (a CSP, the edge runtime): it would be refused too.
  if (where.fallback && !fix) {
    try {
      return void (await init({ module_or_path: await (await where.fallback()).default() }));
    } catch (e) {
      reason += `; fallback: ${e}`;
      fix = /** @type {{ fix?: string } | undefined} */ (e)?.fix;
    }
  }
  const from = url ? ` from ${url}` : "";
  const message = `${where.entry}: could not load its WebAssembly module${from} (${reason}); ${fix || /** @type {{ fix?: string } | undefined} */ (cause)?.fix || advice(where, url)}.`;
  throw apiError("network", message, { cause, details: reason });
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
