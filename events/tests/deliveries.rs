//! The delivery types, read natively by serde_json: what the wasm module does in the browser
//! (webhooks/src/lib.rs) with serde-wasm-bindgen, the same two steps — the envelope with `data`
//! kept, then `data` checked against its type's shape — and the same paths.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use estatekit_events::{
    check_data_at, is_timestamp, operation, Delivery, KnownEvent, Operation, WebhookEvent,
    EVENT_TYPES, KNOWN_SHAPES,
};
use serde::Deserialize;
use serde_json::{json, Value};

/// The check of the wasm module, natively: Ok(what the operation is) or Err((path, message)).
fn check(body: &Value) -> Result<Operation, (String, String)> {
    if !body.is_object() {
        return Err((".".into(), "expected a JSON object".into()));
    }
    let delivery: Delivery<Value> = serde_path_to_error::deserialize(body)
        .map_err(|e| (e.path().to_string(), e.inner().to_string()))?;
    let kind = operation(&delivery.operation);
    check_data_at(&delivery.operation, &delivery.data)?;
    Ok(kind)
}

fn listing() -> Value {
    json!({
        "id": "listing-1",
        "property": {"id": "prop-1", "objectId": "OBJ-1", "type": "APARTMENT",
            "address": {"zip": "10115", "city": "Berlin", "streetNumber": "12",
                "streetName": "Invalidenstraße", "placeId": "place-1"}},
        "unit": {"id": "unit-1", "objectId": "UNIT-1", "name": "WE 01", "type": "APARTMENT"}
    })
}

fn envelope(operation: &str, data: Value) -> Value {
    json!({"uuid": "evt-1", "operation": operation, "subdomain": "acme", "language": "en",
        "createdAt": "2020-09-30T10:07:28.052Z", "data": data})
}

fn applied() -> Value {
    envelope(
        "LISTING_CANDIDATE_APPLIED",
        json!({"id": "cand-1", "candidateSource": "PORTAL", "email": "a@example.com",
            "firstName": "Anna", "lastName": "Müller", "listing": listing()}),
    )
}

fn path_of(body: &Value) -> String {
    match check(body) {
        Err((path, _)) => path,
        Ok(kind) => panic!("accepted ({kind:?}): {body}"),
    }
}

#[test]
fn the_28_types_are_the_clients_event_types() {
    let names: Vec<String> = EVENT_TYPES
        .iter()
        .map(|name| {
            let parsed: estatekit::model::webhooks::EventType =
                serde_json::from_value(json!(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            serde_json::to_value(parsed)
                .map(|v| v.to_string())
                .unwrap_or_default()
        })
        .collect();
    let quoted: Vec<String> = EVENT_TYPES.iter().map(|n| format!("\"{n}\"")).collect();
    assert_eq!(names, quoted);
    for name in KNOWN_SHAPES {
        assert!(EVENT_TYPES.contains(&name));
    }
}

#[test]
fn a_valid_delivery_of_each_known_shape_parses() {
    let cases = [
        applied(),
        envelope(
            "CANDIDATE_PARSED",
            json!({"portalId": "p", "externalListingId": "x", "candidateSource": "PORTAL",
                "integrationType": "EMAIL", "email": "a@example.com", "firstName": "A",
                "lastName": "B", "internalId": "i-1", "number": 12, "netMonthlyIncome": 3000,
                "hasPets": {"checked": true, "answer": "a cat"}, "householdPersons": {"count": 2},
                "integration": {"id": "i", "listingId": "l", "companyIntegrationId": "c",
                    "internalId": "abc", "type": "EMAIL"}}),
        ),
        envelope(
            "LISTING_CANDIDATE_SCHEDULE_INVITED_VIEWING",
            json!({"invitationId": "inv", "listing": listing(),
                "candidate": {"id": "c", "email": "a@example.com"}}),
        ),
        envelope(
            "LISTING_CONTRACT_FLOW_STARTED",
            json!({"id": "f", "contractFlowType": "ELECTRONIC_SIGNATURE_QES",
                "contractData": {"any": [1, 2, {"deep": null}]},
                "contractFile": {"name": "c.pdf", "size": 1234, "order": 1}}),
        ),
        envelope(
            "LISTING_CONTRACT_FLOW_SIGNED",
            json!({"id": "f", "contractFlowType": "VIRTUAL", "status": null,
                "auditTrailFile": {"resourcePath": "a/b"}}),
        ),
    ];
    for body in &cases {
        assert_eq!(check(body), Ok(Operation::KnownShape), "{body}");
        // The typed Rust view agrees.
        let event: WebhookEvent =
            serde_json::from_value(body.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(event, WebhookEvent::Known(_)), "{body}");
    }
}

#[test]
fn unknown_members_and_unknown_enum_values_are_accepted() {
    let mut body = applied();
    body["extra"] = json!({"nested": [1, 2, 3]});
    body["data"]["listing"]["unit"]["floor"] = json!(3);
    body["data"]["candidateSource"] = json!("A_SOURCE_ADDED_LATER");
    assert_eq!(check(&body), Ok(Operation::KnownShape));
    let flow = envelope(
        "LISTING_CONTRACT_FLOW_STARTED",
        json!({"id": "f", "contractFlowType": "A_SIXTH_FLOW_TYPE"}),
    );
    assert_eq!(check(&flow), Ok(Operation::KnownShape));
}

#[test]
fn data_of_the_other_23_types_is_any_json() {
    for name in EVENT_TYPES.iter().filter(|n| !KNOWN_SHAPES.contains(n)) {
        for data in [
            json!(null),
            json!(1),
            json!("x"),
            json!([1]),
            json!({"id": "o"}),
        ] {
            assert_eq!(check(&envelope(name, data)), Ok(Operation::UnknownShape));
        }
    }
}

#[test]
fn an_unknown_operation_is_an_unknown_type_event_not_an_error() {
    let body = envelope("LISTING_TELEPORTED", json!({"anything": true}));
    assert_eq!(check(&body), Ok(Operation::UnknownType));
    assert!(serde_json::from_value::<KnownEvent>(body.clone()).is_err());
}

#[test]
fn each_envelope_member_missing_or_of_the_wrong_type_is_named() {
    for member in [
        "uuid",
        "operation",
        "subdomain",
        "language",
        "createdAt",
        "data",
    ] {
        let mut body = applied();
        body.as_object_mut().map(|o| o.remove(member));
        let (path, message) = check(&body).err().unwrap_or_default();
        assert_eq!(path, ".", "{member}");
        assert!(
            message.contains(&format!("missing field `{member}`")),
            "{message}"
        );
        if member == "data" {
            continue;
        }
        for wrong in [
            json!(null),
            json!(1),
            json!(true),
            json!(["x"]),
            json!({"x": 1}),
        ] {
            let mut body = applied();
            body[member] = wrong.clone();
            assert_eq!(path_of(&body), member, "{member} = {wrong}");
        }
    }
}

#[test]
fn created_at_must_be_an_iso_8601_timestamp() {
    for good in [
        "2020-09-30T10:07:28.052Z",
        "2020-09-30T10:07:28Z",
        "2020-09-30T10:07:28.123456789+02:00",
        "2020-09-30t10:07:28z",
        "2024-02-29T00:00:00Z",
        "2000-02-29T00:00:00Z",
    ] {
        assert!(is_timestamp(good), "{good}");
    }
    for bad in [
        "",
        "yesterday",
        "2020-09-30",
        "2020-09-30 10:07:28Z",
        "2020-13-30T10:07:28Z",
        "2020-02-31T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2020-04-31T00:00:00Z",
        "2020-09-30T25:07:28Z",
        "2020-09-30T10:07:28",
        "2020-09-30T10:07:28.Z",
        "2020-09-30T10:07:28+0200",
        "2020-09-30T10:07:28Z ",
        "１２３４-09-30T10:07:28Z",
    ] {
        assert!(!is_timestamp(bad), "{bad}");
        let mut body = applied();
        body["createdAt"] = json!(bad);
        let (path, message) = check(&body).err().unwrap_or_default();
        assert_eq!(path, "createdAt");
        assert!(message.contains("ISO 8601"), "{message}");
    }
}

#[test]
fn a_known_type_with_wrong_data_names_the_path() {
    let cases = [
        (json!(null), "data"),
        (json!("text"), "data"),
        (json!({"id": "c"}), "data"),
    ];
    for (data, path) in cases {
        assert_eq!(path_of(&envelope("LISTING_CANDIDATE_APPLIED", data)), path);
    }
    let mut body = applied();
    body["data"]["listing"]["unit"]["name"] = json!(5);
    assert_eq!(path_of(&body), "data.listing.unit.name");
    let mut body = applied();
    body["data"]["listing"]["property"]["address"]["location"] = json!({"lat": "north"});
    assert_eq!(path_of(&body), "data.listing.property.address.location.lat");
    let flow = envelope("LISTING_CONTRACT_FLOW_SIGNED", json!({"id": "f"}));
    let (path, message) = check(&flow).err().unwrap_or_default();
    assert_eq!(path, "data");
    assert!(message.contains("contractFlowType"), "{message}");
    let parsed = envelope(
        "CANDIDATE_PARSED",
        json!({"portalId": "p", "externalListingId": "x", "candidateSource": "PORTAL",
            "integrationType": "EMAIL", "email": "a@example.com", "firstName": "A", "lastName": "B",
            "integration": {"id": "i", "listingId": "l", "companyIntegrationId": "c",
                "internalId": true, "type": "EMAIL"}}),
    );
    assert_eq!(path_of(&parsed), "data.integration.internalId");
}

#[test]
fn large_bodies_parse() {
    let big = "x".repeat(10 * 1024 * 1024);
    let mut body = applied();
    body["data"]["note"] = json!(big);
    assert_eq!(check(&body), Ok(Operation::KnownShape));
    let body = envelope("UNIT_UPDATED", json!([big]));
    assert_eq!(check(&body), Ok(Operation::UnknownShape));
}

#[test]
fn deep_nesting_never_crashes() {
    // serde_json stops building a Value at 128 levels with an error, and skips an ignored value
    // without recursing; in JavaScript JSON.parse parses it and the module never walks data it
    // does not know (tests/consumers/webhooks.test.mjs).
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = format!(
        r#"{{"uuid":"u","operation":"UNIT_UPDATED","subdomain":"s","language":"en","createdAt":"2020-09-30T10:07:28Z","data":{deep}}}"#
    );
    assert!(serde_json::from_str::<Value>(&text).is_err());
    assert!(serde_json::from_str::<Delivery<estatekit_events::Opaque>>(&text).is_ok());
}

#[test]
fn duplicate_keys_natively_are_an_error() {
    // JavaScript's JSON.parse keeps the last value of a repeated key, and the wrapper parses
    // with it; serde_json's derived structs refuse the repetition.
    let text = r#"{"uuid":"a","uuid":"b","operation":"UNIT_UPDATED","subdomain":"s","language":"en","createdAt":"2020-09-30T10:07:28Z","data":1}"#;
    let e = serde_json::from_str::<Delivery<Value>>(text)
        .err()
        .map(|e| e.to_string());
    assert!(e.unwrap_or_default().contains("duplicate field `uuid`"));
}

#[test]
fn the_typed_view_parses_what_the_check_accepts() {
    for name in EVENT_TYPES {
        let body = envelope(name, json!({"id": "o"}));
        let typed = WebhookEvent::deserialize(&body).is_ok();
        assert_eq!(typed, check(&body).is_ok(), "{name}");
    }
}
