//! Browser tests of the document operations against the emulator.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::*;
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Blob, BlobPropertyBag};

wasm_bindgen_test_configure!(run_in_browser);

/// A 2x2 JPEG image.
const JPEG_2X2: &[u8] = &[
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x08, 0x06, 0x06, 0x07, 0x06, 0x05, 0x08,
    0x07, 0x07, 0x07, 0x09, 0x09, 0x08, 0x0A, 0x0C, 0x14, 0x0D, 0x0C, 0x0B, 0x0B, 0x0C, 0x19, 0x12,
    0x13, 0x0F, 0x14, 0x1D, 0x1A, 0x1F, 0x1E, 0x1D, 0x1A, 0x1C, 0x1C, 0x20, 0x24, 0x2E, 0x27, 0x20,
    0x22, 0x2C, 0x23, 0x1C, 0x1C, 0x28, 0x37, 0x29, 0x2C, 0x30, 0x31, 0x34, 0x34, 0x34, 0x1F, 0x27,
    0x39, 0x3D, 0x38, 0x32, 0x3C, 0x2E, 0x33, 0x34, 0x32, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x02,
    0x00, 0x02, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0xFF, 0xC4,
    0x00, 0x14, 0x10, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x2A, 0x9F,
    0xFF, 0xD9,
];

fn blob(bytes: &[u8], mime: &str) -> Blob {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let bag = BlobPropertyBag::new();
    bag.set_type(mime);
    Blob::new_with_u8_array_sequence_and_options(&parts, &bag).unwrap()
}

fn upload_input(file: &Blob, rest: &str) -> JsValue {
    let input = json(rest);
    Reflect::set(&input, &"file".into(), file).unwrap();
    input
}

#[wasm_bindgen_test]
async fn upload_get_list_delete() {
    let token = new_account().await;
    let c = client(&token);
    let file = blob(b"%PDF-1.4 lease agreement", "application/pdf");
    let input = upload_input(
        &file,
        r#"{"resourcePath":"properties/prop-7","name":"Lease 2026.pdf",
            "metadata":{"type":"CONTRACT","propertyId":"prop-7","propertyGroupId":"pg-1"}}"#,
    );
    let rec = ok(c.upload_document(ts(input), opt(JsValue::UNDEFINED))).await;
    let id = get_str(&rec, "id").expect("id");
    assert_eq!(get_str(&rec, "title").as_deref(), Some("Lease 2026.pdf"));
    assert_eq!(get_str(&rec, "type").as_deref(), Some("CONTRACT"));
    assert_eq!(get_str(&rec, "propertyId").as_deref(), Some("prop-7"));
    assert_eq!(get_str(&rec, "propertyGroupId").as_deref(), Some("pg-1"));
    assert!(get(&rec, "tenantId").is_null());
    let path = get_str(&rec, "resourcePath").unwrap();
    assert!(
        path.ends_with(&format!("/properties/prop-7/{id}")),
        "{path}"
    );
    assert_eq!(get(&rec, "size").as_f64(), Some(24.0));
    assert!(
        get_str(&rec, "createdAt").is_some(),
        "extra fields are kept"
    );

    let same = ok(c.get_document(JsValue::from_str(&id), opt(JsValue::UNDEFINED))).await;
    assert_eq!(stringify(&same), stringify(&rec));

    let by_type = items(
        &ok(c.list_documents(
            opt(json(
                r#"{"propertyId":"prop-7","types":["CONTRACT","PRE-MOVE_IN"]}"#,
            )),
            opt(JsValue::UNDEFINED),
        ))
        .await,
    );
    assert_eq!(by_type.len(), 1);
    let none = items(
        &ok(c.list_documents(
            opt(json(r#"{"propertyId":"prop-7","types":["SELLING"]}"#)),
            opt(JsValue::UNDEFINED),
        ))
        .await,
    );
    assert!(none.is_empty());
    let by_title = items(
        &ok(c.list_documents(
            opt(json(r#"{"title":"lease 2026"}"#)),
            opt(JsValue::UNDEFINED),
        ))
        .await,
    );
    assert_eq!(by_title.len(), 1);

    ok(c.delete_document(JsValue::from_str(&id), opt(JsValue::UNDEFINED))).await;
    err_kind(
        c.get_document(JsValue::from_str(&id), opt(JsValue::UNDEFINED)),
        "not_found",
        Some(404),
    )
    .await;
    err_kind(
        c.delete_document(JsValue::from_str(&id), opt(JsValue::UNDEFINED)),
        "not_found",
        Some(404),
    )
    .await;
}

#[wasm_bindgen_test]
async fn multi_megabyte_upload_and_paging() {
    let token = new_account().await;
    let c = client(&token);
    let big = vec![0x5Au8; 6 * 1024 * 1024 + 3];
    for i in 0..3 {
        let input = upload_input(
            &blob(&big, "application/octet-stream"),
            &format!(
                r#"{{"resourcePath":"units/u-{i}","name":"scan-{i}.bin","metadata":{{"unitId":"u-9"}}}}"#
            ),
        );
        let rec = ok(c.upload_document(ts(input), opt(JsValue::UNDEFINED))).await;
        assert_eq!(get(&rec, "size").as_f64(), Some(big.len() as f64));
        assert_eq!(
            get_str(&rec, "type").as_deref(),
            Some("DOCUMENT"),
            "default type"
        );
    }
    let all = items(
        &ok(c.list_documents(opt(json(r#"{"unitId":"u-9"}"#)), opt(JsValue::UNDEFINED))).await,
    );
    assert_eq!(all.len(), 3);
    let page = items(
        &ok(c.list_documents(
            opt(json(r#"{"unitId":"u-9","skip":1,"take":1}"#)),
            opt(JsValue::UNDEFINED),
        ))
        .await,
    );
    assert_eq!(page.len(), 1);
    assert_eq!(get_str(&page[0], "id"), get_str(&all[1], "id"));
}

#[wasm_bindgen_test]
async fn image_conversion_with_format() {
    let token = new_account().await;
    let c = client(&token);
    let input = upload_input(
        &blob(JPEG_2X2, "image/jpeg"),
        r#"{"resourcePath":"tenants/t-1","format":"PNG","metadata":{"tenantId":"t-1","type":"MOVE_IN"}}"#,
    );
    let rec = ok(c.upload_document(ts(input), opt(JsValue::UNDEFINED))).await;
    assert_eq!(
        get_str(&rec, "mimeType").as_deref(),
        Some("image/png"),
        "{}",
        stringify(&rec)
    );
    assert_eq!(get_str(&rec, "tenantId").as_deref(), Some("t-1"));

    let text = upload_input(
        &blob(b"not an image", "text/plain"),
        r#"{"resourcePath":"tenants/t-1","format":"JPEG"}"#,
    );
    let e = err_kind(
        c.upload_document(ts(text), opt(JsValue::UNDEFINED)),
        "http",
        Some(400),
    )
    .await;
    assert_eq!(get_str(&e, "code").as_deref(), Some("bad_request"));
    assert!(get_str(&get(&e, "details"), "message").is_some());
}

#[wasm_bindgen_test]
async fn file_name_comes_from_the_file() {
    let token = new_account().await;
    let c = client(&token);
    let parts = Array::of1(&Uint8Array::from(&b"hello"[..]));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, "notes.txt").unwrap();
    let input = upload_input(&file, r#"{"resourcePath":"/protocols/12"}"#);
    let rec = ok(c.upload_document(ts(input), opt(JsValue::UNDEFINED))).await;
    assert_eq!(get_str(&rec, "title").as_deref(), Some("notes.txt"));
}

#[wasm_bindgen_test]
async fn invalid_input_sends_nothing() {
    let token = new_account().await;
    let c = client(&token);
    let file = blob(b"x", "text/plain");
    let cases: Vec<(JsValue, &str)> = vec![
        (
            upload_input(&file, r#"{"resourcePath":""}"#),
            "input.resourcePath",
        ),
        (
            upload_input(&file, r#"{"resourcePath":"tenants/../../etc"}"#),
            "input.resourcePath",
        ),
        (upload_input(&file, r#"{}"#), "input"),
        (
            upload_input(&file, r#"{"resourcePath":"units/1","format":"GIF"}"#),
            "input.format",
        ),
        (
            upload_input(
                &file,
                r#"{"resourcePath":"units/1","metadata":{"type":"PRE_MOVE_IN"}}"#,
            ),
            "input.metadata.type",
        ),
        (
            upload_input(
                &file,
                r#"{"resourcePath":"units/1","metadata":{"unitID":"x"}}"#,
            ),
            "input.metadata",
        ),
        (json(r#"{"resourcePath":"units/1"}"#), "input.file"),
        (
            json(r#"{"resourcePath":"units/1","file":"hello"}"#),
            "input.file",
        ),
        (Object::new().into(), "input"),
    ];
    for (input, field) in cases {
        let e = err_kind(
            c.upload_document(ts(input), opt(JsValue::UNDEFINED)),
            "invalid_input",
            None,
        )
        .await;
        assert!(
            message(&e).starts_with(&format!("invalid {field}")),
            "{} / {field}",
            message(&e)
        );
    }
    for (query, field) in [
        (r#"{"types":["INVOICE"]}"#, "query.types"),
        (r#"{"take":-1}"#, "query.take"),
        (r#"{"skip":1.5}"#, "query.skip"),
        (r#"{"tenantId":""}"#, "query.tenantId"),
        (r#"{"tenant":"t"}"#, "query"),
    ] {
        let e = err_kind(
            c.list_documents(opt(json(query)), opt(JsValue::UNDEFINED)),
            "invalid_input",
            None,
        )
        .await;
        assert!(
            message(&e).starts_with(&format!("invalid {field}")),
            "{} / {field}",
            message(&e)
        );
    }
    for bad in [
        JsValue::from_str(""),
        JsValue::from_str(".."),
        JsValue::NULL,
    ] {
        err_kind(
            c.get_document(bad, opt(JsValue::UNDEFINED)),
            "invalid_input",
            None,
        )
        .await;
    }
    assert_eq!(counters(&token).await.0, 0, "nothing reached the service");
}

#[wasm_bindgen_test]
async fn ids_stay_one_path_segment() {
    let token = new_account().await;
    let c = client(&token);
    for id in [
        "../../external-integrations/webhooks",
        "a%2Fb",
        "x?y=1",
        "x#y",
        "ünïcødé",
        "a/b",
    ] {
        // Unknown (404) or refused by the emulator's id rules (400), never another endpoint.
        for p in [
            c.get_document(JsValue::from_str(id), opt(JsValue::UNDEFINED)),
            c.delete_document(JsValue::from_str(id), opt(JsValue::UNDEFINED)),
        ] {
            let e = err(p).await;
            let status = get(&e, "status").as_f64();
            assert!(
                status == Some(404.0) || status == Some(400.0),
                "{id}: {}",
                message(&e)
            );
        }
    }
    let (_, routes) = counters(&token).await;
    let keys: Vec<String> = Object::keys(routes.unchecked_ref::<Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    assert!(
        keys.iter().all(|k| k.contains("/documents/{documentId}")),
        "only the document routes were reached: {keys:?}"
    );
}

#[wasm_bindgen_test]
async fn wrapped_and_odd_list_answers() {
    let token = new_account().await;
    let c = client(&token);
    let path = "/api/file-storage/company/documents/metadata";
    fault_on("GET", path, &token, r#","status":200,"body":"{\"total\":1,\"documents\":[{\"id\":\"d1\",\"type\":\"NEW_KIND\",\"mystery\":[1,2]}]}","contentType":"application/json""#).await;
    let list = items(&ok(c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED))).await);
    assert_eq!(get_str(&list[0], "type").as_deref(), Some("NEW_KIND"));
    assert_eq!(stringify(&get(&list[0], "mystery")), "[1,2]");

    fault_on(
        "GET",
        path,
        &token,
        r#","status":200,"body":"{\"rows\":[]}","contentType":"application/json""#,
    )
    .await;
    err_kind(
        c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED)),
        "decode",
        Some(200),
    )
    .await;

    fault_on("GET", path, &token, r#","truncate":true"#).await;
    err_kind(
        c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED)),
        "decode",
        Some(200),
    )
    .await;
    ok(c.list_documents(opt(JsValue::UNDEFINED), opt(JsValue::UNDEFINED))).await;
}

/// Progress reports seen, as (loaded, total).
type Reports = std::rc::Rc<std::cell::RefCell<Vec<(f64, f64)>>>;

/// Upload options whose `onProgress` records every report.
fn progress_options(extra: &str) -> (JsValue, Reports) {
    use wasm_bindgen::closure::Closure;
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
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
async fn upload_progress_ends_with_loaded_equal_total() {
    let token = new_account().await;
    let c = client(&token);
    let big = vec![7u8; 3 * 1024 * 1024];
    let (options, seen) = progress_options("");
    let input = upload_input(
        &blob(&big, "application/octet-stream"),
        r#"{"resourcePath":"units/p","name":"p.bin"}"#,
    );
    let rec = ok(c.upload_document(ts(input), opt(options))).await;
    assert_eq!(get(&rec, "size").as_f64(), Some(big.len() as f64));
    let seen = seen.borrow().clone();
    assert!(!seen.is_empty());
    let (last_loaded, last_total) = *seen.last().unwrap();
    assert_eq!(last_loaded, last_total, "{seen:?}");
    assert!(
        last_total >= big.len() as f64,
        "total counts the whole body: {seen:?}"
    );
    assert!(
        seen.windows(2).all(|w| w[0].0 <= w[1].0),
        "loaded never goes back: {seen:?}"
    );

    // Errors, timeouts and aborts behave as without progress.
    let (options, _) = progress_options("");
    let text = upload_input(
        &blob(b"not an image", "text/plain"),
        r#"{"resourcePath":"units/p","format":"PNG"}"#,
    );
    let e = err_kind(c.upload_document(ts(text), opt(options)), "http", Some(400)).await;
    assert_eq!(get_str(&e, "code").as_deref(), Some("bad_request"));

    let docs = "/api/file-storage/company/documents";
    fault_on("POST", docs, &token, r#","delayMs":3000"#).await;
    let (options, _) = progress_options(r#""timeoutMs":200"#);
    let input = upload_input(&blob(b"abc", "text/plain"), r#"{"resourcePath":"units/p"}"#);
    err_kind(c.upload_document(ts(input), opt(options)), "timeout", None).await;

    admin("DELETE", "/_emulator/faults", None).await;
    fault_on("POST", docs, &token, r#","delayMs":3000"#).await;
    let (options, _) = progress_options("");
    let controller = web_sys::AbortController::new().unwrap();
    Reflect::set(&options, &"signal".into(), &controller.signal()).unwrap();
    let input = upload_input(&blob(b"abc", "text/plain"), r#"{"resourcePath":"units/p"}"#);
    let pending = c.upload_document(ts(input), opt(options));
    sleep(200).await;
    controller.abort();
    err_kind(pending, "aborted", None).await;
    admin("DELETE", "/_emulator/faults", None).await;

    let input = upload_input(&blob(b"abc", "text/plain"), r#"{"resourcePath":"units/p"}"#);
    let e = err_kind(
        c.upload_document(ts(input), opt(json(r#"{"onProgress":true}"#))),
        "invalid_input",
        None,
    )
    .await;
    assert!(
        message(&e).contains("options.onProgress"),
        "{}",
        message(&e)
    );
}

#[wasm_bindgen_test]
async fn progress_uploads_never_follow_a_redirect_with_the_token() {
    if !over_the_network("an XMLHttpRequest upload redirected to the second origin") {
        return;
    }
    let token = new_account().await;
    let c = client(&token);
    let info = admin("GET", "/_emulator/info", None).await;
    let second = get_str(&info, "secondOrigin").expect("emulator started with --second-origin");
    // The Location carries a marker of this test's own (its account's token): the second
    // origin's log is read for it only (the log is shared with the other tests, never cleared).
    let probe = format!("redirect-probe={token}");
    let docs = "/api/file-storage/company/documents";
    fault_on(
        "POST",
        docs,
        &token,
        &format!(r#","status":307,"body":"","headers":{{"Location":"{second}{docs}?{probe}"}}"#),
    )
    .await;
    let (options, _) = progress_options("");
    let input = upload_input(&blob(b"abc", "text/plain"), r#"{"resourcePath":"units/r"}"#);
    let e = err(c.upload_document(ts(input), opt(options))).await;
    assert_eq!(
        get_str(&e, "kind").as_deref(),
        Some("http"),
        "{}",
        message(&e)
    );
    let host = second.trim_start_matches("http://");
    let query = probe.replace('=', "%3D");
    for r in items(
        &admin(
            "GET",
            &format!("/_emulator/requests?host={host}&query={query}"),
            None,
        )
        .await,
    ) {
        assert_eq!(
            get(&r, "hasAuthorization").as_bool(),
            Some(false),
            "{}",
            stringify(&r)
        );
    }
}
