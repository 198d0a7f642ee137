// `estatekit/testing` alone: the emulator in process, disposed with Symbol.dispose.
import { createTestService } from "estatekit/testing";
import type { DeliveryRecord, EmittedEvent, TestService } from "estatekit/testing";

export async function emitted(): Promise<[EmittedEvent, DeliveryRecord[]]> {
  const service: TestService = await createTestService();
  try {
    const fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response> = service.fetch;
    await fetch(`${service.baseUrl}/api/external-integrations/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${service.token}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "UNIT_CREATED", url: "https://example.com/hook" }),
    });
    return [await service.emit("UNIT_CREATED"), await service.deliveries()];
  } finally {
    service[Symbol.dispose]();
  }
}
