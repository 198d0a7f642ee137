// estatekit/testing's options and fields of issue 47, against pkg/ (`make test-node`):
// `oauthClients[].redirectUris` (the native `--oauth-redirect-uri`: registered redirect URIs,
// compared exactly; none registered: loopback http only), the authorize errors redirected to a
// valid redirect URI, and `service.subdomain` (the default account's webhook subdomain).
import test from "node:test";
import assert from "node:assert/strict";

const pkg = new URL("../../pkg/", import.meta.url).href;
const { createTestService } = await import(`${pkg}testing.node.js`);

/** The authorize endpoint's answer (redirects not followed: `fetch` of the service never follows). */
function authorize(service, params) {
  const u = new URL(`${service.baseUrl}/accounts/dialog/authorize`);
  for (const [k, v] of params) u.searchParams.append(k, v);
  return service.fetch(u, { redirect: "manual" });
}

test("oauthClients[].redirectUris: registered URIs only, compared exactly; others keep the loopback rule", async (t) => {
  const app = "https://app.example/api/auth/callback/estatekit";
  const service = await createTestService({
    oauthClients: [
      { clientId: "app", clientSecret: "app-secret", redirectUris: [app] },
      { clientId: "dev", clientSecret: "dev-secret" },
    ],
  });
  t.after(() => service.close());
  const ok = await authorize(service, [["client_id", "app"], ["redirect_uri", app], ["response_type", "code"], ["state", "s"]]);
  assert.equal(ok.status, 302);
  const location = new URL(ok.headers.get("location"));
  assert.equal(`${location.origin}${location.pathname}`, app);
  assert.ok(location.searchParams.get("code"));
  for (const other of [`${app}/`, "http://127.0.0.1:9/cb"]) {
    const r = await authorize(service, [["client_id", "app"], ["redirect_uri", other], ["response_type", "code"]]);
    assert.equal(r.status, 400, other);
    assert.equal(r.headers.get("location"), null);
    assert.equal((await r.json()).error, "invalid_request");
  }
  // None registered: loopback http only.
  const loopback = await authorize(service, [["client_id", "dev"], ["redirect_uri", "http://localhost:3000/cb"], ["response_type", "code"]]);
  assert.equal(loopback.status, 302);
  const elsewhere = await authorize(service, [["client_id", "dev"], ["redirect_uri", "https://app.example/cb"], ["response_type", "code"]]);
  assert.equal(elsewhere.status, 400);
  // With a valid client and redirect URI, an error goes back to it.
  const refused = await authorize(service, [["client_id", "app"], ["redirect_uri", app], ["response_type", "token"], ["state", "s 1"]]);
  assert.equal(refused.status, 302);
  const back = new URL(refused.headers.get("location"));
  assert.equal(back.searchParams.get("error"), "unsupported_response_type");
  assert.equal(back.searchParams.get("state"), "s 1");
});

test("a bad redirectUris entry is refused (ApiError invalid_input) naming it", async () => {
  for (const [redirectUris, message] of [
    [["/relative"], /options\.oauthClients\[0\]\.redirectUris\[0\]: a redirect URI must be/],
    [["https://a.test/cb", "https://a.test/cb#frag"], /options\.oauthClients\[0\]\.redirectUris\[1\]/],
    ["https://a.test/cb", /options\.oauthClients\[0\]\.redirectUris: expected an array of strings/],
    [[1], /options\.oauthClients\[0\]\.redirectUris: expected an array of strings/],
    [null, /options\.oauthClients\[0\]\.redirectUris: expected an array of strings/],
  ]) {
    await assert.rejects(createTestService({ oauthClients: [{ clientId: "c", clientSecret: "s", redirectUris }] }), (e) => e.name === "ApiError" && e.kind === "invalid_input" && message.test(e.message));
  }
  await assert.rejects(
    createTestService({ oauthClients: [{ clientId: "c", clientSecret: "s", redirectUri: "https://a.test/cb" }] }),
    (e) => e.name === "ApiError" && e.kind === "invalid_input" && /unknown key `redirectUri`/.test(e.message),
  );
});

test("service.subdomain is the default account's webhook subdomain", async (t) => {
  const service = await createTestService({ tokens: ["dev-token", "other"] });
  t.after(() => service.close());
  assert.match(service.subdomain, /^emu-[0-9a-f]{8}$/);
  // The native server's for the same token (emulator/README.md's start-up line).
  assert.equal(service.subdomain, "emu-3f0af23c");
  const info = await (await service.fetch(`${service.baseUrl}/_emulator/info`)).json();
  assert.equal(info.subdomain, service.subdomain);
  assert.deepEqual(
    info.accounts.map((a) => a.token),
    info.tokens,
  );
  const other = info.accounts.find((a) => a.token === "other");
  assert.notEqual(other.subdomain, service.subdomain);
  // The subdomain of the events its webhooks get.
  const events = [];
  const withDeliver = await createTestService({ deliver: async (_url, init) => (events.push(JSON.parse(init.body)), new Response(null, { status: 204 })) });
  t.after(() => withDeliver.close());
  const hook = await withDeliver.fetch(`${withDeliver.baseUrl}/api/external-integrations/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${withDeliver.token}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "UNIT_CREATED", url: "https://app.example/hooks" }),
  });
  assert.equal(hook.status, 200);
  await withDeliver.emit("UNIT_CREATED");
  for (let i = 0; i < 100 && !events.length; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(events[0]?.subdomain, withDeliver.subdomain);
});
