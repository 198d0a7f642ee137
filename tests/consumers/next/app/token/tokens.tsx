"use client";
// In the browser: a Client whose getToken asks the portal's own route (`tokenRoute`) for
// { token, expiresAt } behind the portal's session, then lists the webhooks: /api/token (the
// service account's token; `demoSession` sets the cookie the portal's own sign-in would) or
// /api/me/token (the token of the user signed in with next-auth). The result goes to
// document.body.dataset.result; the token itself is never shown.
import { useEffect, useRef, useState } from "react";
import { Client, isApiError, type AccessToken } from "estatekit";

async function run(baseUrl: string, tokenRoute: string, demoSession: boolean) {
  if (demoSession) document.cookie = "portal-session=signed-in; path=/; samesite=strict";
  const asked: string[] = [];
  const client = new Client({
    baseUrl,
    getToken: async (reason) => {
      asked.push(reason);
      const res = await fetch(tokenRoute, { cache: "no-store" });
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

export default function Tokens({ baseUrl, tokenRoute, demoSession }: { baseUrl: string; tokenRoute: string; demoSession: boolean }) {
  const [result, setResult] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run(baseUrl, tokenRoute, demoSession).then(setResult, (e: unknown) =>
      setResult({ ok: false, apiError: isApiError(e), kind: isApiError(e) ? e.kind : undefined, message: String((e as Error)?.message ?? e) }),
    );
  }, [baseUrl, tokenRoute, demoSession]);
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
