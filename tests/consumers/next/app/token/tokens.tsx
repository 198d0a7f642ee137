"use client";
// In the browser: a Client whose getToken asks the portal's own route for { token, expiresAt }
// (after the portal's sign-in set its session cookie), then lists the webhooks. The result goes
// to document.body.dataset.result; the token itself is never shown.
import { useEffect, useRef, useState } from "react";
import { Client, isApiError, type AccessToken } from "estatekit";

async function run(baseUrl: string) {
  document.cookie = "portal-session=signed-in; path=/; samesite=strict";
  const asked: string[] = [];
  const client = new Client({
    baseUrl,
    getToken: async (reason) => {
      asked.push(reason);
      const res = await fetch("/api/token", { cache: "no-store" });
      if (!res.ok) throw new Error(`the portal refused a token: HTTP ${res.status}`);
      return (await res.json()) as AccessToken;
    },
  });
  try {
    const webhooks = await client.listWebhooks();
    const again = await client.listWebhooks();
    return { ok: true, count: webhooks.length, ids: webhooks.map((w) => w.id), again: again.length, asked };
  } finally {
    client.free();
  }
}

export default function Tokens({ baseUrl }: { baseUrl: string }) {
  const [result, setResult] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run(baseUrl).then(setResult, (e: unknown) =>
      setResult({ ok: false, apiError: isApiError(e), kind: isApiError(e) ? e.kind : undefined, message: String((e as Error)?.message ?? e) }),
    );
  }, [baseUrl]);
  useEffect(() => {
    if (result !== null) document.body.dataset.result = JSON.stringify(result);
  }, [result]);
  return (
    <main>
      <h1>Webhooks (browser, token from the portal)</h1>
      <pre id="out">{result === null ? "running..." : JSON.stringify(result, null, 2)}</pre>
    </main>
  );
}
