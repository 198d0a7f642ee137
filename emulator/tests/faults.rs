mod common;
use common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

async fn add_fault(base: &str, f: Value) {
    let r = post_json(&client(), &format!("{base}/_emulator/faults"), f).await;
    assert_eq!(r.status().as_u16(), 200, "{:?}", r.text().await);
}

async fn list_hooks(base: &str) -> reqwest::Response {
    client()
        .get(format!("{base}{HOOKS}"))
        .bearer_auth(TOKEN)
        .header("origin", "http://page.test")
        .send()
        .await
        .expect("send")
}

#[tokio::test]
async fn status_fault_gets_json_error_and_cors() {
    let s = server().await;
    add_fault(
        &s.base_url,
        json!({"method": "GET", "path": HOOKS, "status": 503}),
    )
    .await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://page.test"
    );
    let v = assert_error(r, 503).await;
    assert_eq!(v["code"], "service_unavailable");
    // Consumed: the next request is normal.
    assert_eq!(list_hooks(&s.base_url).await.status().as_u16(), 200);
}

#[tokio::test]
async fn body_and_body_base64_faults() {
    let s = server().await;
    add_fault(
        &s.base_url,
        json!({"path": HOOKS, "body": "<html>oops</html>", "contentType": "text/html"}),
    )
    .await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "text/html");
    assert!(r.headers().contains_key("access-control-allow-origin"));
    assert_eq!(r.text().await.expect("t"), "<html>oops</html>");

    add_fault(
        &s.base_url,
        json!({"path": HOOKS, "status": 500, "bodyBase64": "/wABAg=="}),
    )
    .await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.status().as_u16(), 500);
    assert_eq!(
        r.bytes().await.expect("b").as_ref(),
        &[0xff, 0x00, 0x01, 0x02]
    );
}

#[tokio::test]
async fn delay_fault() {
    let s = server().await;
    add_fault(&s.base_url, json!({"path": HOOKS, "delayMs": 300})).await;
    let t = Instant::now();
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.status().as_u16(), 200);
    // A lower bound holds on any machine, however loaded.
    assert!(t.elapsed() >= Duration::from_millis(300));
    // The fault had one use, and it is spent: nothing is left to delay the next request.
    let pending = get_json(&client(), &format!("{}/_emulator/faults", s.base_url)).await;
    assert_eq!(pending, json!([]));
    // The next request is not held: no wall-clock bound (a loaded machine may take any time to
    // answer), but an order. Under a fault that holds one request for a minute, a request
    // sent after it was taken comes back first.
    add_fault(&s.base_url, json!({"path": HOOKS, "delayMs": 60_000})).await;
    let base = s.base_url.clone();
    let held = tokio::spawn(async move { list_hooks(&base).await.status().as_u16() });
    let taken = wait_for(|| async {
        let v = get_json(&client(), &format!("{}/_emulator/faults", s.base_url)).await;
        (v == json!([])).then_some(())
    })
    .await;
    assert!(taken.is_some(), "the held request took the fault");
    assert_eq!(list_hooks(&s.base_url).await.status().as_u16(), 200);
    assert!(!held.is_finished(), "the held request is still held");
    held.abort();
}

#[tokio::test]
async fn truncate_fault() {
    let s = server().await;
    let c = client();
    register_hook(
        &c,
        &s.base_url,
        TOKEN,
        "UNIT_CREATED",
        "http://127.0.0.1:9/x",
    )
    .await;
    let full = list_hooks(&s.base_url).await.bytes().await.expect("b");
    add_fault(
        &s.base_url,
        json!({"path": HOOKS, "method": "GET", "truncate": true}),
    )
    .await;
    let r = list_hooks(&s.base_url).await;
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers().contains_key("access-control-allow-origin"));
    let cut = r.bytes().await.expect("b");
    assert_eq!(cut.len(), full.len() / 2);
    assert_eq!(cut.as_ref(), &full[..full.len() / 2]);
    assert!(serde_json::from_slice::<Value>(&cut).is_err());
}

#[tokio::test]
async fn drop_fault_is_a_network_error() {
    let s = server().await;
    add_fault(&s.base_url, json!({"path": HOOKS, "drop": true})).await;
    let res = client()
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await;
    assert!(
        res.is_err(),
        "expected a network error, got {:?}",
        res.map(|r| r.status())
    );
    assert_eq!(list_hooks(&s.base_url).await.status().as_u16(), 200);
    // drop with a delay as well.
    add_fault(
        &s.base_url,
        json!({"path": HOOKS, "drop": true, "delayMs": 100}),
    )
    .await;
    let t = Instant::now();
    assert!(client()
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .is_err());
    assert!(t.elapsed() >= Duration::from_millis(100));
}

#[tokio::test]
async fn header_faults() {
    let s = server().await;
    let c = client();
    add_fault(&s.base_url, json!({"method": "POST", "path": HOOKS,
        "headers": {"Retry-After": "2", "X-Extra": "yes"}, "removeHeaders": ["Location", "X-RateLimit-Remaining"]})).await;
    let r = c
        .post(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .json(&json!({"type": "UNIT_CREATED", "url": "http://127.0.0.1:9/"}))
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 200);
    assert!(!r.headers().contains_key("location"));
    assert!(!r.headers().contains_key("x-ratelimit-remaining"));
    assert!(r.headers().contains_key("x-ratelimit-limit"));
    assert_eq!(r.headers()["retry-after"], "2");
    assert_eq!(r.headers()["x-extra"], "yes");
    // The real handler ran: the webhook exists.
    let v: Value = list_hooks(&s.base_url).await.json().await.expect("j");
    assert_eq!(v.as_array().expect("a").len(), 1);
}

#[tokio::test]
async fn token_scoped_times_prefix_and_method() {
    let s = server_with(|c| c.tokens = vec!["dev-token".into(), "other".into()]).await;
    let c = client();
    add_fault(
        &s.base_url,
        json!([
            {"path": "/api/external-integrations/*", "token": "other", "status": 418, "times": 2},
            {"path": HOOKS, "method": "DELETE", "status": 500}
        ]),
    )
    .await;
    // dev-token unaffected; GET does not match the DELETE fault.
    assert_eq!(list_hooks(&s.base_url).await.status().as_u16(), 200);
    let pending: Value = get_json(&c, &format!("{}/_emulator/faults", s.base_url)).await;
    assert_eq!(pending.as_array().expect("a").len(), 2);
    for _ in 0..2 {
        let r = c
            .get(format!("{}{HOOKS}", s.base_url))
            .bearer_auth("other")
            .send()
            .await
            .expect("s");
        assert_eq!(r.status().as_u16(), 418);
    }
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth("other")
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 200);
    let pending: Value = get_json(&c, &format!("{}/_emulator/faults", s.base_url)).await;
    assert_eq!(pending.as_array().expect("a").len(), 1);
    // Clearing.
    let r = c
        .delete(format!("{}/_emulator/faults", s.base_url))
        .send()
        .await
        .expect("d");
    assert!(r.status().is_success());
    let pending: Value = get_json(&c, &format!("{}/_emulator/faults", s.base_url)).await;
    assert_eq!(pending, json!([]));
}

#[tokio::test]
async fn faults_apply_before_auth_and_oldest_first() {
    let s = server().await;
    add_fault(
        &s.base_url,
        json!([
            {"path": HOOKS, "status": 502},
            {"path": HOOKS, "status": 504}
        ]),
    )
    .await;
    let c = client();
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 502);
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 504);
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 401);
}

/// A fault's answer to a request whose body arrives after its headers (as WebKit sends them)
/// comes whole: the emulator reads the body before answering, so the connection is closed
/// cleanly instead of being reset with part of a large answer still unsent.
#[tokio::test]
async fn a_fault_answer_waits_for_a_late_request_body() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = server().await;
    let big = "x".repeat(16 * 1024 * 1024);
    add_fault(
        &s.base_url,
        json!({"method": "POST", "path": GQL, "status": 200,
               "body": big, "contentType": "text/plain"}),
    )
    .await;
    let addr = s.base_url.trim_start_matches("http://");
    // A small receive window, so that the emulator is still sending when the body arrives.
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(16 * 1024).expect("SO_RCVBUF");
    let mut conn = socket
        .connect(addr.parse().expect("addr"))
        .await
        .expect("connect");
    let body = "{}".repeat(500);
    let head = format!(
        "POST {GQL} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    conn.write_all(head.as_bytes()).await.expect("head");
    tokio::time::sleep(Duration::from_millis(300)).await;
    conn.write_all(body.as_bytes()).await.expect("body");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), conn.read_to_end(&mut answer))
        .await
        .expect("the answer ends");
    assert!(read.is_ok(), "read {} bytes, then {read:?}", answer.len());
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{:?}",
        &answer[..answer.len().min(40)]
    );
    assert!(
        answer.ends_with(big.as_bytes()),
        "answer of {} bytes",
        answer.len()
    );
}
