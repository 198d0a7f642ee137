// estatekit's public API, shared by its two entries: a thin wrapper around wasm-bindgen's glue
// of the module (as wasm-bindgen emits it), which the entry gives with where the module comes
// from: ./estatekit.js, for browsers, the glue ./estatekit_wasm.js and the .wasm file next to it;
// ./estatekit.node.js, for servers, the glue ./estatekit_wasm_node.js of the module built with
// the `dom-emulation` feature, whose bytes it embeds (see ./loader.js). It
// - initialises the module by itself on first use (once, shared by concurrent calls, no top-level
//   await), while init()/initSync() stay available;
// - exports a `Client` that forwards every member of the wasm `Client` generically (members added
//   in Rust are forwarded without editing this file), `free()` and `Symbol.dispose`;
// - gives the list calls `listDocuments` and `listMessages` as `PagePromise`s (./paging.js):
//   awaited, one request as given; iterated, every item of every page;
// - re-exports the `ApiError` class (./api_error.js, which the module constructs too) and
//   `isApiError`, and adds EVENT_TYPES / DOCUMENT_TYPES.
// Its declarations are ./estatekit.d.ts (the wrapper's additions; the rest comes from the glue's).
// The build copies this file into pkg/ unchanged; `make test-types` type-checks it there.
import { loadOnce } from "./loader.js";
import { ApiError, apiError, isApiError } from "./api_error.js";
import { DEFAULT_PAGE_SIZE, PagePromise } from "./paging.js";
import { checkBaseUrl } from "./base_url.js";
import { DOCUMENT_TYPES, EVENT_TYPES } from "./vocab.js";

export { ApiError, isApiError, DEFAULT_PAGE_SIZE };

/** @typedef {import("./estatekit_wasm.js").ApiErrorKind} ApiErrorKind */
/** @typedef {import("./estatekit_wasm.js").ClientOptions} ClientOptions */
/** @typedef {import("./estatekit.js").InitOutput} InitOutput */
/** @typedef {import("./estatekit.js").ListDocumentsOptions} ListDocumentsOptions */
/** @typedef {import("./estatekit.js").ListMessagesOptions} ListMessagesOptions */
/** @typedef {import("./estatekit_wasm.js").ListDocumentsQuery} ListDocumentsQuery */
/** @typedef {import("./estatekit_wasm.js").DocumentRecord} DocumentRecord */
/** @typedef {import("./estatekit_wasm.js").Message} Message */
/** @typedef {import("./estatekit_wasm.js").MessageFilter} MessageFilter */
/** @typedef {import("./estatekit_wasm.js").Client} WasmClient */
/**
 * What the wrapper uses of a glue: both glues have the same API (their raw exports, internal,
 * differ).
 * @typedef {{
 *   init: (input?: Parameters<typeof import("./estatekit_wasm.js").default>[0]) => Promise<InitOutput>,
 *   initSync: (module: Parameters<typeof import("./estatekit_wasm.js").initSync>[0]) => InitOutput,
 *   Client: typeof import("./estatekit_wasm.js").Client,
 * }} Glue
 */

// EVENT_TYPES and DOCUMENT_TYPES: ./vocab.js, generated from their one definition in Rust
// (vocab/src/lib.rs) by scripts/build-pkg.sh.
export { EVENT_TYPES, DOCUMENT_TYPES };

/**
 * Whether `value` is an event type (a type guard: a `<select>`'s value, a query parameter).
 * @param {unknown} value
 * @returns {value is import("./estatekit_wasm.js").EventType}
 */
export function isEventType(value) {
  return /** @type {readonly unknown[]} */ (EVENT_TYPES).includes(value);
}

/**
 * Whether `value` is a document type (a type guard).
 * @param {unknown} value
 * @returns {value is import("./estatekit_wasm.js").DocumentType}
 */
export function isDocumentType(value) {
  return /** @type {readonly unknown[]} */ (DOCUMENT_TYPES).includes(value);
}

/** The module is instantiated: clients can be built synchronously. */
let ready = false;

/**
 * The glue of the module, and the loading of the module (see `entry`). Set before anything here
 * is called: this module is only reached through an entry, which calls `entry` first.
 * @type {Glue}
 */
let glue;
/** @type {() => Promise<void>} */
let load;

/**
 * Initialises the module once; concurrent callers share one attempt, a failed one is retried. A
 * failure is the loader's ApiError of kind `network` (./loader.js).
 * @returns {Promise<void>}
 */
function ensureInit() {
  if (ready) return Promise.resolve();
  return load().then(() => {
    ready = true;
  });
}

/**
 * Loads and instantiates the WebAssembly module (optional: the first call does it).
 * @param {Parameters<Glue["init"]>[0]} [module_or_path]
 * @returns {Promise<InitOutput>}
 */
async function init(module_or_path) {
  if (module_or_path === undefined) {
    await ensureInit();
    return glue.init();
  }
  const output = await glue.init(module_or_path);
  ready = true;
  return output;
}

/**
 * Instantiates the module synchronously from bytes or a WebAssembly.Module.
 * @param {Parameters<Glue["initSync"]>[0]} module
 * @returns {InitOutput}
 */
function initSync(module) {
  const output = glue.initSync(module);
  ready = true;
  return output;
}

/**
 * Per client: the wasm client once built, its options until then, the error its options gave,
 * whether it was freed, its base URL (checked and normalised at `new`, see ./base_url.js), and
 * the hooks around its `fetch` and `getToken` calls (estatekit/otel's, see `INSTRUMENT`).
 * @typedef {{ inner: WasmClient | undefined, options: ClientOptions | undefined, error?: unknown, freed: boolean, base: string, hooks?: Hooks }} State
 * @type {WeakMap<Client, State>}
 */
const clients = new WeakMap();

/** What a freed client's calls reject with: a kind of its own, and what to do. */
const FREED =
  "estatekit: this Client was freed (free() or the end of a `using` block) and cannot be used again: " +
  "create a new Client, or keep one for as long as the app runs (module scope or a provider) instead of " +
  "freeing it in an effect's cleanup";

/**
 * Builds the wasm client of `state`; invalid options give an ApiError (invalid_input) that is
 * kept, so that every call rejects with it, whether the module was loaded before or after `new`.
 * @param {State} state
 */
function build(state) {
  try {
    state.inner = new glue.Client(/** @type {ClientOptions} */ (state.options));
    if (state.hooks) hooked(state.inner).__instrument(state.hooks.send, state.hooks.ask);
  } catch (e) {
    state.error = e;
  }
  state.options = undefined;
}

/**
 * The seam of `estatekit/otel` (undeclared, not part of the API): `client[INSTRUMENT]({ send,
 * ask })` makes every request of the client go through `send(fetch, url, init, callId)` instead of
 * `fetch(url, init)` (js/request.js), and every call of its `getToken` option through `ask(getToken, reason,
 * callId)` instead of `getToken(reason)`; each must call what it is handed at once and return
 * what that returns (the wasm client's `__instrument`, kept when the client is built later).
 */
const INSTRUMENT = Symbol.for("estatekit.instrument");

/**
 * The hooks of `INSTRUMENT`.
 * @typedef {{
 *   send(fetch: (request: Request) => unknown, request: Request, callId: number): unknown,
 *   ask(getToken: (reason: string) => unknown, reason: string, callId: number): unknown,
 * }} Hooks
 */

/** @param {WasmClient} wasm */
const hooked = (wasm) => /** @type {{ __instrument(send: Hooks["send"], ask: Hooks["ask"]): void }} */ (/** @type {unknown} */ (wasm));

/** @param {string} what */
function notUsable(what) {
  return apiError(
    "invalid_input",
    `estatekit: ${what} needs the WebAssembly module: await init() first, or use it after a method call resolved`,
  );
}

/**
 * The wasm client, built now if the module is ready; undefined if it is not.
 * @param {Client} client
 * @returns {WasmClient | undefined}
 */
function innerNow(client) {
  const state = clients.get(client);
  if (!state) throw apiError("invalid_input", "estatekit: not a Client");
  if (state.freed) throw apiError("freed", FREED);
  if (!state.inner && state.error === undefined && ready) build(state);
  if (state.error !== undefined) throw state.error; // ApiError invalid_input
  return state.inner;
}

/**
 * The wasm client, after initialising the module if needed.
 * @param {Client} client
 * @returns {Promise<WasmClient>}
 */
async function inner(client) {
  const now = innerNow(client);
  if (now) return now;
  await ensureInit();
  return /** @type {WasmClient} */ (innerNow(client));
}

/**
 * Calls the wasm client's `key` with `args`. A failure's stack is taken again here, on the
 * failure path only: where the engine keeps async stack traces (V8), it then shows the caller's
 * frames rather than only the glue's and `wasm-function[n]`.
 * @param {Client} client
 * @param {string} key
 * @param {unknown[]} args
 */
async function invoke(client, key, args) {
  try {
    const wasm = /** @type {Record<string, (...args: unknown[]) => unknown>} */ (/** @type {unknown} */ (await inner(client)));
    return await wasm[key](...args);
  } catch (e) {
    const capture = /** @type {{ captureStackTrace?: (target: object) => void }} */ (Error).captureStackTrace;
    if (isApiError(e) && typeof capture === "function") capture(/** @type {object} */ (e));
    throw e;
  }
}

/**
 * A list call (`listDocuments`, `listMessages`) as a `PagePromise`: `args` as given when awaited;
 * when iterated, `page(skip, take)` gives the arguments of each page's request, from `skip`.
 * `pageSize`/`limit` (iteration options) leave the options the requests get; an awaited call
 * given them is refused, and so is an iteration whose query already sets `take` (`where`).
 * @template T
 * @param {Client} client
 * @param {string} key
 * @param {unknown[]} args
 * @param {unknown} options
 * @param {(call: Record<string, unknown>) => { skip?: unknown, take?: unknown, where: string, page: (skip: number, take: number) => unknown[] }} paging
 * @returns {PagePromise<T>}
 */
function list(client, key, args, options, paging) {
  const object = options !== null && typeof options === "object";
  const { pageSize, limit, ...call } = /** @type {Record<string, unknown>} */ (object ? options : {});
  const { skip, take, where, page } = paging(call);

  const iterationOnly = pageSize !== undefined ? "pageSize" : limit !== undefined && "limit";
  return new PagePromise(
    () =>
      /** @type {Promise<T[]>} */ (
        iterationOnly
          ? Promise.reject(
              apiError(
                "invalid_input",
                `invalid options.${iterationOnly}: an iteration option (for await ... of); await sends one request as given`,
              ),
            )
          : invoke(client, key, args)
      ),
    (skip, take) => /** @type {Promise<T[]>} */ (invoke(client, key, page(skip, take))),
    {
      skip,
      pageSize,
      limit,
      // Options that are not an object: the call refuses them in its own words.
      refused: () =>
        !object && options != null
          ? invoke(client, key, args)
          : take !== undefined &&
            apiError("invalid_input", `invalid ${where}: when iterating, give the page size as options.pageSize (default 50)`),
    },
  );
}

/**
 * A client for one account of the service. The WebAssembly client is built at once when the
 * module is initialised, else at the first method call, which initialises the module. Throws an
 * ApiError of kind invalid_input at once for a missing or wrong base URL (./base_url.js, the
 * module's rule); any other invalid option makes every call reject with one, whether the module
 * was loaded before `new` or not (docs/errors.md, "Refused input").
 */
class Client {
  /** @param {ClientOptions} options */
  constructor(options) {
    const base = checkBaseUrl(options);
    /** @type {State} */
    const state = { inner: undefined, options, freed: false, base };
    clients.set(this, state);
    if (ready) build(state);
    else if (options !== null && typeof options === "object" && Object.getPrototypeOf(options) === Object.prototype) {
      state.options = { ...options }; // read as they are now, like the synchronous path
    }
  }

  /**
   * The base URL the client talks to (normalised, without trailing slash), readable at once;
   * throws only when the client was freed.
   */
  get baseUrl() {
    const state = clients.get(this);
    if (!state) throw apiError("invalid_input", "estatekit: not a Client");
    if (state.freed) throw apiError("freed", FREED);
    return state.inner ? state.inner.baseUrl : state.base;
  }

  /** Frees the WebAssembly memory of this client; it is unusable afterwards. */
  free() {
    const state = clients.get(this);
    if (!state || state.freed) return;
    state.freed = true;
    state.options = undefined;
    state.inner?.free();
    state.inner = undefined;
  }

  /**
   * Documents' metadata, filtered: awaited, one request with `query` as given; iterated, every
   * matching document, `pageSize` a request from the query's `skip`, up to `limit`.
   * @param {ListDocumentsQuery} [query]
   * @param {ListDocumentsOptions} [options]
   * @returns {PagePromise<DocumentRecord>}
   */
  listDocuments(query, options) {
    const q = /** @type {Record<string, unknown> | undefined} */ (query !== null && typeof query === "object" ? query : undefined);
    return list(this, "listDocuments", [query, options], options, (call) => ({
      skip: q?.skip,
      take: q?.take,
      where: "query.take",
      page: (skip, take) => [{ ...q, skip, take }, call],
    }));
  }

  /**
   * The messages of a conversation (GraphQL `messages`): awaited, one request with `paging` as
   * given; iterated, every message, `pageSize` a request from `paging.skip`, up to `limit`.
   * @param {MessageFilter} filter
   * @param {ListMessagesOptions} [options]
   * @returns {PagePromise<Message | null>}
   */
  listMessages(filter, options) {
    return list(this, "listMessages", [filter, options], options, (call) => {
      const paging = /** @type {{ skip?: unknown, take?: unknown } | undefined} */ (call.paging ?? undefined);
      return {
        skip: paging?.skip,
        take: paging?.take,
        where: "options.paging.take",
        page: (skip, take) => [filter, { ...call, paging: { ...paging, skip, take } }],
      };
    });
  }

  /**
   * estatekit/otel's seam (see `INSTRUMENT`; a class method: not enumerable).
   * @param {Hooks} hooks
   */
  [INSTRUMENT](hooks) {
    const state = clients.get(this);
    if (!state) throw apiError("invalid_input", "estatekit: not a Client");
    state.hooks = hooks;
    if (state.inner) hooked(state.inner).__instrument(hooks.send, hooks.ask);
  }

  static {
    if (typeof Symbol.dispose === "symbol") {
      Object.defineProperty(Client.prototype, Symbol.dispose, {
        configurable: true,
        writable: true,
        value: Client.prototype.free,
      });
    }
  }
}

/**
 * Forwards every member of the glue's `Client` to the wrapper's: accessors (get/set) are
 * synchronous and need the module initialised already; every other function member is async and
 * waits for it. Members added in Rust are forwarded without editing this file.
 * @param {typeof import("./estatekit_wasm.js").Client} WasmClass
 */
function forwardMembers(WasmClass) {
    /** @typedef {Record<string, unknown>} Members */
    const proto = WasmClass.prototype;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === "constructor" || key.startsWith("__") || Object.hasOwn(Client.prototype, key)) continue;
      const desc = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(proto, key));
      /** @type {PropertyDescriptor} */
      const member = { configurable: true, enumerable: false };
      if (typeof desc.value === "function") {
        member.writable = true;
        member.value = {
          /** @this {Client} @param {unknown[]} args */
          [key](...args) {
            return invoke(this, key, args);
          },
        }[key]; // a method named like the wasm one
      } else {
        if (desc.get) {
          /** @this {Client} */
          member.get = function () {
            const wasm = innerNow(this);
            if (!wasm) throw notUsable(`Client.${key}`);
            return /** @type {Members} */ (/** @type {unknown} */ (wasm))[key];
          };
        }
        if (desc.set) {
          /** @this {Client} @param {unknown} value */
          member.set = function (value) {
            const wasm = innerNow(this);
            if (!wasm) throw notUsable(`Client.${key}`);
            /** @type {Members} */ (/** @type {unknown} */ (wasm))[key] = value;
          };
        }
      }
      Object.defineProperty(Client.prototype, key, member);
    }
}

/**
 * The package's API on the module of `moduleGlue`, loaded from `from` when a call needs it: the
 * file next to the browser entry, the bytes the server entry embeds, or the compiled module the
 * Workers entry imports. One module per realm: the first entry that loads it decides which.
 * `fallback`: the browser entry's embedded copy, for when the file gives no module (see
 * ./loader.js).
 * @param {Glue} moduleGlue
 * @param {() => import("./loader.js").Source} from
 * @param {import("./loader.js").Where["fallback"]} [fallback]
 */
export function entry(moduleGlue, from, fallback) {
  if (!glue) {
    glue = moduleGlue;
    load = loadOnce(moduleGlue.init, { entry: "estatekit", file: "estatekit_wasm_bg.wasm", source: from, fallback });
    forwardMembers(moduleGlue.Client);
  }
  return { init, initSync, Client };
}
