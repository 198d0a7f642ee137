// What the browser pages do with estatekit/testing, in a window (index.html) and in a module
// Worker (worker.js): a service in the page, and a Client that sends through its fetch.
// `Client` and `createTestService` are passed in, as each page imports them its own way.
export async function scenario({ Client, createTestService, isApiError }) {
  const service = await createTestService({ deliveryBackoffMs: 1 });
  try {
    const client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch, retry: { baseDelayMs: 1 } });
    const seeded = await service.seed({
      webhooks: [{ type: "UNIT_CREATED", url: "https://hooks.example.test/units" }],
      messages: [{ candidateId: "cand-page", text: "Hello from the page" }],
    });
    // A 503 first: the client retries, the service answers.
    await service.addFaults({ method: "GET", path: "/api/external-integrations/webhooks", status: 503 });
    const webhooks = await client.listWebhooks();

    const file = new Blob(["estatekit/testing upload\n"], { type: "text/plain" });
    const reports = [];
    // WebKit cannot read a body of FormData holding a Blob back from a Request, so there the
    // service cannot read the upload (the test states both behaviours).
    const upload = await client
      .uploadDocument(
        { file, resourcePath: "tenants/t-page", name: "page.txt", metadata: { type: "CONTRACT", tenantId: "t-page" } },
        { onProgress: ({ loaded, total }) => reports.push([loaded, total]) },
      )
      .then(
        (record) => ({ id: record.id, title: record.title, size: record.size, fileSize: file.size, reports }),
        (e) => ({ error: { apiError: isApiError(e), kind: e.kind, message: e.message }, reports }),
      );
    const documents = await client.listDocuments({ tenantId: "t-page" });
    const messages = await client.listMessages({ candidateId: "cand-page" }, { fields: ["id", "text"] });
    const wrongToken = await new Client({ baseUrl: service.baseUrl, token: "wrong-token", fetch: service.fetch })
      .listWebhooks()
      .then(() => null, (e) => ({ apiError: isApiError(e), kind: e.kind, status: e.status }));
    const otherOrigin = await service.fetch("https://elsewhere.example.test/").then(
      () => null,
      (e) => e?.constructor?.name,
    );
    const requests = (await service.requests()).map((r) => `${r.method} ${r.path}`);
    client.free();
    return {
      ok: true,
      baseUrl: service.baseUrl,
      seededWebhooks: seeded.webhookIds,
      webhooks: webhooks.map((w) => ({ id: w.id, type: w.type, url: w.url })),
      upload,
      documents: documents.map((d) => d.id),
      messages,
      seededMessages: seeded.messageIds,
      wrongToken,
      otherOrigin,
      requests,
    };
  } finally {
    service.close();
  }
}

/** A failure as the pages report it. */
export const failure = (e) => ({ ok: false, message: `${e?.name}: ${e?.message ?? e}\n${e?.stack ?? ""}` });
