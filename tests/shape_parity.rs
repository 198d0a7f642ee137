//! The JavaScript shape check (`js/check.js`, used in the browser) and the Rust walk
//! (`schema::check_walk`, used natively and in the property tests) must give the same verdict,
//! with the same path and reason, for every value: a fixed corpus plus 3,000 random values.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use estatekit::api::schema::{check, check_walk, Ty};
use estatekit::model::{documents, messages, webhooks};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SHAPES: [(&str, &Ty); 5] = [
    ("webhooks", &webhooks::WEBHOOK_LIST),
    ("documents", &documents::DOCUMENT_LIST),
    ("document", &documents::DOCUMENT_RECORD),
    ("messages", &messages::MESSAGE_LIST),
    ("message", &messages::MESSAGE),
];

const KEYS: [&str; 16] = [
    "id",
    "type",
    "url",
    "size",
    "title",
    "isRead",
    "attachments",
    "user",
    "sentBy",
    "text",
    "deletedAt",
    "propertyId",
    "name",
    "resourcePath",
    "x",
    "constructor",
];

fn same_verdict(value: &JsValue, what: &str) {
    for (name, ty) in SHAPES {
        let fast = check(value, ty).map_err(|m| m.describe(&[]));
        let walk = check_walk(value, ty).map_err(|m| m.describe(&[]));
        assert_eq!(fast, walk, "{name} on {what}");
    }
}

/// A small deterministic generator of JSON values biased towards the documented keys.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn value(&mut self, depth: u32) -> String {
        match self.next() % if depth > 3 { 6 } else { 9 } {
            0 => "null".into(),
            1 => "true".into(),
            2 => format!("{}", self.next() % 1000),
            3 => "1.5".into(),
            4 => format!("\"{}\"", KEYS[(self.next() % 16) as usize]),
            5 => "\"\"".into(),
            6 | 7 => {
                let n = self.next() % 4;
                let fields: Vec<String> = (0..n)
                    .map(|_| {
                        format!(
                            "\"{}\":{}",
                            KEYS[(self.next() % 16) as usize],
                            self.value(depth + 1)
                        )
                    })
                    .collect();
                format!("{{{}}}", fields.join(","))
            }
            _ => {
                let n = self.next() % 4;
                let items: Vec<String> = (0..n).map(|_| self.value(depth + 1)).collect();
                format!("[{}]", items.join(","))
            }
        }
    }
}

#[wasm_bindgen_test]
fn javascript_and_rust_checks_agree() {
    let corpus = [
        r#"[]"#,
        r#"[{"id":"w","type":"UNIT_CREATED","url":"u"}]"#,
        r#"[{"id":"w","type":"UNIT_CREATED","url":"u","deletedAt":5}]"#,
        r#"[{"id":null,"type":"T","url":"u"}]"#,
        r#"[{"type":"T","url":"u"}]"#,
        r#"[null]"#,
        r#"{"id":"d","size":"big"}"#,
        r#"{"id":"d","size":12,"constructor":"x","title":null}"#,
        r#"[{"id":"m","attachments":[null,{"size":"1kb"}]}]"#,
        r#"[{"isRead":"yes"}]"#,
        r#"[{"user":"u"},{"user":{}}]"#,
        r#"[[1]]"#,
        r#""text""#,
        "5",
        "null",
        "{}",
    ];
    for text in corpus {
        same_verdict(&json(text), text);
    }
    let mut g = Gen(42);
    for _ in 0..3_000 {
        let text = g.value(0);
        same_verdict(&json(&text), &text);
        let wrapped = format!("[{text},{}]", g.value(1));
        same_verdict(&json(&wrapped), &wrapped);
    }
}
