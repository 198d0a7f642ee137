/* @ts-self-types="./auth.d.ts" */
// estatekit/auth where a browser (or a browser's worker) resolves it: the `default` condition of
// package.json. The token provider needs the OAuth client's secret, which must never ship to a
// browser, so this entry only says so, at once, when it is imported. Servers resolve the `node`
// condition (Node, Bun, Deno, Next.js server code: ./auth.node.js) or the `workerd` condition
// (Cloudflare Workers: ./auth.workerd.js). A Worker bundled without `workerd` gets here too: it
// is told that condition instead.
/** Cloudflare's workerd, which names itself so (its `navigator.userAgent`). */
const workerd =
  /** @type {{ navigator?: { userAgent?: unknown } }} */ (globalThis).navigator?.userAgent === "Cloudflare-Workers";
throw new Error(
  workerd
    ? "estatekit/auth: this Cloudflare Worker was bundled without the `workerd` export condition, so it got the " +
        "browser entry. Bundle it with wrangler (which sets that condition), or add `workerd` to your bundler's " +
        "conditions (esbuild: conditions: [\"workerd\", \"worker\", \"browser\"], with .wasm imports kept as modules)."
    : "estatekit/auth is for servers (Node 20+, Bun, Deno, Cloudflare Workers, Next.js route handlers, server " +
        "actions and server components): it holds the OAuth client secret, which must never ship to a browser. In the " +
        "browser, give the Client the getToken of estatekit/token's createSessionToken, which asks your backend's " +
        "createTokenRoute for the signed-in staff member's { token, expiresAt }.",
);
