// The portal's OpenTelemetry set-up, as Next.js runs it once per server process before the first
// request: @vercel/otel's SDK (Next.js's own spans, its fetch instrumentation, the W3C
// propagator) with its trace exporter. Here the exporter writes every finished span to the file
// named by ESTATEKIT_OTEL_SPANS_FILE, one JSON line each (tests/consumers/next.test.mjs reads it);
// a real portal passes an OTLP exporter or none (@vercel/otel then reads OTEL_EXPORTER_OTLP_*).
// Without the variable nothing is registered: the servers of next-auth.mjs run untraced.
export async function register() {
  const file = process.env.ESTATEKIT_OTEL_SPANS_FILE;
  if (!file || process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerOTel } = await import("@vercel/otel");
  const { SpanFileExporter } = await import("./lib/span-file-exporter");
  registerOTel({ serviceName: "estatekit-consumer-next", traceExporter: new SpanFileExporter(file) });
}
