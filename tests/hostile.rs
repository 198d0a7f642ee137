//! A corpus of hostile answers injected through the emulator's fault API: each must give the
//! right error kind (never a trap), and the same client must then complete a normal call.
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
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const WEBHOOKS: &str = "/api/external-integrations/webhooks";
const GRAPHQL: &str = "/api/reporting/graphql";
const DOC: &str = "/api/file-storage/company/documents/d-1/metadata";
const DOCS: &str = "/api/file-storage/company/documents";

/// Which call meets the hostile answer.
#[derive(Clone, Copy, Debug)]
enum Call {
    ListWebhooks,
    Register,
    Messages,
    GetDocument,
    Upload,
}

/// JSON text as a JSON string literal (for embedding a body in a fault).
fn quoted(body: &str) -> String {
    js_sys::JSON::stringify(&JsValue::from_str(body))
        .map(String::from)
        .unwrap_or_default()
}

fn body(status: u16, text: &str) -> String {
    format!(
        r#","status":{status},"body":{},"contentType":"application/json""#,
        quoted(text)
    )
}

async fn run(c: &Client, call: Call) -> Result<JsValue, JsValue> {
    let p = match call {
        Call::ListWebhooks => c.list_webhooks(opt(JsValue::UNDEFINED)),
        Call::Register => c.register_webhook(
            ts(json(
                r#"{"type":"UNIT_CREATED","url":"https://h.example.com/x"}"#,
            )),
            opt(JsValue::UNDEFINED),
        ),
        Call::Messages => c.list_messages(
            ts(json(r#"{"candidateId":"cand-1"}"#)),
            opt(JsValue::UNDEFINED),
        ),
        Call::GetDocument => c.get_document(JsValue::from_str("d-1"), opt(JsValue::UNDEFINED)),
        Call::Upload => {
            let input = json(r#"{"resourcePath":"units/1"}"#);
            let blob =
                web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&"x".into())).unwrap();
            js_sys::Reflect::set(&input, &"file".into(), &blob).unwrap();
            c.upload_document(ts(input), opt(JsValue::UNDEFINED))
        }
    };
    wasm_bindgen_futures::JsFuture::from(p).await
}

#[wasm_bindgen_test]
async fn hostile_answers_give_the_right_error_and_the_client_recovers() {
    let token = new_account().await;
    let options = format!(
        r#"{{"baseUrl":"{}","token":"{token}","timeoutMs":1500,"retry":{{"maxRetries":0}}}}"#,
        emulator()
    );
    let c = client_with(&options);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_obj = format!("{}1{}", r#"{"a":"#.repeat(20_000), "}".repeat(20_000));
    let huge = format!("\"{}\"", "x".repeat(10 * 1024 * 1024));
    let date = String::from(
        js_sys::Date::new(&JsValue::from(js_sys::Date::now() + 2_000.0)).to_utc_string(),
    );

    use Call::*;
    let g = |s: &str| fault_spec("GET", WEBHOOKS, &token, s);
    let p = |s: &str| fault_spec("POST", WEBHOOKS, &token, s);
    let q = |s: &str| fault_spec("POST", GRAPHQL, &token, s);
    let d = |s: &str| fault_spec("GET", DOC, &token, s);
    let u = |s: &str| fault_spec("POST", DOCS, &token, s);
    let cases: Vec<(&str, String, Call, &str, Option<u16>)> = vec![
        (
            "HTML 502 page",
            g(
                r#","status":502,"body":"<html><body><h1>502 Bad Gateway</h1></body></html>","contentType":"text/html""#,
            ),
            ListWebhooks,
            "http",
            Some(502),
        ),
        (
            "empty 200",
            g(&body(200, "")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "truncated JSON",
            g(&body(
                200,
                r#"[{"id":"w1","type":"UNIT_CREATED","url":"https:"#,
            )),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "truncated real body",
            g(r#","truncate":true"#),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "plain text",
            g(&body(200, "OK")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "null",
            g(&body(200, "null")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "empty object",
            g(&body(200, "{}")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "a string",
            g(&body(200, r#""webhooks""#)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "a number",
            g(&body(200, "42")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "a boolean",
            g(&body(200, "true")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "null element",
            g(&body(200, "[null]")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "null id",
            g(&body(
                200,
                r#"[{"id":null,"type":"UNIT_CREATED","url":"u"}]"#,
            )),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "numeric id",
            g(&body(200, r#"[{"id":5,"type":"UNIT_CREATED","url":"u"}]"#)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "numeric type",
            g(&body(200, r#"[{"id":"a","type":1,"url":"u"}]"#)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "object timestamp",
            g(&body(
                200,
                r#"[{"id":"a","type":"T","url":"u","createdAt":{}}]"#,
            )),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "nulls everywhere",
            g(&body(
                200,
                r#"[{"id":null,"type":null,"url":null,"partnerId":null}]"#,
            )),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "10 MB string",
            g(&body(200, &huge)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "deeply nested arrays",
            g(&body(200, &deep)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "deeply nested objects",
            g(&body(200, &deep_obj)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "not UTF-8",
            g(r#","status":200,"bodyBase64":"W3siaWQiOiL/In1d","contentType":"application/json""#),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "trailing garbage",
            g(&body(200, "[] trailing")),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "wrapped in an unknown key",
            g(&body(200, r#"{"webhooks":[]}"#)),
            ListWebhooks,
            "decode",
            Some(200),
        ),
        (
            "204 without body",
            g(r#","status":204"#),
            ListWebhooks,
            "decode",
            Some(204),
        ),
        (
            "500 empty",
            g(r#","status":500,"body":"""#),
            ListWebhooks,
            "http",
            Some(500),
        ),
        (
            "500 JSON",
            g(&body(
                500,
                r#"{"code":"boom","statusCode":500,"message":"exploded"}"#,
            )),
            ListWebhooks,
            "http",
            Some(500),
        ),
        (
            "503 Retry-After",
            g(r#","status":503,"headers":{"Retry-After":"3"}"#),
            ListWebhooks,
            "http",
            Some(503),
        ),
        (
            "429 HTML",
            g(r#","status":429,"body":"<h1>slow down</h1>","contentType":"text/html""#),
            ListWebhooks,
            "rate_limited",
            Some(429),
        ),
        (
            "429 HTTP-date",
            g(&format!(
                r#","status":429,"headers":{{"Retry-After":"{date}"}}"#
            )),
            ListWebhooks,
            "rate_limited",
            Some(429),
        ),
        (
            "401 HTML",
            g(r#","status":401,"body":"<b>login</b>","contentType":"text/html""#),
            ListWebhooks,
            "unauthorized",
            Some(401),
        ),
        (
            "403 documented body",
            g(&body(403, r#"{"code":"server_error","statusCode":403}"#)),
            ListWebhooks,
            "forbidden",
            Some(403),
        ),
        (
            "404 text",
            g(r#","status":404,"body":"nope","contentType":"text/plain""#),
            ListWebhooks,
            "not_found",
            Some(404),
        ),
        (
            "400 message list",
            g(&body(
                400,
                r#"{"message":["a must be","b must be"],"error":"Bad Request"}"#,
            )),
            ListWebhooks,
            "http",
            Some(400),
        ),
        (
            "418 deep error body",
            g(&body(418, &format!(r#"{{"message":{deep}}}"#))),
            ListWebhooks,
            "http",
            Some(418),
        ),
        (
            "redirect elsewhere",
            g(r#","status":302,"body":"","headers":{"Location":"http://127.0.0.1:9/steal"}"#),
            ListWebhooks,
            "http",
            // Status 0: a redirect is never followed, and the browser hides its status.
            Some(0),
        ),
        (
            // A connection that keeps closing with no answer. The engines silently resend the
            // request first (Chromium once, Firefox up to 10 attempts in all, WebKit only over
            // connections that had already carried an answer, at most 4 attempts seen; see
            // get_dropped_twice_* below), so the drops outlast them all: 20.
            "dropped connection, every attempt",
            g(r#","drop":true,"times":20"#),
            ListWebhooks,
            "network",
            None,
        ),
        (
            "slower than the timeout",
            g(r#","delayMs":4000"#),
            ListWebhooks,
            "timeout",
            None,
        ),
        (
            "register: 200, no Location, no id, nothing listed",
            p(r#","status":200,"body":"""#),
            Register,
            "decode",
            Some(200),
        ),
        (
            "register: empty Location and garbage body",
            p(r#","status":200,"body":"<html>","headers":{"Location":""}"#),
            Register,
            "decode",
            Some(200),
        ),
        (
            "register: 500",
            p(r#","status":500"#),
            Register,
            "http",
            Some(500),
        ),
        (
            "graphql errors with 200",
            q(&body(
                200,
                r#"{"errors":[{"message":"boom","extensions":{"code":"X"}}],"data":null}"#,
            )),
            Messages,
            "graphql",
            Some(200),
        ),
        (
            "graphql errors as a string",
            q(&body(200, r#"{"errors":"bad things"}"#)),
            Messages,
            "graphql",
            Some(200),
        ),
        (
            "graphql errors with 500",
            q(&body(500, r#"{"errors":[{"message":"internal"}]}"#)),
            Messages,
            "graphql",
            Some(500),
        ),
        (
            "graphql deeply nested message",
            q(&body(
                200,
                &format!(r#"{{"errors":[{{"message":{deep}}}]}}"#),
            )),
            Messages,
            "graphql",
            Some(200),
        ),
        (
            "graphql null data",
            q(&body(200, r#"{"data":null}"#)),
            Messages,
            "decode",
            Some(200),
        ),
        (
            "graphql null messages",
            q(&body(200, r#"{"data":{"messages":null}}"#)),
            Messages,
            "decode",
            Some(200),
        ),
        (
            "graphql wrong isRead",
            q(&body(200, r#"{"data":{"messages":[{"isRead":"yes"}]}}"#)),
            Messages,
            "decode",
            Some(200),
        ),
        (
            "graphql attachments not a list",
            q(&body(
                200,
                r#"{"data":{"messages":[{"attachments":"none"}]}}"#,
            )),
            Messages,
            "decode",
            Some(200),
        ),
        (
            "graphql size as text",
            q(&body(
                200,
                r#"{"data":{"messages":[{"attachments":[{"size":"1 KB"}]}]}}"#,
            )),
            Messages,
            "decode",
            Some(200),
        ),
        (
            "graphql HTML 504",
            q(r#","status":504,"body":"<html>gateway</html>","contentType":"text/html""#),
            Messages,
            "http",
            Some(504),
        ),
        (
            "document numeric id",
            d(&body(200, r#"{"id":123}"#)),
            GetDocument,
            "decode",
            Some(200),
        ),
        (
            "document as array",
            d(&body(200, "[]")),
            GetDocument,
            "decode",
            Some(200),
        ),
        (
            "document size as text",
            d(&body(200, r#"{"id":"d","size":"big"}"#)),
            GetDocument,
            "decode",
            Some(200),
        ),
        (
            "upload answers {}",
            u(&body(201, "{}")),
            Upload,
            "decode",
            Some(201),
        ),
        (
            "upload answers 413 text",
            u(r#","status":413,"body":"too big","contentType":"text/plain""#),
            Upload,
            "http",
            Some(413),
        ),
    ];
    assert!(cases.len() >= 40, "corpus has {} cases", cases.len());
    for (name, spec, call, kind, status) in &cases {
        admin("DELETE", "/_emulator/faults", None).await;
        fault(spec).await;
        let e = match run(&c, *call).await {
            Ok(v) => panic!("{name}: expected {kind}, got success {}", stringify(&v)),
            Err(e) => e,
        };
        assert!(estatekit::is_api_error(&e), "{name}: not an ApiError");
        assert_eq!(
            get_str(&e, "kind").as_deref(),
            Some(*kind),
            "{name}: {}",
            message(&e)
        );
        assert_eq!(
            get(&e, "status").as_f64(),
            status.map(f64::from),
            "{name}: {}",
            message(&e)
        );
        assert!(message(&e).len() < 2_000, "{name}: message stays short");
        admin("DELETE", "/_emulator/faults", None).await;
        ok(c.list_webhooks(opt(JsValue::UNDEFINED))).await;
    }

    // Tolerated oddities: still a success.
    for (name, spec) in [
        (
            "JSON served as text/html",
            g(r#","status":200,"body":"[]","contentType":"text/html""#),
        ),
        (
            "byte order mark",
            g(r#","status":200,"bodyBase64":"77u/W10=","contentType":"application/json""#),
        ),
        ("missing Location", p(r#","removeHeaders":["Location"]"#)),
    ] {
        admin("DELETE", "/_emulator/faults", None).await;
        fault(&spec).await;
        let call = if name == "missing Location" {
            Register
        } else {
            ListWebhooks
        };
        if let Err(e) = run(&c, call).await {
            panic!("{name}: {}", message(&e));
        }
    }
}

/// A GET whose connection closes twice with no answer (then the service answers): the engines
/// differ, below the library (`retry.maxRetries` is 0, so estatekit itself sends once).
/// - Chromium resends a request once when a connection closes without any reply, and then
///   rejects the fetch ("Failed to fetch"): the user gets an `ApiError` of kind `network`, and
///   the service saw 2 GETs.
/// - Firefox resends an idempotent request (a GET) on such a closed connection up to its
///   attempt limit (`network.http.request.max-attempts`, 10 attempts in all): the third attempt
///   is answered, and the user gets the real list, as if nothing had happened (3 GETs).
/// - WebKit (WebKitGTK's libsoup) resends an idempotent request only when the connection it went
///   out on had already carried an answer (a kept-alive connection, which a server may close),
///   never one sent on a new connection. Which connections the attempts meet depends on the
///   browser's connection pool, so the user gets the real list (3 GETs: both dropped attempts
///   were on used connections) or a `network` ApiError (1 or 2 GETs: the attempt that met a new
///   connection was not resent). Here, after the corpus above, the list came in 10 runs of 10;
///   the same call repeated 60 times in one page gave the list 23 times, `network` after 1 GET
///   21 times and after 2 GETs 16 times.
///
/// What the user gets is right in all three: an error they can retry, or the right answer.
/// (A POST differs again: webhooks.rs, a_post_dropped_once_*.)
#[wasm_bindgen_test]
async fn get_dropped_twice_network_in_chromium_list_in_firefox_either_in_webkit() {
    let token = new_account().await;
    let c = client_with(&format!(
        r#"{{"baseUrl":"{}","token":"{token}","timeoutMs":1500,"retry":{{"maxRetries":0}}}}"#,
        emulator()
    ));
    let id = ok(c.register_webhook(
        ts(json(
            r#"{"type":"UNIT_CREATED","url":"https://h.example.com/drop"}"#,
        )),
        None,
    ))
    .await;
    let before = gets(&token).await;
    fault_on("GET", WEBHOOKS, &token, r#","drop":true,"times":2"#).await;
    let answer = run(&c, Call::ListWebhooks).await;
    admin("DELETE", "/_emulator/faults", None).await;
    let sent = gets(&token).await - before;
    let network = |e: &JsValue| {
        assert!(estatekit::is_api_error(e), "not an ApiError: {e:?}");
        assert_eq!(
            get_str(e, "kind").as_deref(),
            Some("network"),
            "{}",
            message(e)
        );
        assert!(get(e, "status").is_undefined());
    };
    let the_list = |list: &JsValue| {
        let ids: Vec<JsValue> = items(list).iter().map(|w| get(w, "id")).collect();
        assert_eq!(ids, std::slice::from_ref(&id));
    };
    match (engine(), answer, sent) {
        (Engine::Chromium, Err(e), 2) => network(&e),
        (Engine::Firefox, Ok(list), 3) => the_list(&list),
        (Engine::WebKit, Ok(list), 3) => the_list(&list),
        (Engine::WebKit, Err(e), 1 | 2) => network(&e),
        (engine, Ok(v), sent) => {
            panic!("{engine:?}: the list after {sent} GETs: {}", stringify(&v))
        }
        (engine, Err(e), sent) => panic!("{engine:?}: an error after {sent} GETs: {}", message(&e)),
    }
    // Either way the same client then completes a normal call.
    ok(c.list_webhooks(None)).await;
}

/// How many `GET` webhook lists the service received with `token`.
async fn gets(token: &str) -> u32 {
    let (_, routes) = counters(token).await;
    get(&routes, &format!("GET {WEBHOOKS}"))
        .as_f64()
        .unwrap_or(0.0) as u32
}
