//! The response types decode the same way in both places they run: natively (the unit and
//! property tests feed them through serde_json) and in the browser (serde-wasm-bindgen over
//! the browser's `JSON.parse`). For a fixed corpus plus 3,000 random values, both must accept
//! the same values and refuse the same ones, at the same JSON path when only one place is wrong
//! (with several, each reports the first it visits: serde_json in the text's order, the browser
//! in the order the type declares its fields).
//!
//! One difference lies in the two deserializers, not in the types: where a record belongs,
//! serde_json reads an array as the record's fields in order (serde's positional form), while
//! serde-wasm-bindgen reads it as an object without the record's keys. So where the verdicts
//! differ, an array must stand where a record belongs (at the browser's refusal, or around the
//! native one); that is checked, not skipped.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use estatekit::api::response::decode;
use estatekit::model::documents::DocumentRecord;
use estatekit::model::messages::Message;
use estatekit::model::webhooks::Webhook;
use serde::de::DeserializeOwned;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

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

/// `Ok`, or the JSON path of the refusal (the messages' wording differs between the two
/// deserializers: serde_json says "integer `5`" where JavaScript only has "floating point").
fn verdict<T: DeserializeOwned>(result: Result<T, estatekit::Error>) -> Result<(), String> {
    result.map(|_| ()).map_err(|e| {
        let text = e.to_string();
        match text.split_once(": at ") {
            Some((_, rest)) => rest.split(':').next().unwrap_or("").to_owned(),
            None => "(root)".to_owned(),
        }
    })
}

/// The value at a JSON path as the decoders write it (`[3].attachments[0]`, or `(root)`).
fn at<'a>(value: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    if path == "(root)" {
        return Some(value);
    }
    let mut here = value;
    for part in path.split('.') {
        let (key, indexes) = part.split_once('[').map_or((part, ""), |(k, i)| (k, i));
        if !key.is_empty() {
            here = here.get(key)?;
        }
        for index in indexes.split('[').filter(|i| !i.is_empty()) {
            here = here.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(here)
}

fn same<T: DeserializeOwned>(name: &str, text: &str) {
    let native: serde_json::Value = serde_json::from_str(text).unwrap();
    let in_rust = verdict(decode::<T, _>("parity", 200, "", native.clone()));
    let browser = verdict(decode::<T, _>(
        "parity",
        200,
        "",
        serde_wasm_bindgen::Deserializer::from(json(text)),
    ));
    if in_rust.is_err() && browser.is_err() {
        return;
    }
    if in_rust != browser {
        let is_array = |path: Option<&String>| {
            path.and_then(|p| at(&native, p))
                .is_some_and(serde_json::Value::is_array)
        };
        // The native refusal is inside the array (its first positional field, `...[0]`).
        let around_native = in_rust.as_ref().err().map(|p| match p.rfind('[') {
            Some(0) => "(root)".to_owned(),
            Some(i) => p[..i].to_owned(),
            None => p.clone(),
        });
        assert!(
            is_array(browser.as_ref().err()) || is_array(around_native.as_ref()),
            "{name} on {text}: native {in_rust:?}, browser {browser:?}"
        );
    }
}

fn same_verdicts(text: &str) {
    same::<Vec<Webhook>>("webhooks", text);
    same::<Vec<DocumentRecord>>("documents", text);
    same::<DocumentRecord>("document", text);
    same::<Vec<Option<Message>>>("messages", text);
    same::<Message>("message", text);
}

/// A small deterministic generator of JSON texts biased towards the documented keys.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn key(&mut self) -> &'static str {
        KEYS[(self.next() % KEYS.len() as u64) as usize]
    }

    fn value(&mut self, depth: u32) -> String {
        match self.next() % if depth > 3 { 6 } else { 9 } {
            0 => "null".into(),
            1 => "true".into(),
            2 => format!("{}", self.next() % 1000),
            3 => "1.5".into(),
            4 => format!("\"{}\"", self.key()),
            5 => "\"\"".into(),
            6 | 7 => {
                let n = self.next() % 4;
                let fields: Vec<String> = (0..n)
                    .map(|_| format!("\"{}\":{}", self.key(), self.value(depth + 1)))
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
fn native_and_browser_decoding_agree() {
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
        same_verdicts(text);
    }
    let mut g = Gen(42);
    for _ in 0..3_000 {
        let text = g.value(0);
        same_verdicts(&text);
        let wrapped = format!("[{text},{}]", g.value(1));
        same_verdicts(&wrapped);
    }
}
