// The app's webhook route handler tested through estatekit/testing: the handler's
// `Request -> Response` function is the service's `deliver`, so `emit` reaches it in process.
import { expect, test } from "vitest";
import { createTestService } from "estatekit/testing";
import { POST, applications } from "../src/webhook-route.js";

test("receives an application raised by the service, and answers garbage 400", async () => {
  const service = await createTestService({ deliver: (url, init) => POST(new Request(url, init)) });
  await service.seed({ webhooks: [{ type: "LISTING_CANDIDATE_APPLIED", url: "http://127.0.0.1/webhooks/x" }] });

  await service.emit("LISTING_CANDIDATE_APPLIED");
  await expect.poll(async () => (await service.deliveries()).map((d) => d.status)).toEqual([200]);
  expect(applications).toEqual([{ candidate: "cand-1@example.com", unit: "WE 01" }]);

  await service.emit("LISTING_CANDIDATE_APPLIED", { data: { id: 1 } });
  await expect.poll(async () => (await service.deliveries()).at(-1)?.status).toBe(400);
  expect(applications).toHaveLength(1);
  service.close();
});
