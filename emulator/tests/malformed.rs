//! Malformed input: every case must get a 4xx JSON error, and the server keeps serving.
mod common;
use common::*;

struct Case {
    name: &'static str,
    method: &'static str,
    path: String,
    content_type: Option<String>,
    auth: Option<&'static str>,
    body: Vec<u8>,
    status: u16,
}

fn case(
    name: &'static str,
    method: &'static str,
    path: &str,
    ct: Option<&str>,
    body: impl Into<Vec<u8>>,
    status: u16,
) -> Case {
    Case {
        name,
        method,
        path: path.to_string(),
        content_type: ct.map(str::to_string),
        auth: Some("Bearer dev-token"),
        body: body.into(),
        status,
    }
}

const B: &str = "XBOUNDARYX";

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG whose header claims 100000 x 100000 pixels (a decompression bomb).
fn png_bomb() -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&100_000u32.to_be_bytes());
    ihdr.extend_from_slice(&100_000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&ihdr);
    out.extend_from_slice(&crc32(&ihdr).to_be_bytes());
    out
}

fn mp(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, file, data) in parts {
        out.extend_from_slice(format!("--{B}\r\n").as_bytes());
        match file {
            Some(f) => out.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
            ),
            None => out.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        out.extend_from_slice(data);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{B}--\r\n").as_bytes());
    out
}

#[tokio::test]
async fn malformed_inputs_get_json_4xx() {
    let s = server_with(|c| c.max_upload_mb = 1).await;
    let c = client();
    let json = Some("application/json");
    let mpct = format!("multipart/form-data; boundary={B}");
    let mpct = Some(mpct.as_str());
    let file: (&str, Option<&str>, &[u8]) = ("file", Some("a.txt"), b"hello");
    let rp: (&str, Option<&str>, &[u8]) = ("resourcePath", None, b"tenants/t1");
    let meta: (&str, Option<&str>, &[u8]) = ("metadata", None, b"{}");
    let huge = "A".repeat(200_000);
    let bomb = png_bomb();
    let list = format!("{DOCS}/metadata");
    let hook_id = format!("{HOOKS}/x");
    let mut cases = vec![
        case("webhook: truncated JSON", "POST", HOOKS, json, "{", 400),
        case("webhook: JSON array", "POST", HOOKS, json, "[]", 400),
        case("webhook: JSON string", "POST", HOOKS, json, "\"x\"", 400),
        case("webhook: empty body", "POST", HOOKS, json, "", 400),
        case(
            "webhook: no content type",
            "POST",
            HOOKS,
            None,
            r#"{"type":"UNIT_CREATED","url":"http://127.0.0.1/"}"#,
            400,
        ),
        case(
            "webhook: text/plain",
            "POST",
            HOOKS,
            Some("text/plain"),
            r#"{"type":"UNIT_CREATED","url":"http://127.0.0.1/"}"#,
            400,
        ),
        case(
            "webhook: unknown type",
            "POST",
            HOOKS,
            json,
            r#"{"type":"FOO","url":"http://127.0.0.1/"}"#,
            400,
        ),
        case(
            "webhook: lowercase type",
            "POST",
            HOOKS,
            json,
            r#"{"type":"unit_created","url":"http://127.0.0.1/"}"#,
            400,
        ),
        case(
            "webhook: numeric type",
            "POST",
            HOOKS,
            json,
            r#"{"type":5,"url":"http://127.0.0.1/"}"#,
            400,
        ),
        case(
            "webhook: missing type",
            "POST",
            HOOKS,
            json,
            r#"{"url":"http://127.0.0.1/"}"#,
            400,
        ),
        case(
            "webhook: missing url",
            "POST",
            HOOKS,
            json,
            r#"{"type":"UNIT_CREATED"}"#,
            400,
        ),
        case(
            "webhook: relative url",
            "POST",
            HOOKS,
            json,
            r#"{"type":"UNIT_CREATED","url":"/hook"}"#,
            400,
        ),
        case(
            "webhook: ftp url",
            "POST",
            HOOKS,
            json,
            r#"{"type":"UNIT_CREATED","url":"ftp://127.0.0.1/x"}"#,
            400,
        ),
        case(
            "webhook: javascript url",
            "POST",
            HOOKS,
            json,
            r#"{"type":"UNIT_CREATED","url":"javascript:alert(1)"}"#,
            400,
        ),
        case(
            "webhook: url not a string",
            "POST",
            HOOKS,
            json,
            r#"{"type":"UNIT_CREATED","url":12}"#,
            400,
        ),
        case(
            "webhook: non-UTF-8 body",
            "POST",
            HOOKS,
            json,
            vec![0xff, 0xfe, 0x7b, 0x00],
            400,
        ),
        case(
            "webhook: huge type",
            "POST",
            HOOKS,
            json,
            format!(r#"{{"type":"{huge}","url":"http://127.0.0.1/"}}"#),
            400,
        ),
        case(
            "webhook: deeply nested",
            "POST",
            HOOKS,
            json,
            "[".repeat(10_000),
            400,
        ),
        case(
            "webhook: traversal id",
            "DELETE",
            &format!("{HOOKS}/..%2F..%2Fwebhooks"),
            None,
            "",
            400,
        ),
        case(
            "webhook: dot-dot id (normalised by the client)",
            "DELETE",
            &format!("{HOOKS}/.."),
            None,
            "",
            404,
        ),
        case("webhook: unknown id", "DELETE", &hook_id, None, "", 404),
        case(
            "webhook: bad percent id",
            "DELETE",
            &format!("{HOOKS}/%FF%FE"),
            None,
            "",
            400,
        ),
        case(
            "docs: negative skip",
            "GET",
            &format!("{list}?skip=-1"),
            None,
            "",
            400,
        ),
        case(
            "docs: text take",
            "GET",
            &format!("{list}?take=abc"),
            None,
            "",
            400,
        ),
        case(
            "docs: fractional skip",
            "GET",
            &format!("{list}?skip=1.5"),
            None,
            "",
            400,
        ),
        case(
            "docs: huge take",
            "GET",
            &format!("{list}?take=999999999999999999999999999"),
            None,
            "",
            400,
        ),
        case(
            "docs: unknown type",
            "GET",
            &format!("{list}?types=FOO"),
            None,
            "",
            400,
        ),
        case(
            "docs: unknown type in list",
            "GET",
            &format!("{list}?types=DOCUMENT,BAR"),
            None,
            "",
            400,
        ),
        case(
            "docs: repeated bad type",
            "GET",
            &format!("{list}?types=CONTRACT&types=move_in"),
            None,
            "",
            400,
        ),
        case(
            "docs: bad percent in query",
            "GET",
            &format!("{list}?skip=%FF"),
            None,
            "",
            400,
        ),
        case(
            "docs: traversal id",
            "GET",
            &format!("{DOCS}/..%2F..%2Fsecret/metadata"),
            None,
            "",
            400,
        ),
        case(
            "docs: unknown id",
            "GET",
            &format!("{DOCS}/nope/metadata"),
            None,
            "",
            404,
        ),
        case(
            "docs: delete traversal",
            "DELETE",
            &format!("{DOCS}/%2e%2e%2fetc"),
            None,
            "",
            400,
        ),
        case(
            "upload: JSON instead of multipart",
            "POST",
            DOCS,
            json,
            r#"{"file":"x"}"#,
            400,
        ),
        case("upload: no content type", "POST", DOCS, None, "abc", 400),
        case(
            "upload: multipart without boundary",
            "POST",
            DOCS,
            Some("multipart/form-data"),
            "abc",
            400,
        ),
        case(
            "upload: garbage multipart",
            "POST",
            DOCS,
            mpct,
            "this is not multipart at all",
            400,
        ),
        case(
            "upload: unterminated multipart",
            "POST",
            DOCS,
            mpct,
            format!(
                "--{B}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nabc"
            ),
            400,
        ),
        case(
            "upload: missing file",
            "POST",
            DOCS,
            mpct,
            mp(&[rp, meta]),
            400,
        ),
        case(
            "upload: missing resourcePath",
            "POST",
            DOCS,
            mpct,
            mp(&[file, meta]),
            400,
        ),
        case(
            "upload: missing metadata",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp]),
            400,
        ),
        case(
            "upload: traversal resourcePath",
            "POST",
            DOCS,
            mpct,
            mp(&[file, ("resourcePath", None, b"tenants/../../etc"), meta]),
            400,
        ),
        case(
            "upload: empty resourcePath",
            "POST",
            DOCS,
            mpct,
            mp(&[file, ("resourcePath", None, b"///"), meta]),
            400,
        ),
        case(
            "upload: malformed metadata",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, ("metadata", None, b"{type:")]),
            400,
        ),
        case(
            "upload: metadata array",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, ("metadata", None, b"[1,2]")]),
            400,
        ),
        case(
            "upload: unknown document type",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, ("metadata", None, br#"{"type":"INVOICE"}"#)]),
            400,
        ),
        case(
            "upload: object tenantId",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, ("metadata", None, br#"{"tenantId":{"a":1}}"#)]),
            400,
        ),
        case(
            "upload: non-UTF-8 metadata",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, ("metadata", None, &[0xff, 0xfe])]),
            400,
        ),
        case(
            "upload: unknown format",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, meta, ("format", None, b"GIF")]),
            400,
        ),
        case(
            "upload: format on non-image",
            "POST",
            DOCS,
            mpct,
            mp(&[file, rp, meta, ("format", None, b"PNG")]),
            400,
        ),
        case(
            "upload: image bomb with format",
            "POST",
            DOCS,
            mpct,
            mp(&[
                ("file", Some("bomb.png"), &bomb),
                rp,
                meta,
                ("format", None, b"JPEG"),
            ]),
            400,
        ),
        case("graphql: bad JSON", "POST", GQL, json, "{\"query\":", 400),
        case(
            "graphql: wrong content type",
            "POST",
            GQL,
            Some("text/plain"),
            r#"{"query":"{ __typename }"}"#,
            400,
        ),
        case("graphql: missing query", "POST", GQL, json, "{}", 400),
        case(
            "graphql: query not a string",
            "POST",
            GQL,
            json,
            r#"{"query": 42}"#,
            400,
        ),
        case(
            "graphql: variables not an object",
            "POST",
            GQL,
            json,
            r#"{"query":"{ __typename }","variables":[1]}"#,
            400,
        ),
        case(
            "graphql: non-UTF-8",
            "POST",
            GQL,
            json,
            vec![0xc3, 0x28, 0xa0, 0xa1],
            400,
        ),
        case(
            "unknown API route",
            "GET",
            "/api/reporting/nope",
            None,
            "",
            404,
        ),
        case("wrong method", "PATCH", HOOKS, json, "{}", 405),
        case(
            "admin: bad fault JSON",
            "POST",
            "/_emulator/faults",
            json,
            "{",
            400,
        ),
        case(
            "admin: fault without path",
            "POST",
            "/_emulator/faults",
            json,
            r#"{"status":500}"#,
            400,
        ),
        case(
            "admin: fault bad status",
            "POST",
            "/_emulator/faults",
            json,
            r#"{"path":"/x","status":99}"#,
            400,
        ),
        case(
            "admin: fault unknown field",
            "POST",
            "/_emulator/faults",
            json,
            r#"{"path":"/x","statsu":500}"#,
            400,
        ),
        case(
            "admin: fault bad base64",
            "POST",
            "/_emulator/faults",
            json,
            r#"{"path":"/x","bodyBase64":"%%%"}"#,
            400,
        ),
        case(
            "admin: fault huge delay",
            "POST",
            "/_emulator/faults",
            json,
            r#"{"path":"/x","delayMs":99999999999}"#,
            400,
        ),
        case(
            "admin: fault bad header",
            "POST",
            "/_emulator/faults",
            json,
            r#"{"path":"/x","headers":{"bad header":"v"}}"#,
            400,
        ),
        case(
            "admin: event unknown type",
            "POST",
            "/_emulator/emit",
            json,
            r#"{"type":"NOPE"}"#,
            400,
        ),
        case(
            "admin: event unknown token",
            "POST",
            "/_emulator/emit",
            json,
            r#"{"type":"UNIT_CREATED","token":"ghost"}"#,
            400,
        ),
        case(
            "admin: account without token",
            "POST",
            "/_emulator/accounts",
            json,
            "{}",
            400,
        ),
        case(
            "admin: account bad token",
            "POST",
            "/_emulator/accounts",
            json,
            r#"{"token":"a b"}"#,
            400,
        ),
        case(
            "admin: config not a number",
            "POST",
            "/_emulator/config",
            json,
            r#"{"rateLimit":"10"}"#,
            400,
        ),
        case(
            "admin: unknown admin route",
            "GET",
            "/_emulator/nope",
            None,
            "",
            404,
        ),
    ];
    let mut no_auth = case(
        "no auth on upload",
        "POST",
        DOCS,
        mpct,
        mp(&[file, rp, meta]),
        401,
    );
    no_auth.auth = None;
    cases.push(no_auth);
    let mut bad_auth = case("garbage auth header", "GET", HOOKS, None, "", 401);
    bad_auth.auth = Some("Bearer a b c");
    cases.push(bad_auth);
    assert!(cases.len() >= 30);

    for k in cases {
        let mut req = c
            .request(
                k.method.parse().expect("method"),
                format!("{}{}", s.base_url, k.path),
            )
            .body(k.body.clone());
        if let Some(ct) = &k.content_type {
            req = req.header("content-type", ct);
        }
        if let Some(a) = k.auth {
            req = req.header("authorization", a);
        }
        let r = match req.send().await {
            Ok(r) => r,
            Err(e) => panic!("{}: transport error {e}", k.name),
        };
        let status = r.status().as_u16();
        let text = r.text().await.expect("body");
        assert_eq!(status, k.status, "{}: {text}", k.name);
        let v: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {text}", k.name));
        assert_eq!(v["statusCode"], status, "{}", k.name);
        assert!(
            v["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{}",
            k.name
        );
        assert!(
            v["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            k.name
        );
    }

    // Messages name the offending field.
    let r = c
        .get(format!("{}{DOCS}/metadata?take=x", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("s");
    assert!(assert_error(r, 400).await["message"]
        .as_str()
        .expect("m")
        .contains("`take`"));
    let r = c
        .post(format!("{}{DOCS}", s.base_url))
        .bearer_auth(TOKEN)
        .header("content-type", format!("multipart/form-data; boundary={B}"))
        .body(mp(&[file, rp, ("metadata", None, b"{")]))
        .send()
        .await
        .expect("s");
    assert!(assert_error(r, 400).await["message"]
        .as_str()
        .expect("m")
        .contains("`metadata`"));
    let r = c
        .post(format!("{}{DOCS}", s.base_url))
        .bearer_auth(TOKEN)
        .header("content-type", format!("multipart/form-data; boundary={B}"))
        .body(mp(&[rp, meta]))
        .send()
        .await
        .expect("s");
    assert!(assert_error(r, 400).await["message"]
        .as_str()
        .expect("m")
        .contains("`file`"));
    let r = c
        .post(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .json(&serde_json::json!({"type": "UNIT_CREATED", "url": "nope"}))
        .send()
        .await
        .expect("s");
    assert!(assert_error(r, 400).await["message"]
        .as_str()
        .expect("m")
        .contains("`url`"));

    // Still serving normal requests.
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.text().await.expect("t"), "[]");
    let v = gql(
        &c,
        &s.base_url,
        TOKEN,
        "{ messages(input:{filter:{candidateId:\"cand-1\"}}) { id } }",
        serde_json::json!({}),
    )
    .await;
    assert!(v["data"]["messages"]
        .as_array()
        .is_some_and(|a| a.len() >= 8));
}

/// A raw HTTP/1.1 connection to the server (for what an HTTP client library will not send).
async fn raw_connection(base: &str) -> tokio::net::TcpStream {
    let addr = base.trim_start_matches("http://");
    tokio::net::TcpStream::connect(addr).await.expect("connect")
}

/// Reads an answer's head (status line and headers) within 20 s.
async fn read_head(r: &mut tokio::net::tcp::OwnedReadHalf) -> String {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        while !got.windows(4).any(|w| w == b"\r\n\r\n") {
            match r.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(20), read).await;
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test]
async fn a_content_length_over_the_limit_is_413_before_the_body_is_sent() {
    use tokio::io::AsyncWriteExt;
    let s = server_with(|c| c.max_upload_mb = 1).await;
    let host = s.base_url.trim_start_matches("http://").to_string();
    // An oversized body is refused by its announced length (an upload's and a webhook's included:
    // a client still sending a body the server has refused may see its connection reset before
    // it reads the 413, so none is sent here).
    let multipart = "multipart/form-data; boundary=x";
    for (path, content_type) in [
        (HOOKS, "application/json"),
        (DOCS, multipart),
        ("/accounts/oauth/token", "application/json"),
        (GQL, "application/json"),
    ] {
        let (mut r, mut w) = raw_connection(&s.base_url).await.into_split();
        // 10 GiB announced, not one byte sent: the answer cannot wait for the body.
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: {content_type}\r\nContent-Length: 10737418240\r\n\r\n"
        );
        w.write_all(head.as_bytes()).await.expect("write");
        let answer = read_head(&mut r).await;
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer:?}");
        assert!(
            answer
                .to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{path}: {answer:?}"
        );
    }
    // Still serving.
    let r = client()
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test]
async fn a_chunked_body_stops_being_read_at_the_limit() {
    use tokio::io::AsyncWriteExt;
    let s = server_with(|c| c.max_upload_mb = 1).await;
    let host = s.base_url.trim_start_matches("http://").to_string();
    let (mut r, mut w) = raw_connection(&s.base_url).await.into_split();
    let head = format!(
        "POST {HOOKS} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    w.write_all(head.as_bytes()).await.expect("write");
    // 256 MiB offered in 64 KiB chunks: far more than the 1 MiB limit and than any socket
    // buffers. A server that read it all would let every write through.
    const OFFERED: usize = 256 * 1024 * 1024;
    let writer = tokio::spawn(async move {
        let chunk = vec![b'x'; 64 * 1024];
        let mut sent = 0usize;
        while sent < OFFERED {
            let frame = format!("{:x}\r\n", chunk.len());
            if w.write_all(frame.as_bytes()).await.is_err()
                || w.write_all(&chunk).await.is_err()
                || w.write_all(b"\r\n").await.is_err()
            {
                return Err(sent);
            }
            sent += chunk.len();
        }
        let _ = w.write_all(b"0\r\n\r\n").await;
        Ok(sent)
    });
    let answer = read_head(&mut r).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:?}");
    // The body was not read to its end: the writer is stuck or was cut off.
    let outcome = tokio::time::timeout(std::time::Duration::from_millis(500), writer).await;
    match outcome {
        Err(_) => {} // still blocked: nobody reads
        Ok(Ok(Err(sent))) => assert!(sent < OFFERED, "{sent}"),
        Ok(other) => panic!("the whole body was read: {other:?}"),
    }
    let r = client()
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 200);
}
