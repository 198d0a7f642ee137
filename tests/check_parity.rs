//! The check the module runs on every answer (`check_*`: the answer's bytes read by serde_json)
//! agrees with what the browser's `JSON.parse` makes of the same text: for a fixed corpus plus
//! 3,000 random texts, each check accepts exactly the texts whose `JSON.parse` value is of the
//! answer's type, and refuses the others at the same JSON path. The reference reads the parsed
//! value through serde-wasm-bindgen into the same model types, its path tracked by
//! serde_path_to_error (a dev-dependency: the module itself holds one reader per answer type).
//!
//! Where both refuse, each names the first mismatch it meets: serde_json in the text's order, the
//! reference in the order the type declares its fields; their paths are compared where only one
//! mismatch exists (one refuses, or both at a path under the same record).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use estatekit::api::{documents, messages, webhooks};
use estatekit::model::documents::DocumentRecord;
use estatekit::model::messages::Message;
use estatekit::model::webhooks::Webhook;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;
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

/// `Ok`, or the JSON path of a check's refusal (`(root)` when it names none). Messages' wording
/// differs between the readers (serde_json says "integer `5`" where JavaScript has only
/// "floating point"): only paths are compared.
fn path_of(result: Result<(), estatekit::Error>) -> Result<(), String> {
    result.map_err(|e| {
        let text = e.to_string();
        match text.split_once(": at ") {
            Some((_, rest)) => rest.split(':').next().unwrap_or("").to_owned(),
            None => "(root)".to_owned(),
        }
    })
}

/// What `JSON.parse` makes of `text`, read into `T` (serde-wasm-bindgen): `Ok`, or the path of
/// the first mismatch.
fn reference<T: DeserializeOwned>(text: &str) -> Result<(), String> {
    let value = serde_wasm_bindgen::Deserializer::from(json(text));
    serde_path_to_error::deserialize::<_, T>(value)
        .map(drop)
        .map_err(|e| match e.path().to_string().as_str() {
            "." => "(root)".to_owned(),
            path => path.to_owned(),
        })
}

/// Whether `path` (`[3].attachments[0]`, `items[1].id`, `(root)`) leads to a value of what
/// `JSON.parse` makes of `text`.
fn leads_into(text: &str, path: &str) -> bool {
    let mut here = json(text);
    if path == "(root)" {
        return true;
    }
    for part in path.split('.') {
        let (key, indexes) = part.split_once('[').map_or((part, ""), |(k, i)| (k, i));
        let mut steps: Vec<JsValue> = Vec::new();
        if !key.is_empty() {
            steps.push(key.into());
        }
        for index in indexes.split('[').filter(|i| !i.is_empty()) {
            match index.trim_end_matches(']').parse::<u32>() {
                Ok(i) => steps.push(i.into()),
                Err(_) => return false,
            }
        }
        for step in steps {
            if !here.is_object() || !js_sys::Reflect::has(&here, &step).unwrap_or(false) {
                return false;
            }
            here = js_sys::Reflect::get(&here, &step).unwrap();
        }
    }
    true
}

/// Whether the value at `path` of what `JSON.parse` makes of `text` is an array.
fn array_at(text: &str, path: &str) -> bool {
    if !leads_into(text, path) {
        return false;
    }
    let mut here = json(text);
    for step in path
        .split(['.', '[', ']'])
        .filter(|s| !s.is_empty() && *s != "(root)")
    {
        let key: JsValue = match step.parse::<u32>() {
            Ok(i) => i.into(),
            Err(_) => step.into(),
        };
        here = js_sys::Reflect::get(&here, &key).unwrap();
    }
    js_sys::Array::is_array(&here)
}

/// Both accept, or both refuse: at the same path, or (where the text has several mismatches and
/// each reader met another first) the check at a path that is in `JSON.parse`'s value. One
/// difference lies in the reference, not in the check: serde-wasm-bindgen reads a record from
/// any object by its keys, an array too (as a record without them), where the check refuses an
/// array; so the check may refuse alone only where an array stands for a record.
fn agree(name: &str, text: &str, check: Result<(), String>, reference: Result<(), String>) {
    match (&check, &reference) {
        (Ok(()), Ok(())) => {}
        (Err(path), Ok(())) if array_at(text, path) => {}
        (Err(path), Err(other)) => assert!(
            path == other || leads_into(text, path),
            "{name} on {text}: check refused at {path}, JSON.parse's value at {other}"
        ),
        _ => panic!("{name} on {text}: check {check:?}, JSON.parse {reference:?}"),
    }
}

fn same_verdicts(text: &str) {
    let bytes = text.as_bytes();
    agree(
        "webhooks",
        text,
        path_of(webhooks::check_list(200, "", bytes).map(drop)),
        reference::<Vec<Webhook>>(text),
    );
    agree(
        "documents",
        text,
        path_of(documents::check_list(200, "", bytes).map(drop)),
        reference::<Vec<DocumentRecord>>(text),
    );
    agree(
        "document",
        text,
        path_of(documents::check_record(
            estatekit::model::events::Operation::GetDocument.phrase(),
            200,
            bytes,
        )),
        reference::<DocumentRecord>(text),
    );
    // The messages are checked where a GraphQL answer holds them: `data.messages`.
    let answer = format!(r#"{{"data":{{"messages":{text}}}}}"#);
    let checked = path_of(messages::check_answer(200, answer.as_bytes()).map(drop)).map_err(|p| {
        match p.strip_prefix("data.messages") {
            Some("") | None => "(root)".to_owned(),
            Some(rest) => rest.to_owned(),
        }
    });
    agree(
        "messages",
        text,
        checked,
        reference::<Vec<Option<Message>>>(text),
    );
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
fn checks_agree_with_json_parse() {
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
        // What JSON.parse resolves its own way: a key given twice keeps its last value, a number
        // beyond f64's range is a number (Infinity).
        r#"[{"id":5,"id":"w","type":"T","url":"u"}]"#,
        r#"[{"id":"w","type":"T","url":"u","url":7}]"#,
        r#"{"id":"d","size":1e400}"#,
        r#"[{"id":"m","isRead":true,"isRead":"yes"}]"#,
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

/// Option keys of `messages` and of a document list's query, and what lies inside them.
const INPUT_KEYS: [&str; 14] = [
    "fields",
    "userFields",
    "paging",
    "sort",
    "skip",
    "take",
    "fieldName",
    "direction",
    "timeoutMs",
    "types",
    "title",
    "unitId",
    "onEvent",
    "signal",
];

/// A caller's value of the input's shape or near it: its keys, right and wrong values.
fn input_value(g: &mut Gen, depth: u32) -> String {
    match g.next() % if depth > 2 { 8 } else { 11 } {
        0 => "null".into(),
        1 => "true".into(),
        2 => format!("{}", g.next() % 100),
        3 => "-1".into(),
        4 => "1.5".into(),
        5 => ["\"id\"", "\"ASC\"", "\"CONTRACT\"", "\"x\"", "\"\""][(g.next() % 5) as usize].into(),
        6 | 7 => {
            let n = g.next() % 3;
            let items: Vec<String> = (0..n).map(|_| input_value(g, depth + 1)).collect();
            format!("[{}]", items.join(","))
        }
        _ => {
            let n = g.next() % 4;
            let fields: Vec<String> = (0..n)
                .map(|_| {
                    let key = INPUT_KEYS[(g.next() % INPUT_KEYS.len() as u64) as usize];
                    format!("\"{key}\":{}", input_value(g, depth + 1))
                })
                .collect();
            format!("{{{}}}", fields.join(","))
        }
    }
}

/// The field an input error names when serde_path_to_error reads `text` as `T`: `name`, its path
/// under it, and a missing key after it; or `None` when `T` takes it.
fn tracked_field<T: DeserializeOwned>(name: &str, text: &str) -> Option<String> {
    let value = serde_wasm_bindgen::Deserializer::from(json(text));
    let error = serde_path_to_error::deserialize::<_, T>(value).err()?;
    let mut field = match error.path().to_string().as_str() {
        "." => name.to_owned(),
        path if path.starts_with('[') => format!("{name}{path}"),
        path => format!("{name}.{path}"),
    };
    let inner = error.inner().to_string();
    let inner = inner.strip_prefix("Error: ").unwrap_or(&inner);
    if let Some(key) = inner
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        field = format!("{field}.{key}");
    }
    Some(field)
}

/// The field of an input error (`invalid options.paging.take: ...` -> `options.paging.take`).
fn named_field(error: &JsValue) -> String {
    let text = message(error);
    let rest = text.strip_prefix("invalid ").unwrap_or(&text);
    rest.split(": ").next().unwrap_or("").to_owned()
}

/// Where the client says a refused input is wrong is where serde_path_to_error tracks it: the
/// module finds it after the refusal, without a second decoder (`web::js`), for 1,500 random
/// option objects of `messages` and document lists.
#[wasm_bindgen_test]
async fn input_errors_name_the_path_serde_path_to_error_tracks() {
    use estatekit::model::documents::ListDocumentsQuery;
    use estatekit::model::messages::MessagesOptions;
    let client =
        estatekit::Client::new(ts(json(r#"{"baseUrl":"http://127.0.0.1:9","token":"t"}"#)))
            .unwrap();
    let filter = r#"{"candidateId":"c"}"#;
    let mut g = Gen(7);
    let mut compared = 0;
    for _ in 0..1_500 {
        let text = input_value(&mut g, 0);
        if text == "null" {
            // No options: the defaults.
            continue;
        }
        if let Some(field) = tracked_field::<MessagesOptions>("options", &text) {
            let e = err(client.list_messages(ts(json(filter)), opt(json(&text)))).await;
            assert_eq!(
                named_field(&e),
                field,
                "messages options {text}: {}",
                message(&e)
            );
            compared += 1;
        }
        if let Some(field) = tracked_field::<ListDocumentsQuery>("query", &text) {
            let e = err(client.list_documents(opt(json(&text)), None)).await;
            assert_eq!(named_field(&e), field, "query {text}: {}", message(&e));
            compared += 1;
        }
    }
    assert!(compared > 500, "{compared} refusals compared");
}
