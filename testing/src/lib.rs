//! `estatekit/testing`: the emulator's in-process WebAssembly host. A [`TestService`] holds
//! one emulator (its own state) and answers a `Request` with a `Response` through the same axum
//! `Router` as the native server, with no socket: time comes from the JavaScript clocks, delays
//! from `setTimeout`, and webhook deliveries are recorded (and, with a `deliver` function, sent
//! through it). The public wrapper is `js/testing.js`.
#![warn(missing_docs)]

mod host;

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request as HttpRequest};
use axum::Router;
use estatekit_emulator::config::{
    check_oauth_client, check_redirect_uri, check_user, is_valid_token, Config, OAuthClient, User,
    DEFAULT_SEED_DOCUMENTS, READONLY_TOKEN,
};
use estatekit_emulator::util::lock;
use estatekit_emulator::{app, AppState};
use http_body_util::BodyExt;
use js_sys::{Promise, TypeError, Uint8Array};
use serde::Deserialize;
use std::sync::Arc;
use tower_service::Service;
use tsify::Tsify;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{Headers, Request, Response, ResponseInit};

/// The origin a service answers on when `baseUrl` is not given.
pub const DEFAULT_BASE_URL: &str = "https://acme.estatekit.test";

/// Options of `createTestService`; each mirrors a flag of the emulator's CLI.
#[derive(Deserialize, Tsify, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestServiceOptions {
    /// The origin the service answers on (default `https://acme.estatekit.test`); requests to any
    /// other origin fail as a network error.
    #[serde(default)]
    #[tsify(optional)]
    pub base_url: Option<String>,
    /// Accepted tokens (default `["dev-token"]`; `readonly-token` is always accepted, and
    /// refused on webhook routes). `service.token` is the first.
    #[serde(default)]
    #[tsify(optional, type = "readonly string[]")]
    pub tokens: Option<Vec<String>>,
    /// Seed of the deterministic data (default 42). Given, it also seeds the webhook events'
    /// uuids (reproducible tests); without it they are random, different on every run.
    #[serde(default)]
    #[tsify(optional)]
    pub seed: Option<u32>,
    /// Extra messages in the `cand-bulk` conversation (default 0).
    #[serde(default)]
    #[tsify(optional)]
    pub seed_messages: Option<u32>,
    /// Documents per account, `bulk-1.pdf`... on the property `prop-bulk` (default 3, as
    /// `npx estatekit-emulator`; 0 for an empty start).
    #[serde(default)]
    #[tsify(optional)]
    pub seed_documents: Option<u32>,
    /// Requests per rate-limit window (a minute by default) per account; 0 turns the limit off
    /// (default 300). Access tokens issued to a user count in the user's account's window.
    #[serde(default)]
    #[tsify(optional)]
    pub rate_limit: Option<u32>,
    /// Largest request body, in MiB (default 100).
    #[serde(default)]
    #[tsify(optional)]
    pub max_upload_mb: Option<u32>,
    /// First retry delay of a failed webhook delivery, in ms; it doubles (default 500).
    #[serde(default)]
    #[tsify(optional)]
    pub delivery_backoff_ms: Option<u32>,
    /// Length of the rate-limit window, in ms (default 60000); `rateLimit` requests per window.
    #[serde(default)]
    #[tsify(optional)]
    pub rate_limit_window_ms: Option<u32>,
    /// OAuth clients of `POST /accounts/oauth/token` (default: `dev-client` with secret
    /// `dev-secret`). Given ones replace the default.
    #[serde(default)]
    #[tsify(optional, type = "readonly OAuthClientOption[]")]
    pub oauth_clients: Option<Vec<OAuthClientOption>>,
    /// Users of the password grant (default: `admin@acme.test` with password `dev-password`,
    /// reaching the first token's account). Given ones replace the default.
    #[serde(default)]
    #[tsify(optional, type = "readonly UserOption[]")]
    pub users: Option<Vec<UserOption>>,
    /// Lifetime of an issued access token, in ms (default 3600000; below a second is fine, for
    /// fast tests). `expires_in` answers it in whole seconds, at least 1.
    #[serde(default)]
    #[tsify(optional)]
    pub access_token_ttl_ms: Option<u32>,
    /// Whether a refresh grant answers a new refresh token and deletes the used one (default
    /// false: no new refresh token, the used one stays valid).
    #[serde(default)]
    #[tsify(optional)]
    pub rotate_refresh_tokens: Option<bool>,
    /// Whether `GET /accounts/dialog/authorize` shows a sign-in form (the e-mail and password of
    /// one of `users`) instead of approving at once as the first user (default false), so that a
    /// browser test signs in as a person would.
    #[serde(default)]
    #[tsify(optional)]
    pub sign_in_page: Option<bool>,
    /// How long an authorization code can be exchanged, in ms (default 60000).
    #[serde(default)]
    #[tsify(optional)]
    pub code_ttl_ms: Option<u32>,
    /// A second origin the same service answers on, with the same state (as the native
    /// emulator's `--second-origin`; `/_emulator/info` names it). Default: none.
    #[serde(default)]
    #[tsify(optional)]
    pub second_origin: Option<String>,
    /// Whether webhook deliveries go to loopback hosts only (127.0.0.1, ::1, localhost), as the
    /// native emulator's do: any other target is recorded as refused, once, with no retry and
    /// without calling `deliver` (default false).
    #[serde(default)]
    #[tsify(optional)]
    pub loopback_only: Option<bool>,
    /// Where webhook deliveries are sent: called as `deliver(url, init)` like `fetch`. Without
    /// it, deliveries are only recorded (`status: null`).
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    #[tsify(
        optional,
        type = "(url: string, init: RequestInit) => Promise<Response>"
    )]
    pub deliver: JsValue,
}

/// An OAuth client of `createTestService({ oauthClients })`.
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OAuthClientOption {
    /// Its `client_id`.
    pub client_id: String,
    /// Its `client_secret`.
    pub client_secret: String,
    /// Its registered redirect URIs (the native emulator's `--oauth-redirect-uri ID=URI`),
    /// matched exactly. None (the default): any loopback `http` URI (127.0.0.0/8, `[::1]`,
    /// `localhost`; any port), and no other.
    #[serde(default)]
    #[tsify(optional, type = "readonly string[]")]
    pub redirect_uris: Option<Vec<String>>,
}

/// A user of `createTestService({ users })`.
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserOption {
    /// The user name, an e-mail address (the password grant's `username`).
    pub username: String,
    /// The password.
    pub password: String,
    /// The token of the account the user's access tokens reach (default: the first token).
    #[serde(default)]
    #[tsify(optional)]
    pub token: Option<String>,
}

/// One in-process emulator: its own accounts, documents, webhooks, faults and records.
#[wasm_bindgen]
pub struct TestService {
    router: Router,
    state: AppState,
    origin: String,
    second_origin: Option<String>,
    token: String,
    max_body: usize,
}

fn type_error(message: &str) -> JsValue {
    TypeError::new(message).into()
}

/// The keys of `TestServiceOptions`.
const OPTION_KEYS: [&str; 18] = [
    "baseUrl",
    "tokens",
    "seed",
    "seedMessages",
    "seedDocuments",
    "rateLimit",
    "rateLimitWindowMs",
    "maxUploadMb",
    "deliveryBackoffMs",
    "oauthClients",
    "users",
    "accessTokenTtlMs",
    "rotateRefreshTokens",
    "signInPage",
    "codeTtlMs",
    "secondOrigin",
    "loopbackOnly",
    "deliver",
];

/// Reads the options object key by key, so that an error names its option and an unknown key
/// is refused (serde-wasm-bindgen reads only the keys a struct declares).
fn read_options(value: &JsValue) -> Result<TestServiceOptions, String> {
    if value.is_undefined() || value.is_null() {
        return Ok(TestServiceOptions::default());
    }
    if !value.is_object() || js_sys::Array::is_array(value) || value.is_function() {
        return Err("options must be an object (or undefined)".into());
    }
    let object: &js_sys::Object = value.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if !OPTION_KEYS.contains(&key.as_str()) {
            return Err(format!(
                "unknown option `{key}` (the options are {})",
                OPTION_KEYS.join(", ")
            ));
        }
    }
    fn field<T: serde::de::DeserializeOwned>(
        obj: &JsValue,
        key: &str,
    ) -> Result<Option<T>, String> {
        let v = js_sys::Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if v.is_undefined() {
            return Ok(None);
        }
        serde_wasm_bindgen::from_value(v).map(Some).map_err(|e| {
            let e = JsValue::from(e);
            let text = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "invalid value".into());
            format!("options.{key}: {}", estatekit_vocab::in_js_terms(&text))
        })
    }
    // serde-wasm-bindgen reads a string as a sequence and fails with "Reflect.get called on
    // non-object": say what is expected instead.
    let tokens = js_sys::Reflect::get(value, &"tokens".into()).unwrap_or(JsValue::UNDEFINED);
    if !tokens.is_undefined() && !js_sys::Array::is_array(&tokens) {
        return Err("options.tokens: expected an array of strings".into());
    }
    // Arrays of objects whose keys are checked here too (serde-wasm-bindgen would skip an
    // unknown one, e.g. a misspelt `clientSecret`).
    for (key, what, known) in [
        (
            "oauthClients",
            "{ clientId, clientSecret, redirectUris? }",
            &["clientId", "clientSecret", "redirectUris"][..],
        ),
        (
            "users",
            "{ username, password, token? }",
            &["username", "password", "token"][..],
        ),
    ] {
        let v = js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if v.is_undefined() {
            continue;
        }
        if !js_sys::Array::is_array(&v) {
            return Err(format!("options.{key}: expected an array of {what}"));
        }
        let items: &js_sys::Array = v.unchecked_ref();
        for (i, item) in items.iter().enumerate() {
            if !item.is_object() || js_sys::Array::is_array(&item) || item.is_function() {
                return Err(format!("options.{key}[{i}]: expected {what}"));
            }
            for k in js_sys::Object::keys(item.unchecked_ref::<js_sys::Object>()).iter() {
                let k = k.as_string().unwrap_or_default();
                if !known.contains(&k.as_str()) {
                    return Err(format!(
                        "options.{key}[{i}]: unknown key `{k}` (expected {what})"
                    ));
                }
            }
            // serde-wasm-bindgen would say "Reflect.get called on non-object" of a string.
            let uris =
                js_sys::Reflect::get(&item, &"redirectUris".into()).unwrap_or(JsValue::UNDEFINED);
            if key == "oauthClients"
                && !uris.is_undefined()
                && !(js_sys::Array::is_array(&uris)
                    && uris
                        .unchecked_ref::<js_sys::Array>()
                        .iter()
                        .all(|u| u.is_string()))
            {
                return Err(format!(
                    "options.oauthClients[{i}].redirectUris: expected an array of strings (redirect URIs)"
                ));
            }
        }
    }
    Ok(TestServiceOptions {
        base_url: field(value, "baseUrl")?,
        tokens: field(value, "tokens")?,
        seed: field(value, "seed")?,
        seed_messages: field(value, "seedMessages")?,
        seed_documents: field(value, "seedDocuments")?,
        rate_limit: field(value, "rateLimit")?,
        max_upload_mb: field(value, "maxUploadMb")?,
        delivery_backoff_ms: field(value, "deliveryBackoffMs")?,
        rate_limit_window_ms: field(value, "rateLimitWindowMs")?,
        oauth_clients: field(value, "oauthClients")?,
        users: field(value, "users")?,
        access_token_ttl_ms: field(value, "accessTokenTtlMs")?,
        rotate_refresh_tokens: field(value, "rotateRefreshTokens")?,
        sign_in_page: field(value, "signInPage")?,
        code_ttl_ms: field(value, "codeTtlMs")?,
        second_origin: field(value, "secondOrigin")?,
        loopback_only: field(value, "loopbackOnly")?,
        deliver: js_sys::Reflect::get(value, &"deliver".into()).unwrap_or(JsValue::UNDEFINED),
    })
}

/// Parses the origin of option `key` (`baseUrl`, `secondOrigin`).
fn parse_origin(key: &str, base: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(base)
        .map_err(|e| format!("options.{key}: `{base}` is not an absolute URL ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(format!(
            "options.{key}: `{base}` must be an http or https origin"
        ));
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "options.{key}: `{base}` must be an origin only (no path, query or fragment)"
        ));
    }
    Ok(url)
}

/// The service's configuration, its origin and its second origin, if any.
type Configured = (Config, String, Option<String>);

/// Checks the options and turns them into the emulator's configuration.
fn config_of(options: &TestServiceOptions) -> Result<Configured, String> {
    let base = options.base_url.as_deref().unwrap_or(DEFAULT_BASE_URL);
    let url = parse_origin("baseUrl", base)?;
    let origin = url.origin().ascii_serialization();
    let second = match options.second_origin.as_deref() {
        Some(s) => {
            let second = parse_origin("secondOrigin", s)?
                .origin()
                .ascii_serialization();
            if second == origin {
                return Err(format!(
                    "options.secondOrigin: `{s}` is the service's origin (give another)"
                ));
            }
            Some(second)
        }
        None => None,
    };
    let mut config = Config {
        host: url.host_str().unwrap_or_default().to_string(),
        port: url.port_or_known_default().unwrap_or(443),
        quiet: true,
        // The command line's seed (`npx estatekit-emulator`, the native server): one emulator.
        seed_documents: DEFAULT_SEED_DOCUMENTS,
        ..Config::default()
    };
    if let Some(tokens) = &options.tokens {
        if tokens.is_empty() {
            return Err("options.tokens: give at least one token".into());
        }
        config.tokens.clear();
        for (i, t) in tokens.iter().enumerate() {
            if !is_valid_token(t) {
                return Err(format!(
                    "options.tokens[{i}]: a token is 1 to 512 characters without whitespace, commas or control characters"
                ));
            }
            if t != READONLY_TOKEN && !config.tokens.contains(t) {
                config.tokens.push(t.clone());
            }
        }
        if config.tokens.is_empty() {
            return Err(format!(
                "options.tokens: `{READONLY_TOKEN}` is always accepted; give a token that may write"
            ));
        }
    }
    if let Some(v) = options.seed {
        config.seed = u64::from(v);
        config.event_seed = Some(config.seed);
    }
    if let Some(v) = options.seed_messages {
        config.seed_messages = v as usize;
    }
    if let Some(v) = options.seed_documents {
        config.seed_documents = v as usize;
    }
    if let Some(v) = options.rate_limit {
        config.rate_limit = v;
    }
    if let Some(v) = options.max_upload_mb {
        config.max_upload_mb = u64::from(v);
    }
    if let Some(v) = options.delivery_backoff_ms {
        config.delivery_backoff_ms = u64::from(v);
    }
    if let Some(v) = options.rate_limit_window_ms {
        if v == 0 {
            return Err("options.rateLimitWindowMs: must be at least 1".into());
        }
        config.rate_limit_window_ms = u64::from(v);
    }
    if let Some(v) = options.access_token_ttl_ms {
        if v == 0 {
            return Err("options.accessTokenTtlMs: must be at least 1".into());
        }
        config.access_token_ttl_ms = u64::from(v);
    }
    if let Some(v) = options.rotate_refresh_tokens {
        config.rotate_refresh_tokens = v;
    }
    if let Some(v) = options.sign_in_page {
        config.sign_in_page = v;
    }
    if let Some(v) = options.code_ttl_ms {
        if v == 0 {
            return Err("options.codeTtlMs: must be at least 1".into());
        }
        config.code_ttl_ms = u64::from(v);
    }
    if let Some(clients) = &options.oauth_clients {
        if clients.is_empty() {
            return Err("options.oauthClients: give at least one client".into());
        }
        config.oauth_clients.clear();
        for (i, c) in clients.iter().enumerate() {
            let mut client = OAuthClient {
                id: c.client_id.clone(),
                secret: c.client_secret.clone(),
                redirect_uris: Vec::new(),
            };
            check_oauth_client(&client).map_err(|e| format!("options.oauthClients[{i}]: {e}"))?;
            for (j, uri) in c.redirect_uris.iter().flatten().enumerate() {
                check_redirect_uri(uri)
                    .map_err(|e| format!("options.oauthClients[{i}].redirectUris[{j}]: {e}"))?;
                if !client.redirect_uris.contains(uri) {
                    client.redirect_uris.push(uri.clone());
                }
            }
            if config.oauth_clients.iter().any(|o| o.id == client.id) {
                return Err(format!(
                    "options.oauthClients[{i}]: client `{}` is given twice",
                    client.id
                ));
            }
            config.oauth_clients.push(client);
        }
    }
    if let Some(users) = &options.users {
        if users.is_empty() {
            return Err("options.users: give at least one user".into());
        }
        config.users.clear();
        for (i, u) in users.iter().enumerate() {
            let user = User {
                username: u.username.clone(),
                password: u.password.clone(),
                token: u.token.clone(),
            };
            check_user(&user).map_err(|e| format!("options.users[{i}]: {e}"))?;
            if config
                .users
                .iter()
                .any(|o| o.username.eq_ignore_ascii_case(&user.username))
            {
                return Err(format!(
                    "options.users[{i}]: user `{}` is given twice",
                    user.username
                ));
            }
            config.users.push(user);
        }
        config.add_user_accounts();
    }
    config.second_origin = second.is_some();
    Ok((config, origin, second))
}

#[wasm_bindgen]
impl TestService {
    /// A new service with its own state. Unknown option keys and wrong values throw a
    /// `TypeError` naming the option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "TestServiceOptions | undefined")] options: JsValue,
    ) -> Result<TestService, JsValue> {
        let options =
            read_options(&options).map_err(|e| type_error(&format!("createTestService: {e}")))?;
        let deliver = if options.deliver.is_undefined() {
            None
        } else if options.deliver.is_function() {
            Some(options.deliver.clone().unchecked_into::<js_sys::Function>())
        } else {
            return Err(type_error(
                "createTestService: options.deliver must be a function like fetch (url, init) => Promise<Response>",
            ));
        };
        let (config, origin, second_origin) =
            config_of(&options).map_err(|e| type_error(&format!("createTestService: {e}")))?;
        let token = config.tokens.first().cloned().unwrap_or_default();
        let max_body = config.max_body_bytes();
        let loopback_only = options.loopback_only.unwrap_or(false);
        let (router, state) = app(config, Arc::new(host::JsHost::new(deliver, loopback_only)));
        *lock(&state.base_url) = origin.clone();
        *lock(&state.second_origin) = second_origin.clone();
        Ok(TestService {
            router,
            state,
            origin,
            second_origin,
            token,
            max_body,
        })
    }

    /// The origin the service answers on, e.g. `https://acme.estatekit.test`.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.origin.clone()
    }

    /// A token the service accepts (the first of `options.tokens`).
    #[wasm_bindgen(getter)]
    pub fn token(&self) -> String {
        self.token.clone()
    }

    /// The webhook subdomain of the default account (the first token's): the `subdomain` of its
    /// events' envelopes, e.g. `emu-3f0af23c`.
    #[wasm_bindgen(getter)]
    pub fn subdomain(&self) -> String {
        self.state.default_subdomain()
    }

    /// Every token the service accepts that may write (`readonly-token` is accepted too).
    #[wasm_bindgen(getter)]
    pub fn tokens(&self) -> Vec<String> {
        lock(&self.state.token_order)
            .iter()
            .filter(|t| t.as_str() != READONLY_TOKEN)
            .cloned()
            .collect()
    }

    /// Answers one request, as `fetch` would: a `Response`, or a rejection with a `TypeError`
    /// for a request the network would not carry (another origin, a dropped connection).
    #[wasm_bindgen(unchecked_return_type = "Promise<Response>")]
    pub fn handle(&self, request: Request) -> Promise {
        let router = self.router.clone();
        let origin = self.origin.clone();
        let second = self.second_origin.clone();
        let max_body = self.max_body;
        future_to_promise(async move {
            let req = http_request(&request, &origin, second.as_deref(), max_body).await?;
            let mut router = router;
            let resp = match router.call(req).await {
                Ok(r) => r,
                Err(never) => match never {},
            };
            js_response(resp).await.map(JsValue::from)
        })
    }
}

/// Reads a fetch `Request` into the router's request (its body copied into wasm memory, unless
/// it is larger than the service accepts: then only its length is passed on, and the pipeline
/// answers 413 without reading it). The request must be for `origin` or `second`.
async fn http_request(
    request: &Request,
    origin: &str,
    second: Option<&str>,
    max_body: usize,
) -> Result<HttpRequest<Body>, JsValue> {
    let href = request.url();
    let url = url::Url::parse(&href)
        .map_err(|_| type_error(&format!("estatekit/testing: invalid URL `{href}`")))?;
    let requested = url.origin().ascii_serialization();
    if requested != origin && Some(requested.as_str()) != second {
        return Err(type_error(&format!(
            "estatekit/testing: no network here: {} is not this service's origin {origin}, so the request was not sent",
            url.origin().ascii_serialization()
        )));
    }
    let method = Method::from_bytes(request.method().as_bytes())
        .map_err(|_| type_error("estatekit/testing: invalid method"))?;
    let mut path = url.path().to_string();
    if let Some(q) = url.query() {
        path.push('?');
        path.push_str(q);
    }
    let mut builder = HttpRequest::builder().method(method).uri(path);
    if let Some(h) = builder.headers_mut() {
        copy_headers(&request.headers(), h)?;
        // As on the wire: the host, and the port when it is not the scheme's default.
        let host = match url.port() {
            Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
            None => url.host_str().unwrap_or_default().to_string(),
        };
        if let Ok(v) = HeaderValue::from_str(&host) {
            h.insert(axum::http::header::HOST, v);
        }
    }
    let buffer = JsFuture::from(request.array_buffer()?).await?;
    let bytes = Uint8Array::new(&buffer);
    let len = bytes.length() as usize;
    let body = if len > max_body {
        Vec::new()
    } else {
        bytes.to_vec()
    };
    if let Some(h) = builder.headers_mut() {
        if len > 0 {
            h.insert(axum::http::header::CONTENT_LENGTH, HeaderValue::from(len));
        }
    }
    builder
        .body(Body::from(body))
        .map_err(|e| type_error(&format!("estatekit/testing: {e}")))
}

/// Copies a fetch `Headers` into an `http::HeaderMap`.
fn copy_headers(from: &Headers, to: &mut axum::http::HeaderMap) -> Result<(), JsValue> {
    let Some(entries) = js_sys::try_iter(from)? else {
        return Ok(());
    };
    for entry in entries {
        let pair: js_sys::Array = entry?.unchecked_into();
        let (Some(name), Some(value)) = (pair.get(0).as_string(), pair.get(1).as_string()) else {
            continue;
        };
        if let (Ok(n), Ok(v)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            to.append(n, v);
        }
    }
    Ok(())
}

/// Turns the router's response into a fetch `Response`; a body that fails (the `drop` fault)
/// rejects like a connection closed before the answer.
async fn js_response(resp: axum::response::Response) -> Result<Response, JsValue> {
    let (parts, body) = resp.into_parts();
    let bytes = body
        .collect()
        .await
        .map_err(|e| type_error(&format!("estatekit/testing: network error ({e})")))?
        .to_bytes();
    let headers = Headers::new()?;
    for (name, value) in parts.headers.iter() {
        if let Ok(v) = value.to_str() {
            headers.append(name.as_str(), v)?;
        }
    }
    let init = ResponseInit::new();
    init.set_status(parts.status.as_u16());
    init.set_status_text(parts.status.canonical_reason().unwrap_or(""));
    init.set_headers(&headers);
    let null_body = matches!(parts.status.as_u16(), 101 | 103 | 204 | 205 | 304);
    if null_body {
        Response::new_with_opt_u8_array_and_init(None, &init)
    } else {
        // A copy owned by JavaScript: given a view of WebAssembly memory (`&mut [u8]`), WebKit
        // reads the bytes after the constructor returned, when that memory holds something else.
        let data = Uint8Array::from(bytes.as_ref());
        Response::new_with_opt_buffer_source_and_init(Some(&data), &init)
    }
}
