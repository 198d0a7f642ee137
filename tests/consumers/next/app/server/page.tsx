// A server component (rendered at each request) that lists the webhooks on the server and
// renders the result into the page.
import { webhookSummary } from "@/lib/estatekit-server";

export const dynamic = "force-dynamic";

export default async function ServerPage() {
  const result = await webhookSummary();
  return (
    <main>
      <h1>Webhooks (server component)</h1>
      <pre id="result">{JSON.stringify(result)}</pre>
    </main>
  );
}
