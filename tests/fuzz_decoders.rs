//! Property tests: every answer check and input type, fed arbitrary bytes and arbitrary JSON
//! (biased towards the interface's field names), returns `Ok` or a typed error and never panics.
//! The checks are the module's own (`check_*`, from an answer's bytes), run natively.
//! Bounded: `PROPTEST_CASES` (default 2,000 per property here) keeps `make test` short.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::expect_used)]

use estatekit::api::platform::http_date_ms;
use estatekit::api::rate::RateWindow;
use estatekit::api::retry::RetryPolicy;
use estatekit::api::status::{retry_after_ms, ErrorBody, ResponseHead};
use estatekit::api::{documents, messages, webhooks, BaseUrl, HttpRequest};
use estatekit::error::ApiErrorKind;
use estatekit::model;
use estatekit::model::events::Operation;
use proptest::prelude::*;
use serde_json::Value;

const KEYS: &[&str] = &[
    "id",
    "type",
    "url",
    "data",
    "messages",
    "errors",
    "message",
    "items",
    "documents",
    "candidateId",
    "sentBy",
    "userId",
    "text",
    "user",
    "replyToMessageId",
    "isRead",
    "attachments",
    "name",
    "resourcePath",
    "size",
    "title",
    "companyId",
    "tenantId",
    "unitId",
    "propertyId",
    "propertyGroupId",
    "createdAt",
    "deletedAt",
    "code",
    "statusCode",
    "x",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
        prop::sample::select(KEYS).prop_map(|k| Value::String(k.to_string())),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..8).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

/// Runs every check over one answer's bytes; each must return Ok or a decode/graphql error.
fn check_all(body: &[u8]) {
    let kinds = [ApiErrorKind::Decode, ApiErrorKind::Graphql];
    for r in [
        webhooks::check_list(200, "items", body).map(|_| ()),
        documents::check_list(200, "", body).map(|_| ()),
        documents::check_record(
            estatekit::model::events::Operation::GetDocument.phrase(),
            200,
            body,
        ),
        messages::check_errors(200, body),
        messages::check_answer(200, body).map(|_| ()),
    ] {
        if let Err(e) = r {
            assert!(kinds.contains(&e.kind()), "{e:?}");
            assert!(e.to_string().len() < 2_000);
        }
    }
    if let Ok(list) = webhooks::check_list(200, "", body) {
        let input: model::webhooks::RegisterWebhookInput =
            serde_json::from_value(serde_json::json!({"type": "UNIT_CREATED", "url": "u"}))
                .expect("valid input");
        let _ = webhooks::find_registered(&list, &input);
    }
    let _ = ErrorBody::from_answer(body);
    let _ = webhooks::id_in_answer(body);
}

/// [`check_all`] over a JSON value's text.
fn check_value(v: &Value) {
    check_all(&serde_json::to_vec(v).expect("JSON"));
}

fn proptest_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2_000);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn checks_survive_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        check_all(&bytes);
        let text = String::from_utf8_lossy(&bytes);
        let _ = webhooks::id_from_location(&text);
        let _ = http_date_ms(&text);
        let head = ResponseHead { status: 429, retry_after: Some(&text), rate_limit_reset: Some(&text) };
        let _ = retry_after_ms(&head, 0.0);
        let mut w = RateWindow::new(3);
        w.observe(0.0, Some(&text), Some(&text));
        let _ = w.reserve(1.0);
    }

    #[test]
    fn checks_survive_arbitrary_json(v in json_value()) {
        check_value(&v);
        check_value(&serde_json::json!({ "data": { "messages": [v.clone()] } }));
        check_value(&serde_json::json!({ "items": [v.clone()] }));
        check_value(&serde_json::json!([{ "id": "x", "type": "T", "url": "u", "extra": v }]));
    }

    #[test]
    fn input_types_survive_arbitrary_input(v in json_value()) {
        // Refused input is a serde error (the browser layer names its path); nothing panics.
        let _ = serde_json::from_value::<model::messages::MessageFilter>(v.clone());
        let _ = serde_json::from_value::<model::messages::MessagesOptions>(v.clone());
        let _ = serde_json::from_value::<model::documents::DocumentMetadata>(v.clone());
        let _ = serde_json::from_value::<model::documents::ListDocumentsQuery>(v.clone());
        let _ = serde_json::from_value::<model::webhooks::RegisterWebhookInput>(v.clone());
        let _ = serde_json::from_value::<model::options::RetryOptions>(v.clone());
        if let Ok(query) = serde_json::from_value::<model::documents::ListDocumentsQuery>(v) {
            let base = BaseUrl::normalised("https://acme.example.com");
            if let Err(e) = documents::list_request(&base, &query) {
                prop_assert_eq!(e.kind(), ApiErrorKind::InvalidInput);
            }
        }
    }

    #[test]
    fn header_parsers_survive_shaped_input(
        day in any::<i64>(), year in any::<i64>(), h in any::<i64>(), m in any::<i32>(), sec in any::<i16>(),
        mon in prop::sample::select(&["Jan", "Feb", "Dec", "Foo"][..]), secs in any::<f64>(), now in any::<f64>(),
    ) {
        let date = format!("Sun, {day} {mon} {year} {h}:{m}:{sec} GMT");
        if let Some(ms) = http_date_ms(&date) {
            prop_assert!((0.0..=253_402_300_800_000.0).contains(&ms), "{date} -> {ms}");
        }
        let text = secs.to_string();
        for status in [429, 503] {
            let head = ResponseHead { status, retry_after: Some(&date), rate_limit_reset: Some(&text) };
            let _ = retry_after_ms(&head, now);
            let head = ResponseHead { status, retry_after: Some(&text), rate_limit_reset: None };
            let _ = retry_after_ms(&head, now);
        }
        let mut w = RateWindow::new(2);
        w.observe(now, Some("0"), Some(&text));
        let _ = w.reserve(now);
    }

    #[test]
    fn request_builders_never_panic(a in ".{0,40}", b in ".{0,40}", n in any::<u32>(), r in any::<f64>()) {
        let base = BaseUrl::normalised("https://acme.example.com");
        for &op in Operation::ALL.iter().filter(|op| op.plain()) {
            if let [id, _] = op.params() {
                let _ = HttpRequest::plain_by_id(op, &base, id.name, &a);
            }
        }
        let input: model::webhooks::RegisterWebhookInput =
            serde_json::from_value(serde_json::json!({"type": "UNIT_CREATED", "url": b.clone()}))
                .expect("valid input");
        let _ = webhooks::register_request(&base, &input);
        let filter = model::messages::MessageFilter { candidate_id: Some(a.clone()), ..Default::default() };
        let options = model::messages::MessagesOptions {
            user_fields: Some(vec![b.clone()]),
            sort: Some(model::messages::GraphSorting { field_name: b, ..Default::default() }),
            ..Default::default()
        };
        if let Ok(req) = messages::request(&base, &filter, &options) {
            // Values travel as variables: the query text is the same whatever the candidate id
            // (a substring test would fail on ids such as "$" that the fixed text contains).
            let neutral = model::messages::MessageFilter { candidate_id: Some("cand-1".into()), ..Default::default() };
            let query_of = |body: &estatekit::api::RequestBody| match body {
                estatekit::api::RequestBody::Json(body) => serde_json::to_value(body).expect("serializable"),
                _ => serde_json::Value::Null,
            };
            let json = query_of(&req.body);
            prop_assert_eq!(json["variables"]["candidateId"].as_str(), Some(a.as_str()));
            let reference = messages::request(&base, &neutral, &options).expect("a neutral id is valid");
            prop_assert_eq!(&json["query"], &query_of(&reference.body)["query"]);
        }
        let _ = RetryPolicy::default().delay_ms(n, Some(u64::from(n)), r);
    }
}
