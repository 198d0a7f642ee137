// A Cloudflare Worker bundled WITHOUT the `workerd` export condition: with the conditions worker
// and browser (as a hand-made build may be), it gets the browser entries; with `node` (as Next.js
// bundles server code, which OpenNext's Cloudflare adapter then runs unless the package is left to
// its own bundling), the server entries. workerd can load the module of neither: it answers what
// each entry says (tests/consumers/workers.test.mjs checks that the errors name the runtime and
// the fix).
import { Client } from "estatekit";

/** An error as the Worker's caller sees it. */
const seen = (e) => ({ name: e?.name, kind: e?.kind, message: String(e?.message ?? e) });

export default {
  /** @param {Request} request @param {{ BASE_URL: string }} env */
  async fetch(request, env) {
    const client = new Client({ baseUrl: env.BASE_URL, token: "dev-token" });
    const call = await client.listWebhooks().then(() => null, seen);
    const oauth = { baseUrl: env.BASE_URL, clientId: "dev-client", clientSecret: "dev-secret", username: "admin@acme.test", password: "dev-password" };
    const auth = await import("estatekit/auth").then((m) => m.createTokenProvider(oauth).getToken()).then(() => null, seen);
    const testing = await import("estatekit/testing").then((m) => m.createTestService()).then(() => null, seen);
    return Response.json({ call, auth, testing });
  },
};
