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

export type {
    DeliveryRecord,
    Fault,
    RequestRecord,
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
 * GraphQL, documents, webhooks), faults, the rate limit and webhook delivery, with no server.
 * Give `fetch` to the client: `new Client({ baseUrl: service.baseUrl, token: service.token,
 * fetch: service.fetch })`.
 */
export declare class TestService {
    private constructor();
    /** The origin it answers on, e.g. `https://acme.estatekit.test`. */
    readonly baseUrl: string;
    /** A token it accepts (the first of `options.tokens`). */
    readonly token: string;
    /** Every token it accepts that may write (`readonly-token` is accepted too, read-only). */
    readonly tokens: string[];
    /**
     * Answers like `fetch`, without a network. A request to another origin, or one a `drop`
     * fault closes, rejects with a `TypeError`, as an unreachable host does.
     */
    readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
    /** Adds documents, messages and webhooks to an account (all or none: a bad entry throws). */
    seed(data: SeedRequest): Promise<Seeded>;
    /** Back to the seeded state: documents, webhooks, faults, records and rate windows. */
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
    /** Sets the requests-per-minute limit (0: off) of one token, or the default of all. */
    setRateLimit(limit: number, options?: { token?: string }): Promise<void>;
    /** Adds an account with its own seeded data. */
    addAccount(token: string): Promise<Account>;
    /** Frees the service; its `fetch` rejects afterwards. */
    close(): void;
    [Symbol.dispose](): void;
}

/**
 * Starts an emulator in this process, with its own state. Unknown option keys and wrong values
 * throw a `TypeError` naming the option. If the emulator's WebAssembly module cannot be loaded,
 * rejects with an `Error` named `ApiError` of kind `network`, whose message gives the URL tried,
 * what came back and the fix (as the main entry's calls do).
 */
export function createTestService(options?: TestServiceOptions): Promise<TestService>;
