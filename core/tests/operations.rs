//! The operation table (vocab/src/operations.rs) against the requests this crate builds: every
//! operation's requests have the method and the path its routes say, in that order, the messages
//! query is the GraphQL operation named there, each request carries its operation's row (so its
//! retry class is the table's), and every grant is a `POST` to the token endpoint with its
//! `grant_type`. A path or an operation changed here without the table fails this test (the
//! contract the emulator's routes and `estatekit/otel`'s templates are held to).

// A test: a helper that cannot build its request fails the test.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use estatekit_core::api::{
    documents, messages, webhooks, BaseUrl, HttpRequest, JsonBody, RequestBody,
};
use estatekit_core::model::events::Operation;
use estatekit_vocab::operations::{matches, Route};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// A call's arguments as this test gives them: a sample value of each parameter of its row, by
/// the parameter's TypeScript type (ids that need encoding, a list query, a page of messages).
struct Args(Vec<(&'static str, Value)>);

impl Args {
    fn of(op: Operation) -> Args {
        Args(op.params().iter().map(|p| (p.name, sample(p.ts))).collect())
    }

    /// The argument its row names `name`, as `T`.
    fn get<T: DeserializeOwned>(&self, name: &str) -> T {
        let Some((_, value)) = self.0.iter().find(|(n, _)| *n == name) else {
            panic!("the row has no parameter {name}")
        };
        serde_json::from_value(value.clone()).unwrap()
    }
}

/// A value of a parameter's TypeScript type (a type of a new row needs one here).
fn sample(ts: &str) -> Value {
    match ts {
        "string" => json!("doc 1/ü?"),
        "MessageFilter" => json!({"candidateId": "c-1"}),
        "MessagesOptions" => json!({"paging": {"skip": 0, "take": 5}}),
        "ListDocumentsQuery" => json!({"unitId": "u 1", "skip": 10, "take": 5}),
        "UploadDocumentInput" => json!({"resourcePath": "units/1"}),
        "RegisterWebhookInput" => {
            json!({"type": "UNIT_CREATED", "url": "https://hooks.example.com/x"})
        }
        "CallOptions" | "UploadOptions" | "EnsureWebhookOptions" => json!({}),
        other => panic!("no sample value of {other}"),
    }
}

/// The requests of each operation whose row is not plain, in the order a call sends them, as its
/// behaviour in web/src/client.rs (`does`) builds them: the function named as its row's `method`.
mod sends {
    use super::*;

    pub fn list_messages(base: &BaseUrl, a: &Args) -> Vec<HttpRequest> {
        let (filter, options) = (a.get("filter"), a.get("options"));
        vec![messages::request(base, &filter, &options).unwrap()]
    }

    pub fn upload_document(base: &BaseUrl, a: &Args) -> Vec<HttpRequest> {
        // The file is the browser layer's: the request is made of the text fields.
        let input: Value = a.get("input");
        let fields = documents::UploadFields {
            resource_path: input["resourcePath"].as_str().unwrap().into(),
            ..Default::default()
        };
        vec![documents::upload_request(base, &fields).unwrap()]
    }

    pub fn list_documents(base: &BaseUrl, a: &Args) -> Vec<HttpRequest> {
        vec![documents::list_request(base, &a.get("query")).unwrap()]
    }

    /// The registration, then the list when its answer gives no id.
    pub fn register_webhook(base: &BaseUrl, a: &Args) -> Vec<HttpRequest> {
        let input = a.get("input");
        vec![
            webhooks::register_request(base, &input).unwrap(),
            webhooks::list_request(base),
        ]
    }

    /// The list, then the registration when the list has none.
    pub fn ensure_webhook(base: &BaseUrl, a: &Args) -> Vec<HttpRequest> {
        let input = a.get("input");
        vec![
            webhooks::list_request(base),
            webhooks::register_request(base, &input).unwrap(),
        ]
    }
}

/// The one request of a plain row (its behaviour is made from the row: estatekit-web's
/// `plain`): its route, with the id argument as its `{name}` segment when it takes one.
fn plain(base: &BaseUrl, op: Operation, a: &Args) -> Vec<HttpRequest> {
    let request = match op.params() {
        [id, _] => HttpRequest::plain_by_id(op, base, id.name, &a.get::<String>(id.name)).unwrap(),
        _ => HttpRequest::plain(op, base),
    };
    vec![request]
}

/// The dispatch, made from the operation table: a plain row's request is [`plain`]'s, any other
/// row's those of its `method` in [`sends`], given sample arguments of its row's parameters.
macro_rules! requests {
    ({ $( $(#[$doc:meta])* $variant:ident {
        name: $name:literal, method: $method:ident, phrase: $phrase:literal,
        params: [$($params:tt)*], returns: $returns:literal, $(check: $check:ident,)?
        fields: $($row:tt)*
    } )+ }) => {
        /// The requests a call of `op` may send, in order (under a base URL with a path).
        fn requests(base: &BaseUrl, op: Operation) -> Vec<HttpRequest> {
            let args = Args::of(op);
            match op {
                $( Operation::$variant => requests!(@sends ($($check)?) $method base op args), )+
            }
        }
    };
    (@sends () $method:ident $base:ident $op:ident $args:ident) => { sends::$method($base, &$args) };
    (@sends ($check:ident) $method:ident $base:ident $op:ident $args:ident) => { plain($base, $op, &$args) };
}

estatekit_vocab::operation_table!(requests!());

/// `request` is the one `route` describes.
fn assert_sends(op: &str, request: &HttpRequest, route: &Route) {
    assert_eq!(request.method.as_str(), route.method, "{op}");
    let path = request
        .url
        .strip_prefix("https://acme.example.com/prefix")
        .unwrap();
    let path = path.split('?').next().unwrap();
    assert!(
        matches(route.template, path),
        "{op}: {path} is not {}",
        route.template
    );
    let query = match &request.body {
        RequestBody::Json(JsonBody::Graphql(body)) => Some(body.query.as_str()),
        _ => None,
    };
    match route.graphql {
        Some((kind, name)) => {
            let text = query.unwrap_or_default();
            assert!(text.starts_with(&format!("{kind} {name}(")), "{op}: {text}");
        }
        None => assert_eq!(query, None, "{op}"),
    }
}

#[test]
fn every_operation_sends_what_its_row_says() {
    let base = BaseUrl::normalised("https://acme.example.com/prefix/");
    for &op in Operation::ALL {
        let row = op.spec();
        assert_eq!(
            serde_json::to_value(op).unwrap(),
            row.name,
            "the serde name is the row's"
        );
        let built = requests(&base, op);
        assert_eq!(built.len(), op.routes().len(), "{op:?}");
        for (request, route) in built.iter().zip(op.routes()) {
            assert_sends(row.name, request, route);
        }
        // The first request is the operation's own (ensureWebhook's are its parts').
        if op != Operation::EnsureWebhook {
            assert_eq!(built[0].spec, row, "{op:?} carries its own row");
        }
    }
}

#[test]
fn the_options_argument_is_the_last() {
    for op in Operation::ALL {
        let at = op.options_at();
        assert_eq!(at + 1, op.params().len(), "{}", op.name());
        assert_eq!(op.params()[at].name, "options", "{}", op.name());
    }
}

#[cfg(feature = "auth")]
#[test]
fn every_grant_is_a_post_to_the_token_endpoint_with_its_grant_type() {
    use estatekit_core::api::auth::{grant_request, Grant};
    use estatekit_core::model::auth::GrantType;
    let base = BaseUrl::normalised("https://acme.example.com/prefix/");
    let grants = [
        Grant::Password {
            username: "u",
            password: "p",
            scope: "s",
        },
        Grant::Refresh { refresh_token: "r" },
        Grant::AuthorizationCode {
            code: "c",
            redirect_uri: "https://app.example.com/cb",
        },
    ];
    assert_eq!(grants.len(), GrantType::ALL.len());
    for grant in grants {
        let row = grant.kind().spec();
        let request = grant_request(&base, "id", "secret", grant).unwrap();
        assert_eq!(request.spec, row);
        assert_sends(row.name, &request, &grant.kind().routes()[0]);
        let RequestBody::Json(JsonBody::Grant(body)) = &request.body else {
            panic!("{}: not a grant body", row.name)
        };
        assert_eq!(serde_json::to_value(body).unwrap()["grant_type"], row.name);
    }
}
