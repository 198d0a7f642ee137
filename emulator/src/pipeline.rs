//! The request pipeline wrapped around every route: CORS, request log, counters,
//! faults, authentication, rate limiting and the JSON error safety net.

use crate::credentials::{bearer, Token};
use crate::errors::{error_response, ApiError};
use crate::faults::{self, FaultResponse};
use crate::ratelimit;
use crate::state::{AppState, RequestRecord};
use crate::tokens::Bearer;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use estatekit_vocab::operations::matches;

/// Kind of path, deciding which pipeline steps apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Area {
    Api,
    /// The sign-in routes under `/accounts/` (token, authorize, userinfo).
    Accounts,
    Sink,
    Admin,
    Other,
}

fn area(path: &str) -> Area {
    if path == "/api" || path.starts_with("/api/") {
        Area::Api
    } else if path == "/accounts" || path.starts_with("/accounts/") {
        Area::Accounts
    } else if path.starts_with("/_emulator/sink/") {
        Area::Sink
    } else if path == "/_emulator" || path.starts_with("/_emulator/") {
        Area::Admin
    } else {
        Area::Other
    }
}

/// Route template and allowed methods of a known API path: the operation table's routes under
/// `/api/` (routes.rs's `listed`) whose template `path` is, a template without parameters first
/// (`documents/metadata` is listDocuments', not a document's id).
pub fn api_route(path: &str) -> Option<(&'static str, Vec<Method>)> {
    let listed = crate::routes::listed();
    let template = listed
        .iter()
        .filter(|r| r.template.starts_with("/api/") && matches(r.template, path))
        .map(|r| r.template)
        .min_by_key(|t| t.matches('{').count())?;
    let methods = listed
        .iter()
        .filter(|r| r.template == template)
        .filter_map(|r| Method::from_bytes(r.method.as_bytes()).ok())
        .collect();
    Some((template, methods))
}

fn header_str(h: &HeaderMap, name: header::HeaderName) -> Option<String> {
    h.get(name)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// Adds the CORS headers to any response.
pub fn add_cors(h: &mut HeaderMap, origin: Option<&HeaderValue>) {
    match origin {
        Some(o) => {
            h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, o.clone());
            h.append(header::VARY, HeaderValue::from_static("Origin"));
        }
        None => {
            h.insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            );
        }
    }
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(
            "Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, Content-Length, Content-Type",
        ),
    );
}

fn preflight(req_headers: &HeaderMap) -> Response {
    let mut r = StatusCode::NO_CONTENT.into_response();
    let h = r.headers_mut();
    add_cors(h, req_headers.get(header::ORIGIN));
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
    );
    let allow = req_headers
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.trim().is_empty())
        .and_then(|v| HeaderValue::from_str(&format!("Authorization, Content-Type, {v}")).ok())
        .unwrap_or(HeaderValue::from_static("Authorization, Content-Type"));
    h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, allow);
    h.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    r
}

/// Turns any non-JSON error response (e.g. an axum rejection) into the JSON error shape.
async fn json_safety_net(resp: Response) -> Response {
    let status = resp.status();
    if status.as_u16() < 400 || resp.extensions().get::<FaultResponse>().is_some() {
        return resp;
    }
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    if is_json {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let msg = if text.trim().is_empty() {
        status
            .canonical_reason()
            .unwrap_or("request failed")
            .to_string()
    } else {
        text.trim().to_string()
    };
    let mut r = error_response(status, &msg);
    for (k, v) in parts.headers.iter() {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            r.headers_mut().insert(k.clone(), v.clone());
        }
    }
    r
}

/// Reads `body` to its end, dropping what it reads, unless more than `bound` bytes come first.
async fn drain(body: axum::body::Body, bound: usize) {
    use futures_util::StreamExt;
    let mut stream = body.into_data_stream();
    let mut read = 0usize;
    while let Some(Ok(bytes)) = stream.next().await {
        read = read.saturating_add(bytes.len());
        if read > bound {
            return;
        }
    }
}

/// Authentication and rate limiting of a known API route.
async fn guard_api(
    state: &AppState,
    token: Option<String>,
    mut req: Request,
    next: Next,
) -> Response {
    let Some(bearer) = token else {
        let mut r = ApiError::unauthorized(
            "missing or malformed `Authorization` header (expected `Bearer <token>`)",
        )
        .into_response();
        if let Some(info) = ratelimit::unauthenticated(state) {
            info.apply(r.headers_mut());
        }
        return r;
    };
    // An issued access token reaches its user's account: the same data and rate window.
    let token = match state.resolve_bearer(&bearer) {
        Bearer::Fixed(account) | Bearer::Issued { account, .. } => account,
        unknown_or_expired => {
            let message = if matches!(unknown_or_expired, Bearer::Expired { .. }) {
                "the access token in `Authorization` expired; get a new one with the refresh token"
            } else {
                "unknown or expired access token in `Authorization`"
            };
            let mut r = ApiError::unauthorized(message).into_response();
            if let Some(info) = ratelimit::unauthenticated(state) {
                info.apply(r.headers_mut());
            }
            return r;
        }
    };
    let info = ratelimit::check(state, &token);
    if let Some(info) = info {
        if !info.allowed {
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "rate limit of {} requests per {} exceeded; retry in {} s",
                    info.limit,
                    ratelimit::window_text(state.config.rate_limit_window_ms),
                    info.reset_secs
                ),
            )
            .into_response();
            info.apply(r.headers_mut());
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(info.reset_secs));
            return r;
        }
    }
    req.extensions_mut().insert(Token(token));
    let mut r = next.run(req).await;
    if let Some(info) = info {
        info.apply(r.headers_mut());
    }
    r
}

/// The middleware wrapped around the whole router.
pub async fn pipeline(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let started = state.now_ms();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let headers = req.headers().clone();
    let origin = headers.get(header::ORIGIN).cloned();
    let area = area(&path);

    if matches!(area, Area::Api | Area::Accounts | Area::Sink) {
        state.log_request(RequestRecord {
            method: method.to_string(),
            path: path.clone(),
            query: if area == Area::Accounts {
                query.as_deref().map(redact_query)
            } else {
                query.clone()
            },
            host: header_str(&headers, header::HOST),
            origin: header_str(&headers, header::ORIGIN),
            has_authorization: headers.contains_key(header::AUTHORIZATION),
            content_type: header_str(&headers, header::CONTENT_TYPE),
            body_length: headers
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
        });
    }

    if method == Method::OPTIONS {
        let r = preflight(&headers);
        log_line(&state, &method, &path, r.status(), started);
        return r;
    }

    let token = bearer(&headers);
    let route = if area == Area::Api {
        api_route(&path)
    } else {
        None
    };
    if area == Area::Api {
        let key = match &route {
            Some((tpl, _)) => format!("{method} {tpl}"),
            None => format!("{method} {path}"),
        };
        // Counted under the account an issued token reaches (never under the token's text).
        let counted = match token.as_deref().map(|t| (t, state.resolve_bearer(t))) {
            Some((_, Bearer::Issued { account, .. } | Bearer::Expired { account })) => account,
            Some((t, _)) => t.to_string(),
            None => String::new(),
        };
        state.count(&counted, key);
    }

    let fault = if area == Area::Admin {
        None
    } else {
        state.take_fault(method.as_str(), &path, token.as_deref())
    };

    let mut resp = 'resp: {
        if let Some(f) = &fault {
            if let Some(ms) = f.delay_ms.filter(|ms| *ms > 0) {
                state.host.sleep(ms).await;
            }
            if f.drop == Some(true) {
                break 'resp faults::drop_response();
            }
            if f.replaces() {
                // Read the request's body first, as a service does before it answers: hyper
                // closes a connection whose request body was left unread, the kernel then resets
                // it, and the part of the answer not yet sent is lost. WebKit sends a body after
                // the headers, so it lost large fault answers to POSTs ("Load failed").
                let _ = axum::body::to_bytes(req.into_body(), state.config.max_body_bytes()).await;
                let mut r = f.replacement();
                f.edit_headers(r.headers_mut());
                break 'resp r;
            }
        }
        let too_big = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|n| n > state.config.max_body_bytes() as u64);
        let r = if too_big {
            // Answered at once (a client may wait for it before sending a body it announced),
            // and the body is read and dropped, as a server should, to its end or to twice the
            // limit: a client still sending it then reads the 413 rather than a connection reset
            // (Node's fetch loses an answer when the connection is reset under its write). Past
            // twice the limit the body is let go and the connection closes.
            let limit = state.config.max_body_bytes();
            let body = req.into_body();
            state.host.spawn(Box::pin(async move {
                drain(body, limit.saturating_mul(2)).await;
            }));
            ApiError::too_large(limit).into_response()
        } else {
            match &route {
                Some((_, methods))
                    if methods.contains(&method)
                        || (method == Method::HEAD && methods.contains(&Method::GET)) =>
                {
                    guard_api(&state, token, req, next).await
                }
                _ => next.run(req).await,
            }
        };
        let mut r = json_safety_net(r).await;
        if let Some(f) = &fault {
            if f.truncate == Some(true) {
                r = faults::truncate(r).await;
            }
            f.edit_headers(r.headers_mut());
        }
        r
    };
    add_cors(resp.headers_mut(), origin.as_ref());
    if area == Area::Api && !resp.headers().contains_key(REQUEST_ID) {
        // A fault may have set its own (e.g. one that echoes the token); it is kept.
        if let Ok(value) = HeaderValue::from_str(&state.next_request_id()) {
            resp.headers_mut().insert(REQUEST_ID, value);
        }
    }
    log_line(&state, &method, &path, resp.status(), started);
    resp
}

/// Query parameters of the sign-in routes whose values are secrets.
const SECRET_PARAMS: [&str; 7] = [
    "client_secret",
    "password",
    "refresh_token",
    "access_token",
    "code",
    "code_verifier",
    "token",
];

/// A query of a sign-in route for the request log: secret values replaced by `[redacted]`.
fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            let decoded: String = form_urlencoded::parse(name.as_bytes())
                .map(|(k, _)| k.into_owned())
                .next()
                .unwrap_or_default();
            if SECRET_PARAMS.contains(&decoded.to_ascii_lowercase().as_str()) {
                format!("{name}=[redacted]")
            } else {
                pair.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The header naming each API answer, as services commonly send one (`req-<n>`).
const REQUEST_ID: &str = "x-request-id";

fn log_line(state: &AppState, method: &Method, path: &str, status: StatusCode, started: u64) {
    if !state.config.quiet {
        let ms = state.now_ms().saturating_sub(started);
        state
            .host
            .log(&format!("{method} {path} -> {} ({ms} ms)", status.as_u16()));
    }
}

/// Fallback for unknown routes: static files outside `/api/` and `/_emulator/`, else 404.
pub async fn fallback(State(state): State<AppState>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    if area(&path) == Area::Other && (method == Method::GET || method == Method::HEAD) {
        if let Some(r) = state.host.static_file(path.clone()).await {
            return r;
        }
    }
    if let Some((_, methods)) = api_route(&path) {
        let allow = methods
            .iter()
            .map(Method::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        let mut r = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("method {method} is not allowed on {path} (allowed: {allow})"),
        )
        .into_response();
        if let Ok(v) = HeaderValue::from_str(&allow) {
            r.headers_mut().insert(header::ALLOW, v);
        }
        return r;
    }
    ApiError::not_found(format!("no route for {method} {path}")).into_response()
}

/// Handler for a wrong method on a known route.
pub async fn method_not_allowed(req: Request) -> Response {
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("method {method} is not allowed on {path}"),
    )
    .into_response()
}
