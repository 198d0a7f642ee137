//! Browser tests of the client itself: options, tokens, `isApiError`, transport failures.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use estatekit::{is_api_error, Client};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn construct_error(options: JsValue) -> JsValue {
    let shown = stringify(&options);
    match Client::new(ts(options)) {
        Ok(_) => panic!("expected the constructor to throw for {shown}"),
        Err(e) => {
            assert!(is_api_error(&e));
            assert_eq!(get_str(&e, "kind").as_deref(), Some("invalid_input"));
            e
        }
    }
}

#[wasm_bindgen_test]
fn options_are_validated() {
    for (options, field) in [
        (
            r#"{"baseUrl":"acme.example.com","token":"t"}"#,
            "options.baseUrl",
        ),
        (
            r#"{"baseUrl":"http://acme.example.com","token":"t"}"#,
            "options.baseUrl",
        ),
        (
            r#"{"baseUrl":"https://u:p@acme.example.com","token":"t"}"#,
            "options.baseUrl",
        ),
        (
            r#"{"baseUrl":"https://acme.example.com?x=1","token":"t"}"#,
            "options.baseUrl",
        ),
        (r#"{"baseUrl":"https://acme.example.com"}"#, "options.token"),
        (
            r#"{"baseUrl":"https://acme.example.com","token":""}"#,
            "options.token",
        ),
        (
            r#"{"baseUrl":"https://acme.example.com","token":"abc\r\nX-Evil: 1"}"#,
            "options.token",
        ),
        (
            r#"{"baseUrl":"https://acme.example.com","token":"t","timeoutMs":"soon"}"#,
            "options.timeoutMs",
        ),
        (
            r#"{"baseUrl":"https://acme.example.com","token":"t","retries":3}"#,
            "options",
        ),
        (r#"{"token":"t"}"#, "options"),
    ] {
        let e = construct_error(json(options));
        assert!(
            message(&e).starts_with(&format!("invalid {field}")),
            "{} / {field}",
            message(&e)
        );
        assert!(!message(&e).contains("X-Evil"));
    }
    construct_error(JsValue::UNDEFINED);
    construct_error(JsValue::from_str("https://acme.example.com"));
    let both = json(r#"{"baseUrl":"https://acme.example.com","token":"t"}"#);
    js_sys::Reflect::set(
        &both,
        &"getToken".into(),
        &js_sys::Function::new_no_args("return 't'"),
    )
    .unwrap();
    construct_error(both);

    let c = client_with(r#"{"baseUrl":"https://Acme.Example.com/","token":"t"}"#);
    assert_eq!(c.base_url(), "https://acme.example.com");
}

#[wasm_bindgen_test]
fn the_browser_build_refuses_a_shared_rate_store() {
    // rateLimit.store is for servers (the `server` feature of the node build); its key is known.
    let options = json(
        r#"{"baseUrl":"https://acme.example.com","token":"t","rateLimit":{"perMinute":5,"key":"k"}}"#,
    );
    let store = js_sys::Object::new();
    js_sys::Reflect::set(
        &store,
        &"take".into(),
        &js_sys::Function::new_no_args("return Promise.resolve(0)"),
    )
    .unwrap();
    js_sys::Reflect::set(
        &js_sys::Reflect::get(&options, &"rateLimit".into()).unwrap(),
        &"store".into(),
        &store,
    )
    .unwrap();
    let e = construct_error(options);
    assert!(
        message(&e).starts_with("invalid options.rateLimit.store: needs the server build"),
        "{}",
        message(&e)
    );
    client_with(
        r#"{"baseUrl":"https://acme.example.com","token":"t","rateLimit":{"perMinute":5,"key":"k","store":null}}"#,
    );
}

#[wasm_bindgen_test]
async fn misspelt_keys_are_refused_with_their_path() {
    const BASE: &str = r#""baseUrl":"https://acme.example.com","token":"t""#;
    for (options, field) in [
        (format!(r#"{{{BASE},"retries":3}}"#), "options.retries"),
        (
            format!(r#"{{{BASE},"retry":{{"limt":1}}}}"#),
            "options.retry.limt",
        ),
        (
            format!(r#"{{{BASE},"rateLimit":{{"perMinute":5,"burst":2}}}}"#),
            "options.rateLimit.burst",
        ),
    ] {
        let e = construct_error(json(&options));
        assert!(
            message(&e).starts_with(&format!("invalid {field}: is not a known option")),
            "{} / {field}",
            message(&e)
        );
    }
    // A key without a value (undefined, null) is no mistake.
    let c = client_with(&format!(
        r#"{{{BASE},"retries":null,"retry":{{"limt":null}}}}"#
    ));
    // Per call: the options, the filter, nested inputs; nothing is sent.
    let e = err_kind(
        c.list_messages(
            ts(json(r#"{"candidateId":"c","candidateID":"d"}"#)),
            opt(json(r#"{"paging":{"take":5}}"#)),
        ),
        "invalid_input",
        None,
    )
    .await;
    assert!(message(&e).starts_with("invalid filter.candidateID: is not a known option"));
    let e = err_kind(
        c.list_messages(
            ts(json(r#"{"candidateId":"c"}"#)),
            opt(json(r#"{"paging":{"take":5,"takee":6}}"#)),
        ),
        "invalid_input",
        None,
    )
    .await;
    assert!(message(&e).starts_with("invalid options.paging.takee: is not a known option"));
    let e = err_kind(
        c.list_webhooks(opt(json(r#"{"timeout":5}"#))),
        "invalid_input",
        None,
    )
    .await;
    assert!(message(&e).starts_with("invalid options.timeout: is not a known option"));
    let input = json(r#"{"resourcePath":"tenants/t","metadata":{"unitID":"u"}}"#);
    js_sys::Reflect::set(&input, &"file".into(), &web_sys::Blob::new().unwrap()).unwrap();
    let e = err_kind(
        c.upload_document(ts(input), opt(JsValue::UNDEFINED)),
        "invalid_input",
        None,
    )
    .await;
    assert!(message(&e).starts_with("invalid input.metadata.unitID: is not a known option"));
}

#[wasm_bindgen_test]
fn is_api_error_is_a_precise_guard() {
    assert!(!is_api_error(&JsValue::NULL));
    assert!(!is_api_error(&JsValue::from_str("ApiError")));
    assert!(!is_api_error(&js_sys::Error::new("plain").into()));
    let fake = json(r#"{"name":"ApiError","kind":"http"}"#);
    assert!(!is_api_error(&fake), "a plain object is not an Error");
}

#[wasm_bindgen_test]
async fn network_failure_then_recovery() {
    let c = client_with(r#"{"baseUrl":"http://127.0.0.1:9","token":"t","retry":{"maxRetries":0}}"#);
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "network", None).await;
    // The message names the host; `cause` is what the browser's fetch rejected with.
    assert!(
        message(&e).contains("list webhooks failed: network error reaching 127.0.0.1:9 ("),
        "{}",
        message(&e)
    );
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    assert!(get(&e, "cause").is_instance_of::<js_sys::Error>());
    assert!(
        get(&e, "requestId").is_undefined(),
        "no answer, no request id"
    );
}

/// A `getToken` callback that records its reasons and returns the queued tokens.
fn token_source(tokens: Vec<&'static str>) -> (js_sys::Function, Rc<RefCell<Vec<String>>>) {
    let reasons = Rc::new(RefCell::new(Vec::new()));
    let seen = reasons.clone();
    let queue = RefCell::new(tokens.into_iter());
    let f = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |reason: JsValue| {
        seen.borrow_mut()
            .push(reason.as_string().unwrap_or_default());
        let next = queue.borrow_mut().next().unwrap_or("exhausted");
        // Resolve asynchronously, like a real refresh would.
        js_sys::Promise::resolve(&JsValue::from_str(next)).into()
    });
    (f.into_js_value().into(), reasons)
}

#[wasm_bindgen_test]
async fn get_token_initial_and_refresh_on_401() {
    let token = new_account().await;
    let leaked: &'static str = Box::leak(token.clone().into_boxed_str());
    let (get_token, reasons) = token_source(vec!["expired-token", leaked]);
    let options = json(&format!(r#"{{"baseUrl":"{}"}}"#, emulator()));
    js_sys::Reflect::set(&options, &"getToken".into(), &get_token).unwrap();
    let c = Client::new(ts(options)).unwrap();

    // Three concurrent calls: one initial token, one shared refresh.
    let calls = [
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED)),
    ];
    for p in calls {
        ok(p).await;
    }
    assert_eq!(*reasons.borrow(), ["initial", "unauthorized"]);
    ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    assert_eq!(reasons.borrow().len(), 2, "the fresh token is reused");
}

/// A client of the emulator whose `getToken` is the function of `body`.
fn with_get_token(body: &str) -> Client {
    let options = json(&format!(r#"{{"baseUrl":"{}"}}"#, emulator()));
    let get_token = js_sys::Function::new_no_args(body);
    js_sys::Reflect::set(&options, &"getToken".into(), &get_token).unwrap();
    Client::new(ts(options)).unwrap()
}

#[wasm_bindgen_test]
async fn get_token_failures_are_of_their_real_kind() {
    // Anything else than an ApiError or a failed fetch: the token source failed, never the
    // caller's input; not retryable, its cause kept.
    let c = with_get_token("throw new Error('token route answered HTTP 502')");
    let e = err_kind(
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        "token_source",
        None,
    )
    .await;
    assert_eq!(
        message(&e),
        "list webhooks failed: getToken failed: token route answered HTTP 502"
    );
    assert_eq!(get(&e, "retryable").as_bool(), Some(false));
    assert_eq!(get(&e, "attempts").as_f64(), Some(0.0));
    assert_eq!(
        get_str(&get(&e, "cause"), "message").as_deref(),
        Some("token route answered HTTP 502")
    );

    // An ApiError it threw keeps its kind and status; retryable by the one rule (a 502 of a
    // read: yes).
    let c = with_get_token(
        "const ApiError = globalThis[Symbol.for('estatekit.ApiError')];          throw new ApiError({ kind: 'http', status: 502, message: 'the token route answered HTTP 502' })",
    );
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "http", Some(502)).await;
    assert_eq!(get(&e, "retryable").as_bool(), Some(true));
    assert_eq!(
        message(&e),
        "list webhooks failed: getToken failed: the token route answered HTTP 502"
    );
    assert!(is_api_error(&get(&e, "cause")));

    // A failed fetch (the browser's opaque TypeError): network, retryable for a read.
    let c = with_get_token("return fetch('http://127.0.0.1:9/token')");
    let e = err_kind(c.list_webhooks(opt(JsValue::UNDEFINED)), "network", None).await;
    assert_eq!(get(&e, "retryable").as_bool(), Some(true));
    assert!(
        message(&e).starts_with("list webhooks failed: getToken failed: "),
        "{}",
        message(&e)
    );

    // A value that is not a token: a broken callback, what the caller wrote wrong.
    let c = with_get_token("return 42");
    let e = err_kind(
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        "invalid_input",
        None,
    )
    .await;
    assert!(message(&e).contains("options.getToken"), "{}", message(&e));
}

#[wasm_bindgen_test]
async fn a_404_names_the_base_urls_own_path() {
    let token = new_account().await;
    let c = client_with(&format!(
        r#"{{"baseUrl":"{}/api","token":"{token}","retry":{{"maxRetries":0}}}}"#,
        emulator()
    ));
    let e = err_kind(
        c.list_webhooks(opt(JsValue::UNDEFINED)),
        "not_found",
        Some(404),
    )
    .await;
    assert!(
        message(&e).ends_with(
            "the base URL has a path of its own, `/api`, put before each path of the interface \
             (`/api/api/...`): give the base URL without it"
        ),
        "{}",
        message(&e)
    );
}
