// Type tests of estatekit/live, estatekit/subscribe and estatekit/subscribe/query: the logs and
// the stream route's options, the receiver's `log` and `secret`, handlers typed by their event
// type, and @ts-expect-error lines that must fail to compile (a misspelt event type among them).
// Checked by `tsc --strict --noEmit` (make test-types); never run.
import { createEventStream, createMemoryEventLog, createRedisEventLog, toNodeListener, RESET_EVENT, type EventLog, type StreamAccess } from "estatekit/live";
import { createWebhookHandler } from "estatekit/webhooks";
import { createMemoryEventLog as testingLog } from "estatekit/testing";
import { subscribe, type SignInRequiredStreamError } from "estatekit/subscribe";
import type { ApiError } from "estatekit";
import { invalidateOn } from "estatekit/subscribe/query";

declare const redis: { sendCommand(args: string[]): Promise<unknown> };
const log: EventLog = createRedisEventLog(redis, { maxLength: 1000, maxAgeMs: 86_400_000 });
const memory: EventLog = createMemoryEventLog({ maxLength: 10 });
const fromTesting: EventLog = testingLog();
void memory;
void fromTesting;

createWebhookHandler({ on: {}, log, secret: "0123456789abcdef", subdomain: "acme" });
declare const queue: { add(name: string, data: unknown, opts: { jobId: string }): Promise<unknown> };
createWebhookHandler({ queue, log, secret: "0123456789abcdef", subdomain: "acme" });
// @ts-expect-error: `log` is an event log, not a store
createWebhookHandler({ on: {}, log: { get: () => null }, secret: "0123456789abcdef", subdomain: "acme" });

const route = createEventStream({
  log,
  accounts: ["acme"],
  authorize: async (request: Request): Promise<StreamAccess | null | false> => (request.headers.has("cookie") ? { account: "acme", types: ["UNIT_CREATED"] } : null),
});
const answer: Promise<Response> = route(new Request("http://x/live"));
void answer;
route.close();
const open: number = route.open;
void open;
const listener: (req: import("estatekit/webhooks").NodeRequest, res: import("estatekit/webhooks").NodeResponse) => void = toNodeListener(route);
void listener;
const reset: "estatekit.reset" = RESET_EVENT;
void reset;

const live = subscribe("/api/live", {
  on: {
    LISTING_CANDIDATE_APPLIED: (event, info) => {
      const type: "LISTING_CANDIDATE_APPLIED" = event.operation;
      const id: string = info.id;
      void type;
      void id;
    },
    UNIT_CREATED: (event) => {
      // @ts-expect-error: a UNIT_CREATED handler gets UNIT_CREATED events only
      const other: "UNIT_DELETED" = event.operation;
      void other;
    },
    // @ts-expect-error: a misspelt event type
    UNIT_CRAETED: () => {},
  },
  onReset: ({ position }) => void (position satisfies string),
  onError: (error: SignInRequiredStreamError) => {
    // The package's ApiError: assignable to it, switched on by kind, its fields typed.
    const apiError: ApiError = error;
    const kind: "unauthorized" = error.kind;
    const status: 401 = error.status;
    const attempts: number = error.attempts;
    void error.toJSON().kind;
    void (error.signInRequired satisfies true);
    void (error.retryable satisfies false);
    void [apiError, kind, status, attempts];
    // @ts-expect-error: its kind is unauthorized only
    const other: "forbidden" = error.kind;
    void other;
  },
});
live.close();

declare const queryClient: { invalidateQueries(filters: { queryKey: readonly unknown[] }): Promise<void> };
subscribe("/api/live", invalidateOn(queryClient, { UNIT_CREATED: [["units"]], LISTING_CANDIDATE_APPLIED: (event) => [["listing", event.data]] }));
