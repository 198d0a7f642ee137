// Type tests of the browser's token, both sides: estatekit/auth's createTokenRoute (user tokens
// and a session; a token provider refused) and estatekit/token's createSessionToken (its
// getToken fits a Client's as it is). Checked by `tsc --strict --noEmit` (make test-types); never run.
import { Client } from "estatekit";
import { createTokenProvider, createTokenRoute, createUserTokens, type TokenSet } from "estatekit/auth";
import { toNodeListener } from "estatekit/webhooks";
import { createSessionToken, isSignInRequired, type SessionToken } from "estatekit/token";

declare function expectType<T>(value: T): void;
declare function readSession(request: Request): Promise<{ tokens?: TokenSet } | null>;

const oauth = { baseUrl: "https://acme.example.com", clientId: "portal", clientSecret: "s" };

export function route() {
    const userTokens = createUserTokens(oauth);
    const handler = createTokenRoute({
        userTokens,
        session: {
            get: async (request) => (await readSession(request))?.tokens,
            set: (_request, tokens) => {
                expectType<string>(tokens.accessToken);
                return { "set-cookie": "sid=1; Path=/; HttpOnly" };
            },
        },
        origin: ["https://portal.example.com"],
    });
    expectType<(request: Request) => Promise<Response>>(handler);
    // Next.js route handlers, Node and Express.
    const POST: (request: Request) => Promise<Response> = handler;
    const listener = toNodeListener(handler);
    createTokenRoute({ userTokens, session: { get: () => null, set() {} } });

    const provider = createTokenProvider({ ...oauth, username: "u", password: "p" });
    // @ts-expect-error the service account's token provider never makes a token route
    createTokenRoute({ userTokens: provider, session: { get: () => null, set() {} } });
    // @ts-expect-error nor anything else with a getToken
    createTokenRoute({ userTokens: { ...userTokens, getToken: provider.getToken }, session: { get: () => null, set() {} } });
    // @ts-expect-error the session writes a refreshed set back: `set` is required
    createTokenRoute({ userTokens, session: { get: () => null } });
    return [POST, listener];
}

export async function page() {
    const session: SessionToken = createSessionToken({ url: "/api/estate-token" });
    createSessionToken("/api/estate-token");
    // Passed unbound, as it is.
    const client = new Client({ baseUrl: "https://acme.example.com", getToken: session.getToken });
    const { token, expiresAt } = await session.getToken("unauthorized");
    expectType<string>(token);
    expectType<number>(expiresAt);
    const stop: () => void = session.onClear(() => client.free());
    session.clear();
    stop();
    try {
        await client.listWebhooks();
    } catch (e) {
        expectType<boolean>(isSignInRequired(e));
    }
    // @ts-expect-error the route's path is required
    createSessionToken({});
}
