// A route handler using estatekit/testing: an in-process service, a Client sending through its
// `fetch`, a seeded and a registered webhook, listed back.
import { Client, EVENT_TYPES, isApiError } from "estatekit";
import { createTestService, type TestService } from "estatekit/testing";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET() {
  let service: TestService | undefined;
  let client: Client | undefined;
  try {
    service = await createTestService();
    client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
    const seeded = await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: "https://hooks.example.com/seeded" }] });
    const id = await client.registerWebhook({ type: "OWNER_CREATED", url: "https://hooks.example.com/registered" });
    const webhooks = await client.listWebhooks();
    const requests = await service.requests();
    return Response.json({
      ok: true,
      baseUrl: service.baseUrl,
      eventTypes: EVENT_TYPES.length,
      seeded: seeded.webhookIds,
      registered: id,
      webhooks: webhooks.map((w) => ({ id: w.id, type: w.type, url: w.url })),
      requests: requests.map((r) => `${r.method} ${r.path}`),
    });
  } catch (e) {
    const failure = isApiError(e)
      ? { ok: false, apiError: true, kind: e.kind, message: e.message }
      : { ok: false, apiError: false, kind: undefined, message: String((e as Error)?.message ?? e) };
    return Response.json(failure, { status: 500 });
  } finally {
    client?.free();
    service?.close();
  }
}
