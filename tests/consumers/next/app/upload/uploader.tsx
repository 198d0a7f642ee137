"use client";
// In the browser: lists the webhooks and uploads a small file with progress reports, straight
// to the service (it answers CORS), then writes the result to document.body.dataset.result.
import { useEffect, useRef, useState } from "react";
import { Client, EVENT_TYPES, isApiError } from "estatekit";

async function run(baseUrl: string, token: string) {
  const client = new Client({ baseUrl, token });
  try {
    const webhooks = await client.listWebhooks();
    const file = new File(["estatekit next consumer upload\n"], "next-consumer.txt", { type: "text/plain" });
    const reports: [number, number][] = [];
    const record = await client.uploadDocument(
      { file, resourcePath: "units/next-consumer", name: file.name, metadata: { type: "CONTRACT" } },
      { onProgress: ({ loaded, total }) => reports.push([loaded, total]) },
    );
    return {
      ok: true,
      baseUrl: client.baseUrl,
      eventTypes: EVENT_TYPES.length,
      webhooks: webhooks.map((w) => ({ id: w.id, type: w.type, url: w.url })),
      upload: { id: record.id, size: file.size, reports },
    };
  } finally {
    client.free();
  }
}

export default function Uploader({ baseUrl, token }: { baseUrl: string; token: string }) {
  const [result, setResult] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run(baseUrl, token).then(setResult, (e: unknown) =>
      setResult({
        ok: false,
        apiError: isApiError(e),
        kind: isApiError(e) ? e.kind : undefined,
        message: String((e as Error)?.message ?? e),
      }),
    );
  }, [baseUrl, token]);
  useEffect(() => {
    if (result !== null) document.body.dataset.result = JSON.stringify(result);
  }, [result]);
  return (
    <main>
      <h1>Upload (client component)</h1>
      <pre id="out">{result === null ? "running..." : JSON.stringify(result, null, 2)}</pre>
    </main>
  );
}
