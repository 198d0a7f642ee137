// What an app's strict TypeScript does with an ApiError (issue 45, item 2): narrowed by `kind`,
// `status` is a number without `!`; a test double made with `new ApiError(...)`; a round trip
// through JSON. Type-checked under every tsconfig of this project, and run (emitted by
// strict.test.mjs with tsconfig.nodenext-default.json into dist/): they hold at run time too.
import { ApiError, Client, isApiError } from "estatekit";
import type { ApiErrorJSON, ApiErrorKind, ApiErrorOf } from "estatekit";

/** The status of a `not_found`, narrowed by `instanceof` and `kind`: a number, no `!`. */
export function statusOfNotFound(e: unknown): number | null {
  if (e instanceof ApiError && e.kind === "not_found") {
    const s: number = e.status;
    return s;
  }
  return null;
}

/** The same through `isApiError`, and every kind that comes with an answer. */
export function describe(e: unknown): string {
  if (!isApiError(e)) return "not an estatekit error";
  switch (e.kind) {
    case "rate_limited": {
      const s: number = e.status;
      const wait: number | undefined = e.retryAfterMs;
      return `rate limited (${s}), retry after ${wait ?? "?"} ms`;
    }
    case "graphql": {
      const s: number = e.status;
      const errors: unknown = e.details;
      return `graphql (${s}): ${JSON.stringify(errors)}; partial data: ${e.data !== undefined}`;
    }
    case "unauthorized":
    case "forbidden":
    case "not_found":
    case "http":
    case "decode": {
      const s: number = e.status;
      return `${e.kind} ${s} ${e.requestId ?? "(no request id)"}`;
    }
    case "invalid_input":
    case "network":
    case "timeout":
    case "aborted":
    case "freed":
    case "caller_error":
    case "token_source": {
      const none: undefined = e.status;
      return `${e.kind}${none ?? ""}: ${e.message} (cause: ${String(e.cause)})`;
    }
    default: {
      // Exhaustive: every kind of ApiErrorKind is handled above.
      const never: never = e;
      return never;
    }
  }
}

/** A call that fails, caught as an app would. */
export async function firstDocumentStatus(client: Client): Promise<number | "missing" | "ok"> {
  try {
    await client.listDocuments({ take: 1 });
    return "ok";
  } catch (e) {
    if (e instanceof ApiError && e.kind === "not_found") {
      const s: number = e.status;
      return s;
    }
    if (isApiError(e) && e.kind === "not_found") {
      const s: number = e.status;
      return s;
    }
    return "missing";
  }
}

// A test double: a real ApiError of kind not_found, its status a number.
export const notFound = new ApiError({ kind: "not_found", status: 404, message: "x" });
export const notFoundStatus: number = notFound.status;
export const notFoundKind: "not_found" = notFound.kind;
const typed: ApiErrorOf<"not_found"> = notFound;
export const rateLimited = new ApiError({ kind: "rate_limited", status: 429, message: "slow down", retryAfterMs: 1500 });
export const retryAfter: number | undefined = rateLimited.retryAfterMs;
export const network = new ApiError({ kind: "network", message: "fetch failed", cause: new TypeError("fetch failed") });
export const networkStatus: undefined = network.status;

// A round trip through JSON (a server action, postMessage): an ApiError again.
const json: ApiErrorJSON = notFound.toJSON();
export const revived: ApiError = ApiError.fromJSON(JSON.parse(JSON.stringify(notFound)));
export const revivedStatus: number | null = statusOfNotFound(revived);
export const kinds: ApiErrorKind[] = [json.kind, revived.kind];

// What must not compile.
// @ts-expect-error: a kind that comes with an answer needs its status.
new ApiError({ kind: "not_found" });
// @ts-expect-error: nor a status on a kind that has none.
new ApiError({ kind: "network", status: 500 });
// @ts-expect-error: not a kind.
new ApiError({ kind: "teapot", status: 418 });
// @ts-expect-error: a kind is required.
new ApiError({ message: "x" });
export function unnarrowed(e: ApiError): string {
  // @ts-expect-error: an ApiError not narrowed by kind may have no status.
  return e.status.toFixed();
}
export function unnarrowedNumber(e: ApiError): number {
  // @ts-expect-error: status is number | undefined until narrowed.
  const s: number = e.status;
  return s;
}
export function wrongNarrowing(e: unknown): number {
  if (isApiError(e) && e.kind === "timeout") {
    // @ts-expect-error: a timeout came with no answer, hence no status.
    return e.status.toFixed();
  }
  return 0;
}
// @ts-expect-error: a not_found is not a rate_limited.
export const notRateLimited: ApiErrorOf<"rate_limited"> = notFound;
void typed;
