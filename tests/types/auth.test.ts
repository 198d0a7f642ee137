// Type tests of estatekit/auth: the provider's getToken fits a Client's getToken as it is, the
// grants' inputs and TokenSet, the events, and @ts-expect-error lines that must fail to compile.
// Checked by `tsc --strict --noEmit` (make test-types); never run.
import { Client, type AccessToken as ClientAccessToken, type TokenReason } from "estatekit";
import {
    authorizationCodeGrant,
    createTokenProvider,
    passwordGrant,
    refreshGrant,
    type AccessToken,
    type Store,
    type TokenEvent,
    type TokenProvider,
    type TokenSet,
} from "estatekit/auth";

declare function expectType<T>(value: T): void;
declare const store: Store;

export async function provider() {
    const events: TokenEvent[] = [];
    const p: TokenProvider = createTokenProvider({
        baseUrl: "https://acme.example.com",
        clientId: "dev-client",
        clientSecret: "dev-secret",
        username: "admin@acme.test",
        password: "dev-password",
        store,
        refreshBeforeMs: 30_000,
        onEvent: (e) => events.push(e),
    });
    // Passed unbound, as it is.
    const client = new Client({ baseUrl: "https://acme.example.com", getToken: p.getToken });
    const reason: TokenReason = "expiring";
    const token: AccessToken = await p.getToken(reason);
    const same: ClientAccessToken = token;
    expectType<string>(same.token);
    expectType<number>(token.expiresAt);
    p.invalidate();
    p.close();
    client.free();

    const e = events[0];
    if (e?.type === "grant") {
        expectType<"password" | "refresh_token" | "authorization_code">(e.grant);
        expectType<boolean>(e.ok);
    } else if (e?.type === "storeUnavailable") {
        expectType<"get" | "set" | "claim" | "release">(e.operation);
    }

    // @ts-expect-error clientSecret is required
    createTokenProvider({ baseUrl: "https://acme.example.com", clientId: "c", username: "u", password: "p" });
    // @ts-expect-error a misspelt option
    createTokenProvider({ baseUrl: "x", clientId: "c", clientSecret: "s", refreshBefore: 5 });
    // @ts-expect-error a reason the client never gives
    await p.getToken("later");
    // @ts-expect-error getToken resolves an object, not a string
    const text: string = await p.getToken();
    return text;
}

export async function grants() {
    const oauth = { baseUrl: "https://acme.example.com", clientId: "dev-client", clientSecret: "dev-secret" };
    const set: TokenSet = await passwordGrant(oauth, { username: "u", password: "p" });
    expectType<string>(set.accessToken);
    expectType<string | undefined>(set.refreshToken);
    expectType<number>(set.expiresAt);
    expectType<string>(set.tokenType);
    await refreshGrant(oauth, "rt");
    await authorizationCodeGrant({ ...oauth, timeoutMs: 5000, signal: AbortSignal.timeout(1000) }, { code: "c", redirectUri: "https://p/cb" });
    // @ts-expect-error the password is required
    await passwordGrant(oauth, { username: "u" });
    // @ts-expect-error the redirect URI is required
    await authorizationCodeGrant(oauth, { code: "c" });
}

export function handoff() {
    // A browser's getToken may resolve what a server route answered.
    return new Client({
        baseUrl: "https://acme.example.com",
        getToken: async (): Promise<ClientAccessToken> => (await fetch("/api/estate-token")).json() as Promise<ClientAccessToken>,
    });
}

// The signed-in staff's tokens (createUserTokens), toTokenSet and the providers.
import {
    authjsProvider,
    betterAuthProvider,
    createUserTokens,
    isSignInRequired,
    toTokenSet,
    type AuthjsProvider,
    type BetterAuthProvider,
    type HeldTokenSet,
    type SignInAccount,
    type UserTokens,
} from "estatekit/auth";
import { checkedStore, createMemoryStore } from "estatekit/store";

export async function staff() {
    const events: TokenEvent[] = [];
    const users: UserTokens = createUserTokens({
        baseUrl: "https://acme.example.com",
        clientId: "portal",
        clientSecret: "secret",
        store: checkedStore(createMemoryStore()),
        refreshBeforeMs: 30_000,
        timeoutMs: 10_000,
        successorRetentionMs: 600_000,
        onEvent: (e) => events.push(e),
    });
    const held: HeldTokenSet = { accessToken: "a", refreshToken: null, expiresAt: 1_790_000_000_000 };
    const set: TokenSet = await users.fresh(held);
    await users.fresh(set, "unauthorized");
    await users.fresh({ accessToken: "a", refreshToken: "r", expiresAt: 1 });
    // The lifetime a set records, kept with it by the session (the refresh margin's quarter).
    expectType<number | undefined>(set.lifetimeMs);
    await users.fresh({ accessToken: "a", refreshToken: "r", expiresAt: 1, lifetimeMs: 5_000 });
    await users.fresh({ accessToken: "a", expiresAt: 1, lifetimeMs: null });
    // @ts-expect-error lifetimeMs is a number of milliseconds
    await users.fresh({ accessToken: "a", expiresAt: 1, lifetimeMs: "5000" });
    const e = events[0];
    if (e?.type === "successor") {
        expectType<number>(e.hops);
        expectType<number>(e.expiresAt);
    }
    try {
        await users.fresh(set);
    } catch (error) {
        if (isSignInRequired(error)) {
            expectType<true>(error.signInRequired);
            expectType<string>(error.kind);
        }
    }
    // NextAuth's account (expires_at in seconds) and Better Auth's (a Date).
    const account: SignInAccount = { access_token: "a", refresh_token: "r", expires_at: 1_790_000_000, token_type: "bearer" };
    expectType<TokenSet>(toTokenSet(account));
    expectType<TokenSet>(toTokenSet({ accessToken: "a", refreshToken: "r", accessTokenExpiresAt: new Date() }));

    const oauth = { baseUrl: "https://acme.example.com", clientId: "portal", clientSecret: "secret" };
    const p: AuthjsProvider = authjsProvider({ ...oauth, id: "acme" });
    expectType<"oauth">(p.type);
    expectType<string>(p.authorization.url);
    const user = p.profile({ id: 1, email: "a@acme.test", firstName: "Ada" });
    expectType<string>(user.id);
    expectType<string | null>(user.image);
    const b: BetterAuthProvider = betterAuthProvider({ ...oauth, fetch: (url, init) => fetch(url, init) });
    expectType<readonly string[]>(b.scopes);
    const info = await b.getUserInfo({ accessToken: "a" });
    expectType<string | undefined>(info?.id);

    // @ts-expect-error clientSecret is required
    createUserTokens({ baseUrl: "https://acme.example.com", clientId: "c" });
    // @ts-expect-error a misspelt option
    createUserTokens({ ...oauth, successorRetention: 5 });
    // @ts-expect-error expiresAt is required
    await users.fresh({ accessToken: "a", refreshToken: "r" });
    // @ts-expect-error a reason that is not a TokenReason
    await users.fresh(set, "expired");
    // @ts-expect-error fresh resolves a TokenSet, not a string
    const text: string = await users.fresh(set);
    // @ts-expect-error an account's expires_at is a number of seconds, not a Date
    toTokenSet({ access_token: "a", expires_at: new Date() });
    // @ts-expect-error the providers need the client secret
    authjsProvider({ baseUrl: "https://acme.example.com", clientId: "c" });
    // @ts-expect-error a store is an object
    checkedStore(42);
    // @ts-expect-error Better Auth's provider has no name option
    betterAuthProvider({ ...oauth, name: "Acme" });
    return text;
}
