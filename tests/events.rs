//! Browser tests of request events (`onEvent`): the exact sequence for a plain call, a retried
//! call, a refreshed token, an aborted and a timed-out call; the rate-limit figures; distinct
//! `callId`s; a throwing listener changes nothing; no event carries the token; every event
//! exactly as its declaration (`ClientEvent`) says.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use estatekit::Client;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const WEBHOOKS: &str = "/api/external-integrations/webhooks";

/// A listener that keeps every event it is given, and the events so far.
fn recorder() -> (js_sys::Function, Rc<RefCell<Vec<JsValue>>>) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let keep = seen.clone();
    let f = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| keep.borrow_mut().push(e));
    (f.into_js_value().unchecked_into(), seen)
}

/// A client whose options are `extra` (JSON members, each preceded by a comma) plus `onEvent`.
fn observed(token: &str, extra: &str) -> (Client, Rc<RefCell<Vec<JsValue>>>) {
    let (listener, seen) = recorder();
    let options = json(&format!(
        r#"{{"baseUrl":"{}","token":"{token}"{extra}}}"#,
        emulator()
    ));
    js_sys::Reflect::set(&options, &"onEvent".into(), &listener).unwrap();
    (Client::new(ts(options)).unwrap(), seen)
}

/// `type` of each event, each checked against its declaration first ([`as_declared`]).
fn types(events: &[JsValue]) -> Vec<String> {
    events.iter().for_each(as_declared);
    events.iter().map(|e| get_str(e, "type").unwrap()).collect()
}

/// An event is exactly what its declaration says (`ClientEvent`, from which its TypeScript type is
/// derived): read into it by serde and written again, it has the same keys in the same order and
/// the same values (the events are built by js/events.js from the module's plain values).
fn as_declared(event: &JsValue) {
    let read: estatekit_core::model::events::ClientEvent =
        serde_wasm_bindgen::from_value(event.clone())
            .unwrap_or_else(|e| panic!("{} is not a ClientEvent: {e}", stringify(event)));
    let written = serde_wasm_bindgen::to_value(&read).unwrap();
    assert_eq!(
        stringify(&written),
        stringify(event),
        "an event as declared"
    );
}

fn num(e: &JsValue, key: &str) -> f64 {
    get(e, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{key} of {}", stringify(e)))
}

/// Every event belongs to one call and names its operation.
fn one_call(events: &[JsValue], operation: &str) -> f64 {
    let id = num(&events[0], "callId");
    for e in events {
        assert_eq!(num(e, "callId"), id, "{}", stringify(e));
        assert_eq!(get_str(e, "operation").as_deref(), Some(operation));
    }
    id
}

#[wasm_bindgen_test]
async fn a_plain_call() {
    let token = new_account().await;
    let (c, seen) = observed(&token, "");
    ok(c.list_webhooks(None)).await;
    let events = seen.borrow().clone();
    assert_eq!(types(&events), ["request", "response", "done"]);
    one_call(&events, "listWebhooks");
    let (request, response, done) = (&events[0], &events[1], &events[2]);
    assert_eq!(get_str(request, "method").as_deref(), Some("GET"));
    assert_eq!(get_str(request, "path").as_deref(), Some(WEBHOOKS));
    assert_eq!(num(request, "attempt"), 1.0);
    assert_eq!(num(response, "status"), 200.0);
    assert!(num(response, "durationMs") >= 0.0);
    assert!(get_str(response, "requestId").unwrap().starts_with("req-"));
    assert_eq!(num(done, "attempts"), 1.0);
    assert!(num(done, "durationMs") >= num(response, "durationMs"));
    assert!(get(done, "status").is_undefined());
}

#[wasm_bindgen_test]
async fn a_response_carries_the_rate_limit_figures() {
    let token = new_account().await;
    let body = format!(r#"{{"rateLimit":100,"token":"{token}"}}"#);
    admin("POST", "/_emulator/config", Some(&body)).await;
    let (c, seen) = observed(&token, "");
    ok(c.list_webhooks(None)).await;
    let events = seen.borrow().clone();
    // Each event as declared (`types`), `rateLimit` (built from three values) included.
    assert_eq!(types(&events), ["request", "response", "done"]);
    let rate = get(&events[1], "rateLimit");
    assert_eq!(num(&rate, "perWindow"), 100.0, "{}", stringify(&events[1]));
    assert_eq!(num(&rate, "remaining"), 99.0, "{}", stringify(&events[1]));
    assert!(num(&rate, "resetMs") >= 0.0, "{}", stringify(&events[1]));
}

#[wasm_bindgen_test]
async fn paths_carry_the_encoded_id_and_query() {
    let token = new_account().await;
    let (c, seen) = observed(&token, "");
    let e = err(c.get_document("a/b c".into(), None)).await;
    ok(c.list_documents(opt(json(r#"{"types":["PRE-MOVE_IN"],"take":2}"#)), None)).await;
    let events = seen.borrow().clone();
    let paths: Vec<String> = events
        .iter()
        .filter(|e| get_str(e, "type").as_deref() == Some("request"))
        .map(|e| get_str(e, "path").unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "/api/file-storage/company/documents/a%2Fb%20c/metadata",
            "/api/file-storage/company/documents/metadata?types=PRE-MOVE_IN&take=2"
        ]
    );
    // The error event says what the ApiError says.
    let failed = &events[2];
    assert_eq!(get_str(failed, "type").as_deref(), Some("error"));
    assert_eq!(get_str(failed, "kind"), get_str(&e, "kind"));
    assert_eq!(get(failed, "status").as_f64(), get(&e, "status").as_f64());
    assert!(get(failed, "status").as_f64().is_some());
    assert_eq!(num(failed, "attempts"), 1.0);
    assert_ne!(num(&events[0], "callId"), num(&events[3], "callId"));
}

#[wasm_bindgen_test]
async fn a_retried_call() {
    let token = new_account().await;
    let (c, seen) = observed(&token, r#","retry":{"baseDelayMs":1}"#);
    fault_on("GET", WEBHOOKS, &token, r#","status":503,"times":1"#).await;
    ok(c.list_webhooks(None)).await;
    let events = seen.borrow().clone();
    assert_eq!(
        types(&events),
        ["request", "response", "retry", "request", "response", "done"]
    );
    one_call(&events, "listWebhooks");
    assert_eq!(num(&events[1], "status"), 503.0);
    let retry = &events[2];
    assert_eq!(num(retry, "attempt"), 1.0);
    assert_eq!(get_str(retry, "kind").as_deref(), Some("http"));
    assert_eq!(num(retry, "status"), 503.0);
    assert!(num(retry, "delayMs") >= 0.0);
    assert_eq!(num(&events[3], "attempt"), 2.0);
    assert_eq!(num(&events[4], "status"), 200.0);
    assert_eq!(num(&events[5], "attempts"), 2.0);
}

#[wasm_bindgen_test]
async fn a_refreshed_token() {
    let token = new_account().await;
    let (listener, seen) = recorder();
    let answer = token.clone();
    let get_token = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |_| answer.clone().into());
    let options = json(&format!(r#"{{"baseUrl":"{}"}}"#, emulator()));
    js_sys::Reflect::set(&options, &"getToken".into(), &get_token.into_js_value()).unwrap();
    js_sys::Reflect::set(&options, &"onEvent".into(), &listener).unwrap();
    let c = Client::new(ts(options)).unwrap();
    fault_on("GET", WEBHOOKS, &token, r#","status":401,"times":1"#).await;
    ok(c.list_webhooks(None)).await;
    let events = seen.borrow().clone();
    assert_eq!(
        types(&events),
        ["token", "request", "response", "token", "request", "response", "done"]
    );
    one_call(&events, "listWebhooks");
    assert_eq!(get_str(&events[0], "reason").as_deref(), Some("initial"));
    assert_eq!(num(&events[2], "status"), 401.0);
    assert_eq!(
        get_str(&events[3], "reason").as_deref(),
        Some("unauthorized")
    );
    assert_eq!(num(&events[4], "attempt"), 2.0);
    assert_eq!(num(&events[5], "status"), 200.0);
    assert_eq!(num(&events[6], "attempts"), 2.0);
}

#[wasm_bindgen_test]
async fn an_aborted_call() {
    let token = new_account().await;
    let (c, seen) = observed(&token, "");
    fault_on("GET", WEBHOOKS, &token, r#","delayMs":2000"#).await;
    let controller = web_sys::AbortController::new().unwrap();
    let pending = c.list_webhooks(opt(with_signal(&controller)));
    sleep(100).await;
    controller.abort();
    err_kind(pending, "aborted", None).await;
    let events = seen.borrow().clone();
    assert_eq!(types(&events), ["request", "error"]);
    one_call(&events, "listWebhooks");
    let error = &events[1];
    assert_eq!(get_str(error, "kind").as_deref(), Some("aborted"));
    assert_eq!(num(error, "attempts"), 1.0);
    assert!(get(error, "status").is_undefined());
}

#[wasm_bindgen_test]
async fn a_timed_out_call() {
    let token = new_account().await;
    let (c, seen) = observed(&token, r#","timeoutMs":100"#);
    fault_on("GET", WEBHOOKS, &token, r#","delayMs":2000"#).await;
    err_kind(c.list_webhooks(None), "timeout", None).await;
    let events = seen.borrow().clone();
    assert_eq!(types(&events), ["request", "error"]);
    assert_eq!(get_str(&events[1], "kind").as_deref(), Some("timeout"));
    assert!(num(&events[1], "durationMs") >= 90.0);
}

#[wasm_bindgen_test]
async fn concurrent_calls_have_distinct_ids() {
    let token = new_account().await;
    let (c, seen) = observed(&token, "");
    let calls: Vec<_> = (0..5).map(|_| c.list_webhooks(None)).collect();
    for p in calls {
        ok(p).await;
    }
    let events = seen.borrow().clone();
    let mut ids: Vec<u64> = events.iter().map(|e| num(e, "callId") as u64).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(
        ids.len(),
        5,
        "{}",
        stringify(&js_sys::Array::from_iter(events.iter()))
    );
    for id in ids {
        let of_call: Vec<JsValue> = events
            .iter()
            .filter(|e| num(e, "callId") as u64 == id)
            .cloned()
            .collect();
        assert_eq!(types(&of_call), ["request", "response", "done"]);
    }
}

#[wasm_bindgen_test]
async fn a_throwing_listener_changes_nothing() {
    let token = new_account().await;
    let thrower = js_sys::Function::new_with_args("event", "throw new Error('listener broke')");
    let options = json(&format!(
        r#"{{"baseUrl":"{}","token":"{token}"}}"#,
        emulator()
    ));
    js_sys::Reflect::set(&options, &"onEvent".into(), &thrower).unwrap();
    let c = Client::new(ts(options)).unwrap();
    let quiet = client(&token);
    let with = ok(c.list_webhooks(None)).await;
    let without = ok(quiet.list_webhooks(None)).await;
    assert_eq!(stringify(&with), stringify(&without));
    let e = err_kind(
        c.get_document("missing".into(), None),
        "not_found",
        Some(404),
    )
    .await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
async fn per_call_listeners_see_their_call_too() {
    let token = new_account().await;
    let (c, client_seen) = observed(&token, "");
    let (listener, call_seen) = recorder();
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"onEvent".into(), &listener).unwrap();
    ok(c.list_webhooks(opt(options.into()))).await;
    ok(c.list_webhooks(None)).await;
    assert_eq!(types(&call_seen.borrow()), ["request", "response", "done"]);
    assert_eq!(client_seen.borrow().len(), 6);
    let (upload_listener, upload_seen) = recorder();
    let input = json(r#"{"resourcePath":"tenants/t-1"}"#);
    let blob = web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&"hello".into())).unwrap();
    js_sys::Reflect::set(&input, &"file".into(), &blob).unwrap();
    let upload_options = js_sys::Object::new();
    js_sys::Reflect::set(&upload_options, &"onEvent".into(), &upload_listener).unwrap();
    ok(c.upload_document(ts(input), opt(upload_options.into()))).await;
    let upload = upload_seen.borrow().clone();
    assert_eq!(types(&upload), ["request", "response", "done"]);
    one_call(&upload, "uploadDocument");
    assert_eq!(get_str(&upload[0], "method").as_deref(), Some("POST"));
}

#[wasm_bindgen_test]
async fn no_event_carries_the_token() {
    let token = new_account().await;
    let (c, seen) = observed(&token, r#","retry":{"baseDelayMs":1}"#);
    // The service echoes the token in its request id, and once in an error body.
    fault_on(
        "GET",
        WEBHOOKS,
        &token,
        &format!(r#","status":503,"times":1,"headers":{{"X-Request-Id":"{token}"}},"body":"{{\"message\":\"bad {token}\"}}""#),
    )
    .await;
    fault_on(
        "GET",
        WEBHOOKS,
        &token,
        &format!(r#","headers":{{"X-Request-Id":"id-{token}"}}"#),
    )
    .await;
    ok(c.list_webhooks(None)).await;
    let events = seen.borrow().clone();
    assert_eq!(
        types(&events),
        ["request", "response", "retry", "request", "response", "done"]
    );
    for e in &events {
        assert!(!stringify(e).contains(&token), "{}", stringify(e));
    }
    assert_eq!(
        get_str(&events[1], "requestId").as_deref(),
        Some("[redacted]")
    );
    assert_eq!(
        get_str(&events[4], "requestId").as_deref(),
        Some("id-[redacted]")
    );
}

#[wasm_bindgen_test]
async fn refused_input_is_an_error_event_without_requests() {
    let token = new_account().await;
    let (c, client_seen) = observed(&token, "");
    let (listener, call_seen) = recorder();
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"onEvent".into(), &listener).unwrap();
    err_kind(
        c.list_messages(ts(json("{}")), opt(options.into())),
        "invalid_input",
        None,
    )
    .await;
    for seen in [&client_seen, &call_seen] {
        let events = seen.borrow().clone();
        assert_eq!(types(&events), ["error"]);
        one_call(&events, "listMessages");
        assert_eq!(
            get_str(&events[0], "kind").as_deref(),
            Some("invalid_input")
        );
        assert_eq!(num(&events[0], "attempts"), 0.0);
    }
    let (counted, _) = counters(&token).await;
    assert_eq!(counted, 0, "nothing was sent");
}

#[wasm_bindgen_test]
async fn a_refused_call_carries_the_request_id_of_its_answer() {
    let token = new_account().await;
    let (c, seen) = observed(&token, "");
    let e = err_kind(
        c.get_document(JsValue::from_str("no-such-document"), None),
        "not_found",
        Some(404),
    )
    .await;
    let events = seen.borrow().clone();
    let response = events
        .iter()
        .find(|e| get_str(e, "type").as_deref() == Some("response"))
        .expect("a response event");
    let id = get_str(&e, "requestId").expect("the error's requestId");
    assert!(id.starts_with("req-"), "{id}");
    // The same value as the answer's event, for a support ticket.
    assert_eq!(get_str(response, "requestId"), Some(id));
    // The error survives JSON: message, kind, status and request id kept.
    let text = stringify(&e);
    for part in [
        "\"message\":\"get document failed",
        "\"kind\":\"not_found\"",
        "\"status\":404",
        "\"requestId\":\"req-",
    ] {
        assert!(text.contains(part), "{text}");
    }
}
