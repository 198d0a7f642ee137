//! Browser tests of the messages query against the emulator's GraphQL schema.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use js_sys::Object;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn keys(v: &JsValue) -> Vec<String> {
    Object::keys(v.unchecked_ref::<Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect()
}

#[wasm_bindgen_test]
async fn conversation_of_a_candidate() {
    let token = new_account().await;
    let c = client(&token);
    let list = items(
        &ok(c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(JsValue::UNDEFINED),
        ))
        .await,
    );
    assert!(
        list.len() >= 8,
        "seeded conversation has >= 8 messages, got {}",
        list.len()
    );
    let mut saw = (false, false, false, false);
    for m in &list {
        assert_eq!(get_str(m, "candidateId").as_deref(), Some("cand-1"));
        let mut k = keys(m);
        k.sort();
        assert_eq!(
            k,
            [
                "attachments",
                "candidateId",
                "id",
                "isRead",
                "replyToMessageId",
                "sentBy",
                "text",
                "userId"
            ],
            "default selection: every field but user"
        );
        match get_str(m, "sentBy").as_deref() {
            Some("ADMIN") => saw.0 = true,
            Some("CANDIDATE") => saw.1 = true,
            other => panic!("unexpected sentBy {other:?}"),
        }
        saw.2 |= get(m, "replyToMessageId").is_string();
        for a in items(&get(m, "attachments")) {
            saw.3 = true;
            let mut k = keys(&a);
            k.sort();
            assert_eq!(k, ["id", "name", "resourcePath", "size", "type"]);
            assert!(get(&a, "size").as_f64().is_some());
        }
    }
    assert_eq!(
        saw,
        (true, true, true, true),
        "admin, candidate, replies and attachments"
    );
    assert!(
        list.iter()
            .any(|m| get_str(m, "text").as_deref() == Some("<img src=x onerror=alert(1)>")),
        "hostile text arrives as plain data"
    );
}

#[wasm_bindgen_test]
async fn filters_fields_paging_and_sorting() {
    let token = new_account().await;
    let c = client(&token);
    for filter in [
        r#"{"contactId":"contact-1"}"#,
        r#"{"listingId":"listing-1"}"#,
        r#"{"candidateId":"cand-2","externalContactId":"x"}"#,
    ] {
        let list = items(&ok(c.list_messages(ts(json(filter)), opt(JsValue::UNDEFINED))).await);
        assert!(!list.is_empty(), "{filter}");
    }
    let list = items(
        &ok(c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(json(
                r#"{"fields":["id","text"],"userFields":["id","firstName"]}"#,
            )),
        ))
        .await,
    );
    for m in &list {
        let mut k = keys(m);
        k.sort();
        assert_eq!(k, ["id", "text", "user"]);
        assert!(
            get_str(&get(m, "user"), "firstName").is_some(),
            "{}",
            stringify(m)
        );
    }
    let all = items(
        &ok(c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(json(
                r#"{"fields":["id"],"sort":{"fieldName":"id","direction":"ASC"}}"#,
            )),
        ))
        .await,
    );
    let desc = items(
        &ok(c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(json(
                r#"{"fields":["id"],"sort":{"fieldName":"id","direction":"DESC"}}"#,
            )),
        ))
        .await,
    );
    let ids = |l: &[JsValue]| {
        l.iter()
            .map(|m| get_str(m, "id").unwrap())
            .collect::<Vec<_>>()
    };
    let mut reversed = ids(&desc);
    reversed.reverse();
    assert_eq!(ids(&all), reversed);
    let page = items(&ok(c.list_messages(ts(json(r#"{"candidateId":"cand-1"}"#)), opt(json(r#"{"fields":["id"],"sort":{"fieldName":"id","direction":"ASC"},"paging":{"skip":2,"take":3}}"#)))).await);
    assert_eq!(ids(&page), ids(&all)[2..5].to_vec());
}

#[wasm_bindgen_test]
async fn missing_filter_is_rejected_before_sending() {
    let token = new_account().await;
    let c = client(&token);
    for (filter, options, field) in [
        ("{}", "{}", "filter"),
        (r#"{"externalContactId":"x"}"#, "{}", "filter"),
        (r#"{"candidateID":"cand-1"}"#, "{}", "filter"),
        (r#"{"candidateId":5}"#, "{}", "filter.candidateId"),
        (
            r#"{"candidateId":"cand-1"}"#,
            r#"{"fields":["id","secret"]}"#,
            "options.fields[1]",
        ),
        (
            r#"{"candidateId":"cand-1"}"#,
            r#"{"paging":{"take":-5}}"#,
            "options.paging.take",
        ),
        (
            r#"{"candidateId":"cand-1"}"#,
            r#"{"sort":{"fieldName":"id","direction":"sideways"}}"#,
            "options.sort.direction",
        ),
    ] {
        let e = err_kind(
            c.list_messages(ts(json(filter)), opt(json(options))),
            "invalid_input",
            None,
        )
        .await;
        assert!(
            message(&e).starts_with(&format!("invalid {field}")),
            "{} / {field}",
            message(&e)
        );
    }
    err_kind(
        c.list_messages(ts(JsValue::UNDEFINED), opt(JsValue::UNDEFINED)),
        "invalid_input",
        None,
    )
    .await;
    assert_eq!(counters(&token).await.0, 0, "nothing reached the service");
}

#[wasm_bindgen_test]
async fn graphql_errors_carry_details() {
    let token = new_account().await;
    let c = client(&token);
    let e = err_kind(
        c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(json(r#"{"sort":{"fieldName":"noSuchField"}}"#)),
        ),
        "graphql",
        Some(200),
    )
    .await;
    let details = items(&get(&e, "details"));
    assert!(!details.is_empty());
    assert!(get_str(&details[0], "message").is_some());

    // The service's own "no filter" error, as a raw request would get it.
    let path = "/api/reporting/graphql";
    fault(&format!(r#"{{"path":"{path}","token":"{token}","status":400,"body":"{{\"errors\":[{{\"message\":\"filter required\"}}],\"data\":{{\"messages\":[]}}}}","contentType":"application/json"}}"#)).await;
    let e = err_kind(
        c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(JsValue::UNDEFINED),
        ),
        "graphql",
        Some(400),
    )
    .await;
    assert!(message(&e).contains("filter required"), "{}", message(&e));
    assert_eq!(stringify(&get(&e, "data")), r#"{"messages":[]}"#);
}

#[wasm_bindgen_test]
async fn tolerant_and_strict_decoding() {
    let token = new_account().await;
    let c = client(&token);
    let path = "/api/reporting/graphql";
    fault(&format!(r#"{{"path":"{path}","token":"{token}","status":200,"body":"{{\"data\":{{\"messages\":[{{\"id\":\"m\",\"sentBy\":\"SYSTEM\"}}]}}}}","contentType":"application/json"}}"#)).await;
    let list = items(
        &ok(c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(JsValue::UNDEFINED),
        ))
        .await,
    );
    assert_eq!(
        get_str(&list[0], "sentBy").as_deref(),
        Some("SYSTEM"),
        "unknown enum values pass"
    );

    fault(&format!(r#"{{"path":"{path}","token":"{token}","status":200,"body":"{{\"data\":{{\"messages\":[{{\"id\":\"m\",\"isRead\":\"no\"}}]}}}}","contentType":"application/json"}}"#)).await;
    let e = err_kind(
        c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(JsValue::UNDEFINED),
        ),
        "decode",
        Some(200),
    )
    .await;
    assert!(
        message(&e).contains("data.messages[0].isRead"),
        "{}",
        message(&e)
    );
    ok(c.list_messages(
        ts(json(r#"{"candidateId":"cand-1"}"#)),
        opt(JsValue::UNDEFINED),
    ))
    .await;
}
