//! The operation table: every operation of the client (a `Client` method, `ClientEvent.operation`)
//! and every token grant of `estatekit/auth`, each written once, as one row: its JavaScript name
//! (the `Operation` variant's serde name), its Rust variant, its phrase in messages ("list
//! webhooks"), where its options argument is, the requests it may send (HTTP method and path
//! template, the OpenTelemetry HTTP conventions' `url.template`, with the GraphQL operation's type
//! and name where the request is one), how it may be sent again after a failure ([`Resend`], what
//! `retryable` follows), and what a caller should do when its outcome is unknown. Made from it:
//! the `Operation` enum and its TypeScript union (tsify), the phrases, each request's retry class
//! (estatekit-core), `estatekit/otel`'s `otel_routes.js` (the `otel-routes-js` binary), the
//! `Client` class's wasm methods (estatekit-web's `client_methods!`, through
//! [`operation_table!`](crate::operation_table): each method's `js_name` is its row's name),
//! `estatekit/query`'s factories and their declarations (src/query.rs, the `query-js` binary),
//! and the contract test of the emulator's routes (core/tests/operations.rs checks each
//! operation's requests against the templates). An operation's answer check is its resource's
//! function in core/src/api, named after the row.

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

/// What the module reads of a row at run time (the routes stay out of it: only the
/// generators and the tests read them).
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

/// Declares the table: the `Operation` enum (one variant per client operation), the `GrantType`
/// enum (one per token grant) and each variant's row.
macro_rules! operations {
    (
        $(#[$enum_meta:meta])* enum $enum:ident {
            $( $(#[$meta:meta])* $variant:ident {
                name: $name:literal,
                phrase: $phrase:literal,
                options_at: $options_at:expr,
                routes: $routes:expr,
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

            /// Every request it may send, in the order a call sends them.
            pub const fn routes(self) -> &'static [Route] {
                match self {
                    $( $enum::$variant => $routes, )+
                }
            }

            /// The position of the method's options argument (the last one: `CallOptions` or
            /// its extension).
            pub const fn options_at(self) -> usize {
                match self {
                    $( $enum::$variant => $options_at, )+
                }
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
/// written here once; `operations!` below makes the `Operation` enum and its rows from them, and
/// estatekit-web's `client_methods!` the `Client` class's methods (each method's `js_name` is its
/// row's `name`).
#[macro_export]
macro_rules! operation_table {
    ($then:ident ! ( $($given:tt)* )) => {
        $then! { $($given)* {
        /// `listMessages`
        ListMessages {
            name: "listMessages",
            phrase: "messages query",
            options_at: 1,
            routes: &[GRAPHQL],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// `uploadDocument`
        UploadDocument {
            name: "uploadDocument",
            phrase: "upload document",
            options_at: 1,
            routes: &[UPLOAD],
            resend: Resend::NotIdempotent,
            unknown_outcome: "the document may have been uploaded: list the documents before \
                uploading it again (not retryable: a retry could upload it twice)",
        }
        /// `listDocuments`
        ListDocuments {
            name: "listDocuments",
            phrase: "list documents",
            options_at: 1,
            routes: &[LIST_DOCUMENTS],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// `getDocument`
        GetDocument {
            name: "getDocument",
            phrase: "get document",
            options_at: 1,
            routes: &[GET_DOCUMENT],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// `deleteDocument`
        DeleteDocument {
            name: "deleteDocument",
            phrase: "delete document",
            options_at: 1,
            routes: &[DELETE_DOCUMENT],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// `listWebhooks`
        ListWebhooks {
            name: "listWebhooks",
            phrase: "list webhooks",
            options_at: 0,
            routes: &[LIST_WEBHOOKS],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// `registerWebhook` (the list only when the registration's answer gives no id)
        RegisterWebhook {
            name: "registerWebhook",
            phrase: "register webhook",
            options_at: 1,
            routes: &[REGISTER_WEBHOOK, LIST_WEBHOOKS],
            resend: Resend::NotIdempotent,
            unknown_outcome: "the webhook may have been registered: call ensureWebhook({ type, \
                url }) to find it or register it without a duplicate (not retryable: a retry \
                could register it twice)",
        }
        /// `ensureWebhook` (its requests are listWebhooks' and registerWebhook's)
        EnsureWebhook {
            name: "ensureWebhook",
            phrase: "ensure webhook",
            options_at: 1,
            routes: &[LIST_WEBHOOKS, REGISTER_WEBHOOK],
            resend: Resend::NotIdempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// `deleteWebhook`
        DeleteWebhook {
            name: "deleteWebhook",
            phrase: "delete webhook",
            options_at: 1,
            routes: &[DELETE_WEBHOOK],
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
            options_at: 0,
            routes: &[TOKEN],
            resend: Resend::NotIdempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// A refresh token.
        RefreshToken {
            name: "refresh_token",
            phrase: "refresh grant",
            options_at: 0,
            routes: &[TOKEN],
            resend: Resend::Idempotent,
            unknown_outcome: CHECK_FIRST,
        }
        /// The code of the sign-in dialog.
        AuthorizationCode {
            name: "authorization_code",
            phrase: "authorization code grant",
            options_at: 0,
            routes: &[TOKEN],
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

#[cfg(test)]
mod tests {
    use super::*;

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
