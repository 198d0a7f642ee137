//! Browser tests of the `fetch` option: every request goes through the caller's function, its
//! failures are typed errors after which the client keeps working, uploads with `onProgress`
//! get one final report, aborts and timeouts still work, and a value that is not a function is
//! refused by `new Client`.
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
use js_sys::{Array, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const WEBHOOKS: &str = "/api/external-integrations/webhooks";
const GRAPHQL: &str = "/api/reporting/graphql";
const DOCS: &str = "/api/file-storage/company/documents";

/// The body of `recordingFetch()`, made at run time (`new Function`), not an `inline_js` module:
/// each module of the test page is one more request in the burst the page starts with, and
/// wasm-bindgen-test-runner's file server leaves a fifth connection of that burst unread
/// (scripts/wasm-test-runner.sh).
const RECORDING_FETCH: &str = r#"
  const state = { seen: [], odd: [], plan: [] };
  // What every request must look like: a Request (no init) carrying the token and a signal.
  state.fetch = function (input, init) {
    const auth = input instanceof Request ? input.headers.get("authorization") : null;
    if (!(input instanceof Request) || init !== undefined || !auth || !auth.startsWith("Bearer ")
        || !(input.signal instanceof AbortSignal)) {
      state.odd.push(String(input));
    }
    state.seen.push(input.method + " " + new URL(input.url).pathname);
    switch (state.plan.length ? state.plan.shift() : "pass") {
      case "pass": return fetch(input);
      case "reject": return Promise.reject(new TypeError("the proxy is down"));
      case "throw": throw new Error("thrown at once");
      case "range": throw new RangeError("a bug in the proxy");
      case "reference": return Promise.reject(new ReferenceError("proxyConfig is not defined"));
      case "echo": return Promise.reject(new Error("refused " + auth));
      case "hang": return new Promise(() => {});
      case "number": return 42;
      case "object": return Promise.resolve({ status: 200, ok: true });
      case "undefined": return Promise.resolve(undefined);
      case "response": return new Response("[]", { headers: { "content-type": "application/json" } });
    }
    throw new Error("unknown plan step");
  };
  return state;
"#;

fn recording_fetch() -> JsValue {
    js_sys::Function::new_no_args(RECORDING_FETCH)
        .call0(&JsValue::NULL)
        .expect("recordingFetch threw")
}

/// A `fetch` wrapping the global one that records `METHOD /path` of every request it gets,
/// and follows a plan of steps for the next requests (`reject`, `hang`, ...; else it passes).
struct Recorder(JsValue);

impl Recorder {
    fn new() -> Recorder {
        Recorder(recording_fetch())
    }

    fn function(&self) -> JsValue {
        get(&self.0, "fetch")
    }

    /// The requests seen so far, and no request that was not a plain `Request` with the token.
    fn seen(&self) -> Vec<String> {
        let odd = items(&get(&self.0, "odd"));
        assert!(odd.is_empty(), "unexpected fetch arguments: {odd:?}");
        items(&get(&self.0, "seen"))
            .iter()
            .map(|s| s.as_string().unwrap())
            .collect()
    }

    /// What the next requests meet, in order.
    fn plan(&self, steps: &[&str]) {
        let plan: Array = get(&self.0, "plan").dyn_into().unwrap();
        for step in steps {
            plan.push(&JsValue::from_str(step));
        }
    }

    /// A client for the emulator whose `fetch` is this recorder; `rest` holds more options,
    /// each preceded by a comma.
    fn client(&self, token: &str, rest: &str) -> Client {
        let options = json(&format!(
            r#"{{"baseUrl":"{}","token":"{token}"{rest}}}"#,
            emulator()
        ));
        Reflect::set(&options, &"fetch".into(), &self.function()).unwrap();
        Client::new(ts(options)).unwrap()
    }
}

fn text_blob(text: &str) -> web_sys::Blob {
    web_sys::Blob::new_with_str_sequence(&Array::of1(&text.into())).unwrap()
}

fn upload_input(text: &str) -> JsValue {
    let input = json(r#"{"resourcePath":"units/u-1","name":"a.txt"}"#);
    Reflect::set(&input, &"file".into(), &text_blob(text)).unwrap();
    input
}

const NONE: Option<tsify::Ts<estatekit::model::options::CallOptions>> = None;

#[wasm_bindgen_test]
async fn every_operation_goes_through_the_fetch_option() {
    let token = new_account().await;
    let recorder = Recorder::new();
    let c = recorder.client(&token, "");

    ok(c.list_messages(ts(json(r#"{"candidateId":"cand-1"}"#)), None)).await;
    let record = ok(c.upload_document(ts(upload_input("hello")), None)).await;
    let id = get_str(&record, "id").unwrap();
    ok(c.list_documents(None, NONE)).await;
    ok(c.get_document(JsValue::from_str(&id), NONE)).await;
    ok(c.delete_document(JsValue::from_str(&id), NONE)).await;
    let input = r#"{"type":"UNIT_CREATED","url":"https://h.example.com/fetch"}"#;
    let hook = ok(c.register_webhook(ts(json(input)), NONE)).await;
    ok(c.list_webhooks(NONE)).await;
    let same = ok(c.ensure_webhook(ts(json(input)), NONE)).await;
    assert_eq!(same.as_string(), hook.as_string());
    ok(c.delete_webhook(hook, NONE)).await;

    let hook_id = same.as_string().unwrap();
    let expected = [
        format!("POST {GRAPHQL}"),
        format!("POST {DOCS}"),
        format!("GET {DOCS}/metadata"),
        format!("GET {DOCS}/{id}/metadata"),
        format!("DELETE {DOCS}/{id}"),
        format!("POST {WEBHOOKS}"),
        format!("GET {WEBHOOKS}"),
        format!("GET {WEBHOOKS}"),
        format!("DELETE {WEBHOOKS}/{hook_id}"),
    ];
    assert_eq!(recorder.seen(), expected);
    let (total, routes) = counters(&token).await;
    assert_eq!(
        total as usize,
        expected.len(),
        "the service saw only what the fetch option sent: {}",
        stringify(&routes)
    );
}

#[wasm_bindgen_test]
async fn the_global_fetch_itself_and_undefined_work() {
    let token = new_account().await;
    let global = get(&js_sys::global().into(), "fetch");
    for fetch in [global, JsValue::UNDEFINED, JsValue::NULL] {
        let options = json(&format!(
            r#"{{"baseUrl":"{}","token":"{token}"}}"#,
            emulator()
        ));
        Reflect::set(&options, &"fetch".into(), &fetch).unwrap();
        let c = Client::new(ts(options)).unwrap();
        ok(c.list_webhooks(NONE)).await;
    }
    assert_eq!(counters(&token).await.0, 3);
}

#[wasm_bindgen_test]
fn a_fetch_option_that_is_not_a_function_is_invalid_input() {
    for bad in [
        JsValue::from(42),
        JsValue::from_str("x"),
        JsValue::TRUE,
        json(r#"{"fetch":"no"}"#),
        Array::new().into(),
    ] {
        let options = json(r#"{"baseUrl":"https://acme.example.com","token":"t"}"#);
        Reflect::set(&options, &"fetch".into(), &bad).unwrap();
        let e = match Client::new(ts(options)) {
            Ok(_) => panic!("fetch: {} was accepted", stringify(&bad)),
            Err(e) => e,
        };
        assert_eq!(get_str(&e, "kind").as_deref(), Some("invalid_input"));
        assert_eq!(
            message(&e),
            "invalid options.fetch: must be a function",
            "fetch: {}",
            stringify(&bad)
        );
    }
}

#[wasm_bindgen_test]
async fn a_failing_fetch_is_a_network_error_and_the_client_keeps_working() {
    let token = new_account().await;
    let recorder = Recorder::new();
    let c = recorder.client(&token, r#","retry":{"maxRetries":0}"#);

    recorder.plan(&["reject"]);
    let e = err_kind(c.list_webhooks(NONE), "network", None).await;
    assert!(message(&e).contains("the proxy is down"), "{}", message(&e));
    assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
    // `cause`: what the fetch rejected with, whole.
    let cause = get(&e, "cause");
    assert_eq!(get_str(&cause, "name").as_deref(), Some("TypeError"));
    assert_eq!(
        get_str(&cause, "message").as_deref(),
        Some("the proxy is down")
    );
    ok(c.list_webhooks(NONE)).await;

    recorder.plan(&["throw"]);
    let e = err_kind(c.list_documents(None, NONE), "network", None).await;
    assert!(message(&e).contains("thrown at once"), "{}", message(&e));
    ok(c.list_documents(None, NONE)).await;

    // What the fetch option rejects with never carries the token into the error, nor into its
    // cause.
    recorder.plan(&["echo"]);
    let e = err_kind(c.list_webhooks(NONE), "network", None).await;
    assert!(!message(&e).contains(&token), "{}", message(&e));
    let cause = get(&e, "cause");
    assert!(
        !get_str(&cause, "message")
            .unwrap_or_default()
            .contains(&token),
        "{}",
        stringify(&cause)
    );
    assert!(
        message(&e).contains("refused Bearer [redacted]"),
        "{}",
        message(&e)
    );

    // A rejection is retried like the global fetch's (safe requests only).
    let retrying = recorder.client(&token, r#","retry":{"maxRetries":1,"baseDelayMs":1}"#);
    recorder.plan(&["reject"]);
    ok(retrying.list_webhooks(NONE)).await;
    let seen = recorder.seen();
    assert_eq!(
        seen[seen.len() - 2..],
        [format!("GET {WEBHOOKS}"), format!("GET {WEBHOOKS}")]
    );
    recorder.plan(&["reject"]);
    let input = r#"{"type":"UNIT_CREATED","url":"https://h.example.com/r"}"#;
    err_kind(
        retrying.register_webhook(ts(json(input)), NONE),
        "network",
        None,
    )
    .await;
    assert_eq!(
        recorder.seen().len(),
        seen.len() + 1,
        "a POST is never retried"
    );

    // What does not resolve to a Response is refused, clearly, and never retried.
    for step in ["number", "object", "undefined"] {
        recorder.plan(&[step]);
        let e = err_kind(retrying.list_webhooks(NONE), "invalid_input", None).await;
        assert_eq!(
            message(&e),
            "invalid options.fetch: must return a Promise that resolves to a Response",
            "{step}"
        );
        assert_eq!(get(&e, "attempts").as_f64(), Some(1.0), "{step}");
    }
    // A Response returned without a promise is taken as it is.
    recorder.plan(&["response"]);
    assert!(items(&ok(c.list_webhooks(NONE)).await).is_empty());
    ok(c.list_messages(ts(json(r#"{"candidateId":"cand-1"}"#)), None)).await;
}

/// Progress reports seen, as (loaded, total).
type Reports = Rc<RefCell<Vec<(f64, f64)>>>;

/// Upload options whose `onProgress` records every report.
fn progress_options(extra: &str) -> (JsValue, Reports) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    let cb = Closure::<dyn FnMut(JsValue)>::new(move |p: JsValue| {
        sink.borrow_mut().push((
            get(&p, "loaded").as_f64().unwrap(),
            get(&p, "total").as_f64().unwrap(),
        ));
    });
    let options = json(&format!("{{{extra}}}"));
    Reflect::set(&options, &"onProgress".into(), &cb.into_js_value()).unwrap();
    (options, seen)
}

#[wasm_bindgen_test]
async fn an_upload_with_progress_and_fetch_reports_once_at_the_end() {
    let token = new_account().await;
    let recorder = Recorder::new();
    let c = recorder.client(&token, "");
    let text = "x".repeat(256 * 1024);
    let (options, reports) = progress_options("");
    let record = ok(c.upload_document(ts(upload_input(&text)), Some(ts(options)))).await;
    assert_eq!(get(&record, "size").as_f64(), Some(text.len() as f64));
    let size = text.len() as f64;
    assert_eq!(*reports.borrow(), [(size, size)]);
    assert_eq!(recorder.seen(), [format!("POST {DOCS}")]);

    ok(c.list_webhooks(NONE)).await;
    assert_eq!(recorder.seen().len(), 2);
}

#[wasm_bindgen_test]
async fn aborts_and_timeouts_mid_request_with_a_fetch_option() {
    let token = new_account().await;
    let recorder = Recorder::new();
    let c = recorder.client(&token, r#","retry":{"maxRetries":0}"#);

    // Through the global fetch, which the request's signal aborts.
    fault_on("GET", WEBHOOKS, &token, r#","delayMs":3000,"times":2"#).await;
    let controller = web_sys::AbortController::new().unwrap();
    let pending = c.list_webhooks(Some(ts(with_signal(&controller))));
    sleep(200).await;
    controller.abort();
    err_kind(pending, "aborted", None).await;
    let e = err_kind(
        c.list_webhooks(Some(ts(json(r#"{"timeoutMs":200}"#)))),
        "timeout",
        None,
    )
    .await;
    assert!(message(&e).contains("200 ms"), "{}", message(&e));
    admin("DELETE", "/_emulator/faults", None).await;

    // A fetch that ignores the signal and never settles is abandoned all the same.
    recorder.plan(&["hang"]);
    let controller = web_sys::AbortController::new().unwrap();
    let pending = c.list_webhooks(Some(ts(with_signal(&controller))));
    sleep(100).await;
    controller.abort();
    err_kind(pending, "aborted", None).await;
    recorder.plan(&["hang"]);
    err_kind(
        c.list_webhooks(Some(ts(json(r#"{"timeoutMs":200}"#)))),
        "timeout",
        None,
    )
    .await;

    // An upload (no timeout by default) is aborted too.
    recorder.plan(&["hang"]);
    let (options, _) = progress_options("");
    let controller = web_sys::AbortController::new().unwrap();
    Reflect::set(&options, &"signal".into(), &controller.signal()).unwrap();
    let pending = c.upload_document(ts(upload_input("abc")), Some(ts(options)));
    sleep(100).await;
    controller.abort();
    err_kind(pending, "aborted", None).await;

    ok(c.list_webhooks(NONE)).await;
    assert_eq!(recorder.seen().len(), 6);
}

#[wasm_bindgen_test]
async fn a_fetch_option_that_throws_a_program_error_is_a_bug_not_a_network_failure() {
    let token = new_account().await;
    let recorder = Recorder::new();
    // Retries allowed: a program error is still tried once only.
    let c = recorder.client(&token, r#","retry":{"maxRetries":3,"baseDelayMs":1}"#);
    for (plan, name) in [("range", "RangeError"), ("reference", "ReferenceError")] {
        let before = recorder.seen().len();
        recorder.plan(&[plan]);
        let e = err_kind(c.list_webhooks(NONE), "caller_error", None).await;
        assert_eq!(get(&e, "attempts").as_f64(), Some(1.0));
        assert_eq!(get(&e, "retryable").as_bool(), Some(false));
        assert_eq!(
            recorder.seen().len(),
            before + 1,
            "one attempt, not retried"
        );
        let cause = get(&e, "cause");
        assert_eq!(get_str(&cause, "name").as_deref(), Some(name));
        assert!(
            message(&e).contains(&format!("the `fetch` option threw {name}")),
            "{}",
            message(&e)
        );
        assert!(
            message(&e).contains("not a network failure"),
            "{}",
            message(&e)
        );
    }
    // The client keeps working.
    ok(c.list_webhooks(NONE)).await;
}
