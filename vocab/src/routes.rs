//! What `estatekit/otel` names each request by, written once: every operation of the client (a
//! `Client` method, `ClientEvent.operation`), where its options argument is, and the requests it
//! may send, each as its HTTP method and its path's template (the OpenTelemetry HTTP conventions'
//! `url.template`, `{name}` for a segment that holds an id), with the GraphQL operation's type
//! and name where the request is one. estatekit-core builds the paths (`core/src/api`); its test
//! `every_operation_sends_what_the_routes_say` checks each operation's requests against this
//! table. The otel entry reads it from `otel_routes.js`, which the `otel-routes-js` binary
//! prints (scripts/build-pkg.sh): the main entry never carries it.

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

/// An operation of the client and the requests it may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperationRoutes {
    /// The method's name, as `ClientEvent.operation` spells it (`listWebhooks`).
    pub name: &'static str,
    /// The position of the method's options argument (the last one: `CallOptions` or its
    /// extension).
    pub options_at: usize,
    /// Every request it may send, in the order a call sends them.
    pub routes: &'static [Route],
}

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

/// Every operation of the client, in the order of the `Operation` union.
pub const OPERATIONS: &[OperationRoutes] = &[
    OperationRoutes {
        name: "listMessages",
        options_at: 1,
        routes: &[GRAPHQL],
    },
    OperationRoutes {
        name: "uploadDocument",
        options_at: 1,
        routes: &[UPLOAD],
    },
    OperationRoutes {
        name: "listDocuments",
        options_at: 1,
        routes: &[LIST_DOCUMENTS],
    },
    OperationRoutes {
        name: "getDocument",
        options_at: 1,
        routes: &[GET_DOCUMENT],
    },
    OperationRoutes {
        name: "deleteDocument",
        options_at: 1,
        routes: &[DELETE_DOCUMENT],
    },
    OperationRoutes {
        name: "listWebhooks",
        options_at: 0,
        routes: &[LIST_WEBHOOKS],
    },
    // The list only when the registration's answer gives no id.
    OperationRoutes {
        name: "registerWebhook",
        options_at: 1,
        routes: &[REGISTER_WEBHOOK, LIST_WEBHOOKS],
    },
    OperationRoutes {
        name: "ensureWebhook",
        options_at: 1,
        routes: &[LIST_WEBHOOKS, REGISTER_WEBHOOK],
    },
    OperationRoutes {
        name: "deleteWebhook",
        options_at: 1,
        routes: &[DELETE_WEBHOOK],
    },
];

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
    let operations: Vec<String> = OPERATIONS
        .iter()
        .map(|op| {
            let routes: Vec<String> = op.routes.iter().map(route).collect();
            format!(
                "  {}: [{}, [{}]],",
                op.name,
                op.options_at,
                routes.join(", ")
            )
        })
        .collect();
    format!(
        "// Generated by `cargo run -p estatekit-vocab --bin otel-routes-js` (scripts/build-pkg.sh) from\n\
         // vocab/src/routes.rs, where each request's template is written once. Do not edit.\n\n\
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
        for op in OPERATIONS {
            assert!(js.contains(&format!("  {}: [{}, [", op.name, op.options_at)));
        }
        assert!(js.contains(
            "listMessages: [1, [[\"POST\", \"/api/reporting/graphql\", \"query\", \"Messages\"]]],"
        ));
        assert!(js.contains("deleteWebhook: [1, [[\"DELETE\", \"/api/external-integrations/webhooks/{webhookId}\"]]],"));
    }
}
