//! Helpers shared by the browser tests: the emulator's address (given at compile time by
//! `make test-browser`), its admin API, fresh accounts, and awaiting client promises.
//!
//! With `ESTATEKIT_TEST_HOST=in-process` at compile time (`make test-browser-in-process`), the
//! service is the emulator's WebAssembly host instead: `estatekit/testing`, imported by the test
//! page from the emulator's `/pkg/` and answering on the emulator's own origin, so that every
//! client of [`client`] sends through its `fetch` option and [`admin`] through `service.fetch`.
#![allow(dead_code)]

use estatekit::{is_api_error, Client};
use js_sys::{Promise, Reflect, JSON};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Whether the tests run against the in-process host (see the module's documentation).
pub fn in_process() -> bool {
    option_env!("ESTATEKIT_TEST_HOST") == Some("in-process")
}

/// False (and says so) when the tests run in process: for a test of the browser's network
/// stack (connections a fault drops, redirects, XMLHttpRequest upload progress), which a
/// `fetch` function in the page does not have.
pub fn over_the_network(what: &str) -> bool {
    if in_process() {
        web_sys::console::log_1(&format!("skipped in process: {what}").into());
    }
    !in_process()
}

/// `import(url)` of estatekit/testing and its `createTestService`, as a function made at run time
/// (`new Function`), not an `inline_js` module: each module of the test page is one more request
/// in the burst the page starts with, and wasm-bindgen-test-runner's file server leaves a fifth
/// connection of that burst unread (scripts/wasm-test-runner.sh).
fn import_test_service(url: &str, base_url: &str) -> Promise {
    let import = js_sys::Function::new_with_args(
        "url, baseUrl",
        "return import(url).then((m) => m.createTestService({ baseUrl, rateLimit: 0, seedDocuments: 0 }));",
    );
    import
        .call2(&JsValue::NULL, &url.into(), &base_url.into())
        .expect("importTestService threw")
        .unchecked_into()
}

thread_local! {
    /// The page's in-process service, once loaded.
    static SERVICE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// The page's in-process service (`estatekit/testing`), loaded on first use.
pub async fn service() -> JsValue {
    if let Some(s) = SERVICE.with(|s| s.borrow().clone()) {
        return s;
    }
    let url = format!("{}/pkg/testing.js", emulator());
    let s = JsFuture::from(import_test_service(&url, emulator()))
        .await
        .unwrap_or_else(|e| panic!("estatekit/testing did not load from {url}: {e:?}"));
    SERVICE.with(|cell| *cell.borrow_mut() = Some(s.clone()));
    s
}

/// Loads the in-process service when the tests run in process (a no-op otherwise): for a test
/// whose first step is a client, before any [`admin`] call.
pub async fn ready() {
    if in_process() {
        service().await;
    }
}

/// The `fetch` the tests' requests go through: the service's in process, else the page's (with
/// the `this` to call it with).
pub async fn fetch_function() -> (js_sys::Function, JsValue) {
    let global: JsValue = js_sys::global().into();
    if in_process() {
        let f = get(&service().await, "fetch").dyn_into().unwrap();
        (f, JsValue::UNDEFINED)
    } else {
        (get(&global, "fetch").dyn_into().unwrap(), global)
    }
}

/// Base URL of the emulator the tests run against.
#[allow(clippy::option_env_unwrap)]
pub fn emulator() -> &'static str {
    option_env!("ESTATEKIT_EMULATOR_URL")
        .expect("ESTATEKIT_EMULATOR_URL is not set: run `make test-browser`")
}

/// The browser engine running the tests (`make test-browser` runs them in each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Chromium (Blink, V8).
    Chromium,
    /// Firefox (Gecko, SpiderMonkey).
    Firefox,
    /// WebKit (WebKitGTK's MiniBrowser here; Safari's engine, JavaScriptCore).
    WebKit,
}

/// Which engine this is, from `navigator.userAgent`. Chromium's also names AppleWebKit (and
/// Safari), so Chrome/ is looked for first.
pub fn engine() -> Engine {
    let navigator = get(&js_sys::global().into(), "navigator");
    match get_str(&navigator, "userAgent") {
        Some(ua) if ua.contains("Firefox/") => Engine::Firefox,
        Some(ua) if ua.contains("Chrome/") => Engine::Chromium,
        Some(ua) if ua.contains("AppleWebKit/") => Engine::WebKit,
        ua => panic!("unknown browser engine: {ua:?}"),
    }
}

/// `JSON.parse(text)`, for building inputs and expected values.
pub fn json(text: &str) -> JsValue {
    JSON::parse(text).unwrap_or_else(|_| panic!("bad JSON in test: {text}"))
}

/// `JSON.stringify(value)`.
pub fn stringify(value: &JsValue) -> String {
    JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// `obj[key]`.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// `obj[key]` as a string.
pub fn get_str(obj: &JsValue, key: &str) -> Option<String> {
    get(obj, key).as_string()
}

/// A JS array as a Vec.
pub fn items(array: &JsValue) -> Vec<JsValue> {
    assert!(
        js_sys::Array::is_array(array),
        "expected an array, got {}",
        stringify(array)
    );
    js_sys::Array::from(array).iter().collect()
}

/// Calls the emulator's admin API; returns the parsed JSON answer (or `null`).
pub async fn admin(method: &str, path: &str, body: Option<&str>) -> JsValue {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    if let Some(b) = body {
        let headers = web_sys::Headers::new().unwrap();
        headers.set("Content-Type", "application/json").unwrap();
        init.set_headers(&headers);
        init.set_body(&JsValue::from_str(b));
    }
    let url = format!("{}{path}", emulator());
    let request = web_sys::Request::new_with_str_and_init(&url, &init).unwrap();
    let (fetch, this) = fetch_function().await;
    let promise: Promise = fetch.call1(&this, &request).unwrap().dyn_into().unwrap();
    let response: web_sys::Response = JsFuture::from(promise).await.unwrap().dyn_into().unwrap();
    let status = response.status();
    let text = JsFuture::from(response.text().unwrap()).await.unwrap();
    let text = text.as_string().unwrap_or_default();
    assert!(
        (200..300).contains(&status),
        "admin {method} {path} answered {status}: {text}"
    );
    if text.is_empty() {
        JsValue::NULL
    } else {
        json(&text)
    }
}

/// Schedules faults (JSON of one fault or an array).
pub async fn fault(spec: &str) {
    admin("POST", "/_emulator/faults", Some(spec)).await;
}

/// The JSON of a fault for `method path` requests made with `token`; `rest` holds the fault's
/// other members, each preceded by a comma (e.g. `,"status":503,"times":2`).
pub fn fault_spec(method: &str, path: &str, token: &str, rest: &str) -> String {
    format!(r#"{{"method":"{method}","path":"{path}","token":"{token}"{rest}}}"#)
}

/// Schedules one fault for `method path` requests made with `token` (see [`fault_spec`]).
pub async fn fault_on(method: &str, path: &str, token: &str, rest: &str) {
    fault(&fault_spec(method, path, token, rest)).await;
}

/// A fresh seeded account with its own token, so tests never share state.
pub async fn new_account() -> String {
    let token = format!("test-{}", (js_sys::Math::random() * 1e15) as u64);
    admin(
        "POST",
        "/_emulator/accounts",
        Some(&format!(r#"{{"token":"{token}"}}"#)),
    )
    .await;
    token
}

/// Requests the emulator counted for a token: (total, per-route map).
pub async fn counters(token: &str) -> (u32, JsValue) {
    let c = admin("GET", &format!("/_emulator/counters?token={token}"), None).await;
    let total = get(&c, "total").as_f64().unwrap_or(-1.0) as u32;
    (total, get(&c, "routes"))
}

/// A client for the emulator with this token.
pub fn client(token: &str) -> Client {
    client_with(&format!(
        r#"{{"baseUrl":"{}","token":"{token}"}}"#,
        emulator()
    ))
}

/// A client from an options JSON text (in process, with the service's `fetch`; the service
/// is loaded by the test's first [`admin`] call, e.g. [`new_account`]).
pub fn client_with(options: &str) -> Client {
    let options = json(options);
    if in_process() {
        let service = SERVICE.with(|s| s.borrow().clone()).unwrap_or_else(|| {
            panic!("in process: load the service (new_account or service) before the client")
        });
        Reflect::set(&options, &"fetch".into(), &get(&service, "fetch")).unwrap();
    }
    Client::new(ts(options)).unwrap_or_else(|e| panic!("Client::new failed: {}", message(&e)))
}

/// The `message` of an error.
pub fn message(e: &JsValue) -> String {
    get_str(e, "message").unwrap_or_else(|| format!("{e:?}"))
}

/// Awaits a client promise that must resolve.
pub async fn ok(p: Promise) -> JsValue {
    match JsFuture::from(p).await {
        Ok(v) => v,
        Err(e) => panic!(
            "expected success, got {} ({}): {} details={}",
            get_str(&e, "kind").unwrap_or_default(),
            get(&e, "status").as_f64().unwrap_or(0.0),
            message(&e),
            stringify(&get(&e, "details"))
        ),
    }
}

/// Awaits a client promise that must reject with an `ApiError`; returns the error.
pub async fn err(p: Promise) -> JsValue {
    match JsFuture::from(p).await {
        Ok(v) => panic!("expected an error, got {}", stringify(&v)),
        Err(e) => {
            assert!(is_api_error(&e), "not an ApiError: {e:?}");
            assert!(e.is_instance_of::<js_sys::Error>());
            assert!(get_str(&e, "stack").is_some(), "ApiError has a stack");
            e
        }
    }
}

/// Awaits a rejection and checks its kind (and status, when given); returns the error.
pub async fn err_kind(p: Promise, kind: &str, status: Option<u16>) -> JsValue {
    let e = err(p).await;
    assert_eq!(
        get_str(&e, "kind").as_deref(),
        Some(kind),
        "kind of: {}",
        message(&e)
    );
    match status {
        Some(s) => assert_eq!(
            get(&e, "status").as_f64(),
            Some(f64::from(s)),
            "{}",
            message(&e)
        ),
        None => assert!(get(&e, "status").is_undefined() || kind == "decode" || kind == "graphql"),
    }
    e
}

/// An options object `{ signal }` for a controller.
pub fn with_signal(controller: &web_sys::AbortController) -> JsValue {
    let o = js_sys::Object::new();
    Reflect::set(&o, &"signal".into(), &controller.signal()).unwrap();
    o.into()
}

/// Waits `ms` milliseconds.
pub async fn sleep(ms: i32) {
    let p = Promise::new(&mut |resolve, _| {
        let global: JsValue = js_sys::global().into();
        let set_timeout: js_sys::Function = get(&global, "setTimeout").dyn_into().unwrap();
        set_timeout
            .call2(&global, &resolve, &JsValue::from(ms))
            .unwrap();
    });
    JsFuture::from(p).await.unwrap();
}

/// Waits until `ready()` holds, looking every 10 ms; fails saying what it waited for when
/// `limit_ms` pass first. A bound on a wait for work, never an assertion on how long it took.
pub async fn wait_until(what: &str, limit_ms: f64, mut ready: impl FnMut() -> bool) {
    let until = js_sys::Date::now() + limit_ms;
    while !ready() {
        assert!(
            js_sys::Date::now() < until,
            "gave up after {limit_ms} ms waiting for {what}"
        );
        sleep(10).await;
    }
}

/// A JavaScript value as a typed argument (`Ts<T>`), exactly as JavaScript would pass it.
pub fn ts<T: tsify::Tsify>(value: JsValue) -> tsify::Ts<T> {
    tsify::Ts::new_unchecked(value)
}

/// An optional typed argument: `undefined` and `null` are absent, as wasm-bindgen reads them.
pub fn opt<T: tsify::Tsify>(value: JsValue) -> Option<tsify::Ts<T>> {
    (!value.is_undefined() && !value.is_null()).then(|| tsify::Ts::new_unchecked(value))
}
