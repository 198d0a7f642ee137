"use client";
import { useEffect, useRef, useState } from "react";
import { registerWebhookAction } from "./actions";

export default function ActionRunner({ type, url }: { type: string; url: string }) {
  const [result, setResult] = useState<unknown>(null);
  const started = useRef(false);
  const register = () =>
    registerWebhookAction(type, url).then(setResult, (e: unknown) =>
      setResult({ ok: false, apiError: false, kind: undefined, message: String((e as Error)?.message ?? e) }),
    );
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void register();
  });
  useEffect(() => {
    if (result !== null) document.body.dataset.result = JSON.stringify(result);
  }, [result]);
  return (
    <main>
      <h1>Register a webhook (server action)</h1>
      <form action={() => void register()}>
        <p>
          {type} → {url}
        </p>
        <button type="submit">Register again</button>
      </form>
      <pre id="out">{result === null ? "registering..." : JSON.stringify(result, null, 2)}</pre>
    </main>
  );
}
