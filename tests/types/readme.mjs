// Type-checks every ```ts example of README.md and of the docs its detail moved to against the built declarations, as the type tests
// do (tests/types/tsconfig.json: `estatekit` resolves to pkg/estatekit.d.ts), with the pinned
// TypeScript and `--strict --noEmit`. Each example becomes its own module,
// target/readme-types/example-NN.ts; the few names the examples use without declaring them
// (the client of "First call", an access token, a file, ...) are declared, with their types, in
// target/readme-types/globals.d.ts from GLOBALS below; `estatekit/testing` resolves to
// pkg/testing.d.ts, the testing recipe's app module to tests/consumers/vitest/src/, `vitest` to
// the VITEST declarations below, `@tanstack/react-query` to TANSTACK, and the OpenTelemetry
// packages the root does not install to OTEL_SETUPS. Errors are reported at their README line.
// Usage: node tests/types/readme.mjs    (make test-readme; needs `make pkg`)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** The Markdown files whose examples are checked: the README and the pages its detail moved to. */
const SOURCES = ["README.md", "docs/options.md", "docs/runtimes.md", "docs/webhooks.md", "docs/auth.md", "docs/testing.md", "docs/scaling.md", "docs/errors.md", "docs/compatibility.md", "docs/observability.md", "js/README.md"];
const out = `${root}target/readme-types/`;
const tsc = `${root}node_modules/typescript/bin/tsc`;

/** What the examples use without declaring it: what an app would have at hand. */
const GLOBALS = `import type { Client } from "estatekit";
declare global {
  /** The client of the README's "First call". */
  const client: Client;
  const accessToken: string;
  const file: File;
  const tenantId: string;
  const propertyId: string;
  const progressBar: HTMLProgressElement;
  /** A delivery, and the app's own functions that the webhook examples (docs/webhooks.md) call. */
  const request: Request;
  function notifyAgent(email: string, unitName: string): Promise<void>;
  function markSigned(contractId: string): Promise<void>;
  function forgetUnit(data: unknown): Promise<void>;
  function reindex(uuid: string): void;
  /** A PostgreSQL pool (node-postgres) and an ioredis connection, as far as the idempotency examples of docs/webhooks.md use them. */
  const pool: { connect(): Promise<{ query(text: string, values?: unknown[]): Promise<{ rowCount: number | null }>; release(): void }> };
  const redis: { eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown> };
  /** A server's environment (docs/auth.md, docs/scaling.md; no @types/node here). */
  const process: { env: Record<string, string | undefined> };
}
`;

/** node:http as far as the adapter example of docs/webhooks.md uses it (no @types/node here). */
const NODE_HTTP = `declare module "node:http" {
  export function createServer(listener: (req: never, res: never) => void): { listen(port: number): void };
}
`;

/**
 * node-redis and ioredis, as far as the Redis wiring of docs/scaling.md uses them (both clients are installed in tests/consumers/redis/ only, by make test-consumers).
 */
const REDIS = `declare module "redis" {
  export function createClient(options?: { url?: string }): {
    on(event: "error", listener: (error: Error) => void): unknown;
    connect(): Promise<unknown>;
    sendCommand(args: string[]): Promise<unknown>;
  };
}
declare module "ioredis" {
  export class Redis {
    constructor(url?: string);
    call(command: string, ...args: (string | number)[]): Promise<unknown>;
  }
}
`;

/**
 * BullMQ, as far as the queued mode of docs/webhooks.md uses it (bullmq itself is installed in
 * tests/consumers/queue/ only, by make test-consumers, which runs the same wiring for real).
 */
const BULLMQ = `declare module "bullmq" {
  type Connection = { host?: string; port?: number };
  type KeepJobs = boolean | number | { age?: number; count?: number };
  type JobsOptions = { attempts?: number; backoff?: { type: "fixed" | "exponential"; delay?: number }; removeOnComplete?: KeepJobs; removeOnFail?: KeepJobs; jobId?: string };
  export class Job {
    id?: string;
    name: string;
    data: unknown;
    attemptsMade: number;
    timestamp: number;
    processedOn?: number;
    failedReason: string;
  }
  export class Queue {
    constructor(name: string, options: { connection: Connection; defaultJobOptions?: JobsOptions });
    add(name: string, data: unknown, options?: JobsOptions): Promise<Job>;
  }
  export class Worker {
    constructor(name: string, processor: (job: Job, token?: string) => Promise<unknown>, options: { connection: Connection; concurrency?: number; lockDuration?: number; stalledInterval?: number });
    on(event: "failed", listener: (job: Job | undefined, error: Error) => void): this;
  }
}
`;

/**
 * vitest, which the testing recipe imports, as far as the recipe uses it (vitest itself is
 * installed in tests/consumers/vitest/ only, by make test-consumers, which runs later).
 */
const VITEST = `declare module "vitest" {
  type Hook = () => unknown;
  export function test(name: string, fn: () => Promise<void> | void): void;
  export function beforeEach(fn: Hook): void;
  export function afterEach(fn: Hook): void;
  export function expect<T>(actual: T): {
    toBe(expected: T): void;
    toEqual(expected: unknown): void;
    toHaveLength(length: number): void;
    toMatchObject(expected: object): void;
  };
  export const vi: { fn(): (...args: unknown[]) => unknown };
}
`;

/**
 * TanStack Query for React, as far as the README's `estatekit/query` example uses it (the real
 * one is checked against the factories in tests/consumers/query/, by make test-consumers).
 */
const TANSTACK = `declare module "@tanstack/react-query" {
  export function useQuery<T>(options: {
    queryKey: readonly unknown[];
    queryFn: (context: { signal: AbortSignal }) => Promise<T>;
  }): { data: T | undefined; error: Error | null };
}
`;

/**
 * The OpenTelemetry set-ups of docs/observability.md, as far as they use the packages the
 * repository does not install (@vercel/otel and @opentelemetry/sdk-trace-web are installed in
 * tests/consumers/next and tests/consumers/otel-web, by make test-consumers; the Node SDK and the
 * metrics exporter nowhere). The SDK's trace and metrics packages are the real ones, from the
 * root's devDependencies; so is the trace exporter, whose declarations need Node's (@types/node,
 * which the checks leave out): the examples get OTEL_TRACE_EXPORTER instead (the tsconfig's
 * `paths`).
 */
const OTEL_SETUPS = `declare module "@vercel/otel" {
  export function registerOTel(configuration?: { serviceName?: string; traceExporter?: import("@opentelemetry/sdk-trace-base").SpanExporter }): void;
}
declare module "@opentelemetry/sdk-node" {
  export class NodeSDK {
    constructor(configuration?: {
      serviceName?: string;
      traceExporter?: import("@opentelemetry/sdk-trace-base").SpanExporter;
      metricReader?: import("@opentelemetry/sdk-metrics").MetricReader;
    });
    start(): void;
  }
}
declare module "@opentelemetry/exporter-metrics-otlp-http" {
  type PushMetricExporter = import("@opentelemetry/sdk-metrics").PushMetricExporter;
  export class OTLPMetricExporter implements PushMetricExporter {
    constructor(configuration?: { url?: string });
    export: PushMetricExporter["export"];
    forceFlush(): Promise<void>;
    shutdown(): Promise<void>;
  }
}
declare module "@opentelemetry/sdk-trace-web" {
  export class WebTracerProvider {
    constructor(configuration?: { spanProcessors?: import("@opentelemetry/sdk-trace-base").SpanProcessor[] });
    register(): void;
  }
}
`;

/** @opentelemetry/exporter-trace-otlp-http as far as docs/observability.md uses it. */
const OTEL_TRACE_EXPORTER = `import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
export declare class OTLPTraceExporter implements SpanExporter {
  constructor(configuration?: { url?: string; headers?: Record<string, string> });
  export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter["export"]>[1]): void;
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}
`;

/** The ```ts blocks of `text`: their code and the README line of their first code line. */
export function examples(text) {
  const lines = text.split("\n");
  const found = [];
  let open = null;
  lines.forEach((line, i) => {
    if (open === null) {
      const m = /^(`{3,}|~{3,})\s*(\S*)/.exec(line);
      if (m) open = { fence: m[1], ts: m[2] === "ts", start: i + 2, code: [] };
    } else if (line.startsWith(open.fence) && line.trim() === open.fence) {
      if (open.ts) found.push({ line: open.start, code: open.code.join("\n") });
      open = null;
    } else {
      open.code.push(line);
    }
  });
  if (open !== null) throw new Error(`README.md: a code block opened on line ${open.start - 1} is never closed`);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, what] of [
    [`${root}pkg/estatekit.d.ts`, "run `make pkg` first"],
    [tsc, "run `npm ci` first"],
  ]) {
    if (!existsSync(path)) {
      console.error(`readme: ${path} is missing: ${what}`);
      process.exit(2);
    }
  }
  const blocks = SOURCES.flatMap((file) => examples(readFileSync(`${root}${file}`, "utf8")).map((b) => ({ ...b, file })));
  if (blocks.length === 0) {
    console.error("readme: README.md has no ```ts example: nothing to check");
    process.exit(1);
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const name = (i) => `example-${String(i + 1).padStart(2, "0")}.ts`;
  // `export {}` last, so that every example is a module and line N of its file is its line N.
  blocks.forEach((b, i) => writeFileSync(`${out}${name(i)}`, `${b.code}\nexport {};\n`));
  writeFileSync(`${out}globals.d.ts`, GLOBALS);
  writeFileSync(`${out}vitest.d.ts`, VITEST);
  writeFileSync(`${out}node-http.d.ts`, NODE_HTTP);
  writeFileSync(`${out}redis.d.ts`, REDIS);
  writeFileSync(`${out}bullmq.d.ts`, BULLMQ);
  writeFileSync(`${out}tanstack.d.ts`, TANSTACK);
  writeFileSync(`${out}otel-setups.d.ts`, OTEL_SETUPS);
  mkdirSync(`${out}stubs`, { recursive: true });
  writeFileSync(`${out}stubs/otel-trace-exporter.d.ts`, OTEL_TRACE_EXPORTER);
  // The base config's `paths` (JSON with comments), with the stub added: `paths` of an extending
  // config replaces the base's (both files are two levels under the root, so the paths hold).
  const base = JSON.parse(readFileSync(`${root}tests/types/tsconfig.json`, "utf8").replace(/^\s*\/\/.*$/gm, ""));
  writeFileSync(
    `${out}tsconfig.json`,
    JSON.stringify(
      {
        extends: "../../tests/types/tsconfig.json",
        // The testing recipe's `../src/tenant-docs.js` is the vitest consumer's app module:
        // target/ stands for tests/consumers/vitest/ (target/readme-types/ for its test/).
        compilerOptions: {
          rootDirs: ["..", "../../tests/consumers/vitest"],
          paths: { ...base.compilerOptions.paths, "@opentelemetry/exporter-trace-otlp-http": ["./stubs/otel-trace-exporter.d.ts"] },
        },
        include: ["*.ts", "stubs/*.ts"],
        exclude: [],
      },
      null,
      2,
    ),
  );
  const run = spawnSync(process.execPath, [tsc, "-p", `${out}tsconfig.json`, "--strict", "--noEmit", "--pretty", "false"], {
    encoding: "utf8",
  });
  const report = `${run.stdout}${run.stderr}`;
  // "target/readme-types/example-03.ts(5,7): error TS2345: ..." -> "README.md:68:7: error TS2345: ..."
  const located = report.replace(
    /^.*example-(\d+)\.ts\((\d+),(\d+)\): /gm,
    (_, n, line, col) => `${blocks[Number(n) - 1].file}:${blocks[Number(n) - 1].line + Number(line) - 1}:${col}: `,
  );
  if (located.trim()) console.log(located.trimEnd());
  const failed = run.status !== 0 ? 1 : 0;
  console.log(
    `readme: ${failed ? "FAILED" : "ok"}: ${blocks.length} TypeScript examples of ${SOURCES.join(", ")}, tsc --strict --noEmit against pkg/`,
  );
  process.exitCode = failed;
}
