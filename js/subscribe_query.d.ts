// estatekit/subscribe/query: TanStack Query keys invalidated by estatekit/subscribe's events.
import type { EventOf, EventType } from "./webhooks.js";
import type { LiveHandlers } from "./subscribe.js";

export type { EventOf, EventType } from "./webhooks.js";
export type { LiveHandlers } from "./subscribe.js";

/** What this helper needs of TanStack Query's `QueryClient`. */
export interface InvalidatingClient {
  /** TanStack Query's `queryClient.invalidateQueries({ queryKey })`. */
  invalidateQueries(filters: { queryKey: readonly unknown[] }): unknown;
}

/** Per event type: the query keys to invalidate, or a function of the event giving them. */
export type InvalidatedKeys = {
  [T in EventType]?: readonly (readonly unknown[])[] | ((event: EventOf<T>) => readonly (readonly unknown[])[]);
};

/**
 * Options for `subscribe(url, invalidateOn(queryClient, { LISTING_PUBLISHED: [["listings"]] }))`:
 * each chosen event invalidates its keys; a reset (events missed) invalidates every key given as
 * a list.
 */
export function invalidateOn(queryClient: InvalidatingClient, keys: InvalidatedKeys): { on: LiveHandlers; onReset: () => void };
