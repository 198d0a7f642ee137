// Sign-in libraries against the native emulator, with the packed estatekit
// (tests/consumers/signin: one project, its own lock; the flows in signin/flows.mjs):
// - Auth.js (@auth/core's `Auth(request, config)` in plain Node) with estatekit/auth's
//   authjsProvider, and Better Auth (genericOAuth with betterAuthProvider, its memory adapter):
//   a sign-in through the emulator and a call with the user's token;
// - openid-client 6 (allowInsecureRequests for the loopback emulator) and simple-oauth2 5, each
//   with its default client authentication and body encoding: the code flow with and without
//   PKCE, a refresh and the password grant.
// Each flow has an emulator of its own (approving at once, rotating refresh tokens), whose
// /_emulator/oauth counts say which grants it answered and refused.
import test from "node:test";
import assert from "node:assert/strict";
import { Jar, assertLocked, installLocked, registerWebhook, root, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/signin`;
const SECRETS = ["dev-secret", "dev-password"];

test.describe("sign-in libraries against the emulator", () => {
  let flows;
  test.before(async () => {
    installLocked(dir);
    flows = await import(`${dir}/flows.mjs`);
  });

  test.it("locks each library exactly, and estatekit as the packed tarball", () => {
    const manifest = assertLocked(assert, dir, {
      "@auth/core": "dependencies",
      "better-auth": "dependencies",
      "openid-client": "dependencies",
      "simple-oauth2": "dependencies",
    });
    assert.match(manifest.dependencies["@auth/core"], /^0\.41\./);
    assert.match(manifest.dependencies["better-auth"], /^1\.7\./);
    assert.match(manifest.dependencies["openid-client"], /^6\./);
    assert.match(manifest.dependencies["simple-oauth2"], /^5\./);
  });

  /**
   * Runs `flow` against an emulator of its own with one webhook on the user's account; returns
   * what it answered, the emulator's grant counts and the webhook's id.
   */
  async function withEmulator(name, flow) {
    const emulator = await startEmulator(["--rotate-refresh-tokens"]);
    try {
      const hookId = await registerWebhook(emulator.url, { type: "UNIT_CREATED", url: `http://127.0.0.1:9/${name}` });
      const result = await flow(emulator.url);
      const oauth = await (await fetch(`${emulator.url}/_emulator/oauth`)).json();
      const shown = JSON.stringify(result);
      console.log(`[signin ${name}] ${shown} grants ${JSON.stringify(oauth.grants)} rejected ${JSON.stringify(oauth.rejected)}`);
      for (const secret of SECRETS) assert.ok(!shown.includes(secret), `${name} showed a secret`);
      return { result, oauth, hookId };
    } finally {
      await emulator.stop();
    }
  }

  test.it("Auth.js: a sign-in with authjsProvider (state and PKCE), then a call with the user's token", async () => {
    const { result, oauth, hookId } = await withEmulator("authjs", (url) => flows.authjs(url, new Jar()));
    assert.ok(result.authorizeParams.includes("code_challenge") && result.authorizeParams.includes("state"), result.authorizeParams.join());
    assert.equal(result.callbackStatus, 302);
    assert.equal(result.callbackLocation, "http://127.0.0.1:9/done", "signed in, sent on to the callbackUrl (not to an error page)");
    assert.equal(result.session.user?.email, "admin@acme.test");
    assert.equal(result.session.user?.name, "Admin Acme");
    assert.equal(result.tokens.refreshToken, "string");
    assert.ok(result.tokens.expiresInS > 3000 && result.tokens.expiresInS <= 3600, `${result.tokens.expiresInS} s (expiresAt in ms)`);
    assert.deepEqual(result.ids, [hookId]);
    assert.deepEqual(oauth.grants, { ...oauth.grants, authorization_code: 1 });
    assert.equal(oauth.rejected.authorization_code, 0);
  });

  test.it("Better Auth: a sign-in with genericOAuth and betterAuthProvider, then a call with the user's token", async () => {
    const { result, oauth, hookId } = await withEmulator("better-auth", (url) => flows.betterAuthFlow(url, new Jar()));
    assert.ok(result.authorizeParams.includes("state"), result.authorizeParams.join());
    assert.equal(result.callbackStatus, 302);
    assert.equal(result.callbackLocation, "/done", "signed in, sent on to the callbackURL (not to an error page)");
    assert.deepEqual(result.user, { email: "admin@acme.test", name: "Admin Acme" });
    assert.equal(result.accounts, 1);
    assert.ok(result.expiresInS > 3000 && result.expiresInS <= 3600, `${result.expiresInS} s (toTokenSet read Better Auth's expiry)`);
    assert.deepEqual(result.ids, [hookId]);
    assert.equal(oauth.grants.authorization_code, 1);
    assert.equal(oauth.rejected.authorization_code, 0);
  });

  for (const [name, flow] of [
    ["openid-client 6 (client_secret_post)", "openidClient"],
    ["simple-oauth2 5 (HTTP Basic)", "simpleOauth2"],
  ]) {
    test.it(`${name}: code flow with and without PKCE, a refresh, the password grant`, async () => {
      const { result, oauth, hookId } = await withEmulator(flow, (url) => flows[flow](url));
      assert.deepEqual(result.withPkce, { ids: [hookId], refreshToken: "string" });
      assert.deepEqual(result.withoutPkce, { ids: [hookId] });
      assert.deepEqual(result.refreshed, { ids: [hookId], newAccessToken: true });
      assert.deepEqual(result.password, { ids: [hookId], refreshToken: "string" });
      assert.equal(oauth.grants.authorization_code, 2);
      assert.equal(oauth.grants.refresh_token, 1);
      assert.equal(oauth.grants.password, 1);
      assert.deepEqual(oauth.rejected, { password: 0, refresh_token: 0, authorization_code: 0 });
    });
  }
});
