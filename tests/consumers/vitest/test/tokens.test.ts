// The portal's token code (../src/portal-tokens.ts) against estatekit/testing issuing short-lived
// access tokens: one sign-in, each expiry refreshed once with no failed call, the browser's
// token route, and a wrong password as a typed error.
import { afterEach, beforeEach, expect, test } from "vitest";
import { isApiError } from "estatekit";
import { createTestService, type TestService } from "estatekit/testing";
import { serverClient, tokenRoute, type ServiceAccount } from "../src/portal-tokens.js";

let service: TestService;
let account: ServiceAccount;

beforeEach(async () => {
  service = await createTestService({ accessTokenTtlMs: 400 });
  account = {
    baseUrl: service.baseUrl,
    clientId: "dev-client",
    clientSecret: "dev-secret",
    username: "admin@acme.test",
    password: "dev-password",
    fetch: service.fetch,
  };
});
afterEach(() => service.close());

test("the server's client signs in once and refreshes each expiry, with no failed call", async () => {
  const { client, provider } = serverClient(account);
  const seen = new Set<string>();
  const statuses: number[] = [];
  const until = Date.now() + 1_500;
  while (Date.now() < until) {
    const hooks = await Promise.all(Array.from({ length: 5 }, () => client.listWebhooks({ onEvent: (e) => e.type === "response" && statuses.push(e.status) })));
    expect(hooks.every((h) => Array.isArray(h))).toBe(true);
    seen.add((await provider.getToken()).token);
    await new Promise((r) => setTimeout(r, 50));
  }
  const oauth = await service.oauth();
  expect(oauth.grants.password).toBe(1);
  expect(oauth.grants.refresh_token).toBeGreaterThanOrEqual(2);
  expect(oauth.grants.refresh_token).toBe(seen.size - 1);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  provider.close();
  client.free();
});

test("the token route hands a signed-in browser { token, expiresAt }, and refuses others", async () => {
  const { client, provider } = serverClient(account);
  const refused = await tokenRoute(new Request("http://portal.test/api/estate-token"), provider);
  expect(refused.status).toBe(401);
  const answered = await tokenRoute(
    new Request("http://portal.test/api/estate-token", { headers: { cookie: "portal-session=signed-in" } }),
    provider,
  );
  const body = await answered.json();
  expect(Object.keys(body).sort()).toEqual(["expiresAt", "token"]);
  expect(body.expiresAt).toBeGreaterThan(Date.now());
  expect(JSON.stringify(body)).not.toContain("dev-secret");
  client.free();
});

test("a wrong password is a typed error with the service's code", async () => {
  const { client, provider } = serverClient({ ...account, password: "wrong-password" });
  const error = await client.listWebhooks().catch((e: unknown) => e);
  expect(isApiError(error)).toBe(true);
  if (!isApiError(error)) return;
  // The provider's own ApiError keeps its kind and code (docs/errors.md, "When getToken fails").
  expect([error.kind, error.code, error.attempts]).toEqual(["forbidden", "invalid_grant", 0]);
  expect(error.message).toMatch(/getToken failed/);
  expect(error.message).not.toContain("wrong-password");
  const direct = await provider.getToken().catch((e: unknown) => e);
  expect(isApiError(direct) && [direct.kind, direct.code]).toEqual(["forbidden", "invalid_grant"]);
  expect(String(isApiError(direct) && direct.message)).not.toContain("wrong-password");
  client.free();
});
