// A few lines of what @testing-library/react does: render into jsdom under act(), read the text,
// wait for a condition, unmount. Elements are made with createElement (no JSX build step).
import { act, createElement, StrictMode, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A rendered tree: its container, and `unmount()`. */
export interface Rendered {
  container: HTMLElement;
  unmount(): Promise<void>;
}

/** Renders `node` inside a QueryClientProvider (and StrictMode unless `strict` is false). */
export async function render(node: ReactNode, queryClient: QueryClient, strict = true): Promise<Rendered> {
  const container = document.createElement("div");
  document.body.append(container);
  const root: Root = createRoot(container);
  const tree = createElement(QueryClientProvider, { client: queryClient }, node);
  await act(async () => root.render(strict ? createElement(StrictMode, null, tree) : tree));
  return {
    container,
    async unmount() {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

/** Waits (up to 10 s) until `check` stops throwing, letting React commit in between (one act() at a time). */
export async function waitFor(check: () => void): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}

/** A QueryClient as a test wants it: no garbage-collection timers left behind. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { gcTime: Infinity } } });
}
