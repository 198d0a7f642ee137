// Type tests of the browser's token route: estatekit/auth's createTokenRoute (user tokens and a
// session; a token provider refused). Checked by `tsc --strict --noEmit` (make test-types); never run.
import { createTokenProvider, createTokenRoute, createUserTokens, type TokenSet } from "estatekit/auth";
import { toNodeListener } from "estatekit/webhooks";

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
