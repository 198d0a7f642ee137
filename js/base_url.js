// The base URL rule of every entry that takes one: https, plain http only for loopback
// (localhost and *.localhost, 127.0.0.0/8, [::1]); absolute, with a host, without spaces,
// credentials, query or fragment. A client secret, a password, an authorization code or a token
// is never sent over plain http to another host.
//
// The one statement of the rule (`baseUrlRule`): the entries apply it where the option is given,
// synchronously (`new Client`, `createTokenProvider`, `createUserTokens`, `authjsProvider`,
// `betterAuthProvider`; the grants before they load anything), and the WebAssembly module imports
// it for every base URL it is given (an app may skip the wrapper: the glue's `Client`), through
// core/src/api/platform.rs (wasm-bindgen copies this file beside the glue: pkg/base_url.js is that
// same file, one module instance). It cannot be the other way round: the module loads lazily and
// asynchronously (no top-level await: the server entries' bytes are unpacked with a stream), so it
// cannot answer when `new Client` is called. tests/node/base_url.test.mjs checks every entry and
// the module against its table.
import { apiError } from "./api_error.js";

/**
 * A value that is not the expected type, in the words of the module's options reader
 * (web/src/transport.rs): "the number `5`", "an array".
 * @param {unknown} value
 */
function what(value) {
  if (typeof value === "number" || typeof value === "boolean") return `the ${typeof value} \`${value}\``;
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return Array.isArray(value) ? "an array" : `an ${typeof value}`;
}

/**
 * The normalised base URL of `options` (`scheme://host[:port]/path`, without trailing slash),
 * as the module keeps it; throws an `ApiError` of kind `invalid_input` naming the option
 * otherwise, in the module's words.
 * @param {unknown} options the options as given (of `new Client`, a token provider, a grant)
 * @returns {string}
 */
export function checkBaseUrl(options) {
  if (options == null) throw apiError("invalid_input", "invalid options: is required");
  if (typeof options !== "object") throw apiError("invalid_input", `invalid options: is ${what(options)}, expected an object`);
  /** @param {string} reason */
  const bad = (reason) => apiError("invalid_input", `invalid options.baseUrl: ${reason}`);
  if (!("baseUrl" in options)) throw bad("is required");
  const value = /** @type {{ baseUrl: unknown }} */ (options).baseUrl;
  if (value == null) throw bad("is missing, expected a string");
  if (typeof value !== "string") throw bad(`is ${what(value)}, expected a string`);
  const { url, reason } = baseUrlRule(value);
  if (reason !== undefined) throw bad(reason);
  return url;
}

/**
 * The base URL rule: `value`'s normalised text (`scheme://host[:port]/path`, without trailing
 * slash) as `url`, or why it is refused as `reason` (an `ApiError`'s message then reads `invalid
 * options.baseUrl: <reason>`). The module's `BaseUrl::parse` calls it too.
 * @param {string} value
 * @returns {{ url: string, reason?: undefined } | { url?: undefined, reason: string }}
 */
export function baseUrlRule(value) {
  if (value === "") return { reason: "must not be empty" };
  // What the URL parser would drop or rewrite.
  if (/[\p{White_Space}\p{Cc}]/u.test(value)) return { reason: "must not contain spaces or control characters" };
  /** @type {URL | undefined} */
  let url;
  try {
    url = new URL(value);
  } catch {}
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname) {
    return { reason: "must be an absolute http(s) URL such as https://acme.example.com" };
  }
  if (/[?#]/.test(value)) return { reason: "must not contain a query (?) or fragment (#)" };
  if (url.username || url.password) return { reason: "must not contain credentials (user:password@)" };
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return { reason: "must use https (plain http is only accepted for localhost and loopback addresses)" };
  }
  return { url: `${url.protocol}//${url.hostname}${url.port && `:${url.port}`}${url.pathname.replace(/\/+$/, "")}` };
}

/**
 * Whether a host name (as the URL parser normalises it: IPv4 dotted, IPv6 in brackets) is a
 * loopback name or address.
 * @param {string} hostname
 */
function isLoopback(hostname) {
  return (
    hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
