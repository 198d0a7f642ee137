/* @ts-self-types="./subscribe_query.d.ts" */
// estatekit/subscribe/query: options for estatekit/subscribe's `subscribe` that invalidate TanStack
// Query keys when chosen events come (and every key named when the stream resets: events were
// missed). Plain JavaScript, no dependency: the app's QueryClient is given.

/**
 * @param {{ invalidateQueries(filters: { queryKey: readonly unknown[] }): unknown }} queryClient
 * @param {Record<string, readonly (readonly unknown[])[] | ((event: any) => readonly (readonly unknown[])[])>} keys
 */
export function invalidateOn(queryClient, keys) {
  /** @param {readonly (readonly unknown[])[]} list */
  const invalidate = (list) => {
    for (const queryKey of list) void queryClient.invalidateQueries({ queryKey });
  };
  /** @type {Record<string, (event: unknown) => void>} */
  const on = {};
  for (const [type, chosen] of Object.entries(keys)) {
    on[type] = (event) => invalidate(typeof chosen === "function" ? chosen(event) : chosen);
  }
  return {
    on,
    onReset() {
      for (const chosen of Object.values(keys)) if (typeof chosen !== "function") invalidate(chosen);
    },
  };
}
