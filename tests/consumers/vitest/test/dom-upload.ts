// Shared by the DOM-emulation tests (jsdom, happy-dom): an upload of a File made in that
// environment stores the file's own bytes, through estatekit/testing in process and through a
// real HTTP emulator (ESTATEKIT_EMULATOR_URL, started by tests/consumers/vitest.test.mjs).
import { expect, test } from "vitest";
import { Client } from "estatekit";
import { createTestService } from "estatekit/testing";

export function uploadTests(environment: string): void {
  test(`${environment}: a File made here is uploaded with its bytes (in process)`, async () => {
    const service = await createTestService();
    const client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
    const file = new File(["hello"], "hello.txt", { type: "text/plain" });
    const progress: number[][] = [];
    const record = await client.uploadDocument(
      { file, resourcePath: "tenants/t1", metadata: { tenantId: "t1" } },
      { onProgress: ({ loaded, total }) => progress.push([loaded, total]) },
    );
    const stored = await client.getDocument(record.id);
    console.log(`${environment}, in process: stored ${String(stored.size)} bytes, title ${String(stored.title)}`);
    expect(stored.size).toBe(5);
    expect(stored.title).toBe("hello.txt");
    expect(progress.at(-1)).toEqual([5, 5]);
    client.free();
    service.close();
  });

  test(`${environment}: a File whose class has no arrayBuffer() (jsdom before 28) is read another way`, async () => {
    const service = await createTestService();
    const client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
    const proto = Blob.prototype as { arrayBuffer?: unknown };
    const own = Object.getOwnPropertyDescriptor(proto, "arrayBuffer");
    delete proto.arrayBuffer;
    try {
      const file = new File(["old jsdom"], "old.txt", { type: "text/plain" });
      const record = await client.uploadDocument({ file, resourcePath: "tenants/t1" });
      const stored = await client.getDocument(record.id);
      console.log(`${environment}, without arrayBuffer(): stored ${String(stored.size)} bytes`);
      expect(stored.size).toBe(9);
    } finally {
      if (own) Object.defineProperty(proto, "arrayBuffer", own);
      client.free();
      service.close();
    }
  });

  test(`${environment}: a File made here is uploaded with its bytes (over HTTP)`, async () => {
    const node = globalThis as { process?: { env: Record<string, string | undefined> } };
    const baseUrl = node.process?.env.ESTATEKIT_EMULATOR_URL;
    expect(baseUrl, "ESTATEKIT_EMULATOR_URL").toBeTruthy();
    const client = new Client({ baseUrl: baseUrl as string, token: "dev-token" });
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    const file = new File([bytes], "data.bin", { type: "application/octet-stream" });
    const record = await client.uploadDocument({ file, resourcePath: "units/u1", name: "data.bin" });
    const stored = await client.getDocument(record.id);
    console.log(`${environment}, over HTTP: stored ${String(stored.size)} bytes`);
    expect(stored.size).toBe(70_000);
    client.free();
  });
}
