// Type tests of estatekit/webhooks: the union narrowed by `operation`, the unknown-type event
// that no literal matches, the handlers' map, and @ts-expect-error lines that must fail to
// compile (a misspelt event type among them). Checked by `tsc --strict --noEmit` (make
// test-types); never run.
import {
  createWebhookHandler,
  isInvalidEvent,
  parseEvent,
  toNodeListener,
  webhookProcessor,
  type WebhookJobData,
  type WebhookJobLike,
  type EventOf,
  type KnownEvent,
  type UnknownTypeEvent,
  type WebhookEvent,
  type WebhookEventError,
  type WebhookRefused,
  type EventType,
} from "estatekit/webhooks";
import type { EventType as ClientEventType } from "estatekit";

declare const body: string;
declare function expectType<T>(value: T): void;

export async function narrowing() {
  const e: WebhookEvent = await parseEvent(body);
  await parseEvent(new Uint8Array());
  await parseEvent({ already: "parsed" });
  // @ts-expect-error a number is not a body
  await parseEvent(5);

  if (e.operation === "LISTING_CANDIDATE_APPLIED") {
    expectType<string>(e.data.listing.unit.name);
    expectType<string>(e.data.listing.property.address.city);
    expectType<number | null | undefined>(e.data.listing.property.address.location?.lat);
    // @ts-expect-error no such member in the documented shape
    e.data.listing.unit.floor;
  }
  if (e.operation === "CANDIDATE_PARSED") {
    expectType<string | number>(e.data.integration.internalId);
  }
  if (e.operation === "LISTING_CONTRACT_FLOW_SIGNED") {
    const flow: string = e.data.contractFlowType;
    expectType<string | null | undefined>(e.data.auditTrailFile?.name);
    // @ts-expect-error SIGNED has no contractTemplateId
    e.data.contractTemplateId;
    void flow;
  }
  if (e.operation === "UNIT_DELETED") {
    expectType<unknown>(e.data);
    // @ts-expect-error the data of the 23 other types is unknown
    e.data.id;
  }
  // @ts-expect-error a misspelt event type is no operation of the union
  if (e.operation === "LISTING_CANDIDATE_APPLEID") {
    /* unreachable */
  }
  if (e.operation === null) {
    const unknownType: UnknownTypeEvent = e;
    expectType<string>(unknownType.rawOperation);
  }
  // Every member of the union is a known type or the unknown-type event.
  switch (e.operation) {
    case null:
      expectType<string>(e.rawOperation);
      break;
    default: {
      const known: KnownEvent = e;
      expectType<EventType>(known.operation);
    }
  }
  expectType<string>(e.uuid);
  expectType<string>(e.createdAt);
}

// The 28 types of the receiver are the client's EventType.
// One name, one union: estatekit/webhooks' `EventType` is the client's.
export const sameTypes: [EventType, ClientEventType] = ["UNIT_DELETED", "UNIT_DELETED"];
export const everyEventType = (t: ClientEventType): EventType => t;
export const everyClientEventType = (t: EventType): ClientEventType => t;

export const handler: (request: Request) => Promise<Response> = createWebhookHandler({
  on: {
    LISTING_CANDIDATE_APPLIED: (event) => {
      expectType<string>(event.data.listing.unit.name);
    },
    CANDIDATE_PARSED: async (event: EventOf<"CANDIDATE_PARSED">) => {
      expectType<string>(event.data.email);
    },
    UNIT_DELETED: (event) => {
      expectType<"UNIT_DELETED">(event.operation);
    },
  },
  onUnknown: (event) => {
    expectType<null>(event.operation);
  },
  subdomain: "acme",
  dedupe: { has: async (uuid) => uuid === "x", add: () => {} },
  maxBytes: 1 << 20,
});
export const POST = createWebhookHandler({ on: {}, dedupe: true });

createWebhookHandler({
  on: {
    // @ts-expect-error a misspelt event type is not a key of `on`
    LISTING_CANDIDATE_APPLEID: () => {},
  },
});
createWebhookHandler({
  on: {
    // @ts-expect-error each handler receives its own type's event
    UNIT_DELETED: (event: EventOf<"LISTING_CANDIDATE_APPLIED">) => event.data.listing,
  },
});
// @ts-expect-error `on` is required
createWebhookHandler({});

declare const nodeRequest: Parameters<ReturnType<typeof toNodeListener>>[0];
declare const nodeResponse: Parameters<ReturnType<typeof toNodeListener>>[1];
toNodeListener(handler)(nodeRequest, nodeResponse);

export function errors(e: unknown) {
  if (isInvalidEvent(e)) {
    const error: WebhookEventError = e;
    expectType<"invalid_event">(error.kind);
    expectType<string>(error.path);
  }
}

// A refused delivery, as onError sees it: its reason and the status answered.
export function refused() {
  return createWebhookHandler({
    on: {},
    subdomain: "acme",
    onError(error, event) {
      if (error instanceof Error && error.name === "WebhookRefused") {
        const refusal = error as WebhookRefused;
        const reason: "method" | "too_large" | "invalid_event" | "subdomain" | "secret" = refusal.reason;
        const status: number = refusal.status;
        // @ts-expect-error not a reason
        const wrong: WebhookRefused["reason"] = "forbidden";
        return [reason, status, event?.subdomain, wrong];
      }
      return [];
    },
  });
}

// The queued mode (BullMQ): any object with `add(name, data, opts)` is a queue.
const jobs: { name: string; data: WebhookJobData; id: string }[] = [];
const queued = createWebhookHandler({ queue: { add: async (name, data, opts) => jobs.push({ name, data, id: opts.jobId }) }, storeTimeoutMs: 500 });
export const QUEUED: (request: Request) => Promise<Response> = queued;
// @ts-expect-error one mode at a time: `on` with `queue`
createWebhookHandler({ queue: { add: () => {} }, on: {} });
// @ts-expect-error `dedupe` is not used with `queue`
createWebhookHandler({ queue: { add: () => {} }, dedupe: true });
const processor = webhookProcessor({
  on: {
    LISTING_CANDIDATE_APPLIED: (event, { job, attempt }) => {
      const email: string = event.data.email;
      const n: number = attempt;
      return [email, n, job.id];
    },
    // @ts-expect-error each handler receives its own type's event
    UNIT_DELETED: (event: EventOf<"LISTING_CANDIDATE_APPLIED">) => event.data.listing,
  },
  onUnknown: (event) => event.rawOperation,
});
export const PROCESS: (job: WebhookJobLike, token?: string) => Promise<void> = processor;
