// estatekit/subscribe: a page's side of estatekit/live's stream route, over EventSource.
import type { AnsweredApiError } from "./estatekit.js";
import type { EventOf, EventType } from "./webhooks.js";

export type { EventOf, EventType } from "./webhooks.js";

/** What a handler gets besides the event: its position and its text as the service sent it. */
export interface LiveEventInfo {
  /** The event's position in the account's log (the SSE `id`). */
  id: string;
  /** The event as the service sent it: untrusted text (never put it in the page as HTML). */
  data: string;
}

/** A handler per event type, each given its type's event (`JSON.parse` of its text, not checked again). */
export type LiveHandlers = {
  [T in EventType]?: (event: EventOf<T>, info: LiveEventInfo) => void;
};

/**
 * The sign-in-required error, given to `onError` when the stream route answered 401: the
 * package's `ApiError` (the same class as every other entry's: `isApiError` and
 * `instanceof ApiError` hold, `toJSON()` gives its data) of kind `unauthorized`, with
 * `signInRequired: true` (estatekit/token's `isSignInRequired` holds). The user must sign in
 * again; the stream keeps reopening after a backoff meanwhile.
 */
export interface SignInRequiredStreamError extends AnsweredApiError<"unauthorized"> {
  /** The stream route's answer. */
  status: 401;
  /** Not until the user signs in again. */
  retryable: false;
  /** Always `true`. */
  signInRequired: true;
}

/** Options of {@link subscribe}. */
export interface SubscribeOptions {
  /** The handlers, by event type. */
  on?: LiveHandlers;
  /**
   * The log no longer holds the page's position (trimmed, or restarted): events were missed.
   * Reload what the page shows; the stream goes on from `position`.
   */
  onReset?: (reset: { position: string }) => void;
  /** The stream was answered 401 (told once until an event comes again); it keeps reopening after a backoff. */
  onError?: (error: SignInRequiredStreamError) => void;
  /** Send cookies to a stream route of another origin (EventSource's `withCredentials`). */
  withCredentials?: boolean;
}

/** What {@link subscribe} returns. */
export interface Subscription {
  /** Stops this subscriber's handlers; the page's stream closes with its last subscriber. */
  close(): void;
}

/**
 * Follows the events of a stream route (estatekit/live's `createEventStream`): one EventSource per
 * page and URL for all its subscribers; an event is given to each subscriber's handler of its
 * type. When EventSource gives up (an answer other than 200), the stream is reopened after a
 * backoff (1 s doubling to 30 s) from the last position, with nothing missed or repeated.
 */
export function subscribe(url: string | URL, options: SubscribeOptions): Subscription;
