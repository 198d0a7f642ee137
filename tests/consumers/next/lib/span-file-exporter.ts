// A span exporter that appends each finished span to a file as one JSON line (Node runtime
// only): what the test reads instead of a tracing backend. Only what the test checks is written.
import { appendFileSync } from "node:fs";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

export class SpanFileExporter implements SpanExporter {
  constructor(private readonly file: string) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const lines = spans.map((span) => {
      const { traceId, spanId } = span.spanContext();
      return `${JSON.stringify({
        traceId,
        spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        name: span.name,
        kind: span.kind,
        scope: span.instrumentationScope.name,
        attributes: span.attributes,
        status: span.status,
        events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      })}\n`;
    });
    try {
      appendFileSync(this.file, lines.join(""));
      done({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      done({ code: ExportResultCode.FAILED, error: error as Error });
    }
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
