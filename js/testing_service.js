// estatekit/testing's API, shared by its entries (./testing.js for browsers, ./testing.node.js
// for servers, ./testing.workerd.js for Cloudflare Workers, as for the main entry: see
// ./loader.js): the emulator in process, for an app's tests. A thin wrapper around
// wasm-bindgen's glue of the emulator's WebAssembly host (./estatekit_testing_wasm.js, as
// emitted):
// - loads that module once (its own .wasm; the main entry never imports this file);
// - `createTestService` returns a service whose `fetch` answers like the real service, and whose
//   helpers (seed, faults, records, events) call the emulator's own admin routes
//   (/_emulator/...) through that `fetch`: the same handlers as the native emulator's.
// Its declarations are ./testing.d.ts; the record types come from Rust (tsify) in the glue's.
import wasmInit, { TestService as WasmService } from "./estatekit_testing_wasm.js";
import { loadOnce } from "./loader.js";
import { apiError } from "./api_error.js";

/** @typedef {import("./testing.js").TestServiceOptions} TestServiceOptions */
/** @typedef {import("./testing.js").Fault} Fault */
/** @typedef {import("./testing.js").RequestRecord} RequestRecord */
/** @typedef {import("./testing.js").DeliveryRecord} DeliveryRecord */
/** @typedef {import("./testing.js").SeedRequest} SeedRequest */
/** @typedef {import("./testing.js").Seeded} Seeded */
/** @typedef {import("./testing.js").EmitOptions} EmitOptions */
/** @typedef {import("./testing.js").EmittedEvent} EmittedEvent */
/** @typedef {import("./testing.js").Account} Account */
/** @typedef {import("./testing.js").OAuthCounts} OAuthCounts */
/** @typedef {import("./estatekit_wasm.js").EventType} EventType */

/**
 * Loads the emulator's module once (see `entry`, which every entry calls first); a failed attempt
 * is retried by the next call.
 * @type {() => Promise<void>}
 */
let load;

/**
 * Starts an emulator in this process, with its own state.
 * @param {TestServiceOptions} [options]
 * @returns {Promise<TestService>}
 */
async function createTestService(options) {
  await load();
  /** @type {WasmService} */
  let inner;
  try {
    inner = new WasmService(options);
  } catch (e) {
    // The module refuses its options with a TypeError naming the option: the same words, as
    // refused input is in every entry (docs/errors.md, "Refused input").
    throw e instanceof TypeError ? apiError("invalid_input", e.message) : e;
  }
  return new TestService(inner);
}

/** One in-process emulator: see ./testing.d.ts. */
class TestService {
  /** @type {WasmService | undefined} */
  #inner;

  /** @param {WasmService} inner */
  constructor(inner) {
    this.#inner = inner;
    /** @readonly */
    this.baseUrl = inner.baseUrl;
    /** @readonly */
    this.token = inner.token;
    /** @readonly */
    this.subdomain = inner.subdomain;
    /**
     * Answers like `fetch` against the service, without a network.
     * @param {RequestInfo | URL} input
     * @param {RequestInit} [init]
     * @returns {Promise<Response>}
     */
    this.fetch = async (input, init) => {
      const inner = this.#inner;
      if (!inner) throw new TypeError("estatekit/testing: this service is closed");
      const request = new Request(input, init);
      // As fetch does: an aborted signal rejects with its reason, before the service sees the
      // request or while it answers (the request's effects then may or may not have happened).
      const { signal } = request;
      signal.throwIfAborted();
      /** @type {() => void} */
      let stopListening = () => {};
      const aborted = new Promise((_, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        stopListening = () => signal.removeEventListener("abort", onAbort);
      });
      try {
        const response = await Promise.race([inner.handle(request), aborted]);
        // A Response built in process has no URL; fetch's has the request's.
        Object.defineProperty(response, "url", { value: request.url });
        return response;
      } finally {
        stopListening();
      }
    };
    Object.freeze(this);
  }

  /** @returns {string[]} */
  get tokens() {
    return this.#live().tokens;
  }

  #live() {
    if (!this.#inner) throw apiError("invalid_input", "estatekit/testing: this service is closed");
    return this.#inner;
  }

  /**
   * Calls an admin route; a refusal throws with the service's message.
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  async #admin(method, path, body) {
    this.#live();
    const init = body === undefined ? { method } : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const r = await this.fetch(this.baseUrl + path, init);
    const v = await r.json();
    if (!r.ok) {
      const message = `estatekit/testing: ${v?.message ?? `status ${r.status}`}`;
      throw r.status === 400 ? apiError("invalid_input", message) : new Error(message);
    }
    return v;
  }

  /**
   * @param {SeedRequest} data
   * @returns {Promise<Seeded>}
   */
  seed(data) {
    return this.#admin("POST", "/_emulator/seed", data);
  }

  /** @returns {Promise<void>} */
  async reset() {
    await this.#admin("POST", "/_emulator/reset");
  }

  /**
   * @param {Fault | Fault[]} faults
   * @returns {Promise<void>}
   */
  async addFaults(faults) {
    await this.#admin("POST", "/_emulator/faults", faults);
  }

  /** @returns {Promise<Fault[]>} */
  faults() {
    return this.#admin("GET", "/_emulator/faults");
  }

  /** @returns {Promise<void>} */
  async clearFaults() {
    await this.#admin("DELETE", "/_emulator/faults");
  }

  /** @returns {Promise<RequestRecord[]>} */
  requests() {
    return this.#admin("GET", "/_emulator/requests");
  }

  /** @returns {Promise<void>} */
  async clearRequests() {
    await this.#admin("DELETE", "/_emulator/requests");
  }

  /** @returns {Promise<DeliveryRecord[]>} */
  deliveries() {
    return this.#admin("GET", "/_emulator/deliveries");
  }

  /**
   * @param {EventType} type
   * @param {EmitOptions} [options]
   * @returns {Promise<EmittedEvent>}
   */
  emit(type, options = {}) {
    return this.#admin("POST", "/_emulator/emit", { ...options, type });
  }

  /**
   * @param {{ timeoutMs?: number }} [options]
   * @returns {Promise<DeliveryRecord[]>}
   */
  async settled(options = {}) {
    const { timeoutMs } = options;
    if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || timeoutMs < 0)) {
      throw apiError("invalid_input", `estatekit/testing: settled: timeoutMs must be a whole number from 0, got ${String(timeoutMs)}`);
    }
    const query = timeoutMs === undefined ? "" : `?timeoutMs=${timeoutMs}`;
    const { deliveries } = await this.#admin("GET", `/_emulator/settled${query}`);
    return deliveries;
  }

  /**
   * @param {number} perMinute
   * @param {{ token?: string }} [options]
   * @returns {Promise<void>}
   */
  async setRateLimit(perMinute, options = {}) {
    await this.#admin("POST", "/_emulator/config", { ...options, rateLimit: perMinute });
  }

  /**
   * @param {string} token
   * @returns {Promise<Account>}
   */
  addAccount(token) {
    return this.#admin("POST", "/_emulator/accounts", { token });
  }

  /** @returns {Promise<OAuthCounts>} */
  oauth() {
    return this.#admin("GET", "/_emulator/oauth");
  }

  /**
   * @param {string} username
   * @returns {Promise<number>}
   */
  async revokeRefreshTokens(username) {
    const v = await this.#admin("POST", "/_emulator/oauth/revoke", { username });
    return v.revoked;
  }

  /** @returns {void} */
  close() {
    this.#inner?.free();
    this.#inner = undefined;
  }

  [Symbol.dispose]() {
    this.close();
  }
}

/**
 * estatekit/testing's API, with the emulator's module loaded from `from` on first use (a URL, bytes
 * or a compiled module; one module per realm: the first entry that loads it decides where from).
 * `fallback`: the browser entry's embedded copy, for when the file gives no module (see
 * ./loader.js).
 * @param {() => import("./loader.js").Source} from
 * @param {import("./loader.js").Where["fallback"]} [fallback]
 */
export function entry(from, fallback) {
  load ??= loadOnce(wasmInit, { entry: "estatekit/testing", file: "estatekit_testing_wasm_bg.wasm", source: from, fallback });
  return { createTestService, TestService };
}
