//! Calls (successes and every kind of failure, through every path of the transport) must leave
//! the WebAssembly memory flat after warm-up and every abort listener removed: no closure, timer,
//! listener, promise or buffer is left behind per call. The test's size is its work, not a
//! count fixed for the fastest engine: it runs until the memory has stayed flat over a plateau
//! of `PLATEAU_ROUNDS` rounds after its last growth, and fails when that never comes within
//! `MAX_ROUNDS` (memory that keeps growing: a leak).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn memory_bytes() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as f64
}

/// Wraps a signal's add/removeEventListener; returns a function giving listeners still attached.
fn count_listeners(signal: &web_sys::AbortSignal) -> js_sys::Function {
    js_sys::Function::new_with_args(
        "signal",
        "let n = 0;
         const add = signal.addEventListener.bind(signal);
         const remove = signal.removeEventListener.bind(signal);
         signal.addEventListener = (...a) => { n++; return add(...a); };
         signal.removeEventListener = (...a) => { n--; return remove(...a); };
         return () => n;",
    )
    .call1(&JsValue::NULL, signal)
    .unwrap()
    .unchecked_into()
}

/// Calls per round (each kind of call below once).
const CALLS_PER_ROUND: u32 = 10;
/// Rounds without any growth of the memory that prove it flat: 2,000 calls. WebAssembly memory
/// grows by 64 KiB pages, so a plateau of 2,000 calls leaves at most one page of slack to a leak:
/// a leak of more than about 33 bytes per call (any closure, listener, promise or buffer) grows
/// the memory within it, whatever the engine's speed.
const PLATEAU_ROUNDS: u32 = 200;
/// The bound of the whole run: the warm-up (the allocator's pools and the client's caches filling,
/// growth that stops) and the plateau after it. Memory still growing by then fails the test.
const MAX_ROUNDS: u32 = 500;

#[wasm_bindgen_test]
async fn calls_keep_memory_flat_over_a_measured_plateau() {
    let token = new_account().await;
    let c = client_with(&format!(
        r#"{{"baseUrl":"{}","token":"{token}","retry":{{"maxRetries":1,"baseDelayMs":1,"maxDelayMs":1}}}}"#,
        emulator()
    ));
    // Every list-documents call meets two 503s (one retry), exercising the backoff wait.
    fault_on(
        "GET",
        "/api/file-storage/company/documents/metadata",
        &token,
        r#","status":503,"times":100000"#,
    )
    .await;
    let live = web_sys::AbortController::new().unwrap();
    let attached = count_listeners(&live.signal());
    let live_options = with_signal(&live);
    let aborted = web_sys::AbortController::new().unwrap();
    aborted.abort();
    let blob = web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&"x".into())).unwrap();
    let progress = js_sys::Function::new_no_args("");

    let mut settled = 0u32;
    let mut failures = 0u32;
    let mut rounds = 0u32;
    // The memory at the last growth, and the round it was seen.
    let mut size = memory_bytes();
    let mut since = 0u32;
    let mut growths: Vec<(u32, f64)> = Vec::new();
    while rounds - since < PLATEAU_ROUNDS && rounds < MAX_ROUNDS {
        let input = json(r#"{"resourcePath":"units/m"}"#);
        Reflect::set(&input, &"file".into(), &blob).unwrap();
        let upload_options = json("{}");
        Reflect::set(&upload_options, &"onProgress".into(), &progress).unwrap();
        let midway = web_sys::AbortController::new().unwrap();
        let calls = vec![
            c.list_webhooks(opt(live_options.clone())),
            c.get_document(JsValue::from_str("missing"), opt(live_options.clone())),
            c.list_messages(
                ts(json(r#"{"candidateId":"cand-2"}"#)),
                opt(json(r#"{"fields":["id","text"]}"#)),
            ),
            c.list_messages(ts(json("{}")), opt(JsValue::UNDEFINED)),
            c.list_webhooks(opt(with_signal(&aborted))),
            c.list_documents(opt(JsValue::UNDEFINED), opt(live_options.clone())),
            c.upload_document(ts(input), opt(upload_options)),
            c.list_webhooks(opt(with_signal(&midway))),
            c.list_webhooks(opt(json(r#"{"timeoutMs":1}"#))),
            c.list_webhooks(opt(JsValue::UNDEFINED)),
        ];
        assert_eq!(calls.len() as u32, CALLS_PER_ROUND);
        sleep(1).await;
        midway.abort();
        for p in calls {
            if let Err(e) = JsFuture::from(p).await {
                assert!(estatekit::is_api_error(&e), "not an ApiError: {e:?}");
                failures += 1;
            }
            settled += 1;
        }
        rounds += 1;
        let now = memory_bytes();
        if now != size {
            growths.push((rounds, now));
            size = now;
            since = rounds;
        }
    }
    admin("DELETE", "/_emulator/faults", None).await;
    web_sys::console::log_1(
        &format!(
            "memory: {size} B, flat over the last {} of {rounds} rounds ({} calls); growths (round, bytes): {growths:?}",
            rounds - since,
            rounds * CALLS_PER_ROUND
        )
        .into(),
    );
    assert_eq!(settled, rounds * CALLS_PER_ROUND);
    // Over the network, the calls that fail each round include the abort 1 ms in and the 1 ms
    // timeout (at least 5 of 10). In process the service answers before 1 ms has passed, so those
    // two succeed: 4 of the 10 calls fail per round.
    let least = rounds * if in_process() { 4 } else { 5 };
    assert!(
        failures >= least,
        "404s, invalid input, aborts, 503s: {failures} over {rounds} rounds, at least {least}"
    );
    assert_eq!(
        attached.call0(&JsValue::NULL).unwrap().as_f64(),
        Some(0.0),
        "listeners left on the signal"
    );
    assert!(
        rounds - since >= PLATEAU_ROUNDS,
        "wasm memory still growing after {rounds} rounds ({} calls): no plateau of {PLATEAU_ROUNDS} rounds; growths (round, bytes): {growths:?}",
        rounds * CALLS_PER_ROUND
    );
}

/// Schedules, in JavaScript (so that the test's own strings take no WebAssembly memory), `times`
/// answers to `GET /documents/metadata` made with `token`: 10,000 records like the service's.
/// Sent through the tests' `fetch` (the page's, or the in-process service's: `common`), so that
/// it reaches the service the client calls in either host. Resolves to the body's length in
/// bytes.
async fn large_list_fault(token: &str, times: u32) -> f64 {
    let schedule = js_sys::Function::new_with_args(
        "send, self_, url, token, times",
        "const records = [];
         for (let i = 0; i < 10000; i++) {
           const id = `doc-${String(i).padStart(5, '0')}`;
           records.push({ id, resourcePath: `acme/company-1/properties/prop-bulk/${id}`,
             title: `lease-${i}.pdf`, companyId: 'company-1', type: 'CONTRACT', tenantId: null,
             unitId: `unit-${i % 97}`, propertyId: 'prop-bulk', propertyGroupId: null,
             size: 20000 + i, mimeType: 'application/pdf', createdAt: '2026-11-24T10:00:00.000Z' });
         }
         const body = JSON.stringify(records);
         const spec = { method: 'GET', path: '/api/file-storage/company/documents/metadata', token,
           status: 200, body, contentType: 'application/json', times };
         return send.call(self_, `${url}/_emulator/faults`, { method: 'POST', body: JSON.stringify(spec),
           headers: { 'Content-Type': 'application/json' } })
           .then((r) => { if (!r.ok) throw new Error(`fault: HTTP ${r.status}`); return new TextEncoder().encode(body).length; });",
    );
    let (send, this) = fetch_function().await;
    let args = js_sys::Array::of5(
        &send,
        &this,
        &emulator().into(),
        &token.into(),
        &f64::from(times).into(),
    );
    let promise: js_sys::Promise = schedule
        .apply(&JsValue::NULL, &args)
        .unwrap()
        .unchecked_into();
    JsFuture::from(promise).await.unwrap().as_f64().unwrap()
}

/// Each answer is checked from a copy of its bytes in WebAssembly memory: the copy is released
/// (or its space reused), so 100 consecutive 10,000-record answers leave the memory no more than
/// twice the largest body above where it was. Asserted in both hosts: the fault is scheduled
/// through the tests' `fetch`, and the in-process service is a module of its own (its memory is
/// not the one measured).
#[wasm_bindgen_test]
async fn a_hundred_large_answers_leave_memory_within_twice_the_body() {
    ready().await;
    let token = new_account().await;
    let c = client_with(&format!(
        r#"{{"baseUrl":"{}","token":"{token}","retry":{{"maxRetries":0}}}}"#,
        emulator()
    ));
    let body_bytes = large_list_fault(&token, 100).await;
    let before = memory_bytes();
    for _ in 0..100 {
        let list =
            JsFuture::from(c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED)))
                .await
                .unwrap_or_else(|e| panic!("listDocuments failed: {}", message(&e)));
        assert_eq!(js_sys::Array::from(&list).length(), 10_000);
    }
    let after = memory_bytes();
    web_sys::console::log_1(
        &format!(
            "memory: {before} B before, {after} B after 100 answers of {body_bytes} B (growth {} B, at most {} B)",
            after - before,
            2.0 * body_bytes
        )
        .into(),
    );
    assert!(
        after - before <= 2.0 * body_bytes,
        "memory grew by {} B over 100 answers of {body_bytes} B",
        after - before
    );
}
