// Type tests of the public API: every method's parameters and results, and @ts-expect-error
// lines that must fail to compile. Checked by `tsc --strict --noEmit` (make test-types); never run.
import init, {
  ApiError,
  Client,
  DOCUMENT_TYPES,
  EVENT_TYPES,
  initSync,
  isDocumentType,
  isEventType,
  isApiError,

  type ApiErrorKind,
  type CallOptions,
  type EnsureWebhookOptions,
  type ClientEvent,
  type ClientOptions,
  type DocumentRecord,
  type ListDocumentsOptions,
  type DocumentType,
  type EventType,
  type InitOutput,
  type ListDocumentsQuery,
  type Message,
  type MessageField,
  type SelectedMessage,
  type PagePromise,
  type SelectingMessagesOptions,
  type MessageFilter,
  type ListMessagesOptions,
  type MessagesOptions,
  type RegisterWebhookInput,
  type UploadDocumentInput,
  type UploadOptions,
  type Webhook,
} from "estatekit";

/** true when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;
function expect<T extends true>(): void {}
type Params<K extends keyof Client> = Client[K] extends (...args: infer P) => unknown ? P : never;
type Result<K extends keyof Client> = Client[K] extends (...args: never[]) => infer R ? Awaited<R> : never;

declare const blob: Blob;
const signal = new AbortController().signal;
const call: CallOptions = { signal, timeoutMs: 5000 };

// --- construction ---
const client = new Client({ baseUrl: "https://acme.example.com", token: "t", timeoutMs: 0 });
new Client({ baseUrl: "https://acme.example.com", getToken: (reason) => (reason === "initial" ? "a" : "b") });
new Client({ baseUrl: "https://acme.example.com", getToken: async () => "t" });
expect<Equal<ConstructorParameters<typeof Client>, [options: ClientOptions]>>();
// @ts-expect-error baseUrl is required
new Client({ token: "t" });
// @ts-expect-error timeoutMs is a number
new Client({ baseUrl: "https://acme.example.com", timeoutMs: "5" });
// @ts-expect-error getToken returns a token
new Client({ baseUrl: "https://acme.example.com", getToken: () => 5 });
// @ts-expect-error options are required
new Client();
// @ts-expect-error token or getToken, not both
new Client({ baseUrl: "https://acme.example.com", token: "t", getToken: async () => "t" });
// @ts-expect-error token or getToken: one of them
new Client({ baseUrl: "https://acme.example.com" });
new Client({ baseUrl: "https://acme.example.com", token: "t", getToken: undefined });
const options: ClientOptions = { baseUrl: "https://acme.example.com", getToken: async () => ({ token: "t", expiresAt: 0 }) };
new Client(options);
expect<Equal<typeof client.baseUrl, string>>();
// @ts-expect-error baseUrl is read-only
client.baseUrl = "https://other.example.com";

// --- the fetch option: anything shaped like fetch, taking the Request the client builds ---
const base = { baseUrl: "https://acme.example.com", token: "t" };
expect<Equal<NonNullable<ClientOptions["fetch"]>, (input: Request, init?: RequestInit) => Promise<Response>>>();
new Client({ ...base, fetch: globalThis.fetch });
new Client({ ...base, fetch });
new Client({ ...base, fetch: undefined });
new Client({ ...base, fetch: (input, init) => fetch(input, init) });
// An MSW-style handler: a Request in, a Response out.
new Client({ ...base, fetch: async (request: Request) => new Response(request.url) });
// A service binding's fetch (e.g. a Cloudflare Worker's `env.SERVICE.fetch`).
declare const service: { fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> };
new Client({ ...base, fetch: service.fetch });
// @ts-expect-error fetch is a function
new Client({ ...base, fetch: 42 });
// @ts-expect-error fetch is a function
new Client({ ...base, fetch: "x" });
// @ts-expect-error fetch resolves to a Response
new Client({ ...base, fetch: async () => "text" });
// @ts-expect-error fetch is given a Request, not a URL string
new Client({ ...base, fetch: (url: string) => fetch(url) });

// --- messages ---
// Without `fields`, every field but `user` (which only `userFields` selects).
type PlainMessages = typeof client.listMessages<readonly MessageField[], undefined>;
expect<Equal<Parameters<PlainMessages>, [filter: MessageFilter, options?: ListMessagesOptions<readonly MessageField[], undefined> | null]>>();
// GraphQL list elements are nullable: the service may send null for a message.
expect<Equal<Awaited<ReturnType<PlainMessages>>, (SelectedMessage | null)[]>>();
expect<Equal<ReturnType<PlainMessages>, PagePromise<SelectedMessage | null>>>();
expect<Equal<SelectedMessage, Pick<Message, MessageField>>>();
async function plainMessages(): Promise<void> {
  const plain = await client.listMessages({ candidateId: "c" }, { paging: { take: 5 } });
  expect<Equal<typeof plain, (SelectedMessage | null)[]>>();
}
client.listMessages({ candidateId: "cand-1" }, { fields: ["id", "text", "attachments"], userFields: ["email"] });
client.listMessages({ listingId: "l" }, { paging: { skip: 0, take: 10 }, sort: { fieldName: "id", direction: "DESC" }, ...call });
// @ts-expect-error listMessages needs a filter object
client.listMessages();
// @ts-expect-error the filter is an object, not an id
client.listMessages("cand-1");
// @ts-expect-error an empty filter: give candidateId, contactId or listingId
client.listMessages({});
// @ts-expect-error externalContactId alone is not enough
client.listMessages({ externalContactId: "x" });
client.listMessages({ contactId: "c", externalContactId: "x" });
// @ts-expect-error "body" is not a Message field
client.listMessages({ candidateId: "c" }, { fields: ["body"] });
// @ts-expect-error sort direction is ASC or DESC
client.listMessages({ candidateId: "c" }, { sort: { fieldName: "id", direction: "UP" } });
// @ts-expect-error take is a number
client.listMessages({ candidateId: "c" }, { paging: { take: "10" } });
async function readMessage(): Promise<void> {
  const [m] = await client.listMessages({ candidateId: "c" });
  if (!m) return;
  const sentBy: string | null | undefined = m.sentBy;
  expect<Equal<Message["sentBy"], "ADMIN" | "CANDIDATE" | (string & {}) | null | undefined>>();
  const size: number | null | undefined = m.attachments?.[0]?.size;
  void sentBy;
  void size;
  // @ts-expect-error text may be missing
  m.text.length;
}

// --- documents ---
expect<Equal<Params<"uploadDocument">, [input: UploadDocumentInput, options?: UploadOptions | null]>>();
expect<Equal<Result<"uploadDocument">, DocumentRecord>>();
client.uploadDocument(
  { file: blob, resourcePath: "tenants/t-1", metadata: { type: "PRE-MOVE_IN", tenantId: "t-1" }, name: "a.pdf", format: "PNG" },
  { signal, onProgress: ({ loaded, total }) => console.log(loaded / total) },
);
// @ts-expect-error resourcePath is required
client.uploadDocument({ file: blob });
// @ts-expect-error the file is a Blob
client.uploadDocument({ file: "a.pdf", resourcePath: "p" });
// @ts-expect-error "INVOICE" is not a document type
client.uploadDocument({ file: blob, resourcePath: "p", metadata: { type: "INVOICE" } });
// @ts-expect-error images convert to JPEG or PNG only
client.uploadDocument({ file: blob, resourcePath: "p", format: "GIF" });
// @ts-expect-error onProgress gets one { loaded, total } object
client.uploadDocument({ file: blob, resourcePath: "p" }, { onProgress: (loaded: number, total: number) => loaded + total });

expect<Equal<Params<"listDocuments">, [query?: ListDocumentsQuery | null, options?: ListDocumentsOptions | null]>>();
expect<Equal<Result<"listDocuments">, DocumentRecord[]>>();
expect<Equal<ReturnType<Client["listDocuments"]>, PagePromise<DocumentRecord>>>();
client.listDocuments();
client.listDocuments({ propertyId: "p", types: ["CONTRACT", "MOVE_OUT"], title: "lease", skip: 0, take: 50 }, call);
// @ts-expect-error "INVOICE" is not a document type
client.listDocuments({ types: ["INVOICE"] });
// @ts-expect-error timeoutMs is a number
client.listDocuments({}, { timeoutMs: "5" });
// A PagePromise is a Promise: accepted wherever one is expected, and still async-iterable.
const asPromise: Promise<DocumentRecord[]> = client.listDocuments({ propertyId: "p" });
async function pageOf(): Promise<DocumentRecord[]> {
  return client.listDocuments({ propertyId: "p" });
}
const both: Promise<[DocumentRecord[], (SelectedMessage | null)[]]> = Promise.all([
  client.listDocuments(),
  client.listMessages({ candidateId: "c" }),
]);
const iterable: AsyncIterable<DocumentRecord> = client.listDocuments();
void [asPromise, pageOf, both, iterable];
// The records' fields the service sends, declared (optional).
async function recordFields(): Promise<void> {
  const [doc] = await client.listDocuments();
  const fields: [string | null | undefined, string | null | undefined, string | null | undefined, string | null | undefined] = [
    doc.createdAt,
    doc.updatedAt,
    doc.mimeType,
    doc.candidateId,
  ];
  void fields;
}
void recordFields;

expect<Equal<Params<"getDocument">, [documentId: string, options?: CallOptions | null]>>();
expect<Equal<Result<"getDocument">, DocumentRecord>>();
expect<Equal<Params<"deleteDocument">, [documentId: string, options?: CallOptions | null]>>();
expect<Equal<Result<"deleteDocument">, void>>();
// @ts-expect-error document ids are strings
client.getDocument(42);
async function readDocument(): Promise<void> {
  const doc = await client.getDocument("d-1", call);
  const id: string = doc.id;
  const type: DocumentType | (string & {}) | null | undefined = doc.type;
  const extra: unknown = doc.size;
  void [id, type, extra];
  // Records are the browser's parsed JSON: an optional field may be absent or null.
  expect<Equal<DocumentRecord["propertyId"], string | null | undefined>>();
  const fromService: DocumentRecord = { id: "d", title: null, propertyGroupId: null, size: 12 };
  void fromService;
  // @ts-expect-error the id is never null
  const noId: DocumentRecord = { id: null };
  void noId;
}

// --- webhooks ---
expect<Equal<Params<"listWebhooks">, [options?: CallOptions | null]>>();
expect<Equal<Result<"listWebhooks">, Webhook[]>>();
expect<Equal<Params<"registerWebhook">, [input: RegisterWebhookInput, options?: CallOptions | null]>>();
expect<Equal<Result<"registerWebhook">, string>>();
expect<Equal<Params<"ensureWebhook">, [input: RegisterWebhookInput, options?: EnsureWebhookOptions | null]>>();
expect<Equal<Result<"ensureWebhook">, string>>();
expect<Equal<Params<"deleteWebhook">, [id: string, options?: CallOptions | null]>>();
expect<Equal<Result<"deleteWebhook">, void>>();
client.registerWebhook({ type: "LISTING_CANDIDATE_APPLIED", url: "https://hooks.example.com/a" });
client.ensureWebhook({ type: EVENT_TYPES[0]!, url: "https://hooks.example.com/a" }, call);
// @ts-expect-error "UNIT_EXPLODED" is not an event type
client.registerWebhook({ type: "UNIT_EXPLODED", url: "https://hooks.example.com/a" });
// @ts-expect-error url is required
client.ensureWebhook({ type: "UNIT_CREATED" });
// @ts-expect-error timeoutMs is a number
client.listWebhooks({ timeoutMs: "5" });
// @ts-expect-error signal is an AbortSignal
client.deleteWebhook("w-1", { signal: true });
async function readWebhooks(): Promise<void> {
  const [hook] = await client.listWebhooks();
  if (hook) {
    const type: EventType | (string & {}) = hook.type;
    void type;
  }
  expect<Equal<Webhook["deletedAt"], string | null | undefined>>();
  const active: Webhook = { id: "w", type: "UNIT_CREATED", url: "https://h", deletedAt: null, partnerId: null };
  void active;
}

// --- pagination ---
// The iterators of old are gone: one name per operation.
// @ts-expect-error documents() is listDocuments(), iterated
client.documents;
// @ts-expect-error messagesAll() is listMessages(), iterated
client.messagesAll;
// @ts-expect-error messages() is listMessages()
client.messages;
const allOptions: ListMessagesOptions = { pageSize: 5, fields: ["id"] };
client.listMessages({ candidateId: "c" }, allOptions);
async function paginate(): Promise<void> {
  for await (const doc of client.listDocuments({ propertyId: "p", types: ["SELLING"] }, { pageSize: 50, limit: 200, signal })) {
    expect<Equal<typeof doc, DocumentRecord>>();
  }
  for await (const message of client.listMessages({ candidateId: "c" }, { pageSize: 20, fields: ["id"], sort: { fieldName: "id" } })) {
    expect<Equal<typeof message, Pick<Message, "id"> | null>>();
    // @ts-expect-error only `id` was selected
    message?.text;
  }
  const it = client.listDocuments()[Symbol.asyncIterator]();
  const first = await it.next();
  if (!first.done) expect<Equal<typeof first.value, DocumentRecord>>();
  await it.return?.();
  // Awaited, the same call is one request's array.
  const page = await client.listDocuments({ take: 5 });
  expect<Equal<typeof page, DocumentRecord[]>>();
}
// @ts-expect-error pageSize is a number
client.listDocuments({}, { pageSize: "10" });
// @ts-expect-error limit is a number
client.listMessages({ candidateId: "c" }, { limit: "10" });
// @ts-expect-error listMessages needs a filter object
client.listMessages();
// @ts-expect-error "body" is not a Message field
client.listMessages({ candidateId: "c" }, { fields: ["body"] });

// --- request events ---
new Client({
  baseUrl: "https://acme.example.com",
  token: "t",
  onEvent: (event) => {
    expect<Equal<typeof event, ClientEvent>>();
    switch (event.type) {
      case "request":
        expect<Equal<typeof event.method, "GET" | "POST" | "DELETE">>();
        expect<Equal<typeof event.path, string>>();
        break;
      case "response": {
        const status: number = event.status;
        const duration: number = event.durationMs;
        const requestId: string | undefined = event.requestId;
        const remaining: number | undefined = event.rateLimit?.remaining;
        void [status, duration, requestId, remaining];
        break;
      }
      case "retry":
        expect<Equal<typeof event.kind, ApiErrorKind>>();
        break;
      case "rateWait": {
        const delay: number = event.delayMs;
        void delay;
        // @ts-expect-error a wait for the rate budget is before an attempt: no status
        event.status;
        break;
      }
      case "error":
        expect<Equal<typeof event.status, number | undefined>>();
        break;
      case "done":
        // @ts-expect-error a finished call has no status of its own
        event.status;
        break;
    }
    expect<Equal<typeof event.operation, "listMessages" | "uploadDocument" | "listDocuments" | "getDocument" | "deleteDocument" | "listWebhooks" | "registerWebhook" | "ensureWebhook" | "deleteWebhook">>();
    const callId: number = event.callId;
    void callId;
  },
});
client.listWebhooks({ onEvent: (event) => console.log(event.type, event.callId) });
// @ts-expect-error onEvent gets one event object
client.listWebhooks({ onEvent: (type: string, id: number) => type + id });

// --- errors ---
function handle(e: unknown): ApiErrorKind | undefined {
  if (isApiError(e)) {
    expect<Equal<typeof e, ApiError>>();
    const status: number | undefined = e.status;
    const attempts: number = e.attempts;
    void [status, attempts];
    expect<Equal<IsAny<typeof e.details>, false>>();
    return e.kind;
  }
  // @ts-expect-error kind exists only on an ApiError
  return e.kind;
}
void handle;
// @ts-expect-error not a kind
const kind: ApiErrorKind = "crashed";
void kind;

// --- initialisation, constants, free ---
expect<Equal<Awaited<ReturnType<typeof init>>, InitOutput>>();
expect<Equal<ReturnType<typeof initSync>, InitOutput>>();
// the module's raw exports (typed with `any` by wasm-bindgen) stay hidden
expect<Equal<keyof InitOutput, "memory">>();
init();
init({ module_or_path: "/assets/estatekit_wasm_bg.wasm" });
init({ module_or_path: new URL("https://cdn.example.com/estatekit_wasm_bg.wasm") });
init({ module_or_path: fetch("/estatekit_wasm_bg.wasm") });
declare const bytes: ArrayBuffer;
initSync({ module: bytes });
expect<Equal<typeof EVENT_TYPES, readonly EventType[]>>();
expect<Equal<typeof DOCUMENT_TYPES, readonly DocumentType[]>>();
// @ts-expect-error the constants are read-only
EVENT_TYPES.push("UNIT_CREATED");
expect<Equal<ReturnType<Client["free"]>, void>>();
client.free();
{
  using scoped = new Client({ baseUrl: "https://acme.example.com", token: "t" });
  void scoped.listWebhooks();
}

// --- issue 34: readonly arrays, selected fields, guards ---
const FIELDS = ["id", "text"] as const;
const TYPES: readonly DocumentType[] = DOCUMENT_TYPES;
client.listDocuments({ types: DOCUMENT_TYPES });
client.listDocuments({ types: TYPES });
client.listDocuments({ types: ["CONTRACT", "MOVE_IN"] as const });
client.listMessages({ candidateId: "c" }, { fields: FIELDS, userFields: ["email"] as const });
async function selected(): Promise<void> {
  const [m] = await client.listMessages({ candidateId: "c" }, { fields: FIELDS });
  expect<Equal<typeof m, Pick<Message, "id" | "text"> | null>>();
  const text: string | null | undefined = m?.text;
  // @ts-expect-error `sentBy` was not selected
  m?.sentBy;
  // @ts-expect-error `user` needs userFields
  m?.user;
  // @ts-expect-error still nullable, as the interface says
  m?.text.length;
  const [literal] = await client.listMessages({ candidateId: "c" }, { fields: ["isRead"] });
  const read: boolean | null | undefined = literal?.isRead;
  // @ts-expect-error only isRead was selected
  literal?.id;
  const [withUser] = await client.listMessages({ candidateId: "c" }, { fields: ["id"], userFields: ["email", "name"] });
  const email: unknown = withUser?.user?.email;
  // @ts-expect-error "phone" was not selected
  withUser?.user?.phone;
  for await (const page of client.listMessages({ candidateId: "c" }, { fields: ["id", "sentBy"] })) {
    const by: string | null | undefined = page?.sentBy;
    // @ts-expect-error text was not selected
    page?.text;
    void by;
  }
  void [text, read, email];
}
declare const picked: string;
if (isEventType(picked)) {
  const type: EventType = picked;
  void type;
}
if (isDocumentType(picked)) {
  const type: DocumentType = picked;
  void type;
}
// @ts-expect-error a string is not an EventType without the guard
const unguarded: EventType = picked;
// @ts-expect-error the guards take one value
isEventType();
// @ts-expect-error "WRONG" is not a field even in a readonly array
client.listMessages({ candidateId: "c" }, { fields: ["WRONG"] as const });

void [readMessage, readDocument, readWebhooks, paginate, selected, unguarded, plainMessages];

// --- ApiError: a class, a union narrowed by kind ---
async function narrowing(): Promise<void> {
  try {
    await client.getDocument("d");
  } catch (e) {
    if (e instanceof ApiError && e.kind === "not_found") {
      const status: number = e.status; // no `!`: a kind that comes with an answer has a status
      const id: string | undefined = e.requestId;
      void [status, id];
    }
    if (isApiError(e)) {
      // @ts-expect-error not every kind has a status
      e.status.toFixed();
      switch (e.kind) {
        case "rate_limited": {
          const wait: number | undefined = e.retryAfterMs;
          void wait;
          break;
        }
        case "graphql":
          void e.data;
          break;
        case "network":
          expect<Equal<typeof e.status, undefined>>();
          break;
        default:
          break;
      }
    }
  }
}
void narrowing;
const double = new ApiError({ kind: "not_found", status: 404, message: "no such document" });
expect<Equal<typeof double.status, number>>();
// @ts-expect-error a kind that comes with an answer needs its status
new ApiError({ kind: "not_found" });
const revived: ApiError = ApiError.fromJSON(JSON.parse(JSON.stringify(double)));
void revived;
