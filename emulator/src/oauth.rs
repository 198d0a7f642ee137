//! The service's sign-in routes: `POST /accounts/oauth/token` (password, refresh_token and
//! authorization_code grants; form or JSON bodies; the client authenticated by HTTP Basic or in
//! the body), `GET /accounts/dialog/authorize` (approves at once as the first user, or shows a
//! sign-in form with `--sign-in-page`; PKCE), `POST /accounts/dialog/authorize` (the form),
//! `GET /accounts/api/userinfo`, and the admin routes `GET /_emulator/oauth` and
//! `POST /_emulator/oauth/revoke`. Errors of the token route are OAuth's
//! `{"error","error_description"}`; those of the authorize route too while its client or redirect
//! URI is not valid, else a redirect to the redirect URI carrying them (RFC 6749 4.1.2.1). No
//! answer or message ever holds a secret.

use crate::admin::object;
use crate::credentials::bearer;
use crate::errors::{ApiError, ApiResult};
use crate::state::AppState;
use crate::tokens::{Bearer, Challenge, Code, Grant, GrantId, Refresh, Taken};
use crate::util::{hash_str, lock, SplitMix64};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::{json, Map, Value};

/// The scope answered when a grant names none.
pub const DEFAULT_SCOPE: &str = "offline_access *";

/// An OAuth error answer.
#[derive(Debug)]
pub struct OAuthError {
    status: StatusCode,
    error: &'static str,
    description: String,
    /// Whether the answer carries `WWW-Authenticate: Basic`.
    challenge: bool,
}

impl OAuthError {
    fn new(status: StatusCode, error: &'static str, description: impl Into<String>) -> Self {
        OAuthError {
            status,
            error,
            description: description.into(),
            challenge: false,
        }
    }
    fn invalid_request(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", description)
    }
    fn invalid_grant(description: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "invalid_grant", description)
    }
    /// 401 `invalid_client`; `basic`: the client tried HTTP Basic, so the answer carries
    /// `WWW-Authenticate: Basic` (RFC 6749 5.2).
    fn invalid_client(basic: bool, description: impl Into<String>) -> Self {
        OAuthError {
            challenge: basic,
            ..Self::new(StatusCode::UNAUTHORIZED, "invalid_client", description)
        }
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.error, "error_description": self.description});
        let mut r = no_store((self.status, Json(body)).into_response());
        if self.challenge {
            r.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"estatekit-emulator\", charset=\"UTF-8\""),
            );
        }
        r
    }
}

/// Token answers are never cached (RFC 6749 5.1).
fn no_store(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r.headers_mut()
        .insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    r
}

/// `n` random bytes from the host, base64url without padding.
fn random_b64(state: &AppState, n: usize) -> Result<String, OAuthError> {
    let mut buf = vec![0u8; n];
    state.host.random(&mut buf).map_err(|e| {
        OAuthError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            format!("could not make a token: {e}"),
        )
    })?;
    Ok(URL_SAFE_NO_PAD.encode(buf))
}

/// The stable id of a user (a UUID-shaped string derived from the user name).
fn user_id(username: &str) -> String {
    SplitMix64::new(hash_str(&format!("user:{username}"))).uuid()
}

/// A fresh access token, shaped like the vendor's JWTs (`header.payload.signature`, each
/// base64url); the signature is random, so nothing can be learnt or forged from it.
fn access_token(
    state: &AppState,
    username: &str,
    client_id: &str,
    scope: &str,
) -> Result<String, OAuthError> {
    let header = json!({"alg": "HS256", "typ": "JWT"});
    let iat = state.host.unix_ms().div_euclid(1000);
    let seconds = state.config.access_token_ttl_ms.div_ceil(1000);
    let exp = iat.saturating_add(i64::try_from(seconds).unwrap_or(i64::MAX));
    let payload = json!({
        "sub": user_id(username),
        "client_id": client_id,
        "scope": scope,
        "iat": iat,
        "exp": exp,
        "jti": random_b64(state, 12)?,
    });
    Ok(format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(payload.to_string()),
        random_b64(state, 32)?
    ))
}

/// `expires_in`: the access-token lifetime in seconds, exactly: a whole number when the lifetime
/// is whole seconds (as the service answers), else a fraction (`0.4` for the 400 ms lifetimes of
/// fast tests), so that a client never trusts a token past its life.
fn expires_in(state: &AppState) -> Value {
    let ms = state.config.access_token_ttl_ms;
    if ms.is_multiple_of(1000) {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// Issues an access token (and a refresh token if `with_refresh`), part of `grant` when they
/// come from an authorization code, and builds the answer.
fn issue(
    state: &AppState,
    username: &str,
    client_id: &str,
    scope: &str,
    with_refresh: bool,
    grant: Option<GrantId>,
) -> Result<Value, OAuthError> {
    let access = access_token(state, username, client_id, scope)?;
    let refresh = if with_refresh {
        Some(random_b64(state, 32)?)
    } else {
        None
    };
    let now = state.now_ms();
    let expires_at = now.saturating_add(state.config.access_token_ttl_ms);
    let mut store = lock(&state.oauth);
    store.add_access(access.clone(), username, expires_at, now, grant);
    let mut answer = json!({
        "access_token": access,
        "expires_in": expires_in(state),
        "token_type": "Bearer",
        "scope": scope,
    });
    if let Some(r) = refresh {
        store.add_refresh(
            r.clone(),
            Refresh {
                client_id: client_id.to_string(),
                username: username.to_string(),
                scope: scope.to_string(),
                grant,
            },
        );
        if let Some(m) = answer.as_object_mut() {
            m.insert("refresh_token".into(), Value::String(r));
        }
    }
    Ok(answer)
}

/// A string field of the token request; `None` when absent (or null).
fn field<'a>(m: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, OAuthError> {
    match m.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(OAuthError::invalid_request(format!(
            "`{name}` must be a string"
        ))),
    }
}

/// A required non-empty string field.
fn required<'a>(m: &'a Map<String, Value>, name: &str) -> Result<&'a str, OAuthError> {
    field(m, name)?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| OAuthError::invalid_request(format!("missing required field `{name}`")))
}

/// The media type of a request (`application/json` for `application/json; charset=utf-8`),
/// lower case; empty when there is no `Content-Type`.
fn media_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The media type of a form body (RFC 6749 4.1.3, 4.3.2, 6).
const FORM: &str = "application/x-www-form-urlencoded";

/// A form body's parameters; one without a value is as if omitted, one given twice is refused
/// (RFC 6749 3.2, 3.1).
fn form_params(bytes: &[u8]) -> Result<Map<String, Value>, OAuthError> {
    let mut m = Map::new();
    for (name, value) in form_urlencoded::parse(bytes) {
        if value.is_empty() {
            continue;
        }
        if m.contains_key(name.as_ref()) {
            return Err(OAuthError::invalid_request(format!(
                "`{name}` is given more than once"
            )));
        }
        m.insert(name.into_owned(), Value::String(value.into_owned()));
    }
    Ok(m)
}

/// The parameters of a token request: a form (`application/x-www-form-urlencoded`, as RFC 6749
/// and the OAuth libraries send them) or a JSON object (as the vendor documents the password
/// grant).
fn token_body(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, OAuthError> {
    let media = media_type(headers);
    let json = media == "application/json" || media.ends_with("+json");
    if media != FORM && !json {
        return Err(OAuthError::invalid_request(if media.is_empty() {
            "missing `Content-Type`: the token endpoint takes a form (application/x-www-form-urlencoded) or a JSON body (application/json)"
        } else {
            "`Content-Type` must be application/x-www-form-urlencoded or application/json"
        }));
    }
    let bytes = body.map_err(|e| {
        OAuthError::new(
            e.status(),
            "invalid_request",
            "could not read the request body",
        )
    })?;
    if !json {
        return form_params(&bytes);
    }
    // The parser's message is not passed on: it may quote the body, which holds secrets.
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(OAuthError::invalid_request(
            "the request body must be a JSON object",
        )),
        Err(_) => Err(OAuthError::invalid_request(
            "the request body is not valid JSON",
        )),
    }
}

/// One half of HTTP Basic credentials, decoded as RFC 6749 2.3.1 says: form-URL-decoded (`+` is
/// a space, `%XX` a byte), UTF-8.
fn form_decode(part: &str) -> Option<String> {
    let spaced = part.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

/// The client credentials of an `Authorization: Basic` header: `None` without the header, else
/// the (id, secret) readings to try: form-URL-decoded (RFC 6749 2.3.1, as openid-client and
/// simple-oauth2 send them), then as sent (arctic 3 does not encode them). A header that is not
/// Basic, or not `base64(id:secret)`, is `invalid_client`.
fn basic_credentials(headers: &HeaderMap) -> Result<Option<Vec<(String, String)>>, OAuthError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let malformed = || {
        OAuthError::invalid_client(
            true,
            "malformed `Authorization` header: the token endpoint takes `Basic base64(client_id:client_secret)`, or `client_id` and `client_secret` in the body",
        )
    };
    let value = value.to_str().map_err(|_| malformed())?.trim();
    let (scheme, encoded) = value.split_once(' ').ok_or_else(malformed)?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return Err(malformed());
    }
    let decoded = STANDARD
        .decode(encoded.trim())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(malformed)?;
    let (id, secret) = decoded.split_once(':').ok_or_else(malformed)?;
    let mut readings = Vec::with_capacity(2);
    if let (Some(i), Some(s)) = (form_decode(id), form_decode(secret)) {
        readings.push((i, s));
    }
    if !readings.iter().any(|(i, s)| i == id && s == secret) {
        readings.push((id.to_string(), secret.to_string()));
    }
    Ok(Some(readings))
}

/// Authenticates the client of a token request (RFC 6749 2.3.1): HTTP Basic
/// (`client_secret_basic`) or `client_id` and `client_secret` in the body
/// (`client_secret_post`), not both. Returns its id.
fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    m: &Map<String, Value>,
) -> Result<String, OAuthError> {
    let body_id = field(m, "client_id")?.filter(|s| !s.is_empty());
    let body_secret = field(m, "client_secret")?.filter(|s| !s.is_empty());
    if let Some(readings) = basic_credentials(headers)? {
        if body_secret.is_some() {
            return Err(OAuthError::invalid_request(
                "the client authenticated twice: an HTTP Basic `Authorization` header and a `client_secret` in the body; use one (RFC 6749 2.3)",
            ));
        }
        let id = {
            let store = lock(&state.oauth);
            readings
                .into_iter()
                .find(|(id, secret)| store.client_ok(id, secret))
                .map(|(id, _)| id)
        }
        .ok_or_else(|| {
            OAuthError::invalid_client(
                true,
                "unknown client, or wrong client secret, in the Basic `Authorization` header",
            )
        })?;
        if body_id.is_some_and(|b| b != id) {
            return Err(OAuthError::invalid_request(
                "`client_id` in the body is not the client of the Basic `Authorization` header",
            ));
        }
        return Ok(id);
    }
    let (Some(id), Some(secret)) = (body_id, body_secret) else {
        return Err(OAuthError::invalid_client(
            false,
            "no client authentication: send `Authorization: Basic` (client_secret_basic) or `client_id` and `client_secret` in the body (client_secret_post)",
        ));
    };
    if !lock(&state.oauth).client_ok(id, secret) {
        return Err(OAuthError::invalid_client(
            false,
            "unknown client, or wrong client secret",
        ));
    }
    Ok(id.to_string())
}

/// `POST /accounts/oauth/token`.
pub async fn token(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let m = match token_body(&headers, body) {
        Ok(m) => m,
        Err(e) => return e.into_response(),
    };
    let grant_type = match required(&m, "grant_type") {
        Ok(g) => g,
        Err(e) => return e.into_response(),
    };
    let grant = Grant::parse(grant_type);
    let answer = grant_answer(&state, &headers, &m, grant);
    if let Some(g) = grant {
        lock(&state.oauth).count(g, answer.is_ok());
    }
    match answer {
        Ok(v) => no_store(Json(v).into_response()),
        Err(e) => e.into_response(),
    }
}

fn grant_answer(
    state: &AppState,
    headers: &HeaderMap,
    m: &Map<String, Value>,
    grant: Option<Grant>,
) -> Result<Value, OAuthError> {
    let client_id = authenticate(state, headers, m)?;
    let client_id = client_id.as_str();
    let Some(grant) = grant else {
        return Err(OAuthError::new(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "`grant_type` must be password, refresh_token or authorization_code",
        ));
    };
    match grant {
        Grant::Password => {
            let username = required(m, "username")?;
            let password = required(m, "password")?;
            let scope = field(m, "scope")?.unwrap_or(DEFAULT_SCOPE).to_string();
            let user = lock(&state.oauth)
                .login(username, password)
                .map(|u| u.username.clone())
                .ok_or_else(|| OAuthError::invalid_grant("wrong username or password"))?;
            issue(state, &user, client_id, &scope, true, None)
        }
        Grant::RefreshToken => {
            let token = required(m, "refresh_token")?;
            let rotate = state.config.rotate_refresh_tokens;
            let found = {
                // One lock: with rotation, two concurrent refreshes with one token get one answer.
                let mut store = lock(&state.oauth);
                let found = store.refresh(token, client_id).cloned();
                if rotate && found.is_some() {
                    store.remove_refresh(token);
                }
                found
            };
            let r = found.ok_or_else(|| {
                OAuthError::invalid_grant(
                    "the refresh token is unknown, was deleted, or was issued to another client; sign in again",
                )
            })?;
            issue(state, &r.username, client_id, &r.scope, rotate, r.grant)
        }
        Grant::AuthorizationCode => {
            let code = required(m, "code")?;
            let redirect_uri = field(m, "redirect_uri")?.filter(|s| !s.is_empty());
            let verifier = field(m, "code_verifier")?;
            let now = state.now_ms();
            // Spent by its first exchange attempt, whatever its outcome; a second use revokes
            // what the first one gave (RFC 6749 4.1.2).
            let taken = {
                let mut store = lock(&state.oauth);
                let taken = store.take_code(code);
                if let Taken::Spent(grant) = taken {
                    store.revoke_grant(grant);
                }
                taken
            };
            let (c, grant) = match taken {
                Taken::Fresh(c, grant) => (c, grant),
                Taken::Spent(_) => return Err(OAuthError::invalid_grant(
                    "the authorization code was used already: refused, and the tokens issued for it are revoked (RFC 6749 4.1.2)",
                )),
                Taken::Unknown => {
                    return Err(OAuthError::invalid_grant(
                        "the authorization code is unknown or expired",
                    ))
                }
            };
            if now >= c.expires_at {
                return Err(OAuthError::invalid_grant(
                    "the authorization code expired; authorize again",
                ));
            }
            if c.client_id != client_id {
                return Err(OAuthError::invalid_grant(
                    "the authorization code was issued to another client",
                ));
            }
            match redirect_uri {
                // Required when the authorization request had one (RFC 6749 4.1.3).
                None if c.redirect_uri_given => {
                    return Err(OAuthError::invalid_request(
                        "missing required field `redirect_uri` (the authorization request had one)",
                    ))
                }
                None => {}
                Some(r) if r != c.redirect_uri => {
                    return Err(OAuthError::invalid_grant(
                        "`redirect_uri` is not the one of the authorization request",
                    ))
                }
                Some(_) => {}
            }
            match (&c.challenge, verifier) {
                (None, None) => {}
                (None, Some(_)) => {
                    return Err(OAuthError::invalid_grant(
                        "a `code_verifier` was sent, but the authorization request had no `code_challenge` (refused against PKCE downgrade, RFC 9700 2.1.1)",
                    ))
                }
                (Some(_), None) => {
                    return Err(OAuthError::invalid_grant(
                        "the authorization request had a `code_challenge`: `code_verifier` is required",
                    ))
                }
                (Some(challenge), Some(v)) => {
                    if !challenge.verifies(v) {
                        return Err(OAuthError::invalid_grant(
                            "`code_verifier` does not match the authorization request's `code_challenge`",
                        ));
                    }
                }
            }
            issue(state, &c.username, client_id, &c.scope, true, Some(grant))
        }
    }
}

/// The path of the authorize endpoint (the sign-in form posts back to it).
const AUTHORIZE_PATH: &str = "/accounts/dialog/authorize";

/// The sign-in form's own fields, never carried as authorize parameters.
const FORM_FIELDS: [&str; 2] = ["email", "password"];

/// A checked authorization request.
struct AuthorizeRequest {
    /// Every parameter as received (unknown ones included), in order.
    params: Vec<(String, String)>,
    client_id: String,
    redirect_uri: String,
    redirect_uri_given: bool,
    location: url::Url,
    state: Option<String>,
    scope: String,
    challenge: Option<Challenge>,
}

/// A refused authorization request, and where the refusal goes.
struct AuthorizeError {
    error: OAuthError,
    /// The request's valid redirect URI and its `state`: the error is redirected there with
    /// `error`, `error_description` and `state` (RFC 6749 4.1.2.1). `None` (the client or the
    /// redirect URI is missing, unknown or invalid): answered here, never redirected.
    back: Option<Box<(url::Url, Option<String>)>>,
}

impl From<OAuthError> for AuthorizeError {
    fn from(error: OAuthError) -> Self {
        AuthorizeError { error, back: None }
    }
}

impl AuthorizeError {
    /// The answer: a redirect with `status` (302 for the `GET`, 303 for the form's `POST`), or
    /// the JSON error.
    fn response(self, status: StatusCode) -> Response {
        let Some((mut location, state)) = self.back.map(|b| *b) else {
            return self.error.into_response();
        };
        {
            let mut pairs = location.query_pairs_mut();
            pairs.append_pair("error", self.error.error);
            pairs.append_pair("error_description", &self.error.description);
            if let Some(s) = &state {
                pairs.append_pair("state", s);
            }
        }
        match HeaderValue::from_str(location.as_str()) {
            Ok(value) => {
                let mut r = status.into_response();
                r.headers_mut().insert(header::LOCATION, value);
                no_store(r)
            }
            Err(_) => self.error.into_response(),
        }
    }
}

/// Whether a redirect URI is a loopback `http` one (RFC 8252 7.3: 127.0.0.0/8 and `[::1]`, any
/// port; and `localhost`, where NextAuth and the vendor's example run) without a fragment.
fn is_loopback_redirect(uri: &str) -> bool {
    let Ok(u) = url::Url::parse(uri) else {
        return false;
    };
    u.scheme() == "http"
        && u.fragment().is_none()
        && match u.host() {
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
            None => false,
        }
}

/// Checks the parameters of an authorization request; unknown ones (`grant_type`, `prompt`,
/// `nonce`, ...) are kept and ignored. First the client and the redirect URI (refused here);
/// then, with both valid, the rest (refused by a redirect to the redirect URI).
fn authorize_request(
    state: &AppState,
    params: Vec<(String, String)>,
) -> Result<AuthorizeRequest, AuthorizeError> {
    // RFC 6749 3.1: a parameter without a value is as if omitted.
    let given: Vec<(&str, &str)> = params
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let get = |k: &str| given.iter().find(|(name, _)| *name == k).map(|(_, v)| *v);
    let repeated = {
        let mut seen = std::collections::HashSet::new();
        given
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| !seen.insert(*k))
            .collect::<Vec<&str>>()
    };
    let twice = |k: &str| {
        OAuthError::invalid_request(format!("`{k}` is given more than once (RFC 6749 3.1)"))
    };
    for k in ["client_id", "redirect_uri"] {
        if repeated.contains(&k) {
            return Err(twice(k).into());
        }
    }
    let client_id = get("client_id")
        .ok_or_else(|| OAuthError::invalid_request("missing query parameter `client_id`"))?;
    let registered = lock(&state.oauth)
        .clients
        .iter()
        .find(|c| c.id == client_id)
        .map(|c| c.redirect_uris.clone())
        .ok_or_else(|| {
            OAuthError::new(
                StatusCode::BAD_REQUEST,
                "invalid_client",
                "unknown `client_id`",
            )
        })?;
    // RFC 6749 3.1.2.3: with exactly one registered, the request may leave it out.
    let (redirect_uri, redirect_uri_given) = match (get("redirect_uri"), registered.as_slice()) {
        (Some(r), _) => (r.to_string(), true),
        (None, [only]) => (only.clone(), false),
        (None, _) => {
            return Err(
                OAuthError::invalid_request("missing query parameter `redirect_uri`").into(),
            )
        }
    };
    let allowed = if registered.is_empty() {
        is_loopback_redirect(&redirect_uri)
    } else {
        registered.contains(&redirect_uri)
    };
    let location = url::Url::parse(&redirect_uri)
        .ok()
        .filter(|u| allowed && u.fragment().is_none())
        .ok_or_else(|| {
            OAuthError::invalid_request(if registered.is_empty() {
                "`redirect_uri` is not allowed: this client has no registered redirect URI, so only a loopback http one is (http://127.0.0.1, [::1] or localhost, any port, no fragment; RFC 8252 7.3)"
            } else {
                "`redirect_uri` is not one of this client's registered redirect URIs (compared exactly, RFC 6749 3.1.2.3)"
            })
        })?;
    let request_state = get("state").map(str::to_string);
    let refuse = |error: OAuthError| AuthorizeError {
        error,
        back: Some(Box::new((location.clone(), request_state.clone()))),
    };
    if let Some(k) = repeated.first() {
        return Err(refuse(twice(k)));
    }
    match get("response_type") {
        Some("code") => {}
        None => {
            return Err(refuse(OAuthError::invalid_request(
                "missing query parameter `response_type` (must be `code`)",
            )))
        }
        Some(_) => {
            return Err(refuse(OAuthError::new(
                StatusCode::BAD_REQUEST,
                "unsupported_response_type",
                "`response_type` must be `code`",
            )))
        }
    }
    let method = get("code_challenge_method");
    let challenge = match get("code_challenge") {
        Some(c) => {
            Some(Challenge::parse(c, method).map_err(|e| refuse(OAuthError::invalid_request(e)))?)
        }
        None if method.is_some() => {
            return Err(refuse(OAuthError::invalid_request(
                "`code_challenge_method` was given without `code_challenge`",
            )))
        }
        None => None,
    };
    Ok(AuthorizeRequest {
        client_id: client_id.to_string(),
        redirect_uri,
        redirect_uri_given,
        location,
        state: request_state,
        scope: get("scope").unwrap_or(DEFAULT_SCOPE).to_string(),
        challenge,
        params,
    })
}

/// Issues a code for `username` and redirects to `redirect_uri` with it and `state`; a failure
/// is redirected there too (`server_error`).
fn approve(
    state: &AppState,
    req: AuthorizeRequest,
    username: String,
    status: StatusCode,
) -> Result<Response, AuthorizeError> {
    let refuse = |error: OAuthError| AuthorizeError {
        error,
        back: Some(Box::new((req.location.clone(), req.state.clone()))),
    };
    let code = random_b64(state, 24).map_err(&refuse)?;
    let now = state.now_ms();
    let mut location = req.location.clone();
    {
        let mut pairs = location.query_pairs_mut();
        pairs.append_pair("code", &code);
        if let Some(s) = &req.state {
            pairs.append_pair("state", s);
        }
    }
    let value = HeaderValue::from_str(location.as_str()).map_err(|_| {
        refuse(OAuthError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            "the redirect could not be written",
        ))
    })?;
    lock(&state.oauth).add_code(
        code,
        Code {
            client_id: req.client_id,
            redirect_uri: req.redirect_uri,
            redirect_uri_given: req.redirect_uri_given,
            username,
            scope: req.scope,
            expires_at: now.saturating_add(state.config.code_ttl_ms),
            challenge: req.challenge,
        },
        now,
    );
    let mut r = status.into_response();
    r.headers_mut().insert(header::LOCATION, value);
    Ok(no_store(r))
}

/// `GET /accounts/dialog/authorize?client_id&redirect_uri&state&response_type=code[&scope]
/// [&code_challenge[&code_challenge_method]]`: approves at once as the first user, answering
/// 302 to `redirect_uri` with `code` and `state`; with `--sign-in-page`, shows the sign-in form.
/// Refusals: see [`authorize_request`].
pub async fn authorize(State(state): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let params: Vec<(String, String)> =
        form_urlencoded::parse(q.as_deref().unwrap_or("").as_bytes())
            .into_owned()
            .collect();
    let answer = authorize_request(&state, params).and_then(|req| {
        if state.config.sign_in_page {
            return Ok(sign_in_page(&req, "", None));
        }
        let username = lock(&state.oauth)
            .default_user()
            .map(|u| u.username.clone());
        match username {
            Some(u) => approve(&state, req, u, StatusCode::FOUND),
            None => Err(AuthorizeError {
                error: OAuthError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "server_error",
                    "no user to sign in",
                ),
                back: Some(Box::new((req.location, req.state))),
            }),
        }
    });
    answer.unwrap_or_else(|e| e.response(StatusCode::FOUND))
}

/// `POST /accounts/dialog/authorize` (the sign-in form): `email`, `password` and the
/// authorization request's parameters. A user's right password redirects (303) to
/// `redirect_uri` with `code` and `state`; a wrong one shows the form again with an error and
/// issues nothing. Refused authorization parameters are redirected (303) as the `GET` does.
pub async fn authorize_post(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    authorize_post_answer(&state, &headers, body)
        .unwrap_or_else(|e| e.response(StatusCode::SEE_OTHER))
}

fn authorize_post_answer(
    state: &AppState,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, AuthorizeError> {
    if media_type(headers) != FORM {
        return Err(OAuthError::invalid_request(
            "the sign-in form is posted as application/x-www-form-urlencoded",
        )
        .into());
    }
    let bytes = body.map_err(|e| {
        OAuthError::new(
            e.status(),
            "invalid_request",
            "could not read the request body",
        )
    })?;
    let mut email = String::new();
    let mut password = String::new();
    let mut params = Vec::new();
    for (k, v) in form_urlencoded::parse(&bytes).into_owned() {
        match k.as_str() {
            "email" => email = v,
            "password" => password = v,
            _ => params.push((k, v)),
        }
    }
    let req = authorize_request(state, params)?;
    if email.is_empty() || password.is_empty() {
        return Ok(sign_in_page(
            &req,
            &email,
            Some("Enter your e-mail and password."),
        ));
    }
    let user = lock(&state.oauth)
        .login(&email, &password)
        .map(|u| u.username.clone());
    match user {
        Some(username) => approve(state, req, username, StatusCode::SEE_OTHER),
        None => Ok(sign_in_page(
            &req,
            &email,
            Some("Wrong e-mail or password."),
        )),
    }
}

/// The sign-in form (200, HTML): the authorization request's parameters as hidden fields, the
/// e-mail (kept after an error) and an empty password.
fn sign_in_page(req: &AuthorizeRequest, email: &str, error: Option<&str>) -> Response {
    use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};
    let hidden: String = req
        .params
        .iter()
        .filter(|(k, _)| !FORM_FIELDS.contains(&k.as_str()))
        .map(|(k, v)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">\n",
                attr(k),
                attr(v)
            )
        })
        .collect();
    let error = error
        .map(|e| {
            format!(
                "<p class=\"error\" id=\"error\" role=\"alert\">{}</p>\n",
                text(e)
            )
        })
        .unwrap_or_default();
    let html = format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in</title>
<style>body{{font-family:system-ui,sans-serif;max-width:22rem;margin:3rem auto;padding:0 1rem}}label{{display:block;margin:.8rem 0 .3rem}}input{{width:100%;box-sizing:border-box;padding:.4rem}}button{{margin-top:1.2rem;padding:.5rem 1.2rem}}.error{{color:#b00020}}</style>
</head>
<body>
<main>
<h1>Sign in</h1>
<p>to continue to <strong>{client}</strong></p>
{error}<form method="post" action="{action}">
{hidden}<label for="email">E-mail</label>
<input id="email" name="email" type="text" inputmode="email" autocomplete="username" required value="{email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
"#,
        client = text(&req.client_id),
        action = AUTHORIZE_PATH,
        email = attr(email),
    );
    let mut r = Html(html).into_response();
    r.headers_mut().insert(
        header::HeaderName::from_static("x-frame-options"),
        HeaderValue::from_static("DENY"),
    );
    no_store(r)
}

/// `GET /accounts/api/userinfo`: the profile of the user an issued access token signs in. A
/// fixed token (`dev-token`, ...) is no signed-in user: 401.
pub async fn userinfo(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let unauthorized = |message: &str| {
        let mut r = ApiError::unauthorized(message).into_response();
        r.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer error=\"invalid_token\""),
        );
        r
    };
    let Some(token) = bearer(&headers) else {
        return unauthorized(
            "missing or malformed `Authorization` header (expected `Bearer <access token>`)",
        );
    };
    let username = match state.resolve_bearer(&token) {
        Bearer::Issued { username, .. } => username,
        Bearer::Expired { .. } => return unauthorized("the access token expired"),
        Bearer::Fixed(_) => return unauthorized(
            "a fixed API token is not a signed-in user: userinfo takes an access token issued by /accounts/oauth/token",
        ),
        Bearer::Unknown => return unauthorized("unknown access token in `Authorization`"),
    };
    Json(profile(&username)).into_response()
}

/// The profile of a user: names from the address (`admin@acme.test`: Admin Acme).
fn profile(username: &str) -> Value {
    let (local, domain) = username.split_once('@').unwrap_or((username, ""));
    let title = |s: &str| {
        let word = s.split(['.', '-', '_', '+']).next().unwrap_or("");
        let mut chars = word.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
            None => String::new(),
        }
    };
    json!({
        "id": user_id(username),
        "email": username,
        "firstName": title(local),
        "lastName": title(domain),
        "profilePhoto": null,
        "profileData": {
            "language": "en",
            "salutation": null,
            "phoneNumber": null,
            "cellPhoneNumber": null,
        },
    })
}

/// `GET /_emulator/oauth`: grants answered and refused by type, live refresh tokens per user,
/// and the access-token lifetime.
pub async fn admin_counts(State(state): State<AppState>) -> Response {
    let store = lock(&state.oauth);
    Json(json!({
        "grants": store.granted(),
        "rejected": store.rejected(),
        "refreshTokens": store.live_refresh_tokens(),
        "accessTokenTtlMs": state.config.access_token_ttl_ms,
    }))
    .into_response()
}

/// `POST /_emulator/oauth/revoke {"username"}`: deletes that user's refresh tokens.
pub async fn admin_revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let m = object(&headers, body)?;
    let username = match m.get("username") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        None => return Err(ApiError::bad_request("missing required field `username`")),
        Some(_) => {
            return Err(ApiError::bad_request(
                "`username` must be a non-empty string",
            ))
        }
    };
    let mut store = lock(&state.oauth);
    if store.user(&username).is_none() {
        return Err(ApiError::bad_request("unknown `username`"));
    }
    let revoked = store.revoke_user(&username);
    Ok(Json(json!({"username": username, "revoked": revoked})).into_response())
}

#[cfg(test)]
mod tests {
    use super::profile;

    #[test]
    fn the_default_users_profile() {
        let p = profile("admin@acme.test");
        assert_eq!(p["firstName"], "Admin");
        assert_eq!(p["lastName"], "Acme");
        assert_eq!(p["email"], "admin@acme.test");
        assert!(p["profilePhoto"].is_null());
        assert_eq!(p["profileData"]["language"], "en");
    }
}
