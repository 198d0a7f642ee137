//! Shared helpers for the integration tests.
#![allow(dead_code)]

use estatekit_emulator::native::start;
use estatekit_emulator::Config;
use reqwest::{Client, Response, StatusCode};
use serde_json::Value;
use std::time::Duration;

pub use estatekit_emulator::native::Running;

pub const TOKEN: &str = "dev-token";
pub const HOOKS: &str = "/api/external-integrations/webhooks";
pub const DOCS: &str = "/api/file-storage/company/documents";
pub const GQL: &str = "/api/reporting/graphql";

/// Starts an emulator on a free port with quiet logs and a fast delivery backoff.
pub async fn server_with(f: impl FnOnce(&mut Config)) -> Running {
    let mut c = Config {
        port: 0,
        quiet: true,
        delivery_backoff_ms: 20,
        ..Config::default()
    };
    f(&mut c);
    start(c).await.expect("emulator starts")
}

pub async fn server() -> Running {
    server_with(|_| {}).await
}

pub fn client() -> Client {
    Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client")
}

/// Asserts the JSON error shape and returns the body.
pub async fn assert_error(r: Response, status: u16) -> Value {
    assert_eq!(r.status().as_u16(), status, "unexpected status");
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(ct.contains("application/json"), "content type {ct}");
    let v: Value = r.json().await.expect("json error body");
    assert_eq!(v["statusCode"], status, "{v}");
    assert!(v["code"].as_str().is_some_and(|c| !c.is_empty()), "{v}");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    v
}

pub async fn gql(c: &Client, base: &str, token: &str, query: &str, variables: Value) -> Value {
    let r = c
        .post(format!("{base}{GQL}"))
        .bearer_auth(token)
        .json(&serde_json::json!({"query": query, "variables": variables}))
        .send()
        .await
        .expect("graphql request");
    assert_eq!(r.status(), StatusCode::OK);
    r.json().await.expect("graphql json")
}

pub async fn get_json(c: &Client, url: &str) -> Value {
    let r = c.get(url).send().await.expect("get");
    assert!(r.status().is_success(), "GET {url} -> {}", r.status());
    r.json().await.expect("json")
}

pub async fn post_json(c: &Client, url: &str, body: Value) -> Response {
    c.post(url).json(&body).send().await.expect("post")
}

pub async fn register_hook(c: &Client, base: &str, token: &str, ty: &str, url: &str) -> String {
    let r = c
        .post(format!("{base}{HOOKS}"))
        .bearer_auth(token)
        .json(&serde_json::json!({"type": ty, "url": url}))
        .send()
        .await
        .expect("register");
    assert_eq!(r.status(), StatusCode::OK);
    r.headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .expect("location")
        .to_string()
}

/// Polls `f` until it returns Some or the timeout passes.
pub async fn wait_for<T, F, Fut>(mut f: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    for _ in 0..200 {
        if let Some(v) = f().await {
            return Some(v);
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    None
}
