// The declarations of testing.js (`estatekit/testing`). The records (Fault, RequestRecord,
// DeliveryRecord, SeedRequest, ...) and TestServiceOptions are declared once, from the Rust
// types, by wasm-bindgen in ./estatekit_testing_wasm.d.ts, and re-exported from there unchanged.
import type { DocumentType, EventType } from "./estatekit_wasm.js";
import type {
    DeliveryRecord,
    Fault,
    RequestRecord,
    SeedRequest,
    Seeded,
    TestServiceOptions,
} from "./estatekit_testing_wasm.js";

declare global {
    interface SymbolConstructor {
        /** `Symbol.dispose` (ES2026 explicit resource management; declared for older `lib` settings). */
        readonly dispose: unique symbol;
    }
}

export type {
    DeliveryRecord,
    Fault,
    OAuthClientOption,
    RequestRecord,
    UserOption,
    SeedDocument,
    SeedMessage,
    SeedRequest,
    SeedWebhook,
    Seeded,
    TestServiceOptions,
} from "./estatekit_testing_wasm.js";
export type { DocumentType, EventType };

/** What `emit` accepts besides the event type. */
export interface EmitOptions {
    /** The event's `data` (default: an example for the type). */
    data?: unknown;
    /** Deliver to this token's webhooks only (default: every account's). */
    token?: string;
    /**
     * Forced redeliveries: each webhook also gets this many extra deliveries of the same
     * envelope (same `uuid`), all started at once (0 to 20; default 0).
     */
    copies?: number;
}

/** The grant types of the token endpoint. */
export type GrantType = "password" | "refresh_token" | "authorization_code";

/** What the token endpoint did, from `service.oauth()` (`GET /_emulator/oauth`). */
export interface OAuthCounts {
    /** Grants answered 200, by type (since the start or the last `reset()`). */
    grants: Record<GrantType, number>;
    /** Grants refused (400, 401 or 403), by type. */
    rejected: Record<GrantType, number>;
    /** Live refresh tokens per user name (every configured user, 0 included). */
    refreshTokens: Record<string, number>;
    /** The access-token lifetime, in ms. */
    accessTokenTtlMs: number;
}

/** What `emit` started: the event's uuid and how many webhooks it goes to. */
export interface EmittedEvent {
    uuid: string;
    webhooks: number;
}

/** An account added by `addAccount`. */
export interface Account {
    token: string;
    subdomain: string;
    companyId: string;
}

/**
 * The service's emulator running in this process: every route of the real service (messages
 * GraphQL, documents, webhooks, the sign-in routes under `/accounts/`), faults, the rate limit and
 * webhook delivery, with no server.
 * Give `fetch` to the client: `new Client({ baseUrl: service.baseUrl, token: service.token,
 * fetch: service.fetch })`.
 */
export declare class TestService {
    private constructor();
    /** The origin it answers on, e.g. `https://acme.estatekit.test`. */
    readonly baseUrl: string;
    /** A token it accepts (the first of `options.tokens`). */
    readonly token: string;
    /**
     * The webhook subdomain of the default account (the first token's), e.g. `emu-3f0af23c`: the
     * `subdomain` of its events' envelopes (give it to `createWebhookHandler({ subdomain })` of `estatekit/webhooks`).
     */
    readonly subdomain: string;
    /** Every token it accepts that may write (`readonly-token` is accepted too, read-only). */
    readonly tokens: string[];
    /**
     * Answers like `fetch`, without a network. A request to another origin, or one a `drop`
     * fault closes, rejects with a `TypeError`, as an unreachable host does.
     */
    readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
    /** Adds documents, messages and webhooks to an account (all or none: a bad entry rejects with an `ApiError` of kind `invalid_input`). */
    seed(data: SeedRequest): Promise<Seeded>;
    /**
     * Back to the seeded state: documents, webhooks, faults, records, rate windows and the grant
     * counts of `oauth()` (issued tokens stay valid).
     */
    reset(): Promise<void>;
    /** Queues faults for the next matching requests (the kinds of the emulator's admin API). */
    addFaults(faults: Fault | Fault[]): Promise<void>;
    /** The faults not used up yet. */
    faults(): Promise<Fault[]>;
    /** Removes every pending fault. */
    clearFaults(): Promise<void>;
    /** The requests received (last 500), without their `Authorization` values. */
    requests(): Promise<RequestRecord[]>;
    /** Forgets the recorded requests. */
    clearRequests(): Promise<void>;
    /** Every webhook delivery attempt so far, with the envelope sent. */
    deliveries(): Promise<DeliveryRecord[]>;
    /** Raises an event: every webhook of that type gets it (through `options.deliver`, if given). */
    emit(type: EventType, options?: EmitOptions): Promise<EmittedEvent>;
    /**
     * Waits until every delivery started so far has finished, every attempt and retry included
     * (no polling in tests): `await service.emit("UNIT_CREATED"); const records = await
     * service.settled();`. Resolves with every delivery record; rejects after `timeoutMs`
     * (default 30000) saying how many are still in flight.
     */
    settled(options?: { timeoutMs?: number }): Promise<DeliveryRecord[]>;
    /** Sets the requests-per-minute limit (0: off) of one token, or the default of all. */
    setRateLimit(perMinute: number, options?: { token?: string }): Promise<void>;
    /** Adds an account with its own seeded data. */
    addAccount(token: string): Promise<Account>;
    /** The token endpoint's grant counts and live refresh tokens per user. */
    oauth(): Promise<OAuthCounts>;
    /**
     * Deletes every refresh token of a user (any client), as the service's 50-token cap or a
     * sign-out elsewhere would: the next refresh with one gets 403 `invalid_grant`. Resolves with
     * how many were deleted; an unknown user name rejects with an `ApiError` of kind `invalid_input`.
     */
    revokeRefreshTokens(username: string): Promise<number>;
    /** Frees the service; its `fetch` rejects afterwards. */
    close(): void;
    [Symbol.dispose](): void;
}

/**
 * Starts an emulator in this process, with its own state. Unknown option keys and wrong values
 * reject with an `ApiError` of kind `invalid_input` naming the option. If the emulator's WebAssembly module cannot be loaded,
 * rejects with an `Error` named `ApiError` of kind `network`, whose message gives the URL tried,
 * what came back and the fix (as the main entry's calls do).
 */
export function createTestService(options?: TestServiceOptions): Promise<TestService>;

/** The in-memory event log of estatekit/live, for tests of a receiver and a stream route (see estatekit/live). */
export { createMemoryEventLog } from "./live.js";
export type { EventLog, EventLogBounds, LogEntry, LogFollower, LogRead, MemoryEventLogOptions } from "./live.js";
