// Paging, shared by the client's list calls (./client.js) and estatekit/query's infinite queries
// (./query.js): the one default page size, the checks of `pageSize` and `limit`, and the list
// call's result, a `PagePromise`: awaited, it is the one request sent as given; iterated, it is
// every item of every page.
import { apiError } from "./api_error.js";

/** Items asked for per request when paging (`take`), unless `pageSize` says otherwise. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * `value` when it is a whole number from `min` (or undefined), else an `invalid_input` ApiError.
 * @param {string} name
 * @param {unknown} value
 * @param {number} min
 * @returns {number | undefined}
 */
export function checkedCount(name, value, min) {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < min) {
    const got = typeof value === "number" || typeof value === "string" ? JSON.stringify(value) : typeof value;
    throw apiError("invalid_input", `invalid ${name}: must be a whole number from ${min}, got ${got}`);
  }
  return /** @type {number} */ (value);
}

/**
 * Yields the items of successive pages, from `skip`, until a short page or `limit` items.
 * @template T
 * @param {(skip: number, take: number) => Promise<T[]>} fetchPage
 * @param {number} skip
 * @param {number} pageSize
 * @param {number} limit
 * @returns {AsyncGenerator<T, void, undefined>}
 */
async function* pages(fetchPage, skip, pageSize, limit) {
  let left = limit;
  while (left > 0) {
    const take = Math.min(pageSize, left);
    const page = await fetchPage(skip, take);
    const items = page.length > take ? page.slice(0, take) : page;
    for (const item of items) yield item;
    skip += items.length;
    left -= items.length;
    if (items.length < take) return;
  }
}

/**
 * What a list call returns: a `Promise` (a subclass, as openai-node's `APIPromise`: accepted
 * wherever a `Promise` is expected, `instanceof Promise`), awaited (`then`), the one request as
 * given, sent once on the first `then` and shared by every later one; iterated (`for await`),
 * every item of every page, each iteration paging afresh from the query's `skip`. Nothing is sent
 * before one of the two. The promise the base class holds is never used: `then`, `catch` and
 * `finally` are the request's, and derived promises are plain `Promise`s.
 * @template T
 * @extends {Promise<T[]>}
 */
export class PagePromise extends Promise {
  /** @type {() => Promise<T[]>} */
  #once;
  /** @type {Promise<T[]> | undefined} */
  #answer;
  /** @type {() => AsyncGenerator<T, void, undefined>} */
  #iterate;

  /**
   * @param {() => Promise<T[]>} once The call as given.
   * @param {(skip: number, take: number) => Promise<T[]>} fetchPage One page of the iteration.
   * @param {{ skip?: unknown, pageSize?: unknown, limit?: unknown, refused?: () => unknown }} paging The
   *   query's `skip`, the iteration's options, and why the query cannot be iterated (an ApiError,
   *   or the call whose rejection says why), asked when an iteration starts.
   */
  constructor(once, fetchPage, paging) {
    super((resolve) => resolve(/** @type {T[]} */ ([])));
    this.#once = once;
    this.#iterate = () => {
      // A refusal: an ApiError, or the promise of the refused call (its rejection).
      const refused = paging.refused?.();
      if (refused) return refusing(refused);
      try {
        const skip = checkedCount("query.skip", paging.skip, 0) ?? 0;
        const pageSize = checkedCount("options.pageSize", paging.pageSize, 1) ?? DEFAULT_PAGE_SIZE;
        const limit = checkedCount("options.limit", paging.limit, 0) ?? Infinity;
        return pages(fetchPage, skip, pageSize, limit);
      } catch (e) {
        return refusing(e);
      }
    };
  }

  /** Promises made from one (by `Promise.prototype` methods) are plain `Promise`s. */
  static get [Symbol.species]() {
    return Promise;
  }

  /** The one request's answer (sent on the first call). */
  #promise() {
    return (this.#answer ??= this.#once());
  }

  /**
   * @template [R1=T[]]
   * @template [R2=never]
   * @param {((value: T[]) => R1 | PromiseLike<R1>) | null} [onfulfilled]
   * @param {((reason: unknown) => R2 | PromiseLike<R2>) | null} [onrejected]
   * @returns {Promise<R1 | R2>}
   */
  then(onfulfilled, onrejected) {
    return this.#promise().then(onfulfilled, onrejected);
  }

  /**
   * @template [R=never]
   * @param {((reason: unknown) => R | PromiseLike<R>) | null} [onrejected]
   * @returns {Promise<T[] | R>}
   */
  catch(onrejected) {
    return this.#promise().catch(onrejected);
  }

  /**
   * @param {(() => void) | null} [onfinally]
   * @returns {Promise<T[]>}
   */
  finally(onfinally) {
    return this.#promise().finally(onfinally);
  }

  /** Every item of every page (a new iteration each time). */
  [Symbol.asyncIterator]() {
    return this.#iterate();
  }

}

/**
 * An iteration whose first `next()` rejects with `error`.
 * @param {unknown} error
 * @returns {AsyncGenerator<never, void, undefined>}
 */
async function* refusing(error) {
  throw error instanceof Promise ? await error.then(() => error) : error;
}
