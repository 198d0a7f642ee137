// A Cloudflare Worker bundled WITHOUT the `workerd` export condition (esbuild with the conditions
// worker and browser, as a hand-made build may be): it gets the browser entries, which workerd
// cannot load. It answers what each entry says (tests/consumers/workers.test.mjs checks that the
// errors name the runtime and the fix).
import { Client } from "estatekit";

/** An error as the Worker's caller sees it. */
const seen = (e) => ({ name: e?.name, kind: e?.kind, message: String(e?.message ?? e) });

export default {
  /** @param {Request} request @param {{ BASE_URL: string }} env */
  async fetch(request, env) {
    const client = new Client({ baseUrl: env.BASE_URL, token: "dev-token" });
    const call = await client.listWebhooks().then(() => null, seen);
    const auth = await import("estatekit/auth").then(() => null, seen);
    const testing = await import("estatekit/testing").then((m) => m.createTestService()).then(() => null, seen);
    return Response.json({ call, auth, testing });
  },
};
