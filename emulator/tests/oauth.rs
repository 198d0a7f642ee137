//! The sign-in routes: `POST /accounts/oauth/token` (three grants), `GET /accounts/dialog/authorize`,
//! `GET /accounts/api/userinfo`, and the admin routes `/_emulator/oauth[/revoke]`. Run on both hosts
//! (`make test-parity`). No assertion message prints a token, code or secret.
mod common;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use common::*;
use estatekit_emulator::config::{OAuthClient, User};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::time::Duration;

const TOKEN_PATH: &str = "/accounts/oauth/token";
const CLIENT: &str = "dev-client";
const SECRET: &str = "dev-secret";
const USER: &str = "admin@acme.test";
const PASSWORD: &str = "dev-password";
const REDIRECT: &str = "http://127.0.0.1:9/callback";
const OTHER_CLIENT: &str = "other-client";
const OTHER_SECRET: &str = "other-secret";
/// A client whose id and secret need form-URL-encoding (RFC 6749 2.3.1).
const ODD_CLIENT: &str = "app.1~(x)";
const ODD_SECRET: &str = "s3 cr+t%/\u{e9}:x";
const AUTHORIZE_PATH: &str = "/accounts/dialog/authorize";
/// A PKCE verifier (43 to 128 unreserved characters).
const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more";

fn other_client() -> OAuthClient {
    OAuthClient {
        id: OTHER_CLIENT.into(),
        secret: OTHER_SECRET.into(),
        ..OAuthClient::default()
    }
}

fn odd_client() -> OAuthClient {
    OAuthClient {
        id: ODD_CLIENT.into(),
        secret: ODD_SECRET.into(),
        ..OAuthClient::default()
    }
}

/// `Authorization: Basic` as RFC 6749 2.3.1 says (and openid-client, simple-oauth2 send it):
/// base64 of the form-URL-encoded id and secret.
fn basic(id: &str, secret: &str) -> String {
    let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    format!(
        "Basic {}",
        STANDARD.encode(format!("{}:{}", enc(id), enc(secret)))
    )
}

/// `Authorization: Basic` without the form-URL-encoding (as arctic 3 sends it).
fn basic_unencoded(id: &str, secret: &str) -> String {
    format!("Basic {}", STANDARD.encode(format!("{id}:{secret}")))
}

/// A form-encoded token request, with an `Authorization` header if given.
async fn post_form(base: &str, pairs: &[(&str, &str)], auth: Option<&str>) -> reqwest::Response {
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish();
    let mut r = client()
        .post(format!("{base}{TOKEN_PATH}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body);
    if let Some(a) = auth {
        r = r.header("authorization", a);
    }
    r.send().await.expect("token request")
}

/// A form grant that must succeed; its answer.
async fn form_ok(base: &str, pairs: &[(&str, &str)], auth: Option<&str>) -> Value {
    let r = post_form(base, pairs, auth).await;
    assert_eq!(r.status().as_u16(), 200, "grant refused");
    assert_eq!(r.headers()["cache-control"], "no-store");
    r.json().await.expect("token json")
}

/// Asserts an OAuth error answer; its body.
async fn oauth_error(r: reqwest::Response, status: u16, error: &str) -> Value {
    assert_eq!(r.status().as_u16(), status);
    let ct = r.headers()["content-type"]
        .to_str()
        .unwrap_or("")
        .to_string();
    assert!(ct.contains("application/json"), "{ct}");
    assert_eq!(r.headers()["cache-control"], "no-store");
    let v: Value = r.json().await.expect("error json");
    assert_eq!(v["error"], error, "{v}");
    assert!(
        v["error_description"]
            .as_str()
            .is_some_and(|d| !d.is_empty()),
        "{v}"
    );
    v
}

fn no_redirect() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// A query parameter of a URL.
fn query_param(url: &str, key: &str) -> Option<String> {
    url::Url::parse(url)
        .ok()?
        .query_pairs()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}

/// Authorizes with these query parameters (besides client_id, redirect_uri and
/// response_type=code); the redirect's `code`.
async fn authorize_with(base: &str, extra: &[(&str, &str)]) -> String {
    let mut query = vec![
        ("client_id", CLIENT),
        ("redirect_uri", REDIRECT),
        ("response_type", "code"),
    ];
    query.extend_from_slice(extra);
    let r = no_redirect()
        .get(format!("{base}{AUTHORIZE_PATH}"))
        .query(&query)
        .send()
        .await
        .expect("authorize");
    assert_eq!(r.status().as_u16(), 302);
    let location = r.headers()["location"].to_str().expect("location");
    query_param(location, "code").expect("a code in the redirect")
}

fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn password_body() -> Value {
    json!({"grant_type": "password", "username": USER, "password": PASSWORD,
        "client_id": CLIENT, "client_secret": SECRET, "scope": "offline_access *"})
}

async fn post_token(base: &str, body: Value) -> reqwest::Response {
    post_json(&client(), &format!("{base}{TOKEN_PATH}"), body).await
}

/// A grant that must succeed; its answer.
async fn grant_ok(base: &str, body: Value) -> Value {
    let r = post_token(base, body).await;
    assert_eq!(r.status().as_u16(), 200, "grant refused");
    assert_eq!(r.headers()["cache-control"], "no-store");
    r.json().await.expect("token json")
}

/// A grant that must be refused with `status` and OAuth's `error`.
async fn grant_refused(base: &str, body: Value, status: u16, error: &str) -> Value {
    let r = post_token(base, body).await;
    assert_eq!(r.status().as_u16(), status);
    let ct = r.headers()["content-type"]
        .to_str()
        .unwrap_or("")
        .to_string();
    assert!(ct.contains("application/json"), "{ct}");
    let v: Value = r.json().await.expect("error json");
    assert_eq!(v["error"], error, "{v}");
    assert!(
        v["error_description"]
            .as_str()
            .is_some_and(|d| !d.is_empty()),
        "{v}"
    );
    v
}

fn refresh_body(refresh_token: &str) -> Value {
    json!({"grant_type": "refresh_token", "refresh_token": refresh_token,
        "client_id": CLIENT, "client_secret": SECRET})
}

async fn counts(base: &str) -> Value {
    get_json(&client(), &format!("{base}/_emulator/oauth")).await
}

async fn list_hooks(base: &str, token: &str) -> reqwest::Response {
    client()
        .get(format!("{base}{HOOKS}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("list webhooks")
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is a string"))
}

/// Authorizes as the default user; the redirect's `code` and `state`.
async fn authorize(base: &str, state: &str) -> (String, String) {
    let c = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let r = c
        .get(format!("{base}/accounts/dialog/authorize"))
        .query(&[
            ("client_id", CLIENT),
            ("redirect_uri", REDIRECT),
            ("state", state),
            ("response_type", "code"),
        ])
        .send()
        .await
        .expect("authorize");
    assert_eq!(r.status().as_u16(), 302);
    let location = r.headers()["location"]
        .to_str()
        .expect("location")
        .to_string();
    let url = url::Url::parse(&location).expect("absolute location");
    assert!(location.starts_with(REDIRECT), "redirected to redirect_uri");
    let get = |k: &str| {
        url.query_pairs()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.into_owned())
            .unwrap_or_else(|| panic!("no `{k}` in the redirect"))
    };
    (get("code"), get("state"))
}

fn code_body(code: &str, redirect_uri: &str) -> Value {
    json!({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
        "client_id": CLIENT, "client_secret": SECRET})
}

#[tokio::test]
async fn password_grant_issues_tokens_that_reach_the_dev_token_account() {
    let s = server_with(|c| c.tokens.push("other".into())).await;
    let v = grant_ok(&s.base_url, password_body()).await;
    assert_eq!(v["token_type"], "Bearer");
    assert_eq!(v["expires_in"], 3600);
    assert_eq!(v["scope"], "offline_access *");
    let access = str_of(&v, "access_token");
    let refresh = str_of(&v, "refresh_token");
    assert_eq!(access.split('.').count(), 3, "JWT-shaped");
    assert!(access.len() > 60 && refresh.len() >= 40);
    // Fresh each time.
    let w = grant_ok(&s.base_url, password_body()).await;
    // (Compared without assert_ne!, whose message would print the tokens.)
    assert!(
        w["access_token"] != v["access_token"],
        "a fresh access token"
    );
    assert!(
        w["refresh_token"] != v["refresh_token"],
        "a fresh refresh token"
    );
    // The same data as dev-token: a webhook registered with one is listed with the other.
    register_hook(
        &client(),
        &s.base_url,
        access,
        "UNIT_CREATED",
        "http://127.0.0.1:9/hook",
    )
    .await;
    let listed: Value = list_hooks(&s.base_url, TOKEN)
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(
        list_hooks(&s.base_url, "other")
            .await
            .json::<Value>()
            .await
            .expect("json")
            .as_array()
            .map(Vec::len),
        Some(0)
    );
    // The fixed tokens keep working.
    assert_eq!(list_hooks(&s.base_url, TOKEN).await.status().as_u16(), 200);
}

#[tokio::test]
async fn refresh_grant_keeps_the_refresh_token_by_default() {
    let s = server().await;
    let first = grant_ok(&s.base_url, password_body()).await;
    let refresh = str_of(&first, "refresh_token");
    let v = grant_ok(&s.base_url, refresh_body(refresh)).await;
    assert!(
        v.get("refresh_token").is_none(),
        "no refresh_token member by default"
    );
    assert_eq!(v["token_type"], "Bearer");
    assert_eq!(v["expires_in"], 3600);
    assert_eq!(v["scope"], "offline_access *");
    let access = str_of(&v, "access_token");
    assert!(
        access != str_of(&first, "access_token"),
        "a fresh access token"
    );
    assert_eq!(list_hooks(&s.base_url, access).await.status().as_u16(), 200);
    // The old refresh token stays valid.
    grant_ok(&s.base_url, refresh_body(refresh)).await;
    let c = counts(&s.base_url).await;
    assert_eq!(c["grants"]["refresh_token"], 2);
    assert_eq!(c["refreshTokens"][USER], 1);
}

#[tokio::test]
async fn refresh_grant_rotates_when_asked() {
    let s = server_with(|c| c.rotate_refresh_tokens = true).await;
    let first = grant_ok(&s.base_url, password_body()).await;
    let old = str_of(&first, "refresh_token");
    let v = grant_ok(&s.base_url, refresh_body(old)).await;
    let new = str_of(&v, "refresh_token");
    assert!(new != old, "a new refresh token");
    grant_refused(&s.base_url, refresh_body(old), 403, "invalid_grant").await;
    grant_ok(&s.base_url, refresh_body(new)).await;
    assert_eq!(counts(&s.base_url).await["refreshTokens"][USER], 1);
}

#[tokio::test]
async fn refresh_grant_refuses_unknown_and_other_clients_tokens() {
    let s = server_with(|c| {
        c.oauth_clients.push(OAuthClient {
            id: "other-client".into(),
            secret: "other-secret".into(),
            ..OAuthClient::default()
        })
    })
    .await;
    let first = grant_ok(&s.base_url, password_body()).await;
    let refresh = str_of(&first, "refresh_token");
    grant_refused(
        &s.base_url,
        refresh_body("no-such-token"),
        403,
        "invalid_grant",
    )
    .await;
    let other = json!({"grant_type": "refresh_token", "refresh_token": refresh,
        "client_id": "other-client", "client_secret": "other-secret"});
    grant_refused(&s.base_url, other, 403, "invalid_grant").await;
    grant_refused(
        &s.base_url,
        json!({"grant_type": "refresh_token", "client_id": CLIENT, "client_secret": SECRET}),
        400,
        "invalid_request",
    )
    .await;
}

#[tokio::test]
async fn authorization_code_grant() {
    let s = server().await;
    let (code, state) = authorize(&s.base_url, "xyz 1/2").await;
    assert_eq!(state, "xyz 1/2");
    let v = grant_ok(&s.base_url, code_body(&code, REDIRECT)).await;
    assert_eq!(v["token_type"], "Bearer");
    assert!(v["refresh_token"].as_str().is_some());
    let access = str_of(&v, "access_token");
    let me: Value = client()
        .get(format!("{}/accounts/api/userinfo", s.base_url))
        .bearer_auth(access)
        .send()
        .await
        .expect("userinfo")
        .json()
        .await
        .expect("json");
    assert_eq!(me["email"], USER);
    assert_eq!(counts(&s.base_url).await["grants"]["authorization_code"], 1);
}

#[tokio::test]
async fn an_authorization_code_used_twice_is_invalid_grant() {
    let s = server().await;
    let (code, _) = authorize(&s.base_url, "s").await;
    grant_ok(&s.base_url, code_body(&code, REDIRECT)).await;
    let v = grant_refused(
        &s.base_url,
        code_body(&code, REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
    assert!(!v.to_string().contains(&code), "the code is not echoed");
    grant_refused(
        &s.base_url,
        code_body("made-up", REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
    let c = counts(&s.base_url).await;
    assert_eq!(c["rejected"]["authorization_code"], 2);
    assert_eq!(c["grants"]["authorization_code"], 1);
}

#[tokio::test]
async fn an_authorization_code_with_another_redirect_uri_is_invalid_grant() {
    let s = server().await;
    let (code, _) = authorize(&s.base_url, "s").await;
    grant_refused(
        &s.base_url,
        code_body(&code, "http://127.0.0.1:9/elsewhere"),
        403,
        "invalid_grant",
    )
    .await;
    // The failed attempt spent it.
    grant_refused(
        &s.base_url,
        code_body(&code, REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
}

#[tokio::test]
async fn an_authorization_code_of_another_client_is_invalid_grant() {
    let s = server_with(|c| c.oauth_clients.push(other_client())).await;
    let (code, _) = authorize(&s.base_url, "s").await;
    let mut body = code_body(&code, REDIRECT);
    body["client_id"] = json!(OTHER_CLIENT);
    body["client_secret"] = json!(OTHER_SECRET);
    grant_refused(&s.base_url, body, 403, "invalid_grant").await;
    assert_eq!(
        counts(&s.base_url).await["rejected"]["authorization_code"],
        1
    );
}

#[tokio::test]
async fn an_expired_authorization_code_is_invalid_grant() {
    let s = server_with(|c| c.code_ttl_ms = 100).await;
    let (code, _) = authorize(&s.base_url, "s").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let v = grant_refused(
        &s.base_url,
        code_body(&code, REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
    assert!(
        v["error_description"]
            .as_str()
            .is_some_and(|d| d.contains("expired")),
        "{v}"
    );
}

/// An authorize request's answer (redirects not followed).
async fn authorize_raw(base: &str, query: &[(&str, &str)]) -> reqwest::Response {
    no_redirect()
        .get(format!("{base}{AUTHORIZE_PATH}"))
        .query(query)
        .send()
        .await
        .expect("authorize")
}

/// An authorize error redirected to `redirect` (RFC 6749 4.1.2.1): `error`, a description,
/// `state` when given, no `code`; `status` 302 (GET) or 303 (the form's POST).
fn assert_error_redirect(
    r: &reqwest::Response,
    status: u16,
    redirect: &str,
    error: &str,
    state: Option<&str>,
) {
    assert_eq!(r.status().as_u16(), status, "{error}");
    assert_eq!(r.headers()["cache-control"], "no-store");
    let location = r.headers()["location"].to_str().expect("location");
    assert!(location.starts_with(redirect), "{location}");
    assert_eq!(query_param(location, "error").as_deref(), Some(error));
    assert!(query_param(location, "error_description").is_some_and(|d| !d.is_empty()));
    assert_eq!(query_param(location, "state").as_deref(), state);
    assert_eq!(query_param(location, "code"), None);
}

/// An authorize error answered as JSON, not redirected.
async fn assert_error_here(r: reqwest::Response, error: &str) {
    assert!(
        r.headers().get("location").is_none(),
        "{error}: not redirected"
    );
    oauth_error(r, 400, error).await;
}

#[tokio::test]
async fn authorize_errors_are_redirected_to_a_valid_redirect_uri() {
    let s = server().await;
    let base = &s.base_url;
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut q = vec![("client_id", CLIENT), ("redirect_uri", REDIRECT)];
        q.extend_from_slice(extra);
        q
    };
    let r = authorize_raw(base, &with(&[("response_type", "token"), ("state", "s 1")])).await;
    assert_error_redirect(&r, 302, REDIRECT, "unsupported_response_type", Some("s 1"));
    let r = authorize_raw(base, &with(&[("state", "s2")])).await;
    assert_error_redirect(&r, 302, REDIRECT, "invalid_request", Some("s2"));
    // Without `state`, none comes back; the redirect URI's own query is kept.
    let own = "http://127.0.0.1:9/cb?from=app";
    let r = authorize_raw(
        base,
        &[
            ("client_id", CLIENT),
            ("redirect_uri", own),
            ("response_type", "id_token"),
        ],
    )
    .await;
    assert_error_redirect(
        &r,
        302,
        "http://127.0.0.1:9/cb?from=app&",
        "unsupported_response_type",
        None,
    );
    let location = r.headers()["location"].to_str().expect("location");
    assert_eq!(query_param(location, "from").as_deref(), Some("app"));
    // No code was issued by a refused request.
    assert_eq!(counts(base).await["grants"]["authorization_code"], 0);
}

#[tokio::test]
async fn authorize_errors_are_answered_here_without_a_valid_client_or_redirect_uri() {
    let s = server().await;
    let base = &s.base_url;
    for (query, error) in [
        (
            &[
                ("client_id", "nobody"),
                ("redirect_uri", REDIRECT),
                ("response_type", "code"),
            ][..],
            "invalid_client",
        ),
        (
            &[("redirect_uri", REDIRECT), ("response_type", "code")],
            "invalid_request",
        ),
        (
            &[("client_id", CLIENT), ("response_type", "code")],
            "invalid_request",
        ),
        // Unknown client and a bad response type: the client decides, no redirect.
        (
            &[
                ("client_id", "nobody"),
                ("redirect_uri", REDIRECT),
                ("response_type", "token"),
            ],
            "invalid_client",
        ),
        (
            &[
                ("client_id", CLIENT),
                ("redirect_uri", "https://attacker.example/cb"),
                ("response_type", "token"),
                ("state", "s"),
            ],
            "invalid_request",
        ),
        (
            &[
                ("client_id", CLIENT),
                ("client_id", CLIENT),
                ("redirect_uri", REDIRECT),
                ("response_type", "code"),
            ],
            "invalid_request",
        ),
        (
            &[
                ("client_id", CLIENT),
                ("redirect_uri", REDIRECT),
                ("redirect_uri", "http://127.0.0.1:9/other"),
                ("response_type", "code"),
            ],
            "invalid_request",
        ),
    ] {
        assert_error_here(authorize_raw(base, query).await, error).await;
    }
}

#[tokio::test]
async fn without_registered_redirect_uris_only_loopback_http_is_accepted() {
    let s = server().await;
    for ok in [
        "http://127.0.0.1:9/callback",
        "http://127.0.0.1/cb",
        "http://127.200.3.4:65000/x?y=1",
        "http://[::1]:3000/cb",
        "http://localhost:3000/api/auth/callback/estatekit",
        "http://LOCALHOST/cb",
    ] {
        let r = authorize_raw(
            &s.base_url,
            &[
                ("client_id", CLIENT),
                ("redirect_uri", ok),
                ("response_type", "code"),
            ],
        )
        .await;
        assert_eq!(r.status().as_u16(), 302, "{ok}");
        let location = r.headers()["location"].to_str().expect("location");
        assert!(query_param(location, "code").is_some(), "{ok}");
    }
    for bad in [
        "https://127.0.0.1/cb",
        "https://localhost:3000/cb",
        "http://app.example/cb",
        "https://app.example/cb",
        "http://localhost.example/cb",
        "http://127.0.0.1.nip.io/cb",
        "http://10.0.0.1/cb",
        "http://[::2]/cb",
        "http://127.0.0.1:9/cb#frag",
        "/relative/cb",
        "app://cb",
    ] {
        let r = authorize_raw(
            &s.base_url,
            &[
                ("client_id", CLIENT),
                ("redirect_uri", bad),
                ("response_type", "code"),
                ("state", "s"),
            ],
        )
        .await;
        assert_error_here(r, "invalid_request").await;
    }
}

fn with_redirects(c: &mut estatekit_emulator::Config, uris: &[&str]) {
    for client in &mut c.oauth_clients {
        if client.id == CLIENT {
            client.redirect_uris = uris.iter().map(|u| u.to_string()).collect();
        }
    }
}

#[tokio::test]
async fn registered_redirect_uris_are_matched_exactly() {
    let app = "https://app.example/api/auth/callback/estatekit";
    let s = server_with(|c| {
        with_redirects(c, &[app, "http://127.0.0.1:9/registered"]);
        c.oauth_clients.push(other_client());
    })
    .await;
    let base = &s.base_url;
    for ok in [app, "http://127.0.0.1:9/registered"] {
        let r = authorize_raw(
            base,
            &[
                ("client_id", CLIENT),
                ("redirect_uri", ok),
                ("response_type", "code"),
                ("state", "st"),
            ],
        )
        .await;
        assert_eq!(r.status().as_u16(), 302, "{ok}");
        let location = r.headers()["location"].to_str().expect("location");
        assert!(location.starts_with(ok), "{location}");
        let code = query_param(location, "code").expect("code");
        grant_ok(base, code_body(&code, ok)).await;
    }
    // Not registered: any other string, loopback ones included; nothing redirected.
    for bad in [
        "https://app.example/api/auth/callback/estatekit/",
        "https://APP.example/api/auth/callback/estatekit",
        "https://app.example/api/auth/callback/estatekit?x=1",
        "http://127.0.0.1:9/callback",
        "http://127.0.0.1:10/registered",
    ] {
        let r = authorize_raw(
            base,
            &[
                ("client_id", CLIENT),
                ("redirect_uri", bad),
                ("response_type", "token"),
                ("state", "st"),
            ],
        )
        .await;
        assert_error_here(r, "invalid_request").await;
    }
    // Several registered: `redirect_uri` is required (RFC 6749 3.1.2.3).
    assert_error_here(
        authorize_raw(base, &[("client_id", CLIENT), ("response_type", "code")]).await,
        "invalid_request",
    )
    .await;
    // Another client without registered URIs keeps the loopback rule.
    let r = authorize_raw(
        base,
        &[
            ("client_id", OTHER_CLIENT),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
        ],
    )
    .await;
    assert_eq!(r.status().as_u16(), 302);
    // A registered URI takes error redirects too.
    let r = authorize_raw(
        base,
        &[
            ("client_id", CLIENT),
            ("redirect_uri", app),
            ("response_type", "token"),
        ],
    )
    .await;
    assert_error_redirect(&r, 302, app, "unsupported_response_type", None);
}

#[tokio::test]
async fn a_single_registered_redirect_uri_may_be_left_out() {
    let app = "https://app.example/cb";
    let s = server_with(|c| with_redirects(c, &[app])).await;
    let base = &s.base_url;
    let r = authorize_raw(
        base,
        &[
            ("client_id", CLIENT),
            ("response_type", "code"),
            ("state", "s"),
        ],
    )
    .await;
    assert_eq!(r.status().as_u16(), 302);
    let location = r.headers()["location"].to_str().expect("location");
    assert!(location.starts_with(app), "{location}");
    // Left out of the authorization request: the token request need not send it (RFC 6749
    // 4.1.3), and if it does, it must be the registered one.
    let code = query_param(location, "code").expect("code");
    form_ok(
        base,
        &[("grant_type", "authorization_code"), ("code", &code)],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    // Named in the authorization request: the token request must name it too.
    let r = authorize_raw(
        base,
        &[
            ("client_id", CLIENT),
            ("redirect_uri", app),
            ("response_type", "code"),
        ],
    )
    .await;
    let location = r.headers()["location"].to_str().expect("location");
    let code = query_param(location, "code").expect("code");
    let r = post_form(
        base,
        &[("grant_type", "authorization_code"), ("code", &code)],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    oauth_error(r, 400, "invalid_request").await;
}

#[tokio::test]
async fn a_repeated_authorize_parameter_is_invalid_request() {
    let s = server().await;
    let base = &s.base_url;
    for (name, a, b) in [
        ("state", "s1", "s2"),
        ("scope", "openid", "offline_access *"),
        ("response_type", "code", "code"),
        ("code_challenge", VERIFIER, VERIFIER),
        ("nonce", "n1", "n2"),
    ] {
        let mut q = vec![("client_id", CLIENT), ("redirect_uri", REDIRECT)];
        if name != "response_type" {
            q.push(("response_type", "code"));
        }
        q.push((name, a));
        q.push((name, b));
        let r = authorize_raw(base, &q).await;
        let state = if name == "state" { Some("s1") } else { None };
        assert_error_redirect(&r, 302, REDIRECT, "invalid_request", state);
        let location = r.headers()["location"].to_str().expect("location");
        let description = query_param(location, "error_description").unwrap_or_default();
        assert!(description.contains(&format!("`{name}`")), "{description}");
    }
    // A parameter without a value is as if omitted (RFC 6749 3.1): not a repeat.
    let code = authorize_with(base, &[("scope", ""), ("scope", "openid"), ("state", "")]).await;
    let v = grant_ok(base, code_body(&code, REDIRECT)).await;
    assert_eq!(v["scope"], "openid");
}

#[tokio::test]
async fn a_reused_authorization_code_revokes_its_tokens() {
    let s = server().await;
    let base = &s.base_url;
    let by_password = grant_ok(base, password_body()).await;
    let (code, _) = authorize(base, "s").await;
    let first = grant_ok(base, code_body(&code, REDIRECT)).await;
    let access = str_of(&first, "access_token").to_string();
    let refresh = str_of(&first, "refresh_token").to_string();
    // A token refreshed from the code's refresh token belongs to the code too.
    let refreshed = grant_ok(base, refresh_body(&refresh)).await;
    let refreshed_access = str_of(&refreshed, "access_token").to_string();
    for t in [&access, &refreshed_access] {
        assert_eq!(list_hooks(base, t).await.status().as_u16(), 200);
    }
    let v = grant_refused(base, code_body(&code, REDIRECT), 403, "invalid_grant").await;
    assert!(
        v["error_description"]
            .as_str()
            .is_some_and(|d| d.contains("used already") && d.contains("revoked")),
        "{v}"
    );
    for t in [&access, &refreshed_access] {
        assert_eq!(list_hooks(base, t).await.status().as_u16(), 401);
        let me = client()
            .get(format!("{base}/accounts/api/userinfo"))
            .bearer_auth(t)
            .send()
            .await
            .expect("userinfo");
        assert_eq!(me.status().as_u16(), 401);
    }
    grant_refused(base, refresh_body(&refresh), 403, "invalid_grant").await;
    // Other grants' tokens are untouched.
    assert_eq!(
        list_hooks(base, str_of(&by_password, "access_token"))
            .await
            .status()
            .as_u16(),
        200
    );
    grant_ok(base, refresh_body(str_of(&by_password, "refresh_token"))).await;
    // A code never issued is unknown, not reused.
    let v = grant_refused(base, code_body("made-up", REDIRECT), 403, "invalid_grant").await;
    assert!(
        !v["error_description"]
            .as_str()
            .unwrap_or("")
            .contains("revoked"),
        "{v}"
    );
}

#[tokio::test]
async fn a_bad_client_gets_401_invalid_client() {
    let s = server().await;
    let mut wrong_secret = password_body();
    wrong_secret["client_secret"] = json!("not-the-secret");
    let v = grant_refused(&s.base_url, wrong_secret, 401, "invalid_client").await;
    assert!(!v.to_string().contains("not-the-secret"));
    let mut unknown = password_body();
    unknown["client_id"] = json!("nobody");
    grant_refused(&s.base_url, unknown, 401, "invalid_client").await;
    let mut missing = password_body();
    missing.as_object_mut().map(|m| m.remove("client_secret"));
    grant_refused(&s.base_url, missing, 401, "invalid_client").await;
    let mut other_grant = password_body();
    other_grant["grant_type"] = json!("client_credentials");
    grant_refused(&s.base_url, other_grant, 400, "unsupported_grant_type").await;
    // Neither a form nor JSON.
    let r = client()
        .post(format!("{}{TOKEN_PATH}", s.base_url))
        .header("content-type", "text/plain")
        .body("grant_type=password&username=admin%40acme.test&password=dev-password&client_id=dev-client&client_secret=dev-secret")
        .send()
        .await
        .expect("text");
    let v = oauth_error(r, 400, "invalid_request").await;
    assert!(!v.to_string().contains("dev-secret"));
    // The missing secret counts as a refused password grant too; the unknown grant type does not.
    assert_eq!(counts(&s.base_url).await["rejected"]["password"], 3);
}

#[tokio::test]
async fn a_bad_password_gets_403_invalid_grant() {
    let s = server().await;
    let mut body = password_body();
    body["password"] = json!("wrong-password");
    let v = grant_refused(&s.base_url, body, 403, "invalid_grant").await;
    assert!(!v.to_string().contains("wrong-password"));
    let mut body = password_body();
    body["username"] = json!("nobody@acme.test");
    grant_refused(&s.base_url, body, 403, "invalid_grant").await;
    let c = counts(&s.base_url).await;
    assert_eq!(c["rejected"]["password"], 2);
    assert_eq!(c["grants"]["password"], 0);
}

#[tokio::test]
async fn an_expired_access_token_gets_401() {
    let s = server_with(|c| c.access_token_ttl_ms = 1000).await;
    let v = grant_ok(&s.base_url, password_body()).await;
    assert_eq!(v["expires_in"], 1);
    let access = str_of(&v, "access_token");
    assert_eq!(list_hooks(&s.base_url, access).await.status().as_u16(), 200);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let e = assert_error(list_hooks(&s.base_url, access).await, 401).await;
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("expired")),
        "{e}"
    );
    // A refresh gives a working one.
    let again = grant_ok(&s.base_url, refresh_body(str_of(&v, "refresh_token"))).await;
    let fresh = str_of(&again, "access_token");
    assert_eq!(list_hooks(&s.base_url, fresh).await.status().as_u16(), 200);
    assert_eq!(counts(&s.base_url).await["accessTokenTtlMs"], 1000);
}

#[tokio::test]
async fn an_issued_token_shares_the_accounts_rate_window() {
    let s = server_with(|c| {
        c.rate_limit = 3;
        c.tokens.push("other".into());
    })
    .await;
    let v = grant_ok(&s.base_url, password_body()).await;
    let access = str_of(&v, "access_token");
    let r = list_hooks(&s.base_url, TOKEN).await;
    assert_eq!(r.headers()["x-ratelimit-remaining"], "2");
    let r = list_hooks(&s.base_url, access).await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["x-ratelimit-remaining"], "1");
    let v2 = grant_ok(&s.base_url, password_body()).await;
    let r = list_hooks(&s.base_url, str_of(&v2, "access_token")).await;
    assert_eq!(r.headers()["x-ratelimit-remaining"], "0");
    assert_error(list_hooks(&s.base_url, TOKEN).await, 429).await;
    assert_error(list_hooks(&s.base_url, access).await, 429).await;
    // Another account's window is its own.
    assert_eq!(
        list_hooks(&s.base_url, "other").await.status().as_u16(),
        200
    );
    // The token endpoint is not rate limited.
    grant_ok(&s.base_url, password_body()).await;
    let c: Value = get_json(
        &client(),
        &format!("{}/_emulator/counters?token={TOKEN}", s.base_url),
    )
    .await;
    assert_eq!(c["total"], 5, "issued tokens count as dev-token's: {c}");
}

#[tokio::test]
async fn the_51st_refresh_token_evicts_the_oldest() {
    let s = server().await;
    let first = grant_ok(&s.base_url, password_body()).await;
    let oldest = str_of(&first, "refresh_token");
    let second = grant_ok(&s.base_url, password_body()).await;
    for _ in 0..49 {
        grant_ok(&s.base_url, password_body()).await;
    }
    let c = counts(&s.base_url).await;
    assert_eq!(c["refreshTokens"][USER], 50);
    assert_eq!(c["grants"]["password"], 51);
    grant_refused(&s.base_url, refresh_body(oldest), 403, "invalid_grant").await;
    grant_ok(&s.base_url, refresh_body(str_of(&second, "refresh_token"))).await;
}

#[tokio::test]
async fn userinfo_answers_the_signed_in_user() {
    let s = server().await;
    let v = grant_ok(&s.base_url, password_body()).await;
    let url = format!("{}/accounts/api/userinfo", s.base_url);
    let r = client()
        .get(&url)
        .bearer_auth(str_of(&v, "access_token"))
        .send()
        .await
        .expect("userinfo");
    assert_eq!(r.status().as_u16(), 200);
    let me: Value = r.json().await.expect("json");
    assert_eq!(me["email"], USER);
    assert!(me["id"].as_str().is_some_and(|i| !i.is_empty()));
    assert_eq!(me["firstName"], "Admin");
    assert!(me["lastName"].is_string());
    assert!(me["profilePhoto"].is_null());
    for k in ["language", "salutation", "phoneNumber", "cellPhoneNumber"] {
        assert!(me["profileData"].get(k).is_some(), "{k}");
    }
    // A fixed token is no signed-in user; no token neither.
    let r = client()
        .get(&url)
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("r");
    assert_error(r, 401).await;
    assert_error(client().get(&url).send().await.expect("r"), 401).await;
}

#[tokio::test]
async fn users_and_clients_from_the_config() {
    let s = server_with(|c| {
        c.tokens = vec!["t-main".into()];
        c.oauth_clients = vec![OAuthClient {
            id: "app".into(),
            secret: "app-secret".into(),
            ..OAuthClient::default()
        }];
        c.users = vec![
            User {
                username: "first@x.test".into(),
                password: "pw1".into(),
                token: None,
            },
            User {
                username: "second@x.test".into(),
                password: "pw2".into(),
                token: Some("t-second".into()),
            },
        ];
    })
    .await;
    // The defaults are replaced.
    grant_refused(&s.base_url, password_body(), 401, "invalid_client").await;
    let body = |u: &str, p: &str| {
        json!({"grant_type": "password", "username": u, "password": p,
            "client_id": "app", "client_secret": "app-secret"})
    };
    let one = grant_ok(&s.base_url, body("first@x.test", "pw1")).await;
    let two = grant_ok(&s.base_url, body("second@x.test", "pw2")).await;
    register_hook(
        &client(),
        &s.base_url,
        "t-main",
        "UNIT_CREATED",
        "http://127.0.0.1:9/a",
    )
    .await;
    let mine: Value = list_hooks(&s.base_url, str_of(&one, "access_token"))
        .await
        .json()
        .await
        .expect("json");
    let theirs: Value = list_hooks(&s.base_url, str_of(&two, "access_token"))
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(mine.as_array().map(Vec::len), Some(1));
    assert_eq!(theirs.as_array().map(Vec::len), Some(0));
    let c = counts(&s.base_url).await;
    assert_eq!(
        c["refreshTokens"],
        json!({"first@x.test": 1, "second@x.test": 1})
    );
    let info = get_json(&client(), &format!("{}/_emulator/info", s.base_url)).await;
    assert_eq!(
        info["tokens"],
        json!(["t-main", "t-second", "readonly-token"]),
        "a user's account is listed"
    );
}

#[tokio::test]
async fn oauth_counts_and_reset() {
    let s = server().await;
    let c = counts(&s.base_url).await;
    assert_eq!(
        c,
        json!({"grants": {"password": 0, "refresh_token": 0, "authorization_code": 0},
            "rejected": {"password": 0, "refresh_token": 0, "authorization_code": 0},
            "refreshTokens": {USER: 0}, "accessTokenTtlMs": 3_600_000})
    );
    let v = grant_ok(&s.base_url, password_body()).await;
    grant_ok(&s.base_url, refresh_body(str_of(&v, "refresh_token"))).await;
    grant_refused(&s.base_url, refresh_body("nope"), 403, "invalid_grant").await;
    let c = counts(&s.base_url).await;
    assert_eq!(c["grants"]["password"], 1);
    assert_eq!(c["grants"]["refresh_token"], 1);
    assert_eq!(c["rejected"]["refresh_token"], 1);
    assert_eq!(c["refreshTokens"][USER], 1);
    let r = post_json(
        &client(),
        &format!("{}/_emulator/reset", s.base_url),
        json!({}),
    )
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let c = counts(&s.base_url).await;
    assert_eq!(c["grants"]["password"], 0);
    assert_eq!(c["grants"]["refresh_token"], 0);
    assert_eq!(c["rejected"]["refresh_token"], 0);
    // Issued tokens outlive a reset.
    assert_eq!(
        list_hooks(&s.base_url, str_of(&v, "access_token"))
            .await
            .status()
            .as_u16(),
        200
    );
}

#[tokio::test]
async fn revoke_deletes_a_users_refresh_tokens() {
    let s = server().await;
    let v = grant_ok(&s.base_url, password_body()).await;
    grant_ok(&s.base_url, password_body()).await;
    let url = format!("{}/_emulator/oauth/revoke", s.base_url);
    let r = post_json(&client(), &url, json!({"username": USER})).await;
    assert_eq!(r.status().as_u16(), 200);
    let body: Value = r.json().await.expect("json");
    assert_eq!(body["revoked"], 2);
    grant_refused(
        &s.base_url,
        refresh_body(str_of(&v, "refresh_token")),
        403,
        "invalid_grant",
    )
    .await;
    assert_eq!(counts(&s.base_url).await["refreshTokens"][USER], 0);
    let r = post_json(&client(), &url, json!({"username": "nobody@x.test"})).await;
    assert_error(r, 400).await;
}

#[tokio::test]
async fn faults_apply_to_the_token_endpoint() {
    let s = server().await;
    let c = client();
    let faults_url = format!("{}/_emulator/faults", s.base_url);
    let fault = |f: Value| post_json(&c, &faults_url, f);
    let r = fault(json!({"method": "POST", "path": TOKEN_PATH, "status": 502,
        "body": "<html><body>502 Bad Gateway</body></html>", "contentType": "text/html"}))
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let r = post_token(&s.base_url, password_body()).await;
    assert_eq!(r.status().as_u16(), 502);
    assert_eq!(r.headers()["content-type"], "text/html");
    assert!(r.headers().contains_key("access-control-allow-origin"));
    assert!(r.text().await.expect("text").contains("Bad Gateway"));
    // A fault's answer is no grant.
    assert_eq!(counts(&s.base_url).await["grants"]["password"], 0);

    fault(json!({"path": TOKEN_PATH, "truncate": true})).await;
    let r = post_token(&s.base_url, password_body()).await;
    assert_eq!(r.status().as_u16(), 200);
    let text = r.text().await.expect("text");
    assert!(serde_json::from_str::<Value>(&text).is_err(), "cut in half");

    fault(json!({"path": TOKEN_PATH, "drop": true})).await;
    let dropped = client()
        .post(format!("{}{TOKEN_PATH}", s.base_url))
        .json(&password_body())
        .send()
        .await;
    assert!(dropped.is_err(), "the connection closes unanswered");

    fault(json!({"path": TOKEN_PATH, "delayMs": 300})).await;
    let t = std::time::Instant::now();
    grant_ok(&s.base_url, password_body()).await;
    assert!(t.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn the_sign_in_routes_have_cors() {
    let s = server().await;
    let r = client()
        .request(
            reqwest::Method::OPTIONS,
            format!("{}{TOKEN_PATH}", s.base_url),
        )
        .header("origin", "http://page.test")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .expect("preflight");
    assert_eq!(r.status().as_u16(), 204);
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://page.test"
    );
    let r = client()
        .post(format!("{}{TOKEN_PATH}", s.base_url))
        .header("origin", "http://page.test")
        .json(&password_body())
        .send()
        .await
        .expect("grant");
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://page.test"
    );
}

#[tokio::test]
async fn the_request_log_holds_no_secret() {
    let s = server().await;
    let v = grant_ok(&s.base_url, password_body()).await;
    let refresh = str_of(&v, "refresh_token").to_string();
    let access = str_of(&v, "access_token").to_string();
    let again = grant_ok(&s.base_url, refresh_body(&refresh)).await;
    let (code, _) = authorize(&s.base_url, "st").await;
    let by_code = grant_ok(&s.base_url, code_body(&code, REDIRECT)).await;
    list_hooks(&s.base_url, &access).await;
    // A client that puts its secret in the query: the log redacts it.
    client()
        .get(format!(
            "{}/accounts/dialog/authorize?client_id=dev-client&client_secret={SECRET}&redirect_uri=x",
            s.base_url
        ))
        .send()
        .await
        .expect("authorize");
    let log = get_json(&client(), &format!("{}/_emulator/requests", s.base_url)).await;
    let entries = log.as_array().expect("array");
    let token_calls: Vec<&Value> = entries.iter().filter(|e| e["path"] == TOKEN_PATH).collect();
    assert_eq!(token_calls.len(), 3);
    for e in &token_calls {
        assert_eq!(e["method"], "POST");
        assert_eq!(e["contentType"], "application/json");
    }
    assert!(entries
        .iter()
        .any(|e| e["path"] == "/accounts/dialog/authorize"));
    let text = log.to_string();
    for secret in [
        SECRET,
        PASSWORD,
        &refresh,
        &access,
        str_of(&again, "access_token"),
        &code,
        str_of(&by_code, "access_token"),
        str_of(&by_code, "refresh_token"),
    ] {
        assert!(!text.contains(secret), "a secret is in the request log");
    }
}

#[tokio::test]
async fn form_bodies_with_basic_client_authentication_for_every_grant() {
    let s = server_with(|c| {
        c.oauth_clients.push(odd_client());
        c.rotate_refresh_tokens = true;
    })
    .await;
    let auth = basic(ODD_CLIENT, ODD_SECRET);
    let v = form_ok(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("scope", "offline_access *"),
        ],
        Some(&auth),
    )
    .await;
    assert_eq!(v["token_type"], "Bearer");
    assert_eq!(v["scope"], "offline_access *");
    let access = str_of(&v, "access_token");
    assert_eq!(list_hooks(&s.base_url, access).await.status().as_u16(), 200);
    // The refresh grant rotates, whatever the encoding.
    let old = str_of(&v, "refresh_token");
    let r = form_ok(
        &s.base_url,
        &[("grant_type", "refresh_token"), ("refresh_token", old)],
        Some(&auth),
    )
    .await;
    let new = str_of(&r, "refresh_token");
    assert!(new != old, "a new refresh token");
    let again = post_form(
        &s.base_url,
        &[("grant_type", "refresh_token"), ("refresh_token", old)],
        Some(&auth),
    )
    .await;
    oauth_error(again, 403, "invalid_grant").await;
    // A client_id in the body beside Basic is allowed when it is the same client (RFC 6749 3.2.1).
    form_ok(
        &s.base_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", new),
            ("client_id", ODD_CLIENT),
        ],
        Some(&auth),
    )
    .await;
    let c = counts(&s.base_url).await;
    assert_eq!(c["grants"]["password"], 1);
    assert_eq!(c["grants"]["refresh_token"], 2);
    assert_eq!(c["rejected"]["refresh_token"], 1);
    assert_eq!(c["refreshTokens"][USER], 1, "rotation leaves one");
}

#[tokio::test]
async fn basic_credentials_sent_unencoded_are_accepted() {
    let s = server_with(|c| c.oauth_clients.push(odd_client())).await;
    form_ok(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
        ],
        Some(&basic_unencoded(ODD_CLIENT, ODD_SECRET)),
    )
    .await;
}

#[tokio::test]
async fn form_bodies_with_the_client_in_the_body() {
    let s = server_with(|c| c.oauth_clients.push(odd_client())).await;
    let v = form_ok(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("client_id", ODD_CLIENT),
            ("client_secret", ODD_SECRET),
        ],
        None,
    )
    .await;
    let refresh = str_of(&v, "refresh_token");
    let r = form_ok(
        &s.base_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh),
            ("client_id", ODD_CLIENT),
            ("client_secret", ODD_SECRET),
        ],
        None,
    )
    .await;
    assert!(r.get("refresh_token").is_none(), "no rotation by default");
    let code = authorize_with(&s.base_url, &[]).await;
    form_ok(
        &s.base_url,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("client_id", CLIENT),
            ("client_secret", SECRET),
        ],
        None,
    )
    .await;
}

#[tokio::test]
async fn json_bodies_with_basic_client_authentication() {
    let s = server().await;
    let send = |body: Value| {
        client()
            .post(format!("{}{TOKEN_PATH}", s.base_url))
            .header("authorization", basic(CLIENT, SECRET))
            .json(&body)
            .send()
    };
    let r = send(json!({"grant_type": "password", "username": USER, "password": PASSWORD}))
        .await
        .expect("grant");
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().await.expect("json");
    let code = authorize_with(&s.base_url, &[]).await;
    let r =
        send(json!({"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}))
            .await
            .expect("grant");
    assert_eq!(r.status().as_u16(), 200);
    let r =
        send(json!({"grant_type": "refresh_token", "refresh_token": str_of(&v, "refresh_token")}))
            .await
            .expect("grant");
    assert_eq!(r.status().as_u16(), 200);
    let c = counts(&s.base_url).await;
    assert_eq!(
        c["grants"],
        json!({"password": 1, "refresh_token": 1, "authorization_code": 1})
    );
}

#[tokio::test]
async fn a_form_body_with_a_wrong_basic_secret_is_401_invalid_client_with_www_authenticate() {
    let s = server().await;
    let r = post_form(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
        ],
        Some(&basic(CLIENT, "not-the-secret")),
    )
    .await;
    let challenge = r
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(challenge.starts_with("Basic"), "{challenge:?}");
    let v = oauth_error(r, 401, "invalid_client").await;
    assert!(!v.to_string().contains("not-the-secret"));
    assert_eq!(counts(&s.base_url).await["rejected"]["password"], 1);
}

#[tokio::test]
async fn a_form_body_with_a_wrong_secret_in_the_body_is_401_invalid_client() {
    let s = server().await;
    let r = post_form(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("client_id", CLIENT),
            ("client_secret", "not-the-secret"),
        ],
        None,
    )
    .await;
    // Basic was not tried: no challenge (a browser would show its password dialog).
    assert!(r.headers().get("www-authenticate").is_none());
    let v = oauth_error(r, 401, "invalid_client").await;
    assert!(!v.to_string().contains("not-the-secret"));
}

#[tokio::test]
async fn no_client_authentication_is_401_invalid_client() {
    let s = server().await;
    for pairs in [
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
        ][..],
        // A client_id alone (a public client) is no authentication: the service needs the secret.
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("client_id", CLIENT),
        ][..],
    ] {
        let r = post_form(&s.base_url, pairs, None).await;
        oauth_error(r, 401, "invalid_client").await;
    }
}

#[tokio::test]
async fn a_malformed_basic_header_is_401_invalid_client() {
    let s = server().await;
    let no_colon = format!("Basic {}", STANDARD.encode("dev-client"));
    for (i, auth) in ["Basic !!!not-base64", no_colon.as_str(), "Bearer dev-token"]
        .into_iter()
        .enumerate()
    {
        let r = post_form(
            &s.base_url,
            &[
                ("grant_type", "password"),
                ("username", USER),
                ("password", PASSWORD),
            ],
            Some(auth),
        )
        .await;
        assert!(r.headers().contains_key("www-authenticate"), "header #{i}");
        oauth_error(r, 401, "invalid_client").await;
    }
}

#[tokio::test]
async fn a_secret_in_both_the_header_and_the_body_is_400_invalid_request() {
    let s = server().await;
    let r = post_form(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("client_id", CLIENT),
            ("client_secret", SECRET),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    let v = oauth_error(r, 400, "invalid_request").await;
    assert!(!v.to_string().contains(SECRET));
    assert_eq!(counts(&s.base_url).await["grants"]["password"], 0);
}

#[tokio::test]
async fn a_body_client_id_other_than_the_basic_one_is_400_invalid_request() {
    let s = server_with(|c| c.oauth_clients.push(other_client())).await;
    let r = post_form(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("client_id", OTHER_CLIENT),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    oauth_error(r, 400, "invalid_request").await;
}

#[tokio::test]
async fn a_form_parameter_given_twice_is_400_invalid_request() {
    let s = server().await;
    let r = post_form(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("password", "another"),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    let v = oauth_error(r, 400, "invalid_request").await;
    assert!(v["error_description"]
        .as_str()
        .is_some_and(|d| d.contains("`password`")));
    assert!(!v.to_string().contains(PASSWORD));
    // A parameter without a value is as if omitted (RFC 6749 3.1, 3.2): not a repeat.
    let v = form_ok(
        &s.base_url,
        &[
            ("grant_type", "password"),
            ("username", USER),
            ("password", PASSWORD),
            ("scope", ""),
            ("scope", "openid"),
            ("client_secret", ""),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    assert_eq!(v["scope"], "openid");
}

#[tokio::test]
async fn pkce_with_s256() {
    let s = server().await;
    let challenge = s256(VERIFIER);
    let code = authorize_with(
        &s.base_url,
        &[
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ],
    )
    .await;
    let v = form_ok(
        &s.base_url,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", VERIFIER),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    assert!(v["refresh_token"].is_string());
}

#[tokio::test]
async fn pkce_with_plain() {
    let s = server().await;
    // No method is plain (RFC 7636 4.3).
    for method in [Some("plain"), None] {
        let mut extra = vec![("code_challenge", VERIFIER)];
        if let Some(m) = method {
            extra.push(("code_challenge_method", m));
        }
        let code = authorize_with(&s.base_url, &extra).await;
        let mut body = code_body(&code, REDIRECT);
        body["code_verifier"] = json!(VERIFIER);
        grant_ok(&s.base_url, body).await;
    }
}

#[tokio::test]
async fn a_wrong_pkce_verifier_is_invalid_grant() {
    let s = server().await;
    let challenge = s256(VERIFIER);
    let pkce = [
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let code = authorize_with(&s.base_url, &pkce).await;
    let mut body = code_body(&code, REDIRECT);
    body["code_verifier"] = json!(format!("{VERIFIER}x"));
    let v = grant_refused(&s.base_url, body, 403, "invalid_grant").await;
    assert!(!v.to_string().contains(VERIFIER));
    // Without the verifier.
    let code = authorize_with(&s.base_url, &pkce).await;
    grant_refused(
        &s.base_url,
        code_body(&code, REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
    // A verifier when the authorization had no challenge (RFC 9700 2.1.1: PKCE downgrade).
    let code = authorize_with(&s.base_url, &[]).await;
    let mut body = code_body(&code, REDIRECT);
    body["code_verifier"] = json!(VERIFIER);
    grant_refused(&s.base_url, body, 403, "invalid_grant").await;
    assert_eq!(
        counts(&s.base_url).await["rejected"]["authorization_code"],
        3
    );
}

#[tokio::test]
async fn authorize_refuses_a_malformed_pkce_challenge() {
    let s = server().await;
    for extra in [
        &[("code_challenge", "too-short")][..],
        &[
            ("code_challenge", VERIFIER),
            ("code_challenge_method", "S512"),
        ],
        &[("code_challenge_method", "S256")],
    ] {
        let mut query = vec![
            ("client_id", CLIENT),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
            ("state", "pk"),
        ];
        query.extend_from_slice(extra);
        let r = authorize_raw(&s.base_url, &query).await;
        assert_error_redirect(&r, 302, REDIRECT, "invalid_request", Some("pk"));
        let location = r.headers()["location"].to_str().expect("location");
        assert!(!location.contains(VERIFIER), "the challenge is not echoed");
    }
}

#[tokio::test]
async fn authorize_ignores_unknown_parameters_and_keeps_state_and_scope() {
    let s = server().await;
    let redirect = "http://127.0.0.1:9/cb?from=app";
    let r = no_redirect()
        .get(format!("{}{AUTHORIZE_PATH}", s.base_url))
        .query(&[
            ("client_id", CLIENT),
            ("redirect_uri", redirect),
            ("response_type", "code"),
            ("grant_type", "authorization_code"),
            ("prompt", "login"),
            ("nonce", "n-1"),
            ("scope", "openid"),
            ("state", "st&=1"),
        ])
        .send()
        .await
        .expect("authorize");
    assert_eq!(r.status().as_u16(), 302);
    let location = r.headers()["location"].to_str().expect("location");
    assert_eq!(query_param(location, "state").as_deref(), Some("st&=1"));
    assert_eq!(query_param(location, "from").as_deref(), Some("app"));
    let code = query_param(location, "code").expect("code");
    let v = form_ok(
        &s.base_url,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", redirect),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    assert_eq!(v["scope"], "openid");
}

/// The value of a hidden field of the sign-in form (its `&quot;`, `&lt;` and `&amp;` decoded).
fn hidden(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let rest = html.get(start..)?;
    let value = rest.get(..rest.find('"')?)?;
    Some(
        value
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

#[tokio::test]
async fn the_sign_in_page_signs_in_with_the_form() {
    let s = server_with(|c| {
        c.sign_in_page = true;
        c.users.push(User {
            username: "second@acme.test".into(),
            password: "pw-2".into(),
            token: None,
        });
    })
    .await;
    let challenge = s256(VERIFIER);
    let state = "s&1\"<b>";
    let c = no_redirect();
    let r = c
        .get(format!("{}{AUTHORIZE_PATH}", s.base_url))
        .query(&[
            ("client_id", CLIENT),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
            ("state", state),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
            ("nonce", "n-1"),
        ])
        .send()
        .await
        .expect("authorize");
    assert_eq!(r.status().as_u16(), 200, "a form, no redirect");
    assert!(r.headers().get("location").is_none());
    assert!(r.headers()["content-type"]
        .to_str()
        .is_ok_and(|t| t.starts_with("text/html")));
    let html = r.text().await.expect("html");
    assert!(html.contains("<form method=\"post\" action=\"/accounts/dialog/authorize\">"));
    assert!(html.contains("name=\"email\"") && html.contains("type=\"password\""));
    assert!(!html.contains("<b>"), "values are escaped");
    // Every parameter of the request is carried.
    let fields: Vec<(String, String)> = [
        "client_id",
        "redirect_uri",
        "response_type",
        "state",
        "code_challenge",
        "code_challenge_method",
        "nonce",
    ]
    .iter()
    .map(|k| {
        let v = hidden(&html, k).unwrap_or_else(|| panic!("no hidden `{k}`"));
        (k.to_string(), v)
    })
    .collect();
    assert!(fields.contains(&("state".to_string(), state.to_string())));
    assert!(fields.contains(&("code_challenge".to_string(), challenge.clone())));
    let post = |email: &str, password: &str| {
        let mut pairs: Vec<(String, String)> = fields.clone();
        pairs.push(("email".into(), email.into()));
        pairs.push(("password".into(), password.into()));
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        c.post(format!("{}{AUTHORIZE_PATH}", s.base_url))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    // A wrong password: the form again, with an error, and no code.
    let r = post("second@acme.test", "wrong-pw").await.expect("post");
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers().get("location").is_none());
    let again = r.text().await.expect("html");
    assert!(again.contains("role=\"alert\""), "an error is shown");
    assert!(
        again.contains("value=\"second@acme.test\""),
        "the e-mail is kept"
    );
    assert!(!again.contains("wrong-pw"), "the password is not");
    assert_eq!(hidden(&again, "code_challenge"), Some(challenge.clone()));
    assert_eq!(hidden(&again, "state").as_deref(), Some(state));
    // The right one: a redirect with code and state, signed in as that user.
    let r = post("second@acme.test", "pw-2").await.expect("post");
    assert_eq!(r.status().as_u16(), 303);
    let location = r.headers()["location"]
        .to_str()
        .expect("location")
        .to_string();
    assert!(location.starts_with(REDIRECT));
    assert_eq!(query_param(&location, "state").as_deref(), Some(state));
    let code = query_param(&location, "code").expect("code");
    let v = form_ok(
        &s.base_url,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", VERIFIER),
        ],
        Some(&basic(CLIENT, SECRET)),
    )
    .await;
    let me: Value = client()
        .get(format!("{}/accounts/api/userinfo", s.base_url))
        .bearer_auth(str_of(&v, "access_token"))
        .send()
        .await
        .expect("userinfo")
        .json()
        .await
        .expect("json");
    assert_eq!(me["email"], "second@acme.test");
    let counts = counts(&s.base_url).await;
    assert_eq!(counts["grants"]["authorization_code"], 1);
    assert_eq!(counts["refreshTokens"]["second@acme.test"], 1);
    assert_eq!(counts["refreshTokens"][USER], 0);
}

#[tokio::test]
async fn a_delayed_token_endpoint_makes_concurrent_refreshes_overlap() {
    let s = server_with(|c| c.rotate_refresh_tokens = true).await;
    let v = grant_ok(&s.base_url, password_body()).await;
    let refresh = str_of(&v, "refresh_token").to_string();
    let r = post_json(
        &client(),
        &format!("{}/_emulator/faults", s.base_url),
        json!({"method": "POST", "path": TOKEN_PATH, "delayMs": 300, "times": 2}),
    )
    .await;
    assert_eq!(r.status().as_u16(), 200);
    let (a, b) = tokio::join!(
        post_token(&s.base_url, refresh_body(&refresh)),
        post_token(&s.base_url, refresh_body(&refresh))
    );
    let mut statuses = [a.status().as_u16(), b.status().as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 403], "one wins, the other is refused");
    let c = counts(&s.base_url).await;
    assert_eq!(c["grants"]["refresh_token"], 1);
    assert_eq!(c["rejected"]["refresh_token"], 1);
    assert_eq!(c["refreshTokens"][USER], 1);
    let pending = get_json(&client(), &format!("{}/_emulator/faults", s.base_url)).await;
    assert_eq!(pending, json!([]), "both requests were delayed");
}

#[tokio::test]
async fn the_sign_in_forms_refusals_redirect_with_303() {
    let s = server_with(|c| c.sign_in_page = true).await;
    let post = |pairs: &[(&str, &str)]| {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        no_redirect()
            .post(format!("{}{AUTHORIZE_PATH}", s.base_url))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let r = post(&[
        ("client_id", CLIENT),
        ("redirect_uri", REDIRECT),
        ("response_type", "token"),
        ("state", "f1"),
        ("email", USER),
        ("password", PASSWORD),
    ])
    .await
    .expect("post");
    assert_error_redirect(&r, 303, REDIRECT, "unsupported_response_type", Some("f1"));
    let r = post(&[
        ("client_id", CLIENT),
        ("redirect_uri", REDIRECT),
        ("response_type", "code"),
        ("state", "f2"),
        ("state", "f3"),
        ("email", USER),
        ("password", PASSWORD),
    ])
    .await
    .expect("post");
    assert_error_redirect(&r, 303, REDIRECT, "invalid_request", Some("f2"));
    // Not a valid redirect URI: answered here.
    let r = post(&[
        ("client_id", CLIENT),
        ("redirect_uri", "https://attacker.example/cb"),
        ("response_type", "code"),
        ("email", USER),
        ("password", PASSWORD),
    ])
    .await
    .expect("post");
    assert_error_here(r, "invalid_request").await;
    assert_eq!(counts(&s.base_url).await["grants"]["authorization_code"], 0);
}
