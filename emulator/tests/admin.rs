mod common;
use common::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

#[tokio::test]
async fn info_accounts_and_reset() {
    let s = server_with(|c| c.second_origin = true).await;
    let c = client();
    let info = get_json(&c, &format!("{}/_emulator/info", s.base_url)).await;
    assert_eq!(info["baseUrl"], s.base_url.as_str());
    assert_eq!(info["tokens"], json!(["dev-token", "readonly-token"]));
    assert_eq!(
        info["secondOrigin"],
        s.second_origin.clone().expect("second").as_str()
    );
    assert!(s.startup_line().starts_with(&format!("estatekit-emulator listening on {} tokens=dev-token,readonly-token second-origin=http://127.0.0.1:", s.base_url)));
    // The default account's webhook subdomain: in the info, last on the startup line.
    let subdomain = estatekit_emulator::state::subdomain_of(TOKEN);
    assert_eq!(info["subdomain"], subdomain.as_str());
    assert!(
        s.startup_line()
            .ends_with(&format!(" subdomain={subdomain}")),
        "{}",
        s.startup_line()
    );
    assert_eq!(
        info["accounts"],
        json!([
            {"token": "dev-token", "subdomain": subdomain},
            {"token": "readonly-token", "subdomain": estatekit_emulator::state::subdomain_of("readonly-token")},
        ])
    );

    // New account: starts 401, works after creation.
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth("fresh")
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 401);
    let r = post_json(
        &c,
        &format!("{}/_emulator/accounts", s.base_url),
        json!({"token": "fresh"}),
    )
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let created: Value = r.json().await.expect("json");
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth("fresh")
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 200);
    let info = get_json(&c, &format!("{}/_emulator/info", s.base_url)).await;
    assert_eq!(
        info["tokens"],
        json!(["dev-token", "readonly-token", "fresh"])
    );
    assert_eq!(info["accounts"][2]["token"], "fresh");
    assert_eq!(info["accounts"][2]["subdomain"], created["subdomain"]);
    assert_eq!(
        info["subdomain"],
        subdomain.as_str(),
        "still the first token's"
    );

    // Second origin shares state.
    let second = s.second_origin.clone().expect("second");
    register_hook(&c, &second, TOKEN, "OWNER_CREATED", "http://127.0.0.1:9/").await;
    let list = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("s")
        .json::<Value>()
        .await
        .expect("j");
    assert_eq!(list.as_array().expect("a").len(), 1);

    // Reset clears webhooks, faults, counters, requests, sink.
    post_json(
        &c,
        &format!("{}/_emulator/faults", s.base_url),
        json!({"path": "/nowhere", "status": 500}),
    )
    .await;
    post_json(
        &c,
        &format!("{}/_emulator/sink/x", s.base_url),
        json!({"a": 1}),
    )
    .await;
    let r = c
        .post(format!("{}/_emulator/reset", s.base_url))
        .send()
        .await
        .expect("reset");
    assert_eq!(r.status().as_u16(), 200);
    let list = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("s")
        .json::<Value>()
        .await
        .expect("j");
    assert_eq!(list, json!([]));
    assert_eq!(
        get_json(&c, &format!("{}/_emulator/faults", s.base_url)).await,
        json!([])
    );
    assert_eq!(
        get_json(&c, &format!("{}/_emulator/sink", s.base_url)).await,
        json!([])
    );
    let counters = get_json(&c, &format!("{}/_emulator/counters", s.base_url)).await;
    assert_eq!(counters["total"], 1); // the GET above, after reset
                                      // Accounts created by the admin API survive a reset (reseeded).
    let r = c
        .get(format!("{}{HOOKS}", s.base_url))
        .bearer_auth("fresh")
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test]
async fn counters_and_request_log() {
    let s = server_with(|c| c.tokens = vec!["dev-token".into(), "t2".into()]).await;
    let c = client();
    let b = &s.base_url;
    c.get(format!("{b}{HOOKS}"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("s");
    c.get(format!("{b}{HOOKS}"))
        .bearer_auth(TOKEN)
        .header("origin", "http://page.test")
        .send()
        .await
        .expect("s");
    c.delete(format!("{b}{HOOKS}/abc%20def"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("s");
    c.get(format!("{b}{DOCS}/metadata?types=CONTRACT&title=a%20b"))
        .bearer_auth("t2")
        .send()
        .await
        .expect("s");
    c.get(format!("{b}{DOCS}/some-id/metadata"))
        .bearer_auth("t2")
        .send()
        .await
        .expect("s");
    // Preflight: not counted.
    c.request(reqwest::Method::OPTIONS, format!("{b}{HOOKS}"))
        .header("origin", "http://page.test")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .expect("s");
    // Static / unknown non-API paths are not logged.
    c.get(format!("{b}/not-api.js")).send().await.expect("s");
    // Admin calls are not counted or logged.
    get_json(&c, &format!("{b}/_emulator/info")).await;

    let all = get_json(&c, &format!("{b}/_emulator/counters")).await;
    assert_eq!(all["total"], 5, "{all}");
    assert_eq!(all["routes"]["GET /api/external-integrations/webhooks"], 2);
    assert_eq!(
        all["routes"]["DELETE /api/external-integrations/webhooks/{webhookId}"],
        1
    );
    assert_eq!(
        all["routes"]["GET /api/file-storage/company/documents/metadata"],
        1
    );
    assert_eq!(
        all["routes"]["GET /api/file-storage/company/documents/{documentId}/metadata"],
        1
    );
    let t2 = get_json(&c, &format!("{b}/_emulator/counters?token=t2")).await;
    assert_eq!(t2["total"], 2);
    assert!(t2["routes"]["GET /api/external-integrations/webhooks"].is_null());

    let reqs = get_json(&c, &format!("{b}/_emulator/requests")).await;
    let reqs = reqs.as_array().expect("a");
    let text = serde_json::to_string(reqs).expect("s");
    assert!(
        !text.contains("dev-token") && !text.contains("t2\""),
        "authorization leaked: {text}"
    );
    assert!(!text.contains("/_emulator/info"));
    assert!(!text.contains("/not-api.js"));
    let del = reqs
        .iter()
        .find(|r| r["method"] == "DELETE")
        .expect("delete logged");
    assert_eq!(del["path"], "/api/external-integrations/webhooks/abc%20def");
    assert_eq!(del["hasAuthorization"], true);
    let list = reqs
        .iter()
        .find(|r| r["path"] == "/api/file-storage/company/documents/metadata")
        .expect("list");
    assert_eq!(list["query"], "types=CONTRACT&title=a%20b");
    let with_origin = reqs
        .iter()
        .find(|r| r["origin"] == "http://page.test")
        .expect("origin");
    assert!(with_origin["host"]
        .as_str()
        .expect("host")
        .starts_with("127.0.0.1:"));
    assert_eq!(reqs[0]["bodyLength"], 0);

    // Filtered by what a request sent: every given field equal, the others ignored.
    let only = get_json(
        &c,
        &format!("{b}/_emulator/requests?path=/api/file-storage/company/documents/metadata&query=types%3DCONTRACT%26title%3Da%2520b"),
    )
    .await;
    let only = only.as_array().expect("a");
    assert_eq!(only.len(), 1, "{only:?}");
    assert_eq!(only[0]["query"], "types=CONTRACT&title=a%20b");
    let deletes = get_json(&c, &format!("{b}/_emulator/requests?method=DELETE")).await;
    let deletes = deletes.as_array().expect("a");
    assert!(!deletes.is_empty());
    assert!(
        deletes.iter().all(|r| r["method"] == "DELETE"),
        "{deletes:?}"
    );
    let from_page = get_json(
        &c,
        &format!("{b}/_emulator/requests?origin=http://page.test"),
    )
    .await;
    let from_page = from_page.as_array().expect("a");
    assert!(!from_page.is_empty());
    assert!(from_page.iter().all(|r| r["origin"] == "http://page.test"));
    let none = get_json(
        &c,
        &format!("{b}/_emulator/requests?method=DELETE&path=/nowhere"),
    )
    .await;
    assert_eq!(none, json!([]));
    let typo = c
        .get(format!("{b}/_emulator/requests?paht=/x"))
        .send()
        .await
        .expect("s");
    assert_eq!(typo.status().as_u16(), 400);
    assert!(typo
        .text()
        .await
        .expect("t")
        .contains("unknown filter `paht`"));

    // Request log keeps the last 500.
    for _ in 0..520 {
        c.get(format!("{b}/api/nope")).send().await.expect("s");
    }
    let reqs = get_json(&c, &format!("{b}/_emulator/requests")).await;
    assert_eq!(reqs.as_array().expect("a").len(), 500);
}

#[tokio::test]
async fn rate_limit_window() {
    let s = server_with(|c| {
        c.rate_limit = 3;
        c.tokens = vec!["dev-token".into(), "t2".into()];
    })
    .await;
    let c = client();
    let url = format!("{}{HOOKS}", s.base_url);
    for expected in [2, 1, 0] {
        let r = c.get(&url).bearer_auth(TOKEN).send().await.expect("s");
        assert_eq!(r.status().as_u16(), 200);
        assert_eq!(r.headers()["x-ratelimit-limit"], "3");
        assert_eq!(
            r.headers()["x-ratelimit-remaining"],
            expected.to_string().as_str()
        );
        let reset: u64 = r.headers()["x-ratelimit-reset"]
            .to_str()
            .expect("s")
            .parse()
            .expect("n");
        assert!((1..=60).contains(&reset));
    }
    // Preflights are not limited.
    let r = c
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", "http://page.test")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "authorization")
        .send()
        .await
        .expect("s");
    assert_eq!(r.status().as_u16(), 204);
    let r = c
        .get(&url)
        .bearer_auth(TOKEN)
        .header("origin", "http://page.test")
        .send()
        .await
        .expect("s");
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://page.test"
    );
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .expect("s")
        .parse()
        .expect("n");
    assert!((1..=60).contains(&retry));
    assert_eq!(r.headers()["x-ratelimit-remaining"], "0");
    let v = assert_error(r, 429).await;
    assert_eq!(v["code"], "too_many_requests");
    // Another token has its own window.
    let r = c.get(&url).bearer_auth("t2").send().await.expect("s");
    assert_eq!(r.status().as_u16(), 200);
    // Raising the limit for one token restarts its window.
    let r = post_json(
        &c,
        &format!("{}/_emulator/config", s.base_url),
        json!({"rateLimit": 5, "token": TOKEN}),
    )
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let r = c.get(&url).bearer_auth(TOKEN).send().await.expect("s");
    assert_eq!(r.headers()["x-ratelimit-remaining"], "4");
    // 0 turns it off (default for all).
    post_json(
        &c,
        &format!("{}/_emulator/config", s.base_url),
        json!({"rateLimit": 0}),
    )
    .await;
    for _ in 0..10 {
        let r = c.get(&url).bearer_auth("t2").send().await.expect("s");
        assert_eq!(r.status().as_u16(), 200);
    }
    let r = post_json(
        &c,
        &format!("{}/_emulator/config", s.base_url),
        json!({"rateLimit": -1}),
    )
    .await;
    assert_error(r, 400).await;
    let r = post_json(
        &c,
        &format!("{}/_emulator/config", s.base_url),
        json!({"rateLimit": 1, "token": "ghost"}),
    )
    .await;
    assert_error(r, 400).await;
}

#[tokio::test]
async fn cors_everywhere() {
    let s = server().await;
    let c = client();
    for path in [
        HOOKS,
        GQL,
        "/_emulator/faults",
        "/_emulator/info",
        "/api/nope",
        "/_emulator/sink/x",
    ] {
        let r = c
            .request(reqwest::Method::OPTIONS, format!("{}{path}", s.base_url))
            .header("origin", "http://page.test")
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "authorization,content-type",
            )
            .send()
            .await
            .expect("s");
        assert!(r.status() == 204 || r.status() == 200, "{path}");
        let h = r.headers();
        assert_eq!(h["access-control-allow-origin"], "http://page.test");
        let methods = h["access-control-allow-methods"].to_str().expect("m");
        for m in ["GET", "POST", "DELETE", "OPTIONS"] {
            assert!(methods.contains(m));
        }
        let allowed = h["access-control-allow-headers"]
            .to_str()
            .expect("h")
            .to_ascii_lowercase();
        assert!(allowed.contains("authorization") && allowed.contains("content-type"));
    }
    // Errors and admin responses carry CORS + exposed headers.
    for (m, path) in [
        ("GET", HOOKS),
        ("GET", "/api/nope"),
        ("GET", "/_emulator/info"),
        ("PUT", HOOKS),
    ] {
        let r = c
            .request(m.parse().expect("m"), format!("{}{path}", s.base_url))
            .header("origin", "http://o.test")
            .send()
            .await
            .expect("s");
        assert_eq!(
            r.headers()["access-control-allow-origin"],
            "http://o.test",
            "{path}"
        );
        let exposed = r.headers()["access-control-expose-headers"]
            .to_str()
            .expect("e")
            .to_ascii_lowercase();
        for hname in [
            "location",
            "retry-after",
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
        ] {
            assert!(exposed.contains(hname));
        }
    }
    let counters = get_json(&c, &format!("{}/_emulator/counters", s.base_url)).await;
    assert_eq!(counters["total"], 3);
}

#[tokio::test]
async fn static_serving() {
    let dir = std::env::temp_dir().join(format!("emu-static-{}", std::process::id()));
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(pkg.join("sub")).expect("mkdir");
    std::fs::write(dir.join("index.html"), "<h1>demo</h1>").expect("w");
    std::fs::write(pkg.join("app_bg.wasm"), b"\0asm\x01\0\0\0").expect("w");
    std::fs::write(pkg.join("app.js"), "export {}").expect("w");
    std::fs::write(pkg.join("sub/index.html"), "sub").expect("w");
    let d = dir.to_string_lossy().to_string();
    let p = pkg.to_string_lossy().to_string();
    let s = server_with(|c| {
        c.statics = vec![
            estatekit_emulator::config::parse_static(&d).expect("s"),
            estatekit_emulator::config::parse_static(&format!("/assets={p}")).expect("s"),
        ]
    })
    .await;
    let c = client();
    let get = |path: &str| c.get(format!("{}{path}", s.base_url)).send();
    let r = get("/").await.expect("s");
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .expect("c")
        .starts_with("text/html"));
    assert_eq!(r.text().await.expect("t"), "<h1>demo</h1>");
    let r = get("/assets/app_bg.wasm").await.expect("s");
    assert_eq!(r.headers()["content-type"], "application/wasm");
    assert_eq!(r.bytes().await.expect("b").as_ref(), b"\0asm\x01\0\0\0");
    let r = get("/pkg/app.js").await.expect("s");
    assert!(r.headers()["content-type"]
        .to_str()
        .expect("c")
        .starts_with("text/javascript"));
    assert!(r.headers().contains_key("access-control-allow-origin"));
    assert_eq!(
        get("/assets/sub/")
            .await
            .expect("s")
            .text()
            .await
            .expect("t"),
        "sub"
    );
    assert_error(get("/missing.js").await.expect("s"), 404).await;
    assert_error(get("/assets/..%2F..%2Fetc%2Fpasswd").await.expect("s"), 404).await;
    let _ = std::fs::remove_dir_all(&dir);
}

async fn deliveries(c: &reqwest::Client, base: &str) -> Vec<Value> {
    get_json(c, &format!("{base}/_emulator/deliveries"))
        .await
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn webhook_delivery_to_sink_and_external_receiver() {
    let s = server().await;
    let c = client();
    let b = &s.base_url;
    // A separate receiver.
    let got: Arc<Mutex<Vec<Value>>> = Arc::default();
    let got2 = got.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |axum::Json(v): axum::Json<Value>| {
            let got = got2.clone();
            async move {
                got.lock().expect("lock").push(v);
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });

    let sink_hook = register_hook(
        &c,
        b,
        TOKEN,
        "LISTING_CANDIDATE_APPLIED",
        &format!("{b}/_emulator/sink/applied"),
    )
    .await;
    register_hook(
        &c,
        b,
        TOKEN,
        "LISTING_CANDIDATE_APPLIED",
        &format!("http://localhost:{}/hook", addr.port()),
    )
    .await;
    register_hook(
        &c,
        b,
        TOKEN,
        "UNIT_DELETED",
        &format!("{b}/_emulator/sink/other"),
    )
    .await;

    let r = post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "LISTING_CANDIDATE_APPLIED", "data": {"id": "cand-77"}}),
    )
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let ev: Value = r.json().await.expect("j");
    assert_eq!(ev["webhooks"], 2);
    let uuid = ev["uuid"].as_str().expect("uuid").to_string();

    // settled: every delivery finished (no polling); the records come with it.
    let settled = get_json(&c, &format!("{b}/_emulator/settled")).await;
    assert_eq!(settled["pending"], 0, "{settled}");
    assert!(
        settled["deliveries"]
            .as_array()
            .is_some_and(|d| d.len() >= 2),
        "{settled}"
    );
    let r = c
        .get(format!("{b}/_emulator/settled?timeoutMs=soon"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 400);
    let sink = get_json(&c, &format!("{b}/_emulator/sink")).await;
    assert_eq!(sink.as_array().map(Vec::len), Some(1), "{sink}");
    let entry = &sink[0];
    assert_eq!(entry["name"], "applied");
    let body = &entry["body"];
    assert_eq!(body["uuid"], uuid.as_str());
    assert_eq!(body["operation"], "LISTING_CANDIDATE_APPLIED");
    assert_eq!(body["language"], "en");
    assert_eq!(body["data"], json!({"id": "cand-77"}));
    // That `data` is not of the type's shape (the receiver answers it 400): the emulator is the
    // sender, not the validator, and delivers it as given.
    assert!(estatekit_events::check_data("LISTING_CANDIDATE_APPLIED", &body["data"]).is_err());
    assert!(body["subdomain"].as_str().expect("sub").starts_with("emu-"));
    assert!(body["createdAt"].as_str().expect("c").ends_with('Z'));

    let ext = wait_for(|| async { got.lock().expect("l").first().cloned() })
        .await
        .expect("external receiver");
    assert_eq!(ext["uuid"], uuid.as_str());

    let ds = wait_for(|| async {
        let d = deliveries(&c, b).await;
        (d.len() == 2).then_some(d)
    })
    .await
    .expect("2 deliveries");
    assert!(ds.iter().all(|d| d["status"] == 200
        && d["error"].is_null()
        && d["attempt"] == 1
        && d["type"] == "LISTING_CANDIDATE_APPLIED"));
    assert!(ds.iter().any(|d| d["webhookId"] == sink_hook.as_str()));

    // Default data when none is given; token-scoped events.
    let r = post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "UNIT_DELETED", "token": "readonly-token"}),
    )
    .await;
    assert_eq!(r.json::<Value>().await.expect("j")["webhooks"], 0);
    let r = post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "UNIT_DELETED", "token": TOKEN}),
    )
    .await;
    assert_eq!(r.json::<Value>().await.expect("j")["webhooks"], 1);
    let sink = wait_for(|| async {
        let v = get_json(&c, &format!("{b}/_emulator/sink")).await;
        (v.as_array().map(Vec::len) == Some(2)).then_some(v)
    })
    .await
    .expect("second sink entry");
    assert!(sink[1]["body"]["data"].is_object());
    // Unknown type -> 400.
    let r = post_json(&c, &format!("{b}/_emulator/emit"), json!({"type": "NOPE"})).await;
    assert_error(r, 400).await;
}

#[tokio::test]
async fn failed_deliveries_are_retried() {
    let s = server().await;
    let c = client();
    let b = &s.base_url;
    register_hook(
        &c,
        b,
        TOKEN,
        "OWNER_UPDATED",
        &format!("{b}/_emulator/sink/flaky"),
    )
    .await;
    post_json(
        &c,
        &format!("{b}/_emulator/faults"),
        json!({"method": "POST", "path": "/_emulator/sink/flaky", "status": 500, "times": 2}),
    )
    .await;
    post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "OWNER_UPDATED"}),
    )
    .await;
    let ds = wait_for(|| async {
        let d = deliveries(&c, b).await;
        (d.len() == 3).then_some(d)
    })
    .await
    .expect("3 attempts");
    assert_eq!(
        ds.iter()
            .map(|d| d["attempt"].as_u64().expect("a"))
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(ds[0]["status"], 500);
    assert!(ds[0]["error"].is_string());
    assert_eq!(ds[2]["status"], 200);
    assert!(ds[2]["error"].is_null());
    let sink = get_json(&c, &format!("{b}/_emulator/sink")).await;
    assert_eq!(sink.as_array().expect("a").len(), 1);

    // A receiver that never answers successfully: exactly 3 attempts.
    register_hook(&c, b, TOKEN, "OWNER_DELETED", "http://127.0.0.1:1/closed").await;
    post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "OWNER_DELETED"}),
    )
    .await;
    let ds = wait_for(|| async {
        let d = deliveries(&c, b).await;
        (d.len() == 6).then_some(d)
    })
    .await
    .expect("3 more attempts");
    assert!(ds[3..]
        .iter()
        .all(|d| d["status"].is_null() && d["error"].as_str().is_some_and(|e| !e.is_empty())));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(deliveries(&c, b).await.len(), 6);
}

#[tokio::test]
async fn non_loopback_targets_are_refused() {
    let s = server().await;
    let c = client();
    let b = &s.base_url;
    register_hook(&c, b, TOKEN, "PROPERTY_UPDATED", "http://example.com/hook").await;
    register_hook(&c, b, TOKEN, "PROPERTY_UPDATED", "https://10.0.0.1/hook").await;
    let r = post_json(
        &c,
        &format!("{b}/_emulator/emit"),
        json!({"type": "PROPERTY_UPDATED"}),
    )
    .await;
    assert_eq!(r.json::<Value>().await.expect("j")["webhooks"], 2);
    let ds = wait_for(|| async {
        let d = deliveries(&c, b).await;
        (d.len() == 2).then_some(d)
    })
    .await
    .expect("2 refusals");
    for d in &ds {
        assert!(d["status"].is_null());
        assert!(d["error"].as_str().expect("e").contains("loopback"));
        assert_eq!(d["attempt"], 1);
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(deliveries(&c, b).await.len(), 2);
    assert!(estatekit_emulator::delivery::is_loopback(
        "http://[::1]:80/"
    ));
    assert!(estatekit_emulator::delivery::is_loopback(
        "http://LOCALHOST/x"
    ));
    assert!(!estatekit_emulator::delivery::is_loopback(
        "http://localhost.evil.com/x"
    ));
    assert!(!estatekit_emulator::delivery::is_loopback(
        "http://0.0.0.0/x"
    ));
}
