//! The service's sign-in routes: `POST /accounts/oauth/token` (password, refresh_token and
//! authorization_code grants), `GET /accounts/dialog/authorize` (approves at once, as the first
//! user), `GET /accounts/api/userinfo`, and the admin routes `GET /_emulator/oauth` and
//! `POST /_emulator/oauth/revoke`. Errors of the token and authorize routes are OAuth's
//! `{"error","error_description"}`; no answer or message ever holds a secret.

use crate::admin::object;
use crate::errors::{ApiError, ApiResult};
use crate::pipeline::bearer;
use crate::state::AppState;
use crate::tokens::{Bearer, Code, Grant, Refresh, CODE_TTL_MS};
use crate::util::{hash_str, lock, SplitMix64};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
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
}

impl OAuthError {
    fn new(status: StatusCode, error: &'static str, description: impl Into<String>) -> Self {
        OAuthError {
            status,
            error,
            description: description.into(),
        }
    }
    fn invalid_request(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", description)
    }
    fn invalid_grant(description: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "invalid_grant", description)
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.error, "error_description": self.description});
        no_store((self.status, Json(body)).into_response())
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

/// Issues an access token (and a refresh token if `with_refresh`) and builds the answer.
fn issue(
    state: &AppState,
    username: &str,
    client_id: &str,
    scope: &str,
    with_refresh: bool,
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
    store.add_access(access.clone(), username, expires_at, now);
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

/// The body as a JSON object; the token endpoint takes JSON only (not a form).
fn token_body(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, OAuthError> {
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let media = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if media != "application/json" && !media.ends_with("+json") {
        return Err(OAuthError::invalid_request(if ct.is_empty() {
            "missing `Content-Type`: the token endpoint takes a JSON body (application/json)"
                .to_string()
        } else {
            "`Content-Type` must be application/json: the token endpoint takes a JSON body, not a form"
                .to_string()
        }));
    }
    let bytes = body.map_err(|e| {
        OAuthError::new(
            e.status(),
            "invalid_request",
            "could not read the request body",
        )
    })?;
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
    let answer = grant_answer(&state, &m, grant);
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
    m: &Map<String, Value>,
    grant: Option<Grant>,
) -> Result<Value, OAuthError> {
    let client_id = required(m, "client_id")?;
    let client_secret = required(m, "client_secret")?;
    if !lock(&state.oauth).client_ok(client_id, client_secret) {
        return Err(OAuthError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "unknown client, or wrong client secret",
        ));
    }
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
            issue(state, &user, client_id, &scope, true)
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
            issue(state, &r.username, client_id, &r.scope, rotate)
        }
        Grant::AuthorizationCode => {
            let code = required(m, "code")?;
            let redirect_uri = required(m, "redirect_uri")?;
            let now = state.now_ms();
            let taken = lock(&state.oauth).take_code(code);
            let c = taken
                .filter(|c| {
                    c.client_id == client_id && c.redirect_uri == redirect_uri && now < c.expires_at
                })
                .ok_or_else(|| {
                    OAuthError::invalid_grant(
                        "the authorization code is unknown, used, expired, or was issued to another client or redirect_uri",
                    )
                })?;
            issue(state, &c.username, client_id, &c.scope, true)
        }
    }
}

/// `GET /accounts/dialog/authorize?client_id&redirect_uri&state&response_type=code[&scope]`:
/// approves at once as the first user, answering 302 to `redirect_uri` with `code` and `state`.
pub async fn authorize(State(state): State<AppState>, RawQuery(q): RawQuery) -> Response {
    match authorize_answer(&state, q.as_deref().unwrap_or("")) {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

fn authorize_answer(state: &AppState, query: &str) -> Result<Response, OAuthError> {
    let params: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let get = |k: &str| {
        params
            .iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.as_str())
    };
    let client_id = get("client_id")
        .filter(|s| !s.is_empty())
        .ok_or_else(|| OAuthError::invalid_request("missing query parameter `client_id`"))?;
    let redirect_uri = get("redirect_uri")
        .filter(|s| !s.is_empty())
        .ok_or_else(|| OAuthError::invalid_request("missing query parameter `redirect_uri`"))?;
    let response_type = get("response_type").unwrap_or("");
    if !lock(&state.oauth).has_client(client_id) {
        return Err(OAuthError::new(
            StatusCode::BAD_REQUEST,
            "invalid_client",
            "unknown `client_id`",
        ));
    }
    if response_type != "code" {
        return Err(OAuthError::new(
            StatusCode::BAD_REQUEST,
            "unsupported_response_type",
            "`response_type` must be `code`",
        ));
    }
    let mut location = url::Url::parse(redirect_uri)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.fragment().is_none())
        .ok_or_else(|| {
            OAuthError::invalid_request(
                "`redirect_uri` must be an absolute http or https URL without a fragment",
            )
        })?;
    let username = lock(&state.oauth)
        .default_user()
        .map(|u| u.username.clone())
        .ok_or_else(|| {
            OAuthError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server_error",
                "no user to sign in",
            )
        })?;
    let code = random_b64(state, 24)?;
    let now = state.now_ms();
    lock(&state.oauth).add_code(
        code.clone(),
        Code {
            client_id: client_id.to_string(),
            redirect_uri: redirect_uri.to_string(),
            username,
            scope: get("scope").unwrap_or(DEFAULT_SCOPE).to_string(),
            expires_at: now.saturating_add(CODE_TTL_MS),
        },
        now,
    );
    {
        let mut pairs = location.query_pairs_mut();
        pairs.append_pair("code", &code);
        if let Some(s) = get("state") {
            pairs.append_pair("state", s);
        }
    }
    let mut r = StatusCode::FOUND.into_response();
    let value = HeaderValue::from_str(location.as_str())
        .map_err(|_| OAuthError::invalid_request("`redirect_uri` is not a valid header value"))?;
    r.headers_mut().insert(header::LOCATION, value);
    Ok(no_store(r))
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
