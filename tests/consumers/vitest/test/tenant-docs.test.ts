// The app's tests: estatekit's in-process service (estatekit/testing) answers the client's
// requests through `fetch: service.fetch`, each test with a service of its own.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { Client } from "estatekit";
import { createTestService, type TestService } from "estatekit/testing";
import { describeError, subscribeToUnitEvents, unreadMessages, uploadLease } from "../src/tenant-docs.js";

let service: TestService;
let client: Client;

beforeEach(async () => {
  service = await createTestService();
  client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
});
afterEach(() => {
  client.free();
  service.close();
});

test("uploads a tenant's lease and lists the tenant's documents", async () => {
  await service.seed({
    documents: [
      { type: "MOVE_IN", title: "Move-in.pdf", tenantId: "tenant-7" },
      { type: "CONTRACT", title: "Other lease.pdf", tenantId: "tenant-8" },
    ],
  });

  const docs = await uploadLease(client, "tenant-7", new Blob(["%PDF-1.7 lease"], { type: "application/pdf" }));

  expect(docs.map((d) => [d.title, d.type]).sort()).toEqual([
    ["Lease.pdf", "CONTRACT"],
    ["Move-in.pdf", "MOVE_IN"],
  ]);
  const lease = docs.find((d) => d.title === "Lease.pdf");
  expect(lease?.tenantId).toBe("tenant-7");
  expect(lease?.size).toBe(14);
});

test("lists a candidate's unread messages from seeded data", async () => {
  const { messageIds } = await service.seed({
    messages: [
      { candidateId: "cand-7", text: "Is the flat still available?" },
      { candidateId: "cand-7", text: "Yes, it is.", sentBy: "ADMIN" },
      { candidateId: "cand-7", text: "Can I visit on Monday?", isRead: true },
      { candidateId: "cand-7", text: "Or on Tuesday?" },
      { candidateId: "cand-8", text: "Another conversation" },
    ],
  });

  const unread = await unreadMessages(client, "cand-7");

  expect(unread.map((m) => m.id)).toEqual([messageIds[0], messageIds[3]]);
  expect(unread.map((m) => m.text)).toEqual(["Is the flat still available?", "Or on Tuesday?"]);
});

test("retries a 503 and succeeds", async () => {
  await service.addFaults({ method: "GET", path: "/api/external-integrations/webhooks", status: 503 });
  const retried = vi.fn();
  const patient = new Client({
    baseUrl: service.baseUrl,
    token: service.token,
    fetch: service.fetch,
    retry: { baseDelayMs: 10 },
    onRetry: retried,
  });

  const id = await subscribeToUnitEvents(patient, "https://portal.example.test/hooks/units");

  expect(id).toEqual(expect.any(String));
  expect(retried).toHaveBeenCalledOnce();
  expect(retried.mock.calls[0][0]).toMatchObject({ attempt: 1, kind: "http", status: 503 });
  const calls = (await service.requests()).map((r) => `${r.method} ${r.path}`);
  expect(calls).toEqual([
    "GET /api/external-integrations/webhooks",
    "GET /api/external-integrations/webhooks",
    "POST /api/external-integrations/webhooks",
  ]);
  expect(await service.faults()).toEqual([]);
  patient.free();
});

test("shows a 429 as 'too many requests' when retries are off", async () => {
  await service.addFaults({ path: "/api/reporting/graphql", status: 429 });
  const impatient = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch, retry: { maxRetries: 0 } });

  const error = await unreadMessages(impatient, "cand-1").catch((e: unknown) => e);

  expect(describeError(error)).toBe("Too many requests, try again shortly");
  expect(error).toMatchObject({ kind: "rate_limited", status: 429, attempts: 1 });
  impatient.free();
});

test("subscribes to unit events once, and the webhook receives UNIT_CREATED", async () => {
  const delivered: { url: string; body: unknown }[] = [];
  const receiving = await createTestService({
    deliver: async (url, init) => {
      delivered.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(null, { status: 204 });
    },
  });
  const portal = new Client({ baseUrl: receiving.baseUrl, token: receiving.token, fetch: receiving.fetch });
  const url = "https://portal.example.test/hooks/units";

  const first = await subscribeToUnitEvents(portal, url);
  const second = await subscribeToUnitEvents(portal, url);
  expect(second).toBe(first);
  expect(await portal.listWebhooks()).toHaveLength(1);

  await receiving.emit("UNIT_DELETED");
  const { uuid } = await receiving.emit("UNIT_CREATED", { data: { unitId: "unit-9" } });

  await vi.waitFor(() => expect(delivered).toHaveLength(1));
  expect(delivered[0]).toEqual({
    url,
    body: expect.objectContaining({ uuid, operation: "UNIT_CREATED", data: { unitId: "unit-9" } }),
  });
  const [attempt] = await receiving.deliveries();
  expect(attempt).toMatchObject({ webhookId: first, url, attempt: 1, status: 204, error: null });
  portal.free();
  receiving.close();
});
