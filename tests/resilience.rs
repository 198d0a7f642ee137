//! Browser tests of retries, backoff, Retry-After, cancellation during backoff, timeouts and
//! client-side rate limiting. Delays are asserted as the values the client chose (reported to
//! `onRetry`) and attempts as requests the emulator counted, never as wall-clock thresholds.
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

/// A client whose `onRetry` events are recorded.
fn recording_client(base: &str, token: &str, extra: &str) -> (Client, Rc<RefCell<Vec<JsValue>>>) {
    let events = Rc::new(RefCell::new(Vec::new()));
    let sink = events.clone();
    let on_retry = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| sink.borrow_mut().push(e));
    let options = json(&format!(
        r#"{{"baseUrl":"{base}","token":"{token}"{extra}}}"#
    ));
    js_sys::Reflect::set(&options, &"onRetry".into(), &on_retry.into_js_value()).unwrap();
    (Client::new(ts(options)).unwrap(), events)
}

fn delays(events: &Rc<RefCell<Vec<JsValue>>>) -> Vec<f64> {
    events
        .borrow()
        .iter()
        .map(|e| get(e, "delayMs").as_f64().unwrap())
        .collect()
}

async fn route_count(token: &str, route: &str) -> f64 {
    let (_, routes) = counters(token).await;
    get(&routes, route).as_f64().unwrap_or(0.0)
}

#[wasm_bindgen_test]
async fn safe_requests_are_retried_then_succeed() {
    let token = new_account().await;
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","retry":{"maxRetries":3,"baseDelayMs":1,"maxDelayMs":5}"#,
    );
    fault_on("GET", WEBHOOKS, &token, r#","status":503,"times":2"#).await;
    ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    assert_eq!(route_count(&token, &format!("GET {WEBHOOKS}")).await, 3.0);
    let ev = events.borrow().clone();
    assert_eq!(ev.len(), 2);
    assert_eq!(get(&ev[0], "attempt").as_f64(), Some(1.0));
    assert_eq!(get(&ev[1], "attempt").as_f64(), Some(2.0));
    assert_eq!(get_str(&ev[0], "kind").as_deref(), Some("http"));
    assert_eq!(get(&ev[0], "status").as_f64(), Some(503.0));
    assert_eq!(
        get_str(&ev[0], "operation").as_deref(),
        Some("list webhooks")
    );
    assert!(
        delays(&events).iter().all(|d| (0.0..=5.0).contains(d)),
        "{:?}",
        delays(&events)
    );

    // GET document, DELETE and the messages query are retry-safe too.
    for (method, path, call) in [
        ("GET", "/api/file-storage/company/documents/metadata", 0),
        ("DELETE", "/api/external-integrations/webhooks/*", 1),
        ("POST", "/api/reporting/graphql", 2),
    ] {
        fault(&format!(
            r#"{{"method":"{method}","path":"{path}","token":"{token}","status":502}}"#
        ))
        .await;
        let p = match call {
            0 => c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED)),
            1 => c.delete_webhook(JsValue::from_str("nope"), opt(JsValue::UNDEFINED)),
            _ => c.list_messages(
                ts(json(r#"{"candidateId":"cand-1"}"#)),
                opt(JsValue::UNDEFINED),
            ),
        };
        match call {
            1 => {
                err_kind(p, "not_found", Some(404)).await;
            }
            _ => {
                ok(p).await;
            }
        }
    }
    assert_eq!(events.borrow().len(), 5);
}

#[wasm_bindgen_test]
async fn gives_up_after_the_limit_and_reports_attempts() {
    let token = new_account().await;
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","retry":{"maxRetries":2,"baseDelayMs":1,"maxDelayMs":2}"#,
    );
    fault_on("GET", WEBHOOKS, &token, r#","status":500,"times":10"#).await;
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "http", Some(500)).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(3.0));
    assert_eq!(events.borrow().len(), 2);
    admin("DELETE", "/_emulator/faults", None).await;

    for status in [408, 429, 504] {
        fault_on(
            "GET",
            WEBHOOKS,
            &token,
            &format!(r#","status":{status},"headers":{{"Retry-After":"0"}}"#),
        )
        .await;
        ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    }
    for status in [400, 401, 403, 404, 501] {
        fault_on("GET", WEBHOOKS, &token, &format!(r#","status":{status}"#)).await;
        let e = err(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
        assert_eq!(
            get(&e, "attempts").as_f64(),
            Some(1.0),
            "{status} is not retried"
        );
    }
}

/// A write (a registration, an upload) may have acted after a 500 or a 502: sent once, not
/// retryable. After a 429 or a 503 the service says it did not act: sent again (core's one
/// `retryable` rule), and the write goes through.
#[wasm_bindgen_test]
async fn writes_are_resent_only_when_the_service_did_not_act() {
    let token = new_account().await;
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","retry":{"maxRetries":3,"baseDelayMs":1,"maxDelayMs":2}"#,
    );
    let webhook = || {
        ts(json(
            r#"{"type":"UNIT_CREATED","url":"https://h.example.com"}"#,
        ))
    };
    fault_on("POST", WEBHOOKS, &token, r#","status":500,"times":1"#).await;
    let e = err_kind(
        c.register_webhook(webhook(), opt(JsValue::UNDEFINED)),
        "http",
        Some(500),
    )
    .await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert_eq!(get(&e, "retryable").as_bool(), Some(false));
    assert_eq!(route_count(&token, &format!("POST {WEBHOOKS}")).await, 1.0);
    assert!(events.borrow().is_empty());
    fault_on("POST", WEBHOOKS, &token, r#","status":503,"times":2"#).await;
    ok(c.register_webhook(webhook(), opt(JsValue::UNDEFINED))).await;
    assert_eq!(route_count(&token, &format!("POST {WEBHOOKS}")).await, 4.0);
    assert_eq!(events.borrow().len(), 2, "two retries after the two 503s");

    let docs = "/api/file-storage/company/documents";
    let upload = || {
        let input = json(r#"{"resourcePath":"units/1"}"#);
        let blob = web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&"x".into())).unwrap();
        js_sys::Reflect::set(&input, &"file".into(), &blob).unwrap();
        ts(input)
    };
    fault_on("POST", docs, &token, r#","status":502,"times":1"#).await;
    let e = err_kind(
        c.upload_document(upload(), opt(JsValue::UNDEFINED)),
        "http",
        Some(502),
    )
    .await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert_eq!(get(&e, "retryable").as_bool(), Some(false));
    assert_eq!(route_count(&token, &format!("POST {docs}")).await, 1.0);
    fault_on("POST", docs, &token, r#","status":429,"times":1"#).await;
    ok(c.upload_document(upload(), opt(JsValue::UNDEFINED))).await;
    assert_eq!(route_count(&token, &format!("POST {docs}")).await, 3.0);
    assert_eq!(events.borrow().len(), 3, "one more retry after the 429");
}

#[wasm_bindgen_test]
async fn retry_after_and_rate_limit_reset_are_honoured_and_capped() {
    let token = new_account().await;
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","retry":{"maxRetries":1,"baseDelayMs":1,"maxDelayMs":1500}"#,
    );
    let faults = [
        r#""status":429,"headers":{"Retry-After":"1"}"#,
        r#""status":429,"headers":{"Retry-After":"120"}"#,
        r#""status":429,"headers":{"X-RateLimit-Reset":"0.2"},"removeHeaders":["Retry-After"]"#,
        "HTTP-DATE",
        // Every answer carries X-RateLimit-Reset: for a 5xx it says nothing, backoff applies.
        r#""status":503,"headers":{"X-RateLimit-Reset":"45"}"#,
    ];
    for f in faults {
        let f = if f == "HTTP-DATE" {
            // Made just before use: an HTTP date 3 s ahead (second precision).
            let at = js_sys::Date::new(&JsValue::from(js_sys::Date::now() + 3_000.0));
            format!(
                r#""status":503,"headers":{{"Retry-After":"{}"}}"#,
                String::from(at.to_utc_string())
            )
        } else {
            f.to_string()
        };
        fault_on("GET", WEBHOOKS, &token, &format!(r#",{f}"#)).await;
        ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    }
    let d = delays(&events);
    assert_eq!(
        d[..3],
        [1000.0, 1500.0, 200.0],
        "seconds, capped, X-RateLimit-Reset on 429"
    );
    assert!(d[3] > 0.0 && d[3] <= 1500.0, "HTTP date, capped: {}", d[3]);
    assert!(
        d[4] <= 1.0,
        "503 with X-RateLimit-Reset backs off by jitter: {}",
        d[4]
    );
}

#[wasm_bindgen_test]
async fn the_timeout_bounds_the_whole_call() {
    let token = new_account().await;
    // A retry that would wait past the deadline is not made: the last answer is the result.
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","timeoutMs":500,"retry":{"maxRetries":5,"maxDelayMs":5000}"#,
    );
    fault_on(
        "GET",
        WEBHOOKS,
        &token,
        r#","status":503,"times":10,"headers":{"Retry-After":"1"}"#,
    )
    .await;
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "http", Some(503)).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert!(events.borrow().is_empty());
    admin("DELETE", "/_emulator/faults", None).await;

    // A retry that fits starts, and the deadline then cuts it short.
    fault(&format!(
        r#"[{{"method":"GET","path":"{WEBHOOKS}","token":"{token}","status":503,"headers":{{"Retry-After":"0.1"}}}},
            {{"method":"GET","path":"{WEBHOOKS}","token":"{token}","delayMs":3000}}]"#
    ))
    .await;
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "timeout", None).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(2.0));
    assert!(message(&e).contains("500 ms"), "{}", message(&e));
    admin("DELETE", "/_emulator/faults", None).await;
}

#[wasm_bindgen_test]
async fn network_failures_are_retried() {
    let (c, events) = recording_client(
        "http://127.0.0.1:9",
        "t",
        r#","retry":{"maxRetries":2,"baseDelayMs":1,"maxDelayMs":2}"#,
    );
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "network", None).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(3.0));
    let kinds: Vec<String> = events
        .borrow()
        .iter()
        .map(|e| get_str(e, "kind").unwrap())
        .collect();
    assert_eq!(kinds, ["network", "network"]);
}

#[wasm_bindgen_test]
async fn abort_during_backoff_is_immediate_and_final() {
    let token = new_account().await;
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","retry":{"maxRetries":1,"maxDelayMs":60000}"#,
    );
    fault_on(
        "GET",
        WEBHOOKS,
        &token,
        r#","status":503,"times":5,"headers":{"Retry-After":"30"}"#,
    )
    .await;
    let controller = web_sys::AbortController::new().unwrap();
    let options = with_signal(&controller);
    js_sys::Reflect::set(&options, &"timeoutMs".into(), &JsValue::from(0)).unwrap();
    let pending = c.list_webhooks(opt(options));
    // The first attempt's 503 and its Retry-After reach the client when they do (a busy machine
    // takes longer): the wait is for that retry, bounded, not a fixed sleep.
    wait_until("the client's retry after the first 503", 20_000.0, || {
        !events.borrow().is_empty()
    })
    .await;
    assert_eq!(delays(&events), [30_000.0], "the client is waiting 30 s");
    controller.abort();
    let e = err_kind(pending, "aborted", None).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert_eq!(
        route_count(&token, &format!("GET {WEBHOOKS}")).await,
        1.0,
        "no retry after abort"
    );
    admin("DELETE", "/_emulator/faults", None).await;
}

/// An abort reason that is not an `Error` (`abort("x")`, `abort(42)`), while the request is in
/// flight with no timeout and with one: the call rejects with kind `aborted`, and the client
/// keeps working (the caller's signal never reaches `fetch` itself).
#[wasm_bindgen_test]
async fn any_abort_reason_mid_request_is_aborted() {
    let token = new_account().await;
    let c = client_with(&format!(
        r#"{{"baseUrl":"{}","token":"{token}"}}"#,
        emulator()
    ));
    fault_on("GET", WEBHOOKS, &token, r#","delayMs":2000,"times":4"#).await;
    for (reason, timeout_ms) in [
        (JsValue::from_str("cancelled"), 0),
        (JsValue::from(42), 0),
        (JsValue::from_str("cancelled"), 30_000),
        (JsValue::NULL, 30_000),
    ] {
        let controller = web_sys::AbortController::new().unwrap();
        let options = with_signal(&controller);
        js_sys::Reflect::set(&options, &"timeoutMs".into(), &JsValue::from(timeout_ms)).unwrap();
        let pending = c.list_webhooks(opt(options));
        sleep(200).await;
        controller.abort_with_reason(&reason);
        err_kind(pending, "aborted", None).await;
    }
    admin("DELETE", "/_emulator/faults", None).await;
    ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
}

#[wasm_bindgen_test]
async fn timeouts_are_not_retried() {
    let token = new_account().await;
    let (c, events) = recording_client(
        emulator(),
        &token,
        r#","timeoutMs":150,"retry":{"maxRetries":3,"baseDelayMs":1}"#,
    );
    fault_on("GET", WEBHOOKS, &token, r#","delayMs":2000"#).await;
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "timeout", None).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert!(events.borrow().is_empty());
    // The per-call timeout overrides the client's.
    ok(c.list_webhooks(opt(json(r#"{"timeoutMs":5000}"#)))).await;
}

#[wasm_bindgen_test]
async fn client_side_rate_limit_queues_requests() {
    let token = new_account().await;
    let (c, _) = recording_client(emulator(), &token, r#","rateLimit":{"perMinute":2}"#);
    ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    let controller = web_sys::AbortController::new().unwrap();
    let options = with_signal(&controller);
    js_sys::Reflect::set(&options, &"timeoutMs".into(), &JsValue::from(0)).unwrap();
    let third = c.list_webhooks(opt(options));
    sleep(400).await;
    assert_eq!(
        route_count(&token, &format!("GET {WEBHOOKS}")).await,
        2.0,
        "the third call waits its turn"
    );
    controller.abort();
    let e = err_kind(third, "aborted", None).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(0.0));
    assert_eq!(route_count(&token, &format!("GET {WEBHOOKS}")).await, 2.0);
    // With a timeout, a call that cannot get a slot in time says so at once.
    let e = err_kind(
        c.list_webhooks(opt(json(r#"{"timeoutMs":1000}"#))),
        "timeout",
        None,
    )
    .await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(0.0));

    // The service's own headers: remaining 0 for 30 seconds blocks the next request, which the
    // client says (a rateWait event with the delay it chose) before it waits; until then nothing
    // is sent, however slow the machine (30 s of margin, where a 1 s reset raced a busy one).
    let (listener, seen) = {
        let seen = Rc::new(RefCell::new(Vec::<JsValue>::new()));
        let keep = seen.clone();
        let f = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| keep.borrow_mut().push(e));
        (f.into_js_value(), seen)
    };
    let options = json(&format!(
        r#"{{"baseUrl":"{}","token":"{token}","rateLimit":{{"perMinute":300}}}}"#,
        emulator()
    ));
    js_sys::Reflect::set(&options, &"onEvent".into(), &listener).unwrap();
    let c = Client::new(ts(options)).unwrap();
    fault_on(
        "GET",
        WEBHOOKS,
        &token,
        r#","headers":{"X-RateLimit-Remaining":"0","X-RateLimit-Reset":"30"}"#,
    )
    .await;
    ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    let controller = web_sys::AbortController::new().unwrap();
    let options = with_signal(&controller);
    js_sys::Reflect::set(&options, &"timeoutMs".into(), &JsValue::from(0)).unwrap();
    let next = c.list_webhooks(opt(options));
    let rate_wait = || {
        seen.borrow()
            .iter()
            .find(|e| get_str(e, "type").as_deref() == Some("rateWait"))
            .cloned()
    };
    wait_until("the blocked call's rateWait event", 20_000.0, || {
        rate_wait().is_some()
    })
    .await;
    let delay = get(&rate_wait().unwrap(), "delayMs").as_f64().unwrap();
    assert!(
        delay > 20_000.0 && delay <= 30_000.0,
        "waits for the reset 30 s away: {delay} ms"
    );
    assert_eq!(
        route_count(&token, &format!("GET {WEBHOOKS}")).await,
        3.0,
        "blocked until the reset"
    );
    controller.abort();
    err_kind(next, "aborted", None).await;
    assert_eq!(route_count(&token, &format!("GET {WEBHOOKS}")).await, 3.0);
}

#[wasm_bindgen_test]
async fn invalid_resilience_options_are_rejected() {
    for (extra, field) in [
        (r#","retry":{"maxRetries":-1}"#, "options.retry.maxRetries"),
        (r#","retry":{"tries":3}"#, "options.retry.tries"),
        (
            r#","rateLimit":{"perMinute":0}"#,
            "options.rateLimit.perMinute",
        ),
        (r#","rateLimit":{}"#, "options.rateLimit"),
        (r#","onRetry":"log""#, "options.onRetry"),
    ] {
        let options = json(&format!(
            r#"{{"baseUrl":"{}","token":"t"{extra}}}"#,
            emulator()
        ));
        let e = Client::new(ts(options)).err().expect("constructor throws");
        assert!(
            message(&e).starts_with(&format!("invalid {field}")),
            "{} / {field}",
            message(&e)
        );
    }
}

/// A `getToken` that never settles.
fn hanging_get_token() -> js_sys::Function {
    js_sys::Function::new_no_args("return new Promise(() => {})")
}

#[wasm_bindgen_test]
async fn get_token_is_bounded_by_abort_and_timeout() {
    let options = json(&format!(
        r#"{{"baseUrl":"{}","timeoutMs":300}}"#,
        emulator()
    ));
    js_sys::Reflect::set(&options, &"getToken".into(), &hanging_get_token()).unwrap();
    let c = Client::new(ts(options)).unwrap();
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "timeout", None).await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(0.0));

    let controller = web_sys::AbortController::new().unwrap();
    let pending = c.list_webhooks(opt(json(r#"{"timeoutMs":0}"#)));
    let aborting = c.list_webhooks(opt(with_signal(&controller)));
    sleep(50).await;
    controller.abort();
    err_kind(aborting, "aborted", None).await;
    drop(pending);
}

#[wasm_bindgen_test]
async fn a_failed_refresh_stays_unauthorized() {
    let options = json(&format!(r#"{{"baseUrl":"{}"}}"#, emulator()));
    let calls = js_sys::Function::new_with_args(
        "reason",
        "if (reason === 'initial') return 'expired-token'; throw new Error('refresh endpoint down');",
    );
    js_sys::Reflect::set(&options, &"getToken".into(), &calls).unwrap();
    let c = Client::new(ts(options)).unwrap();
    let e = err_kind(
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        "unauthorized",
        Some(401),
    )
    .await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert!(
        message(&e).contains("refreshing the token failed"),
        "{}",
        message(&e)
    );
    assert!(
        message(&e).contains("refresh endpoint down"),
        "{}",
        message(&e)
    );

    // A refreshed token that is rejected too: unauthorized after two attempts, one refresh.
    let count = js_sys::Function::new_no_args(
        "const f = (reason) => { f.calls.push(reason); return 'still-wrong-' + f.calls.length; }; f.calls = []; return f;",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let options = json(&format!(r#"{{"baseUrl":"{}"}}"#, emulator()));
    js_sys::Reflect::set(&options, &"getToken".into(), &count).unwrap();
    let c = Client::new(ts(options)).unwrap();
    let e = err_kind(
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        "unauthorized",
        Some(401),
    )
    .await;
    assert_eq!(get(&e, "attempts").as_f64(), Some(2.0));
    assert_eq!(
        stringify(&get(&count, "calls")),
        r#"["initial","unauthorized"]"#
    );
}
