// Spans as the consumer tests of estatekit/otel read them back from an app (next.test.mjs: a
// file the Next.js portal's exporter writes; otel-web.test.mjs: a page's in-memory exporter):
// plain objects `{ traceId, spanId, parentSpanId?, name, kind, scope, attributes, status,
// events }`, `kind` as OpenTelemetry's SpanKind numbers.
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** OpenTelemetry's SpanKind values. */
export const KIND = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 };
const KIND_NAMES = Object.fromEntries(Object.entries(KIND).map(([k, v]) => [v, k]));

/** What no span, attribute or event may hold: the emulator's token, client secret and password. */
export const SECRETS = ["dev-token", "dev-secret", "dev-password"];

/** The spans of a JSON-lines file (none when it does not exist yet). */
export function readSpanFile(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * Reads `read()` until `done(spans)` holds, every 100 ms for at most 30 s (spans are exported
 * when they end, after the answer the test waited for). Returns the spans; on a timeout, throws
 * with what was there.
 */
export async function waitForSpans(read, done, what) {
  for (let i = 0; ; i++) {
    const spans = await read();
    if (done(spans)) return spans;
    if (i >= 300) throw new Error(`timed out waiting for ${what}; spans:\n${spanTree(spans)}`);
    await sleep(100);
  }
}

/** The ancestors of `span` among `spans`, parent first (it stops where a parent is missing). */
export function ancestors(span, spans) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain = [];
  for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) chain.push(at);
  return chain;
}

/** The children of `span` among `spans`. */
export const childrenOf = (span, spans) => spans.filter((s) => s.parentSpanId === span.spanId);

/** The attributes worth printing: the HTTP and estatekit ones (not Next.js's internals). */
const SHOWN = /^(http\.|url\.|server\.|error\.|graphql\.|estatekit\.|request)/;

/** The spans as an indented tree (roots: spans whose parent is not among them), for the log. */
export function spanTree(spans) {
  const ids = new Set(spans.map((s) => s.spanId));
  const lines = [];
  const walk = (span, depth) => {
    const attributes = Object.entries(span.attributes ?? {}).filter(([k]) => SHOWN.test(k));
    const shown = attributes.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
    const events = (span.events ?? []).map((e) => e.name);
    lines.push(
      `${"  ".repeat(depth)}- ${span.name} [${KIND_NAMES[span.kind] ?? span.kind}, ${span.scope}]` +
        `${shown ? ` ${shown}` : ""}${events.length ? ` events: ${events.join(", ")}` : ""}`,
    );
    for (const child of childrenOf(span, spans)) walk(child, depth + 1);
  };
  for (const root of spans.filter((s) => !ids.has(s.parentSpanId))) walk(root, 0);
  return lines.join("\n");
}
