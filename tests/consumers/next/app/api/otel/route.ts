// A route handler whose call is traced: a Client instrumented by estatekit/otel (one line),
// called inside the route's span (Next.js's own, recorded by @vercel/otel: instrumentation.ts).
// It answers the route's trace id, which the test looks the spans up by. `?instrumented=0`
// makes the same call with a Client that is not instrumented: the control, where Next.js's own
// fetch span is the request's only CLIENT span.
import { trace } from "@opentelemetry/api";
import { Client } from "estatekit";
import { instrument } from "estatekit/otel";
import { describeError, serviceUrl } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request) {
  const instrumented = new URL(request.url).searchParams.get("instrumented") !== "0";
  const traceId = trace.getActiveSpan()?.spanContext().traceId;
  const plain = new Client({ baseUrl: serviceUrl(), token: process.env.ESTATEKIT_TOKEN ?? "dev-token", timeoutMs: 10_000 });
  const client = instrumented ? instrument(plain) : plain;
  try {
    const hooks = await client.listWebhooks();
    return Response.json({ ok: true, instrumented, traceId, count: hooks.length });
  } catch (e) {
    return Response.json({ ...describeError(e), traceId }, { status: 502 });
  } finally {
    client.free();
  }
}
