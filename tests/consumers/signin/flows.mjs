// The sign-in flows of tests/consumers/signin.test.mjs, each as an app would write it with its
// library (imported from this project's own node_modules), against the emulator at `baseUrl`,
// which approves the authorization request at once. The browser's part (following redirects,
// keeping cookies) is done with fetch and a cookie jar; the app's callback URL (127.0.0.1:9,
// never contacted) is handed to the library's own handler. Each flow ends with a call of the
// service with the signed-in user's access token; each returns what it saw (never a token).
// `jar` is a cookie jar (tests/consumers/lib.mjs's Jar): the browser's cookies for the app.
import { createHash, randomBytes } from "node:crypto";
import { Auth } from "@auth/core";
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { genericOAuth } from "better-auth/plugins";
import { Client } from "estatekit";
import { authjsProvider, betterAuthProvider, toTokenSet } from "estatekit/auth";
import * as oidc from "openid-client";
import { AuthorizationCode, ResourceOwnerPassword } from "simple-oauth2";

export const CLIENT = { clientId: "dev-client", clientSecret: "dev-secret" };
export const USER = { username: "admin@acme.test", password: "dev-password" };
const APP = "http://127.0.0.1:9";
const SECRET = "a-secret-of-the-consumer-test-only-0123456789abcdef";

/** The authorization endpoint's answer: the redirect to the app, with `code` and `state`. */
async function authorize(url) {
  const res = await fetch(url, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status !== 302 || !location) throw new Error(`authorize: HTTP ${res.status} ${await res.text()}`);
  return location;
}

/** Lists the webhooks of the user's account with the user's access token. */
async function callService(baseUrl, token) {
  const client = new Client({ baseUrl, token, timeoutMs: 10_000 });
  try {
    return (await client.listWebhooks()).map((h) => h.id);
  } finally {
    client.free();
  }
}

/** Auth.js: `Auth(request, config)` with authjsProvider, the JWT session. */
export async function authjs(baseUrl, jar) {
  let account;
  const config = {
    basePath: "/auth",
    trustHost: true,
    secret: SECRET,
    providers: [authjsProvider({ baseUrl, ...CLIENT })],
    callbacks: {
      jwt({ token, account: signedIn }) {
        if (signedIn) account = signedIn;
        return token;
      },
    },
  };
  const auth = async (path, init = {}) => {
    const res = await Auth(new Request(path.startsWith("http") ? path : `${APP}${path}`, { ...init, headers: { cookie: jar.header(), ...init.headers } }), config);
    jar.take(res);
    return res;
  };
  const { csrfToken } = await (await auth("/auth/csrf")).json();
  const started = await auth("/auth/signin/estatekit", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${APP}/done` }),
  });
  const authorizeUrl = new URL(started.headers.get("location") ?? "");
  const callback = await authorize(authorizeUrl);
  const done = await auth(callback);
  const session = await (await auth("/auth/session")).json();
  const tokens = account ? toTokenSet(account) : undefined;
  return {
    authorizeParams: [...authorizeUrl.searchParams.keys()].sort(),
    callbackStatus: done.status,
    callbackLocation: done.headers.get("location"),
    session,
    tokens: tokens && { expiresInS: Math.round((tokens.expiresAt - Date.now()) / 1000), refreshToken: typeof tokens.refreshToken },
    ids: tokens ? await callService(baseUrl, tokens.accessToken) : undefined,
  };
}

/** Better Auth: genericOAuth with betterAuthProvider, the memory adapter. */
export async function betterAuthFlow(baseUrl, jar) {
  const db = { user: [], session: [], account: [], verification: [] };
  const provider = betterAuthProvider({ baseUrl, ...CLIENT });
  const auth = betterAuth({
    baseURL: APP,
    secret: SECRET,
    database: memoryAdapter(db),
    plugins: [genericOAuth({ config: [provider] })],
    logger: { disabled: true },
    telemetry: { enabled: false },
  });
  const handle = async (path, init = {}) => {
    const res = await auth.handler(new Request(path.startsWith("http") ? path : `${APP}${path}`, { ...init, headers: { cookie: jar.header(), origin: APP, ...init.headers } }));
    jar.take(res);
    return res;
  };
  // genericOAuth's providers sign in through Better Auth's own social sign-in route.
  const started = await handle("/api/auth/sign-in/social", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ provider: provider.providerId, callbackURL: "/done" }),
  });
  const { url } = await started.json();
  const authorizeUrl = new URL(url);
  const callback = await authorize(authorizeUrl);
  const done = await handle(callback);
  const headers = new Headers({ cookie: jar.header() });
  const session = await auth.api.getSession({ headers });
  const account = await auth.api.getAccessToken({ body: { accountId: db.account[0]?.id }, headers });
  const tokens = toTokenSet(account);
  return {
    authorizeParams: [...authorizeUrl.searchParams.keys()].sort(),
    callbackStatus: done.status,
    callbackLocation: done.headers.get("location"),
    user: session?.user && { email: session.user.email, name: session.user.name },
    accounts: db.account.length,
    expiresInS: Math.round((tokens.expiresAt - Date.now()) / 1000),
    ids: await callService(baseUrl, tokens.accessToken),
  };
}

/** openid-client 6, its defaults (client_secret_post, form bodies): code flow with and without PKCE, a refresh, the password grant. */
export async function openidClient(baseUrl) {
  const config = new oidc.Configuration(
    { issuer: baseUrl, authorization_endpoint: `${baseUrl}/accounts/dialog/authorize`, token_endpoint: `${baseUrl}/accounts/oauth/token` },
    CLIENT.clientId,
    CLIENT.clientSecret,
  );
  oidc.allowInsecureRequests(config); // the emulator is on http://127.0.0.1
  const redirect_uri = `${APP}/callback`;
  const codeFlow = async (pkce) => {
    const state = oidc.randomState();
    const verifier = oidc.randomPKCECodeVerifier();
    const params = { redirect_uri, scope: "offline_access *", state };
    if (pkce) Object.assign(params, { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
    const callback = new URL(await authorize(oidc.buildAuthorizationUrl(config, params)));
    return oidc.authorizationCodeGrant(config, callback, pkce ? { pkceCodeVerifier: verifier, expectedState: state } : { expectedState: state });
  };
  const withPkce = await codeFlow(true);
  const withoutPkce = await codeFlow(false);
  const refreshed = await oidc.refreshTokenGrant(config, withPkce.refresh_token);
  const password = await oidc.genericGrantRequest(config, "password", { ...USER, scope: "offline_access *" });
  return {
    withPkce: { ids: await callService(baseUrl, withPkce.access_token), refreshToken: typeof withPkce.refresh_token },
    withoutPkce: { ids: await callService(baseUrl, withoutPkce.access_token) },
    refreshed: { ids: await callService(baseUrl, refreshed.access_token), newAccessToken: refreshed.access_token !== withPkce.access_token },
    password: { ids: await callService(baseUrl, password.access_token), refreshToken: typeof password.refresh_token },
  };
}

/** simple-oauth2 5, its defaults (HTTP Basic, form bodies): code flow with and without PKCE, a refresh, the password grant. */
export async function simpleOauth2(baseUrl) {
  const config = { client: { id: CLIENT.clientId, secret: CLIENT.clientSecret }, auth: { tokenHost: baseUrl, tokenPath: "/accounts/oauth/token" } };
  const client = new AuthorizationCode({ ...config, auth: { ...config.auth, authorizePath: "/accounts/dialog/authorize" } });
  const redirect_uri = `${APP}/callback`;
  const codeFlow = async (pkce) => {
    const verifier = randomBytes(32).toString("base64url");
    const params = { redirect_uri, scope: "offline_access *", state: "s1" };
    if (pkce) Object.assign(params, { code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" });
    const callback = new URL(await authorize(client.authorizeURL(params)));
    if (callback.searchParams.get("state") !== "s1") throw new Error("the state did not come back");
    const code = callback.searchParams.get("code");
    return client.getToken(pkce ? { code, redirect_uri, code_verifier: verifier } : { code, redirect_uri });
  };
  const withPkce = await codeFlow(true);
  const withoutPkce = await codeFlow(false);
  const refreshed = await withPkce.refresh();
  const password = await new ResourceOwnerPassword(config).getToken({ ...USER, scope: "offline_access *" });
  return {
    withPkce: { ids: await callService(baseUrl, withPkce.token.access_token), refreshToken: typeof withPkce.token.refresh_token },
    withoutPkce: { ids: await callService(baseUrl, withoutPkce.token.access_token) },
    refreshed: { ids: await callService(baseUrl, refreshed.token.access_token), newAccessToken: refreshed.token.access_token !== withPkce.token.access_token },
    password: { ids: await callService(baseUrl, password.token.access_token), refreshToken: typeof password.token.refresh_token },
  };
}
