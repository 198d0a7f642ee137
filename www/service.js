// Where the demo's requests go: the service at the base URL (the local emulator of `make demo`,
// or a real account), or the emulator compiled to WebAssembly running in this tab
// (`estatekit/testing`, loaded only in that mode). The emulator's admin API (info, test events,
// deliveries, faults) is reached through the same object either way.
import { DEFAULT_SERVICE } from "./config.js";

export const MODES = ["server", "in-page"];

/** The mode of `?service=...` if valid, else the default of config.js. */
export function initialMode() {
  const asked = new URLSearchParams(location.search).get("service");
  if (MODES.includes(asked)) return asked;
  return MODES.includes(DEFAULT_SERVICE) ? DEFAULT_SERVICE : "server";
}

/** Puts `mode` into the address bar (without reloading), so a reload keeps it. */
export function rememberMode(mode) {
  const url = new URL(location.href);
  url.searchParams.set("service", mode);
  history.replaceState(history.state, "", url);
}

let inPage;
/**
 * The one in-page service of this tab, created on first use (its data lives until the tab
 * closes). Webhook deliveries go through the service's own `fetch`, so only its own sink
 * (`<baseUrl>/_emulator/sink/...`) answers; any other URL fails as unreachable and nothing
 * leaves the page.
 * @returns {Promise<import("../pkg/testing.js").TestService>}
 */
export function inPageService() {
  if (!inPage) {
    inPage = (async () => {
      const { createTestService } = await import("../pkg/testing.js");
      /** @type {import("../pkg/testing.js").TestService} */
      let service;
      service = await createTestService({ deliver: (url, init) => service.fetch(url, init) });
      return service;
    })();
    inPage.catch(() => {
      inPage = undefined; // try again on the next connect
    });
  }
  return inPage;
}

/** An admin-route failure in the shape ui.js showError reads. */
function adminError(response, body) {
  return { kind: "http", status: response.status, code: body?.code, details: body, message: `HTTP ${response.status}` };
}

/**
 * The emulator's admin API at `baseUrl` over HTTP, through `fetchFn` (the global fetch for the
 * server, `service.fetch` in the page).
 */
function httpAdmin(baseUrl, fetchFn) {
  async function call(path, init) {
    let response;
    try {
      response = await fetchFn(`${baseUrl}/_emulator/${path}`, init);
    } catch (error) {
      throw { kind: "network", message: String(error?.message ?? error) };
    }
    const body = await response.json().catch(() => null);
    if (!response.ok) throw adminError(response, body);
    return body;
  }
  const post = (path, body) =>
    call(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return {
    /** `/_emulator/info`, or null when `baseUrl` is not the emulator. */
    async info() {
      try {
        const info = await call("info", { signal: AbortSignal.timeout(3000) });
        return info && Array.isArray(info.tokens) ? info : null;
      } catch {
        return null;
      }
    },
    emit: (type, { token, data }) => post("emit", { type, token, data }),
    deliveries: () => call("deliveries"),
    addFaults: (faults) => post("faults", faults),
  };
}

/**
 * What the page connects through in `mode`: `{ mode, baseUrl, fetch, defaultToken, admin,
 * label }`. `fetch` is undefined for the server (the client uses the global one).
 */
export async function backend(mode, baseUrl) {
  if (mode !== "in-page") {
    return { mode, baseUrl, fetch: undefined, defaultToken: undefined, admin: httpAdmin(baseUrl, (...a) => fetch(...a)), label: "emulator" };
  }
  const service = await inPageService();
  const http = httpAdmin(service.baseUrl, service.fetch);
  return {
    mode,
    baseUrl: service.baseUrl,
    fetch: service.fetch,
    defaultToken: service.token,
    // The helpers of estatekit/testing where it has them.
    admin: {
      info: http.info,
      emit: (type, options) => service.emit(type, options),
      deliveries: () => service.deliveries(),
      addFaults: (faults) => service.addFaults(faults),
    },
    label: "emulator in this page",
  };
}
