/* @ts-self-types="./auth.d.ts" */
// estatekit/auth where a browser (or a worker) resolves it: the `default` condition of
// package.json. The token provider needs the OAuth client's secret, which must never ship to a
// browser, so this entry only says so, at once, when it is imported. Servers (Node, Bun, Deno,
// Next.js server code) resolve the `node` condition: ./auth.node.js.
throw new Error(
  "estatekit/auth is for servers (Node 20+, Bun, Deno, Next.js route handlers, server actions and " +
    "server components): it holds the OAuth client secret, which must never ship to a browser. In the " +
    "browser, give the Client a getToken that asks your own backend for { token, expiresAt }.",
);
