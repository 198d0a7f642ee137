// A route handler (Node runtime, rendered at each request) listing the account's webhooks.
import { webhookSummary } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET() {
  const result = await webhookSummary();
  return Response.json(result, { status: result.ok ? 200 : 502 });
}
