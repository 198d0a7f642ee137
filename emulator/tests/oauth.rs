//! The sign-in routes: `POST /accounts/oauth/token` (three grants), `GET /accounts/dialog/authorize`,
//! `GET /accounts/api/userinfo`, and the admin routes `/_emulator/oauth[/revoke]`. Run on both hosts
//! (`make test-parity`). No assertion message prints a token, code or secret.
mod common;
use common::*;
use estatekit_emulator::config::{OAuthClient, User};
use serde_json::{json, Value};
use std::time::Duration;

const TOKEN_PATH: &str = "/accounts/oauth/token";
const CLIENT: &str = "dev-client";
const SECRET: &str = "dev-secret";
const USER: &str = "admin@acme.test";
const PASSWORD: &str = "dev-password";
const REDIRECT: &str = "http://127.0.0.1:9/callback";

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
async fn authorization_code_is_single_use_and_bound_to_its_redirect() {
    let s = server().await;
    let (code, _) = authorize(&s.base_url, "s").await;
    grant_ok(&s.base_url, code_body(&code, REDIRECT)).await;
    grant_refused(
        &s.base_url,
        code_body(&code, REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
    let (code, _) = authorize(&s.base_url, "s").await;
    grant_refused(
        &s.base_url,
        code_body(&code, "http://127.0.0.1:9/elsewhere"),
        403,
        "invalid_grant",
    )
    .await;
    grant_refused(
        &s.base_url,
        code_body("made-up", REDIRECT),
        403,
        "invalid_grant",
    )
    .await;
    assert_eq!(
        counts(&s.base_url).await["rejected"]["authorization_code"],
        3
    );
}

#[tokio::test]
async fn authorize_refuses_an_unknown_client_or_response_type() {
    let s = server().await;
    let c = client();
    for (query, error) in [
        (
            "client_id=nobody&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&response_type=code",
            "invalid_client",
        ),
        (
            "client_id=dev-client&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&response_type=token",
            "unsupported_response_type",
        ),
        ("client_id=dev-client&response_type=code", "invalid_request"),
    ] {
        let r = c
            .get(format!("{}/accounts/dialog/authorize?{query}", s.base_url))
            .send()
            .await
            .expect("authorize");
        assert_eq!(r.status().as_u16(), 400, "{query}");
        let v: Value = r.json().await.expect("json");
        assert_eq!(v["error"], error, "{query}");
    }
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
    grant_refused(&s.base_url, missing, 400, "invalid_request").await;
    let mut other_grant = password_body();
    other_grant["grant_type"] = json!("client_credentials");
    grant_refused(&s.base_url, other_grant, 400, "unsupported_grant_type").await;
    // A form body (the common mistake) is refused: the endpoint takes JSON.
    let r = client()
        .post(format!("{}{TOKEN_PATH}", s.base_url))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=password&username=admin%40acme.test&password=dev-password&client_id=dev-client&client_secret=dev-secret")
        .send()
        .await
        .expect("form");
    assert_eq!(r.status().as_u16(), 400);
    let v: Value = r.json().await.expect("json");
    assert_eq!(v["error"], "invalid_request");
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
