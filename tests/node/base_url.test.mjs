// One rule for base URLs (docs/errors.md, "Refused input"), against pkg/ (`make test-node`), or
// the package installed from the packed tarball (ESTATEKIT_PACKAGE_DIR, which
// tests/consumers/base-url.test.mjs sets): every entry that takes a base URL refuses `http://acme.example.com` where
// the option is given, in the same words, and sends nothing; localhost, 127.0.0.0/8, [::1] and
// https are accepted. The rule is written once (js/base_url.js's `baseUrlRule`); the module
// imports it (core/src/api/platform.rs): the wrapper and the module give every URL of the table
// the same verdict, the same normalised text, the same message, and the rule's verdicts are those
// of its own table.
import test from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";

const installed = process.env.ESTATEKIT_PACKAGE_DIR;
const pkg = installed ? pathToFileURL(`${installed}/`) : new URL("../../pkg/", import.meta.url);
const main = await import(new URL("estatekit.node.js", pkg).href);
const browser = await import(new URL("estatekit.js", pkg).href);
const auth = await import(new URL("auth.node.js", pkg).href);
const { checkBaseUrl, baseUrlRule } = await import(new URL("base_url.js", pkg).href);
const glue = await import(new URL("estatekit_wasm_node.js", pkg).href);
const { isApiError } = main;

const REFUSED = "invalid options.baseUrl: must use https (plain http is only accepted for localhost and loopback addresses)";
const OAUTH = { clientId: "dev-client", clientSecret: "s3cret-client-XYZ" };

/** A grant's `fetch` option that records the requests and answers a token set. */
function recorder() {
  const urls = [];
  const fetch = async (request) => {
    urls.push(request.url);
    return Response.json({ access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1" });
  };
  return { urls, fetch };
}

/**
 * Every entry that takes a base URL: `make(baseUrl, fetch)` gives the base URL the entry keeps
 * (or sends to), a promise of it for the grants (which are calls: they reject, before anything is
 * loaded or sent).
 */
const ENTRIES = {
  "estatekit (server) new Client": (baseUrl) => new main.Client({ baseUrl, token: "t" }).baseUrl,
  "estatekit (browser) new Client": (baseUrl) => new browser.Client({ baseUrl, token: "t" }).baseUrl,
  "estatekit/auth createTokenProvider": (baseUrl) =>
    JSON.parse(JSON.stringify(auth.createTokenProvider({ baseUrl, ...OAUTH, username: "u", password: "p" }))).tokenProvider.baseUrl,
  "estatekit/auth createUserTokens": (baseUrl) => JSON.parse(JSON.stringify(auth.createUserTokens({ baseUrl, ...OAUTH }))).userTokens.baseUrl,
  "estatekit/auth passwordGrant": (baseUrl, fetch) => auth.passwordGrant({ baseUrl, ...OAUTH, fetch }, { username: "u", password: "p" }),
  "estatekit/auth refreshGrant": (baseUrl, fetch) => auth.refreshGrant({ baseUrl, ...OAUTH, fetch }, "rt-0"),
  "estatekit/auth authorizationCodeGrant": (baseUrl, fetch) =>
    auth.authorizationCodeGrant({ baseUrl, ...OAUTH, fetch }, { code: "c", redirectUri: "http://localhost:3000/cb" }),
  "estatekit/auth authjsProvider": (baseUrl) => auth.authjsProvider({ baseUrl, ...OAUTH }).token.replace(/\/accounts\/oauth\/token$/, ""),
  "estatekit/auth betterAuthProvider": (baseUrl) => auth.betterAuthProvider({ baseUrl, ...OAUTH }).tokenUrl.replace(/\/accounts\/oauth\/token$/, ""),
};
const GRANTS = new Set(["estatekit/auth passwordGrant", "estatekit/auth refreshGrant", "estatekit/auth authorizationCodeGrant"]);

test("http://acme.example.com is refused by every entry where it is given, in the same words, and nothing is sent", async () => {
  for (const [name, make] of Object.entries(ENTRIES)) {
    const { urls, fetch } = recorder();
    if (GRANTS.has(name)) {
      let returned;
      assert.doesNotThrow(() => (returned = make("http://acme.example.com", fetch)), `${name}: a call rejects, never throws`);
      await assert.rejects(returned, (e) => isApiError(e) && e.kind === "invalid_input" && e.message === REFUSED, name);
    } else {
      assert.throws(() => make("http://acme.example.com", fetch), (e) => isApiError(e) && e.kind === "invalid_input" && e.message === REFUSED, name);
    }
    assert.deepEqual(urls, [], `${name}: nothing sent`);
  }
});

test("localhost, 127.0.0.0/8, [::1] and https are accepted by every entry, normalised alike", async () => {
  const accepted = {
    "http://localhost:8787": "http://localhost:8787",
    "http://127.0.0.1:8787/": "http://127.0.0.1:8787",
    "http://127.1.2.3:9": "http://127.1.2.3:9",
    "http://[::1]:8787/prefix/": "http://[::1]:8787/prefix",
    "https://acme.example.com": "https://acme.example.com",
    "https://ACME.example.com:443/api//": "https://acme.example.com/api",
  };
  for (const [name, make] of Object.entries(ENTRIES)) {
    for (const [given, normalised] of Object.entries(accepted)) {
      const { urls, fetch } = recorder();
      if (GRANTS.has(name)) {
        await make(given, fetch);
        assert.deepEqual(urls, [`${normalised}/accounts/oauth/token`], `${name} ${given}`);
      } else {
        assert.equal(make(given, fetch), normalised, `${name} ${given}`);
      }
    }
  }
});

test("the rule normalises what it accepts and says why it refuses the rest", () => {
  const accepted = {
    "https://acme.example.com": "https://acme.example.com",
    "https://acme.example.com/": "https://acme.example.com",
    "HTTPS://Acme.Example.com:8443/base//": "https://acme.example.com:8443/base",
    "http://127.0.0.1:8787": "http://127.0.0.1:8787",
    "http://127.1:8787": "http://127.0.0.1:8787",
    "http://localhost:3000/": "http://localhost:3000",
    "http://[::1]:9000": "http://[::1]:9000",
    "https://acme.example.com:443/": "https://acme.example.com",
    "http://localhost:80": "http://localhost",
    "http://localhost:443": "http://localhost:443",
    "https://bücher.example": "https://xn--bcher-kva.example",
  };
  for (const [given, url] of Object.entries(accepted)) assert.deepEqual(baseUrlRule(given), { url }, given);
  const absolute = "must be an absolute http(s) URL such as https://acme.example.com";
  const visible = "must not contain spaces or control characters";
  const query = "must not contain a query (?) or fragment (#)";
  const refused = {
    "": "must not be empty",
    "acme.example.com": absolute,
    "ftp://acme.example.com": absolute,
    "https://": absolute,
    "https://acme.example.com:99999": absolute,
    "http://acme.example.com": REFUSED.replace("invalid options.baseUrl: ", ""),
    "http://127.0.0.1.evil.com": REFUSED.replace("invalid options.baseUrl: ", ""),
    "https://user:pw@acme.example.com": "must not contain credentials (user:password@)",
    "https://acme.example.com/?x=1": query,
    "https://acme.example.com/#frag": query,
    "https://acme example.com": visible,
    "https://acme.example.com/\n": visible,
  };
  for (const [given, reason] of Object.entries(refused)) assert.deepEqual(baseUrlRule(given), { reason }, JSON.stringify(given));
});

test("the wrapper and the module (which imports the rule) agree on every URL", async () => {
  await main.default(); // the module, whose own Client checks its options
  const table = [
    undefined, null, 5, true, {}, ["https://acme.example.com"], "", " https://acme.example.com", "https://acme.example.com\n", "https://acme\u00a0.example.com",
    "acme.example.com", "/relative", "ftp://acme.example.com", "file:///etc/passwd", "mailto:a@b.c", "https://",
    "http://acme.example.com", "http://acme.example.com:8080/", "http://10.0.0.1", "http://128.0.0.1", "http://[::2]",
    "http://localhost.example.com", "http://0.0.0.0", "http://localhost", "http://a.localhost:3000", "http://LOCALHOST:1/",
    "http://127.0.0.1", "http://127.255.255.254:1", "http://127.1", "http://0x7f000001/", "http://[::1]", "http://[0:0::1]:80/",
    "https://acme.example.com", "https://acme.example.com/", "https://acme.example.com/a/b/", "https://acme.example.com:8443",
    "HTTPS://Acme.Example.COM/X", "https://acme.example.com/?", "https://acme.example.com/?a=1", "https://acme.example.com#f",
    "https://user@acme.example.com", "https://user:pw@acme.example.com", "https://acme.example.com/%20a", "https://xn--bcher-kva.example",
    "https://bücher.example/", "https://[2001:db8::1]/", "https://acme.example.com:99999",
  ];
  // The options themselves, and an options object without the key.
  const options = [...table.map((baseUrl) => ({ baseUrl, token: "t" })), { token: "t" }, undefined, null, 5, "https://acme.example.com"];
  for (const given of options) {
    const value = given?.baseUrl;
    let wrapper;
    try {
      wrapper = { ok: checkBaseUrl(given) };
    } catch (e) {
      assert.ok(isApiError(e) && e.kind === "invalid_input", `wrapper ${String(value)}`);
      wrapper = { refused: e.message };
    }
    let module;
    try {
      const client = new glue.Client(given);
      module = { ok: client.baseUrl };
      client.free();
    } catch (e) {
      assert.ok(isApiError(e) && e.kind === "invalid_input", `module ${String(value)}`);
      module = { refused: e.message };
    }
    assert.deepEqual(wrapper, module, `${JSON.stringify(given)}: ${String(value)}`);
  }
});
