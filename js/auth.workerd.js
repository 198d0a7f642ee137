/* @ts-self-types="./auth.d.ts" */
// estatekit/auth for Cloudflare Workers (the `workerd` condition of package.json): a Worker is a
// server, which keeps the OAuth client secret in a binding (a secret of `wrangler secret put`),
// never in a browser. ./auth_tokens.js on the module of ./estatekit.workerd.js (the server
// entry's module, imported as a compiled module), the same module instance as that entry's: one
// `ApiError`, one module in the Worker.
import init from "./estatekit.workerd.js";
import { entry } from "./auth_tokens.js";

export { ApiError, isApiError } from "./client.js";
export const { createTokenProvider, createUserTokens, passwordGrant, refreshGrant, authorizationCodeGrant } = entry(init);
export { authjsProvider, betterAuthProvider, createTokenRoute, isSignInRequired, toStaffProfile, toTokenSet } from "./auth_tokens.js";
