//! The check of `estatekit/otel`'s table of requests (`estatekit_vocab::routes`, written once
//! there) against the requests this crate builds: every operation's requests have the method and
//! the path its routes say, in that order, and the messages query is the GraphQL operation named
//! there. A path or an operation changed here without the table fails this test.

use super::{documents, messages, webhooks, BaseUrl, HttpRequest, JsonBody, RequestBody};
use crate::model::client::Operation;
use estatekit_vocab::routes::{matches, OperationRoutes, OPERATIONS};
use serde_json::json;

/// Every operation; `requests` below matches on each, so a new one fails to compile there.
const ALL: [Operation; 9] = [
    Operation::ListMessages,
    Operation::UploadDocument,
    Operation::ListDocuments,
    Operation::GetDocument,
    Operation::DeleteDocument,
    Operation::ListWebhooks,
    Operation::RegisterWebhook,
    Operation::EnsureWebhook,
    Operation::DeleteWebhook,
];

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

fn routes_of(op: Operation) -> &'static OperationRoutes {
    let name = serde_json::to_value(op).unwrap();
    OPERATIONS
        .iter()
        .find(|r| name == r.name)
        .unwrap_or_else(|| panic!("{name} is not in estatekit_vocab::routes::OPERATIONS"))
}

#[test]
fn every_operation_sends_what_the_routes_say() {
    assert_eq!(
        OPERATIONS.len(),
        ALL.len(),
        "the table lists the operations, each once"
    );
    let base = BaseUrl::parse("https://acme.example.com/prefix/").unwrap();
    for op in ALL {
        let table = routes_of(op);
        let built = requests(&base, op);
        assert_eq!(built.len(), table.routes.len(), "{op:?}");
        for (request, route) in built.iter().zip(table.routes) {
            assert_eq!(request.method.as_str(), route.method, "{op:?}");
            let path = request
                .url
                .strip_prefix("https://acme.example.com/prefix")
                .unwrap();
            let path = path.split('?').next().unwrap();
            assert!(
                matches(route.template, path),
                "{op:?}: {path} is not {}",
                route.template
            );
            let query = match &request.body {
                RequestBody::Json(JsonBody::Graphql(body)) => Some(body.query.as_str()),
                _ => None,
            };
            match route.graphql {
                Some((kind, name)) => {
                    let text = query.unwrap_or_default();
                    assert!(
                        text.starts_with(&format!("{kind} {name}(")),
                        "{op:?}: {text}"
                    );
                }
                None => assert_eq!(query, None, "{op:?}"),
            }
        }
    }
}

#[test]
fn the_options_argument_is_the_last() {
    // listWebhooks(options); every other method (input or id or query or filter, options).
    for op in OPERATIONS {
        let expected = usize::from(op.name != "listWebhooks");
        assert_eq!(op.options_at, expected, "{}", op.name);
    }
}
