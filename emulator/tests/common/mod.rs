//! Shared helpers for the integration tests.
//!
//! The tests run against one of the emulator's two hosts, chosen by `EMULATOR_HOST`: `native`
//! (the default: the server of `estatekit_emulator::native`, in this process) or `wasm` (the
//! in-process WebAssembly host of `estatekit/testing`, served on a loopback port by the
//! package's bin `estatekit-emulator`, `node pkg/emulator-cli.mjs` as npx runs it, after
//! `make pkg`). The test bodies and flags are the same on both: the second origin, `--static`,
//! the loopback-only delivery policy and the startup line included.
#![allow(dead_code)]

use estatekit_emulator::native::{start, Running};
use estatekit_emulator::Config;
use reqwest::{Client, Response, StatusCode};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The host under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// The native server.
    Native,
    /// The WebAssembly host (estatekit/testing) behind the npm bin `estatekit-emulator`.
    Wasm,
}

/// The host chosen by `EMULATOR_HOST` (`native` when unset).
pub fn host() -> Host {
    match std::env::var("EMULATOR_HOST").as_deref() {
        Ok("wasm") => Host::Wasm,
        Ok("native") | Err(_) => Host::Native,
        Ok(other) => panic!("EMULATOR_HOST={other}: use native or wasm"),
    }
}

/// A running emulator on either host.
pub struct Server {
    /// Base URL, e.g. `http://127.0.0.1:8787`.
    pub base_url: String,
    /// Second origin (with `second_origin` only).
    pub second_origin: Option<String>,
    native: Option<Running>,
    bin: Option<(Child, String)>,
}

impl Server {
    /// The startup line (the native binary's, or the one the npm bin printed).
    pub fn startup_line(&self) -> String {
        match (&self.native, &self.bin) {
            (Some(running), _) => running.startup_line(),
            (None, Some((_, line))) => line.clone(),
            (None, None) => String::new(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some((child, _)) = &mut self.bin {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The command line giving the emulator the configuration `c` (the native CLI's flags).
pub fn args_of(c: &Config) -> Vec<String> {
    let mut args: Vec<String> = vec!["--host".into(), c.host.clone()];
    for t in &c.tokens {
        args.extend(["--token".into(), t.clone()]);
    }
    assert!(
        c.access_token_ttl_ms.is_multiple_of(1000),
        "--access-token-ttl is in seconds: give a multiple of 1000 ms"
    );
    // `--seed` also seeds the events' uuids: given only when the configuration asks for that.
    match c.event_seed {
        Some(seed) => {
            assert_eq!(seed, c.seed, "--seed sets both seeds");
            args.extend(["--seed".into(), c.seed.to_string()]);
        }
        None => assert_eq!(
            c.seed,
            Config::default().seed,
            "--seed sets both seeds: set event_seed too"
        ),
    }
    for (flag, v) in [
        ("--port", u64::from(c.port)),
        ("--seed-messages", c.seed_messages as u64),
        ("--seed-documents", c.seed_documents as u64),
        ("--rate-limit", u64::from(c.rate_limit)),
        ("--max-upload-mb", c.max_upload_mb),
        ("--delivery-backoff-ms", c.delivery_backoff_ms),
        ("--rate-limit-window-ms", c.rate_limit_window_ms),
        ("--access-token-ttl", c.access_token_ttl_ms / 1000),
        ("--code-ttl-ms", c.code_ttl_ms),
    ] {
        args.extend([flag.to_string(), v.to_string()]);
    }
    for m in &c.statics {
        args.extend([
            "--static".into(),
            format!("{}={}", m.prefix, m.dir.to_string_lossy()),
        ]);
    }
    for (on, flag) in [
        (c.second_origin, "--second-origin"),
        (c.quiet, "--quiet"),
        (c.rotate_refresh_tokens, "--rotate-refresh-tokens"),
        (c.sign_in_page, "--sign-in-page"),
    ] {
        if on {
            args.push(flag.into());
        }
    }
    for o in &c.oauth_clients {
        args.extend(["--oauth-client".into(), format!("{}:{}", o.id, o.secret)]);
    }
    for o in &c.oauth_clients {
        for uri in &o.redirect_uris {
            args.extend(["--oauth-redirect-uri".into(), format!("{}={uri}", o.id)]);
        }
    }
    for u in &c.users {
        let mut spec = format!("{}:{}", u.username, u.password);
        if let Some(t) = &u.token {
            spec.push(':');
            spec.push_str(t);
        }
        args.extend(["--user".into(), spec]);
    }
    args
}

/// Starts the package's bin (the WebAssembly host under Node) with the flags of `c`.
fn bin(c: &Config) -> Server {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../pkg/emulator-cli.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .args(args_of(c))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs pkg/emulator-cli.mjs (make pkg first)");
    let out = child.stdout.take().expect("stdout");
    let mut line = String::new();
    let read = BufReader::new(out).read_line(&mut line);
    let line = line.trim().to_string();
    let field = |name: &str| {
        line.split(' ')
            .find_map(|w| w.strip_prefix(name))
            .map(str::to_string)
    };
    let base_url = line
        .strip_prefix("estatekit-emulator listening on ")
        .and_then(|rest| rest.split(' ').next())
        .map(str::to_string);
    let Some(base_url) = base_url.filter(|_| read.is_ok()) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("estatekit-emulator (npm bin) did not start: {line:?}");
    };
    Server {
        base_url,
        second_origin: field("second-origin="),
        native: None,
        bin: Some((child, line)),
    }
}

pub const TOKEN: &str = "dev-token";
pub const HOOKS: &str = "/api/external-integrations/webhooks";
pub const DOCS: &str = "/api/file-storage/company/documents";
pub const GQL: &str = "/api/reporting/graphql";

/// Starts an emulator on a free port with quiet logs and a fast delivery backoff, on the host
/// chosen by `EMULATOR_HOST`.
pub async fn server_with(f: impl FnOnce(&mut Config)) -> Server {
    let mut c = Config {
        port: 0,
        quiet: true,
        delivery_backoff_ms: 20,
        ..Config::default()
    };
    f(&mut c);
    if host() == Host::Wasm {
        return bin(&c);
    }
    let running = start(c).await.expect("emulator starts");
    Server {
        base_url: running.base_url.clone(),
        second_origin: running.second_origin.clone(),
        native: Some(running),
        bin: None,
    }
}

pub async fn server() -> Server {
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
