//! The operation table: every operation of the client (a `Client` method, `ClientEvent.operation`)
//! and every token grant of `estatekit/auth`, each written once, as one row: the method's doc, its
//! JavaScript name (the `Operation` variant's serde name), its Rust variant, the Rust name of its
//! method and of its behaviour (`method`: estatekit-web's `does::<method>`, the contract test's
//! `sends::<method>`; a plain row names its answer's `check` instead, estatekit-web's
//! `results::<check>`, and its behaviour and requests are made from the row: see
//! [`Operation::plain`]), its phrase in messages ("list webhooks"), the method's parameters as its
//! declaration shows them (`[documentId: string, options?: CallOptions]`, the options last), what
//! it returns (`Promise<DocumentRecord>`), the fields of its request (name on the wire, TypeScript type, where it
//! goes: path, query, JSON body or form, and whether it may be left out), whether it reads a page
//! of a list, the requests it may send (HTTP method and path template, the OpenTelemetry HTTP
//! conventions' `url.template`, with the GraphQL operation's type and name where the request is
//! one; the first is its own), how it may be sent again after a failure ([`Resend`], what
//! `retryable` follows), and what a caller should do when its outcome is unknown. Made from it:
//! the `Operation` enum and its TypeScript union (tsify), the phrases, each request's method, URL
//! and retry class (estatekit-core's request builders: `HttpRequest::to` fills the row's own
//! template, no path is written there), the emulator's routes (emulator/src/routes.rs),
//! `estatekit/otel`'s `otel_routes.js` (the `otel-routes-js` binary), the `Client` class's wasm
//! methods and their declarations (estatekit-web's `client_methods!`, through
//! [`operation_table!`](crate::operation_table): each method's doc, `js_name`, Rust name,
//! parameters and declared answer are its row's, and so is a plain row's body), `estatekit/query`'s
//! factories and their declarations (src/query.rs, the `query-js` binary: their parameters and
//! answer are the row's), the docs' operation list ([`markdown`]), and the contract test's
//! dispatch (core/tests/operations.rs, through `operation_table!`: each operation's requests,
//! built from sample arguments of its row's parameters, against the templates).

#[cfg(feature = "ts")]
use tsify::Tsify;

/// How a request may be sent again after it failed: the table's `resend` column, which
/// estatekit-core's `retryable` rule and the retry loop follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resend {
    /// The same request again has the same effect (reads, deletes, a refresh grant).
    Idempotent,
    /// It may have acted (a registration, an upload, a password grant): sent again only when the
    /// service answered that it did not act.
    NotIdempotent,
    /// Single-use (an authorization code): never sent twice.
    Never,
}

/// One request an operation may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The HTTP method (`GET`, `POST`, `DELETE`).
    pub method: &'static str,
    /// The path's template, from the base URL's path: `{name}` stands for one segment.
    pub template: &'static str,
    /// The GraphQL operation's type and name (`query`, `Messages`), when the request is one.
    pub graphql: Option<(&'static str, &'static str)>,
}

impl Route {
    /// Its path with each `{name}` segment replaced, in order, by one of `segments` (each already
    /// encoded as one segment); a segment left without a value stays as written.
    pub fn path(&self, segments: &[&str]) -> String {
        let mut values = segments.iter();
        let mut out = String::with_capacity(self.template.len());
        for (i, segment) in self.template.split('/').enumerate() {
            if i > 0 {
                out.push('/');
            }
            let value = match segment.starts_with('{') {
                true => values.next(),
                false => None,
            };
            match value {
                Some(value) => out.push_str(value),
                None => out.push_str(segment),
            }
        }
        out
    }
}

/// A template's text before its `{name}` segment, and after it when it has one (the table's
/// templates have at most one): what a request's path is made of, computed at compile time.
const fn split(template: &'static str) -> (&'static str, Option<&'static str>) {
    let bytes = template.as_bytes();
    let mut head = 0;
    let mut rest: &[u8] = bytes;
    while let [first, tail @ ..] = rest {
        if *first == b'{' {
            break;
        }
        head += 1;
        rest = tail;
    }
    if rest.is_empty() {
        return (template, None);
    }
    let mut after = rest;
    while let [first, tail @ ..] = after {
        after = tail;
        if *first == b'}' {
            break;
        }
    }
    let (before, _) = bytes.split_at(head);
    match (core::str::from_utf8(before), core::str::from_utf8(after)) {
        (Ok(before), Ok(after)) => (before, Some(after)),
        _ => (template, None),
    }
}

/// Where a request field goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// A `{name}` segment of the route's template.
    Path,
    /// A query-string parameter (an array: its key repeated).
    Query,
    /// A key of the JSON body (the messages query's GraphQL variables, a registration).
    Body,
    /// A part of the `multipart/form-data` body.
    Form,
}

/// One field of an operation's request: its name on the wire, its type as TypeScript shows it
/// (a type of the main entry's declarations), where it goes, and whether it may be left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The name on the wire (a template's `{name}`, a query key, a JSON key, a form part).
    pub name: &'static str,
    /// Its TypeScript type (`string`, `DocumentType[]`).
    pub ts: &'static str,
    /// Where it goes.
    pub at: At,
    /// Whether it may be left out.
    pub optional: bool,
}

/// One parameter of the client's method, as its declaration shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name (`documentId`).
    pub name: &'static str,
    /// Its TypeScript type (`string`, `MessageFilter`).
    pub ts: &'static str,
    /// Whether it may be left out.
    pub optional: bool,
}

const fn field(at: At, name: &'static str, ts: &'static str) -> Field {
    Field {
        name,
        ts,
        at,
        optional: false,
    }
}

const fn maybe(at: At, name: &'static str, ts: &'static str) -> Field {
    Field {
        name,
        ts,
        at,
        optional: true,
    }
}

const fn param(name: &'static str, ts: &'static str) -> Param {
    Param {
        name,
        ts,
        optional: false,
    }
}

const fn opt(name: &'static str, ts: &'static str) -> Param {
    Param {
        name,
        ts,
        optional: true,
    }
}

/// What the module reads of a row at run time (of its routes, only its own request's template:
/// the generators and the tests read the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The JavaScript name (`listWebhooks`): the method, and `ClientEvent.operation`.
    pub name: &'static str,
    /// What a message says the call was doing (`list webhooks`).
    pub phrase: &'static str,
    /// How it may be sent again after a failure.
    pub resend: Resend,
    /// What the caller should do when a request that is not idempotent got no answer (it may
    /// have acted); the error's message ends with it.
    pub unknown_outcome: &'static str,
}

/// What a caller should do when a request may have acted, unless its row says better.
const CHECK_FIRST: &str =
    "the request may have reached the service and acted: check before sending it again \
     (not retryable)";

const fn rest(method: &'static str, template: &'static str) -> Route {
    Route {
        method,
        template,
        graphql: None,
    }
}

const GRAPHQL: Route = Route {
    method: "POST",
    template: "/api/reporting/graphql",
    graphql: Some(("query", "Messages")),
};
const UPLOAD: Route = rest("POST", "/api/file-storage/company/documents");
const LIST_DOCUMENTS: Route = rest("GET", "/api/file-storage/company/documents/metadata");
const GET_DOCUMENT: Route = rest(
    "GET",
    "/api/file-storage/company/documents/{documentId}/metadata",
);
const DELETE_DOCUMENT: Route = rest("DELETE", "/api/file-storage/company/documents/{documentId}");
const LIST_WEBHOOKS: Route = rest("GET", "/api/external-integrations/webhooks");
const REGISTER_WEBHOOK: Route = rest("POST", "/api/external-integrations/webhooks");
const DELETE_WEBHOOK: Route = rest("DELETE", "/api/external-integrations/webhooks/{webhookId}");
const TOKEN: Route = rest("POST", "/accounts/oauth/token");

/// A row's `params` (`[documentId: string, options?: CallOptions]`: each parameter's name, `?`
/// when it may be left out, and its TypeScript type) as the [`Param`]s its `params()` gives.
macro_rules! params {
    (@done [$($done:expr),*]) => { &[$($done),*] };
    (@done [$($done:expr),*] $name:ident ?: $ts:ident $(, $($rest:tt)*)?) => {
        params!(@done [$($done,)* opt(stringify!($name), stringify!($ts))] $($($rest)*)?)
    };
    (@done [$($done:expr),*] $name:ident : $ts:ident $(, $($rest:tt)*)?) => {
        params!(@done [$($done,)* param(stringify!($name), stringify!($ts))] $($($rest)*)?)
    };
    ($($params:tt)*) => { params!(@done [] $($params)*) };
}

/// What a `Promise<T>` resolves with (`T`); any other type as it is.
const fn resolved(returns: &'static str) -> &'static str {
    match returns.as_bytes() {
        [b'P', b'r', b'o', b'm', b'i', b's', b'e', b'<', inner @ .., b'>'] => {
            match core::str::from_utf8(inner) {
                Ok(inner) => inner,
                Err(_) => returns,
            }
        }
        _ => returns,
    }
}

/// Declares the table: the `Operation` enum (one variant per client operation), the `GrantType`
/// enum (one per token grant) and each variant's row.
macro_rules! operations {
    (
        $(#[$enum_meta:meta])* enum $enum:ident {
            $( $(#[$meta:meta])* $variant:ident {
                name: $name:literal,
                $(method: $method:ident,)?
                phrase: $phrase:literal,
                params: [$($params:tt)*],
                returns: $returns:literal,
                $(check: $check:ident,)?
                fields: $fields:expr,
                pages: $pages:expr,
                routes: [$own:expr $(, $more:expr)* $(,)?],
                resend: $resend:expr,
                unknown_outcome: $unknown:expr $(,)?
            } )+
        }
    ) => {
        $(#[$enum_meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $enum {
            $( $(#[$meta])* #[serde(rename = $name)] $variant, )+
        }

        impl $enum {
            /// Every one, in the table's order.
            pub const ALL: &'static [$enum] = &[$($enum::$variant),+];

            /// What the module reads of its row.
            pub const fn spec(self) -> &'static Spec {
                match self {
                    $( $enum::$variant => &Spec {
                        name: $name,
                        phrase: $phrase,
                        resend: $resend,
                        unknown_outcome: $unknown,
                    }, )+
                }
            }

            /// Its own request (the first it sends): the one its URL is built from.
            pub const fn route(self) -> &'static Route {
                match self {
                    $( $enum::$variant => &$own, )+
                }
            }

            /// Its own request's path around the template's `{name}` segment: the text before
            /// it, and after it when it has one (computed at compile time).
            pub const fn path_parts(self) -> (&'static str, Option<&'static str>) {
                match self {
                    $( $enum::$variant => {
                        const PARTS: (&str, Option<&str>) = split($own.template);
                        PARTS
                    } )+
                }
            }

            /// Every request it may send, in the order a call sends them.
            pub const fn routes(self) -> &'static [Route] {
                match self {
                    $( $enum::$variant => {
                        const ROUTES: &[Route] = &[$own $(, $more)*];
                        ROUTES
                    } )+
                }
            }

            /// The method's parameters, the options last (none for a grant).
            pub const fn params(self) -> &'static [Param] {
                match self {
                    $( $enum::$variant => {
                        const PARAMS: &[Param] = params!($($params)*);
                        PARAMS
                    } )+
                }
            }

            /// What the method returns, as its declaration shows it (`Promise<Webhook[]>`).
            pub const fn returns(self) -> &'static str {
                match self {
                    $( $enum::$variant => $returns, )+
                }
            }

            /// What its promise resolves with, as TypeScript shows it (`Webhook[]`).
            pub const fn answer(self) -> &'static str {
                match self {
                    $( $enum::$variant => {
                        const ANSWER: &str = resolved($returns);
                        ANSWER
                    } )+
                }
            }

            /// Whether its row is plain (it names its answer's `check`): its behaviour is then
            /// made from the row alone, its one request built from its route and its arguments
            /// (none but the options, or one string id for the route's one `{name}` segment).
            pub const fn plain(self) -> bool {
                match self {
                    $( $enum::$variant => !stringify!($($check)?).is_empty(), )+
                }
            }

            /// The fields of its own request.
            pub const fn fields(self) -> &'static [Field] {
                match self {
                    $( $enum::$variant => {
                        const FIELDS: &[Field] = $fields;
                        FIELDS
                    } )+
                }
            }

            /// Whether it reads one page of a list (`skip`/`take`; a page shorter than `take`
            /// is the last).
            pub const fn pages(self) -> bool {
                match self {
                    $( $enum::$variant => $pages, )+
                }
            }

            /// The position of the method's options argument (the last one: `CallOptions` or
            /// its extension).
            pub const fn options_at(self) -> usize {
                self.params().len().saturating_sub(1)
            }

            /// Its JavaScript name.
            pub const fn name(self) -> &'static str {
                self.spec().name
            }

            /// What a message says it was doing.
            pub const fn phrase(self) -> &'static str {
                self.spec().phrase
            }
        }
    };
}

/// The operation table: hands its rows to the macro named first, after the tokens given with it
/// (`operation_table!(then!(tokens))` expands to `then! { tokens { rows } }`). The rows are
/// written here once; `operations!` below makes the `Operation` enum and its rows from them,
/// estatekit-web's `client_methods!` the `Client` class's methods (each one's doc, `js_name`, Rust
/// name, parameters and declared answer are its row's), and core/tests/operations.rs the contract
/// test's dispatch. A row's doc is `#[doc = "..."]` lines (the method's doc in the declarations).
#[macro_export]
macro_rules! operation_table {
    ($then:ident ! ( $($given:tt)* )) => {
        $then! { $($given)* {
        #[doc = " Lists the messages of a conversation (GraphQL `messages`): one page, as `paging` says."]
        ListMessages {
            name: "listMessages",
            method: list_messages,
            phrase: "messages query",
            params: [filter: MessageFilter, options?: MessagesOptions],
            returns: "Promise<(Message | null)[]>",
            fields: &[
                maybe(At::Body, "candidateId", "string"),
                maybe(At::Body, "contactId", "string"),
                maybe(At::Body, "listingId", "string"),
                maybe(At::Body, "externalContactId", "string"),
                maybe(At::Body, "paging", "GraphPaging"),
                maybe(At::Body, "sort", "GraphSorting"),
            ],
            pages: true,
            routes: [GRAPHQL],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        #[doc = " Uploads a file (sent by the browser's `FormData`) with its metadata."]
        UploadDocument {
            name: "uploadDocument",
            method: upload_document,
            phrase: "upload document",
            params: [input: UploadDocumentInput, options?: UploadOptions],
            returns: "Promise<DocumentRecord>",
            fields: &[
                field(At::Form, "file", "Blob"),
                field(At::Form, "resourcePath", "string"),
                maybe(At::Form, "metadata", "DocumentMetadata"),
                maybe(At::Form, "name", "string"),
                maybe(At::Form, "format", "ImageFormat"),
            ],
            pages: false,
            routes: [UPLOAD],
            resend: Resend::NotIdempotent,
            unknown_outcome: "the document may have been uploaded: list the documents before \
                uploading it again (not retryable: a retry could upload it twice)",
        }
        #[doc = " Lists documents' metadata, filtered."]
        ListDocuments {
            name: "listDocuments",
            method: list_documents,
            phrase: "list documents",
            params: [query?: ListDocumentsQuery, options?: CallOptions],
            returns: "Promise<DocumentRecord[]>",
            fields: &[
                maybe(At::Query, "unitId", "string"),
                maybe(At::Query, "propertyId", "string"),
                maybe(At::Query, "propertyGroupId", "string"),
                maybe(At::Query, "candidateId", "string"),
                maybe(At::Query, "tenantId", "string"),
                maybe(At::Query, "types", "DocumentType[]"),
                maybe(At::Query, "title", "string"),
                maybe(At::Query, "skip", "number"),
                maybe(At::Query, "take", "number"),
            ],
            pages: true,
            routes: [LIST_DOCUMENTS],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        #[doc = " Reads one document's metadata."]
        GetDocument {
            name: "getDocument",
            method: get_document,
            phrase: "get document",
            params: [documentId: string, options?: CallOptions],
            returns: "Promise<DocumentRecord>",
            check: document_record,
            fields: &[field(At::Path, "documentId", "string")],
            pages: false,
            routes: [GET_DOCUMENT],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        #[doc = " Deletes a document."]
        DeleteDocument {
            name: "deleteDocument",
            method: delete_document,
            phrase: "delete document",
            params: [documentId: string, options?: CallOptions],
            returns: "Promise<void>",
            check: deleted,
            fields: &[field(At::Path, "documentId", "string")],
            pages: false,
            routes: [DELETE_DOCUMENT],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        #[doc = " Lists the registered webhooks."]
        ListWebhooks {
            name: "listWebhooks",
            method: list_webhooks,
            phrase: "list webhooks",
            params: [options?: CallOptions],
            returns: "Promise<Webhook[]>",
            check: webhook_list,
            fields: &[],
            pages: false,
            routes: [LIST_WEBHOOKS],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        #[doc = " Registers a webhook; resolves with its id. Sent again only after a 429 or a 503 (the"]
        #[doc = " service did not act)."]
        RegisterWebhook {
            name: "registerWebhook",
            method: register_webhook,
            phrase: "register webhook",
            params: [input: RegisterWebhookInput, options?: CallOptions],
            returns: "Promise<string>",
            fields: &[field(At::Body, "type", "EventType"), field(At::Body, "url", "string")],
            pages: false,
            routes: [REGISTER_WEBHOOK, LIST_WEBHOOKS],
            resend: Resend::NotIdempotent,
            unknown_outcome: "the webhook may have been registered: call ensureWebhook({ type, \
                url }) to find it or register it without a duplicate (not retryable: a retry \
                could register it twice)",
        }
        #[doc = " Returns the id of a webhook with this type and URL, registering one only if none exists."]
        #[doc = " With `options.store` (servers), one registration among every process sharing the store."]
        EnsureWebhook {
            name: "ensureWebhook",
            method: ensure_webhook,
            phrase: "ensure webhook",
            params: [input: RegisterWebhookInput, options?: EnsureWebhookOptions],
            returns: "Promise<string>",
            fields: &[],
            pages: false,
            routes: [LIST_WEBHOOKS, REGISTER_WEBHOOK],
            resend: Resend::NotIdempotent,
            unknown_outcome: CHECK_FIRST,
        }
        #[doc = " Deletes a webhook."]
        DeleteWebhook {
            name: "deleteWebhook",
            method: delete_webhook,
            phrase: "delete webhook",
            params: [webhookId: string, options?: CallOptions],
            returns: "Promise<void>",
            check: deleted,
            fields: &[field(At::Path, "webhookId", "string")],
            pages: false,
            routes: [DELETE_WEBHOOK],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        } }
    };
}

operation_table!(operations!(
    /// The client method a call was made through (`ClientEvent.operation`).
    #[cfg_attr(feature = "ts", derive(Tsify))]
    enum Operation
));

operations! {
    /// A grant of the token endpoint (`estatekit/auth`; `POST /accounts/oauth/token`), named as
    /// OAuth's `grant_type` names it.
    #[cfg_attr(all(feature = "ts", feature = "grant-ts"), derive(Tsify))]
    enum GrantType {
        /// Username and password.
        Password {
            name: "password",
            phrase: "password grant",
            params: [],
            returns: "Promise<TokenSet>",
            fields: &[
                field(At::Body, "grant_type", "\"password\""),
                field(At::Body, "username", "string"),
                field(At::Body, "password", "string"),
                maybe(At::Body, "scope", "string"),
                field(At::Body, "client_id", "string"),
                field(At::Body, "client_secret", "string"),
            ],
            pages: false,
            routes: [TOKEN],
            resend: Resend::NotIdempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// A refresh token.
        RefreshToken {
            name: "refresh_token",
            phrase: "refresh grant",
            params: [],
            returns: "Promise<TokenSet>",
            fields: &[
                field(At::Body, "grant_type", "\"refresh_token\""),
                field(At::Body, "refresh_token", "string"),
                field(At::Body, "client_id", "string"),
                field(At::Body, "client_secret", "string"),
            ],
            pages: false,
            routes: [TOKEN],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// The code of the sign-in dialog.
        AuthorizationCode {
            name: "authorization_code",
            phrase: "authorization code grant",
            params: [],
            returns: "Promise<TokenSet>",
            fields: &[
                field(At::Body, "grant_type", "\"authorization_code\""),
                field(At::Body, "code", "string"),
                field(At::Body, "redirect_uri", "string"),
                field(At::Body, "client_id", "string"),
                field(At::Body, "client_secret", "string"),
            ],
            pages: false,
            routes: [TOKEN],
            resend: Resend::Never,
            unknown_outcome: CHECK_FIRST,
        }
    }
}

/// Whether `path` (from the base URL's path, without its query) is `template`'s: the same
/// segments, `{name}` matching any non-empty one.
pub fn matches(template: &str, path: &str) -> bool {
    let (mut t, mut p) = (template.split('/'), path.split('/'));
    loop {
        match (t.next(), p.next()) {
            (None, None) => return true,
            (Some(ts), Some(ps)) if ts.starts_with('{') && ts.ends_with('}') => {
                if ps.is_empty() {
                    return false;
                }
            }
            (Some(ts), Some(ps)) if ts == ps => {}
            _ => return false,
        }
    }
}

/// The otel entry's module of this table (`otel_routes.js`, what `otel-routes-js` prints).
pub fn javascript() -> String {
    let route = |r: &Route| {
        let graphql = match r.graphql {
            Some((kind, name)) => format!(", \"{kind}\", \"{name}\""),
            None => String::new(),
        };
        format!("[\"{}\", \"{}\"{graphql}]", r.method, r.template)
    };
    let operations: Vec<String> = Operation::ALL
        .iter()
        .map(|op| {
            let routes: Vec<String> = op.routes().iter().map(route).collect();
            format!(
                "  {}: [{}, [{}]],",
                op.name(),
                op.options_at(),
                routes.join(", ")
            )
        })
        .collect();
    format!(
        "// Generated by `cargo run -p estatekit-vocab --bin otel-routes-js` (scripts/build-pkg.sh) from\n\
         // vocab/src/operations.rs, where each request's template is written once. Do not edit.\n\n\
         /**\n * Every operation of the client: the position of its options argument, and the requests it may\n\
         \x20* send as `[method, url.template, graphql.operation.type?, graphql.operation.name?]`.\n\
         \x20* @type {{Readonly<Record<import(\"./estatekit_wasm.js\").Operation, readonly [number, readonly (readonly string[])[]]>>}}\n */\n\
         export const OPERATIONS = {{\n{}\n}};\n",
        operations.join("\n")
    )
}

/// The docs' operation list (docs/operations.md, written by `make generate`): each method with its
/// parameters, answer, request, paging and retry class.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Operations\n\n\
         Every method of `Client`, generated from the operation table (vocab/src/operations.rs) by \
         `make generate`: do not edit. The same operations are described as OpenAPI 3.1 in \
         [openapi.json](openapi.json).\n\n\
         | method | request | fields (where) | pages | sent again |\n|---|---|---|---|---|\n",
    );
    for op in Operation::ALL {
        let params: Vec<String> = op
            .params()
            .iter()
            .map(|p| format!("{}{}: {}", p.name, if p.optional { "?" } else { "" }, p.ts))
            .collect();
        let requests: Vec<String> = op
            .routes()
            .iter()
            .map(|r| match r.graphql {
                Some((kind, name)) => format!("`{} {}` ({kind} `{name}`)", r.method, r.template),
                None => format!("`{} {}`", r.method, r.template),
            })
            .collect();
        let fields: Vec<String> = op
            .fields()
            .iter()
            .map(|f| {
                let at = match f.at {
                    At::Path => "path",
                    At::Query => "query",
                    At::Body => "body",
                    At::Form => "form",
                };
                format!("`{}{}` ({at})", f.name, if f.optional { "?" } else { "" })
            })
            .collect();
        let resend = match op.spec().resend {
            Resend::Idempotent => "after any retryable failure",
            Resend::NotIdempotent => "only when the service did not act (429, 503)",
            Resend::Never => "never",
        };
        out.push_str(&format!(
            "| `{}({}): Promise<{}>` | {} | {} | {} | {} |\n",
            op.name(),
            params.join(", "),
            op.answer().replace('|', "\\|"),
            requests.join(", then "),
            match (fields.is_empty(), op.routes().len()) {
                (false, _) => fields.join(", "),
                (true, 1) => "none".to_owned(),
                (true, _) => "its requests'".to_owned(),
            },
            if op.pages() { "yes" } else { "no" },
            resend,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain row's behaviour and request are made from the row (estatekit-web's `plain`): its
    /// parameters are the options alone, or one string id and the options, the id being its one
    /// route's one `{name}` segment and its one field.
    #[test]
    fn plain_rows_have_a_shape_their_behaviour_can_be_made_from() {
        for op in Operation::ALL.iter().filter(|op| op.plain()) {
            let (name, params) = (op.name(), op.params());
            assert_eq!(
                op.routes().len(),
                1,
                "{name}: a plain row sends one request"
            );
            let segments: Vec<&str> = op
                .route()
                .template
                .split('/')
                .filter(|s| s.starts_with('{'))
                .collect();
            match params {
                [options] => {
                    assert_eq!(
                        (options.name, options.ts),
                        ("options", "CallOptions"),
                        "{name}"
                    );
                    assert!(segments.is_empty() && op.fields().is_empty(), "{name}");
                }
                [id, options] => {
                    assert_eq!(
                        (options.name, options.ts),
                        ("options", "CallOptions"),
                        "{name}"
                    );
                    assert_eq!((id.ts, id.optional), ("string", false), "{name}");
                    assert_eq!(segments, [format!("{{{}}}", id.name)], "{name}");
                    assert_eq!(op.fields(), [field(At::Path, id.name, "string")], "{name}");
                }
                _ => panic!("{name}: a plain row takes the options, or one string id and them"),
            }
        }
        // Both shapes are checked: a row of each is plain.
        assert!(Operation::ListWebhooks.plain() && Operation::GetDocument.plain());
    }

    #[test]
    fn templates_match_their_paths_only() {
        let get = "/api/file-storage/company/documents/{documentId}/metadata";
        assert!(matches(
            get,
            "/api/file-storage/company/documents/doc%2F1/metadata"
        ));
        assert!(!matches(
            get,
            "/api/file-storage/company/documents/metadata"
        ));
        assert!(!matches(
            get,
            "/api/file-storage/company/documents//metadata"
        ));
        assert!(matches(
            LIST_DOCUMENTS.template,
            "/api/file-storage/company/documents/metadata"
        ));
        assert!(!matches(
            LIST_WEBHOOKS.template,
            "/api/external-integrations/webhooks/1"
        ));
    }

    #[test]
    fn a_path_is_its_template_with_the_segments_given() {
        assert_eq!(
            GET_DOCUMENT.path(&["a%2Fb"]),
            "/api/file-storage/company/documents/a%2Fb/metadata"
        );
        assert_eq!(LIST_WEBHOOKS.path(&[]), LIST_WEBHOOKS.template);
        assert_eq!(DELETE_WEBHOOK.path(&[]), DELETE_WEBHOOK.template);
    }

    /// The `{name}`s of a template.
    fn names(template: &str) -> Vec<&str> {
        template
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .collect()
    }

    #[test]
    fn each_path_field_is_a_segment_of_the_template() {
        let rows = Operation::ALL
            .iter()
            .map(|op| (op.name(), op.route(), op.fields()))
            .chain(
                GrantType::ALL
                    .iter()
                    .map(|g| (g.name(), g.route(), g.fields())),
            );
        for (name, route, fields) in rows {
            let path: Vec<&str> = fields
                .iter()
                .filter(|f| f.at == At::Path)
                .map(|f| f.name)
                .collect();
            assert_eq!(path, names(route.template), "{name}");
            assert!(
                path.len() <= 1,
                "{name}: core's HttpRequest::to_segment fills one segment"
            );
            assert!(
                fields.iter().all(|f| f.at != At::Path || !f.optional),
                "{name}: a path field is never optional"
            );
            assert!(
                route.graphql.is_none() || fields.iter().all(|f| f.at == At::Body),
                "{name}: a GraphQL request's fields are its variables"
            );
        }
    }

    #[test]
    fn the_path_parts_are_the_template_around_its_segment() {
        assert_eq!(
            Operation::GetDocument.path_parts(),
            ("/api/file-storage/company/documents/", Some("/metadata"))
        );
        assert_eq!(
            Operation::DeleteWebhook.path_parts(),
            ("/api/external-integrations/webhooks/", Some(""))
        );
        assert_eq!(
            Operation::ListWebhooks.path_parts(),
            ("/api/external-integrations/webhooks", None)
        );
        assert_eq!(
            GrantType::Password.path_parts(),
            ("/accounts/oauth/token", None)
        );
    }

    #[test]
    fn the_options_are_the_last_parameter() {
        for op in Operation::ALL {
            let last = op.params().last().map(|p| p.name);
            assert_eq!(last, Some("options"), "{}", op.name());
            assert!(op
                .params()
                .iter()
                .all(|p| p.name != "options" || p.optional));
        }
    }

    #[test]
    fn the_module_lists_every_operation() {
        let js = javascript();
        for op in Operation::ALL {
            assert!(js.contains(&format!("  {}: [{}, [", op.name(), op.options_at())));
        }
        assert!(js.contains(
            "listMessages: [1, [[\"POST\", \"/api/reporting/graphql\", \"query\", \"Messages\"]]],"
        ));
        assert!(js.contains("deleteWebhook: [1, [[\"DELETE\", \"/api/external-integrations/webhooks/{webhookId}\"]]],"));
    }
}
