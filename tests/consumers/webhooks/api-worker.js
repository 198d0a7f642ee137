// A Cloudflare Worker calling the service, as a portal's backend writes it: `estatekit` and
// `estatekit/auth` resolved with the conditions wrangler uses (workerd, worker, browser), the
// client secret in a binding (env.CLIENT_SECRET), the token provider and the client made once per
// isolate and kept across requests. tests/consumers/workers.test.mjs bundles it as wrangler does
// (esbuild, one file, .wasm imports kept as modules) and runs it in workerd against the native
// emulator (env.BASE_URL) and, for estatekit/testing, against the emulator in the Worker itself.
//   POST /calls (a multipart form with a `file`): a token, then register, upload, list, list
//   GET /token: the provider's token again (the cached one: no second sign-in)
//   GET /errors: a refused sign-in, its ApiError seen by both entries' ApiError
//   POST /in-process (a multipart form with a `file`): the same calls against estatekit/testing
//   GET /otel: listWebhooks through Clients instrumented by estatekit/otel, with the API's no-op
//     providers (none is registered in a Worker) and with the SDK's BasicTracerProvider, its
//     finished spans in the answer
// No answer carries a token: only its length and expiry.
import { ApiError, Client, isApiError } from "estatekit";
import { ApiError as AuthApiError, createTokenProvider, passwordGrant } from "estatekit/auth";
import { createMemoryStore } from "estatekit/store";
import { createTestService } from "estatekit/testing";
import { instrument } from "estatekit/otel";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

/** @typedef {{ BASE_URL: string, CLIENT_ID: string, CLIENT_SECRET: string, USERNAME: string, PASSWORD: string }} Env */

/** The isolate's provider and client (made on the first request, which brings `env`). */
let made;

/** @param {Env} env */
function backend(env) {
  made ??= (() => {
    const tokens = createTokenProvider({
      baseUrl: env.BASE_URL,
      clientId: env.CLIENT_ID,
      clientSecret: env.CLIENT_SECRET,
      username: env.USERNAME,
      password: env.PASSWORD,
      store: createMemoryStore(),
    });
    return { tokens, client: new Client({ baseUrl: env.BASE_URL, getToken: tokens.getToken }) };
  })();
  return made;
}

/** What a token is, without the token. */
const described = ({ token, expiresAt }) => ({ type: typeof token, length: token.length, expiresAt });

/** The uploaded file of a multipart request, as a browser's form sends it. */
async function formFile(request) {
  const file = (await request.formData()).get("file");
  if (!(file instanceof Blob)) throw new Error("no file in the form");
  return file;
}

/**
 * Register, upload, list documents and list webhooks with `client`; the upload is `file`.
 * @param {Client} client
 * @param {Blob} file
 * @param {string} tag
 */
async function calls(client, file, tag) {
  const webhookId = await client.registerWebhook({ type: "UNIT_CREATED", url: `https://portal.example.com/hooks/${tag}` });
  const uploaded = await client.uploadDocument({ file, resourcePath: `tenants/${tag}`, name: `${tag}.txt` });
  const documents = await client.listDocuments();
  const webhooks = await client.listWebhooks();
  return {
    webhookId,
    uploaded: { id: uploaded.id, title: uploaded.title, resourcePath: uploaded.resourcePath },
    documents: documents.map((d) => ({ id: d.id, title: d.title })),
    webhooks: webhooks.map((w) => ({ id: w.id, type: w.type, url: w.url })),
  };
}

export default {
  /**
   * @param {Request} request
   * @param {Env} env
   */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === "/calls") {
        const { tokens, client } = backend(env);
        const token = described(await tokens.getToken());
        return Response.json({ token, ...(await calls(client, await formFile(request), "worker")) });
      }
      if (pathname === "/otel") {
        const plain = new Client({ baseUrl: env.BASE_URL, token: "dev-token" });
        const untraced = instrument(plain);
        const noop = (await untraced.listWebhooks()).map((w) => w.id);
        const exporter = new InMemorySpanExporter();
        const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
        const traced = instrument(new Client({ baseUrl: env.BASE_URL, token: "dev-token" }), { tracerProvider });
        const listed = (await traced.listWebhooks()).map((w) => w.id);
        const spans = exporter.getFinishedSpans().map((s) => ({
          name: s.name,
          kind: s.kind,
          spanId: s.spanContext().spanId,
          parentSpanId: s.parentSpanContext?.spanId,
          attributes: s.attributes,
        }));
        return Response.json({ sameClient: untraced === plain, noop, listed, spans });
      }
      if (pathname === "/token") return Response.json(described(await backend(env).tokens.getToken()));
      if (pathname === "/errors") {
        const options = { baseUrl: env.BASE_URL, clientId: env.CLIENT_ID, clientSecret: env.CLIENT_SECRET };
        const error = await passwordGrant(options, { username: env.USERNAME, password: "not-the-password" }).catch((e) => e);
        return Response.json({
          name: error.name,
          kind: error.kind,
          isApiError: isApiError(error),
          instanceOfApiError: error instanceof ApiError,
          instanceOfAuthApiError: error instanceof AuthApiError,
          sameApiError: ApiError === AuthApiError,
          mentionsSecret: String(error.message).includes(env.CLIENT_SECRET),
        });
      }
      if (pathname === "/in-process") {
        const file = await formFile(request);
        const service = await createTestService();
        try {
          const client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
          const result = await calls(client, file, "in-process");
          const stored = await (await service.fetch(`${service.baseUrl}/api/file-storage/company/documents/${result.uploaded.id}`, {
            headers: { authorization: `Bearer ${service.token}` },
          })).text();
          client.free();
          return Response.json({ ...result, stored });
        } finally {
          service.close();
        }
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      // What the test prints when a call fails: the error as estatekit made it.
      return Response.json({ error: { name: e?.name, kind: e?.kind, message: String(e?.message ?? e) } }, { status: 500 });
    }
  },
};
