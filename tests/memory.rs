//! 5,000 calls (successes and every kind of failure) must leave the WebAssembly memory flat
//! after warm-up: no closure, promise or buffer is left behind per call.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
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

#[wasm_bindgen_test]
async fn five_thousand_calls_keep_memory_flat() {
    let token = new_account().await;
    let c = client_with(&format!(
        r#"{{"baseUrl":"{}","token":"{token}","retry":{{"limit":0}}}}"#,
        emulator()
    ));
    let aborted = web_sys::AbortController::new().unwrap();
    aborted.abort();
    let batch = |round: u32| {
        let mut calls = Vec::new();
        for i in 0..10u32 {
            calls.push(match (round * 10 + i) % 5 {
                0 => c.list_webhooks(JsValue::UNDEFINED),
                1 => c.get_document(JsValue::from_str("missing"), JsValue::UNDEFINED),
                2 => c.messages(
                    json(r#"{"candidateId":"cand-2"}"#),
                    json(r#"{"fields":["id","text"]}"#),
                ),
                3 => c.messages(json("{}"), JsValue::UNDEFINED),
                _ => c.list_webhooks(with_signal(&aborted)),
            });
        }
        calls
    };
    let mut settled = 0u32;
    let mut failures = 0u32;
    let mut after_warmup = 0.0;
    for round in 0..500u32 {
        for p in batch(round) {
            match JsFuture::from(p).await {
                Ok(_) => {}
                Err(e) => {
                    assert!(estatekit::is_api_error(&e));
                    failures += 1;
                }
            }
            settled += 1;
        }
        if round == 49 {
            after_warmup = memory_bytes();
        }
    }
    let end = memory_bytes();
    assert_eq!(settled, 5_000);
    assert_eq!(failures, 3_000, "404s, invalid input and aborts");
    web_sys::console::log_1(
        &format!("wasm memory after warm-up {after_warmup} bytes, after 5000 calls {end} bytes")
            .into(),
    );
    assert_eq!(
        end, after_warmup,
        "wasm memory grew from {after_warmup} to {end} bytes"
    );
}
