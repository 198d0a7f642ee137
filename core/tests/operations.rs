//! The operation table (vocab/src/operations.rs) against the requests this crate builds: every
//! operation's requests have the method and the path its routes say, in that order, the messages
//! query is the GraphQL operation named there, each request carries its operation's row (so its
//! retry class is the table's), and every grant is a `POST` to the token endpoint with its
//! `grant_type`. A path or an operation changed here without the table fails this test (the
//! contract the emulator's routes and `estatekit/otel`'s templates are held to).

// A test: a helper that cannot build its request fails the test.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use estatekit_core::api::{
    documents, messages, webhooks, BaseUrl, HttpRequest, JsonBody, RequestBody,
};
use estatekit_core::model::events::Operation;
use estatekit_vocab::operations::{matches, Route};
use serde_json::json;

/// The requests a call of `op` may send, in order, as web/src/client.rs builds them (under a
/// base URL with a path, ids that need encoding, and a list query).
fn requests(base: &BaseUrl, op: Operation) -> Vec<HttpRequest> {
    let input = serde_json::from_value(
        json!({"type": "UNIT_CREATED", "url": "https://hooks.example.com/x"}),
    )
    .unwrap();
    let id = "doc 1/ü?";
    match op {
        Operation::ListMessages => {
            let filter = serde_json::from_value(json!({"candidateId": "c-1"})).unwrap();
            let options =
                serde_json::from_value(json!({"paging": {"skip": 0, "take": 5}})).unwrap();
            vec![messages::request(base, &filter, &options).unwrap()]
        }
        Operation::UploadDocument => {
            let fields = documents::UploadFields {
                resource_path: "units/1".into(),
                ..Default::default()
            };
            vec![documents::upload_request(base, &fields).unwrap()]
        }
        Operation::ListDocuments => {
            let query =
                serde_json::from_value(json!({"unitId": "u 1", "skip": 10, "take": 5})).unwrap();
            vec![documents::list_request(base, &query).unwrap()]
        }
        Operation::GetDocument => vec![documents::get_request(base, id).unwrap()],
        Operation::DeleteDocument => vec![documents::delete_request(base, id).unwrap()],
        Operation::ListWebhooks => vec![webhooks::list_request(base)],
        Operation::RegisterWebhook => vec![
            webhooks::register_request(base, &input).unwrap(),
            webhooks::list_request(base),
        ],
        Operation::EnsureWebhook => vec![
            webhooks::list_request(base),
            webhooks::register_request(base, &input).unwrap(),
        ],
        Operation::DeleteWebhook => vec![webhooks::delete_request(base, id).unwrap()],
    }
}

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
    // listWebhooks(options); every other method (input or id or query or filter, options).
    for op in Operation::ALL {
        let expected = usize::from(op.name() != "listWebhooks");
        assert_eq!(op.options_at(), expected, "{}", op.name());
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
