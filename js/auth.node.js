/* @ts-self-types="./auth.d.ts" */
// estatekit/auth for servers (the `node` condition of package.json: Node, Deno, Bun, the server
// side of Next.js): ./auth_tokens.js on the module of ./estatekit.node.js (built with the `auth`
// feature, its bytes embedded), the same module instance as that entry's.
import init from "./estatekit.node.js";
import { entry } from "./auth_tokens.js";

export { ApiError, isApiError } from "./client.js";
export const { createTokenProvider, createUserTokens, passwordGrant, refreshGrant, authorizationCodeGrant } = entry(init);
export { authjsProvider, betterAuthProvider, createTokenRoute, isSignInRequired, toStaffProfile, toTokenSet } from "./auth_tokens.js";
